/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 Octopus authors
 */

/*
 * CPU affinity on emulated CPUs (part of octopus-numa-emu-shim.so).
 *
 * With more emulated nodes than real CPUs, tools/octopus-numa-emu shows
 * the command one CPU of its own per node (sysfs cpuK, K up to 7), and
 * emulated CPU K runs on a real CPU (OCTOPUS_NUMA_EMU_CPUS: "real:node" of
 * emulated CPU 0, 1, ...).  The kernel refuses a cpuset naming only CPUs it
 * does not have, so the calls that take one hand it the real CPUs, and the
 * calls that read one answer with the emulated set last given for that
 * thread: EAL pins lcore L to emulated CPU K, reads its cpuset back, and
 * finds the socket of K in sysfs, as on the real machine.  sched_getcpu()
 * and getcpu() answer the emulated CPU a thread was pinned to alone.
 * A thread nobody pinned reads every emulated CPU whose real one it may
 * run on.  Without OCTOPUS_NUMA_EMU_CPUS every call goes to the kernel.
 */

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#define EMU_MAX_CPUS 64
/* threads whose emulated cpuset another thread may ask for */
#define EMU_MAX_THREADS 256

static int real_cpu[EMU_MAX_CPUS];	/* real CPU of emulated CPU k */
static int node_of[EMU_MAX_CPUS];	/* emulated node of emulated CPU k */
static unsigned int nb_cpus;		/* 0: not emulating CPUs */

struct thread_set {
	pthread_t thread;
	int used;
	cpu_set_t set;
};
static struct thread_set threads[EMU_MAX_THREADS];
static pthread_mutex_t threads_lock = PTHREAD_MUTEX_INITIALIZER;

static __thread int my_valid;
static __thread cpu_set_t my_set;

typedef int (*pthread_aff_fn)(pthread_t, size_t, const cpu_set_t *);
typedef int (*pthread_getaff_fn)(pthread_t, size_t, cpu_set_t *);
typedef int (*attr_aff_fn)(pthread_attr_t *, size_t, const cpu_set_t *);

__attribute__((constructor)) static void
emu_cpu_init(void)
{
	const char *s = getenv("OCTOPUS_NUMA_EMU_CPUS");
	char *end;
	long r, n;

	while (s != NULL && *s != '\0' && nb_cpus < EMU_MAX_CPUS) {
		errno = 0;
		r = strtol(s, &end, 10);
		if (end == s || *end != ':' || errno != 0 || r < 0 || r >= CPU_SETSIZE)
			goto bad;
		s = end + 1;
		n = strtol(s, &end, 10);
		if (end == s || errno != 0 || n < 0 || (*end != ',' && *end != '\0'))
			goto bad;
		real_cpu[nb_cpus] = (int)r;
		node_of[nb_cpus++] = (int)n;
		s = *end == ',' ? end + 1 : end;
	}
	return;
bad:
	nb_cpus = 0;	/* malformed: leave everything to the kernel */
}

/* The real cpuset for an emulated one; bits beyond the emulated CPUs kept. */
static void
to_real(size_t size, const cpu_set_t *emu, cpu_set_t *real)
{
	unsigned int k, bits = size * 8 < CPU_SETSIZE ? size * 8 : CPU_SETSIZE;

	CPU_ZERO(real);
	for (k = 0; k < bits; k++) {
		if (!CPU_ISSET_S(k, size, emu))
			continue;
		if (k < nb_cpus)
			CPU_SET(real_cpu[k], real);
		else
			CPU_SET(k, real);
	}
}

/* Every emulated CPU whose real CPU is in @p real. */
static void
to_emu(const cpu_set_t *real, size_t size, cpu_set_t *emu)
{
	unsigned int k;

	CPU_ZERO_S(size, emu);
	for (k = 0; k < nb_cpus && k < size * 8; k++)
		if (CPU_ISSET(real_cpu[k], real))
			CPU_SET_S(k, size, emu);
}

static void
copy_set(cpu_set_t *dst, size_t size, const cpu_set_t *src)
{
	memset(dst, 0, size);
	memcpy(dst, src, size < sizeof(*src) ? size : sizeof(*src));
}

static void
remember(pthread_t t, size_t size, const cpu_set_t *emu)
{
	int i, free_slot = -1;

	pthread_mutex_lock(&threads_lock);
	for (i = 0; i < EMU_MAX_THREADS; i++) {
		if (threads[i].used && pthread_equal(threads[i].thread, t))
			break;
		if (!threads[i].used && free_slot < 0)
			free_slot = i;
	}
	if (i == EMU_MAX_THREADS)
		i = free_slot;
	if (i >= 0) {
		threads[i].used = 1;
		threads[i].thread = t;
		CPU_ZERO(&threads[i].set);
		memcpy(&threads[i].set, emu, size < sizeof(cpu_set_t) ? size :
			sizeof(cpu_set_t));
	}
	pthread_mutex_unlock(&threads_lock);
	if (pthread_equal(t, pthread_self())) {
		CPU_ZERO(&my_set);
		memcpy(&my_set, emu, size < sizeof(my_set) ? size : sizeof(my_set));
		my_valid = 1;
	}
}

static int
recalled(pthread_t t, cpu_set_t *emu)
{
	int i, found = 0;

	if (pthread_equal(t, pthread_self()) && my_valid) {
		*emu = my_set;
		return 1;
	}
	pthread_mutex_lock(&threads_lock);
	for (i = 0; i < EMU_MAX_THREADS; i++)
		if (threads[i].used && pthread_equal(threads[i].thread, t)) {
			*emu = threads[i].set;
			found = 1;
			break;
		}
	pthread_mutex_unlock(&threads_lock);
	return found;
}

int
pthread_setaffinity_np(pthread_t t, size_t size, const cpu_set_t *set)
{
	static pthread_aff_fn next;
	cpu_set_t real;
	int ret;

	if (next == NULL)
		next = (pthread_aff_fn)dlsym(RTLD_NEXT, "pthread_setaffinity_np");
	if (nb_cpus == 0)
		return next(t, size, set);
	to_real(size, set, &real);
	ret = next(t, sizeof(real), &real);
	if (ret == 0)
		remember(t, size, set);
	return ret;
}

int
pthread_getaffinity_np(pthread_t t, size_t size, cpu_set_t *set)
{
	static pthread_getaff_fn next;
	cpu_set_t real, emu;
	int ret;

	if (next == NULL)
		next = (pthread_getaff_fn)dlsym(RTLD_NEXT, "pthread_getaffinity_np");
	if (nb_cpus == 0)
		return next(t, size, set);
	if (recalled(t, &emu)) {
		copy_set(set, size, &emu);
		return 0;
	}
	ret = next(t, sizeof(real), &real);
	if (ret == 0)
		to_emu(&real, size, set);
	return ret;
}

int
pthread_attr_setaffinity_np(pthread_attr_t *attr, size_t size, const cpu_set_t *set)
{
	static attr_aff_fn next;
	cpu_set_t real;

	if (next == NULL)
		next = (attr_aff_fn)dlsym(RTLD_NEXT, "pthread_attr_setaffinity_np");
	if (nb_cpus == 0)
		return next(attr, size, set);
	to_real(size, set, &real);
	return next(attr, sizeof(real), &real);
}

static int
is_self(pid_t pid)
{
	return pid == 0 || pid == (pid_t)syscall(SYS_gettid);
}

int
sched_setaffinity(pid_t pid, size_t size, const cpu_set_t *set)
{
	cpu_set_t real;
	long ret;

	if (nb_cpus == 0)
		return (int)syscall(SYS_sched_setaffinity, pid, size, set);
	to_real(size, set, &real);
	ret = syscall(SYS_sched_setaffinity, pid, sizeof(real), &real);
	if (ret == 0 && is_self(pid))
		remember(pthread_self(), size, set);
	return (int)ret;
}

int
sched_getaffinity(pid_t pid, size_t size, cpu_set_t *set)
{
	cpu_set_t real, emu;
	long ret;

	if (nb_cpus == 0) {
		ret = syscall(SYS_sched_getaffinity, pid, size, set);
		/* the system call returns the size it wrote, glibc 0 */
		return ret < 0 ? -1 : 0;
	}
	if (is_self(pid) && recalled(pthread_self(), &emu)) {
		copy_set(set, size, &emu);
		return 0;
	}
	CPU_ZERO(&real);
	ret = syscall(SYS_sched_getaffinity, pid, sizeof(real), &real);
	if (ret < 0)
		return -1;
	to_emu(&real, size, set);
	return 0;
}

/* The emulated CPU the caller runs on: the one it is pinned to alone. */
static int
current_cpu(void)
{
	unsigned int real = 0, k;
	int first = -1;

	if (syscall(SYS_getcpu, &real, NULL, NULL) < 0)
		return -1;
	if (nb_cpus == 0)
		return (int)real;
	for (k = 0; k < nb_cpus; k++) {
		if (real_cpu[k] != (int)real)
			continue;
		if (my_valid && CPU_ISSET(k, &my_set))
			return (int)k;
		if (first < 0)
			first = (int)k;
	}
	return first >= 0 ? first : (int)real;
}

int
sched_getcpu(void)
{
	return current_cpu();
}

int
getcpu(unsigned int *cpu, unsigned int *node)
{
	int c;

	if (nb_cpus == 0)
		return (int)syscall(SYS_getcpu, cpu, node, NULL);
	c = current_cpu();
	if (c < 0)
		return -1;
	if (cpu != NULL)
		*cpu = (unsigned int)c;
	if (node != NULL)
		*node = (unsigned int)c < nb_cpus ? (unsigned int)node_of[c] : 0;
	return 0;
}
