/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 Octopus authors
 */

/*
 * A main() for a fuzz target in builds without libFuzzer: runs the target
 * once on every file named, or on every file of every directory named (the
 * committed seed corpus and the inputs of past findings), as libFuzzer does
 * when given files.  Exits non-zero when an argument cannot be read or
 * nothing was replayed; a finding aborts (or trips a sanitizer) as it
 * does under the fuzzer.
 */

#include <dirent.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv) __attribute__((weak));

static int
run_file(const char *path)
{
	uint8_t *buf;
	long len;
	FILE *f;

	f = fopen(path, "rb");
	if (f == NULL || fseek(f, 0, SEEK_END) != 0 || (len = ftell(f)) < 0 ||
			fseek(f, 0, SEEK_SET) != 0) {
		fprintf(stderr, "replay: cannot read %s\n", path);
		if (f != NULL)
			fclose(f);
		return -1;
	}
	/* one byte more so that an empty file is a valid buffer too */
	buf = malloc((size_t)len + 1);
	if (buf == NULL || fread(buf, 1, (size_t)len, f) != (size_t)len) {
		fprintf(stderr, "replay: cannot read %s\n", path);
		free(buf);
		fclose(f);
		return -1;
	}
	fclose(f);
	LLVMFuzzerTestOneInput(buf, (size_t)len);
	free(buf);
	return 0;
}

static int
cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The regular files of @p dir, in name order; returns how many ran, -1 on error. */
static int
run_dir(const char *dir)
{
	char *names[4096], path[PATH_MAX];
	struct dirent *e;
	struct stat st;
	int n = 0, i, rc = 0;
	DIR *d;

	d = opendir(dir);
	if (d == NULL)
		return -1;
	while ((e = readdir(d)) != NULL && n < (int)(sizeof(names) / sizeof(names[0]))) {
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		if (e->d_name[0] == '.' || stat(path, &st) != 0 || !S_ISREG(st.st_mode))
			continue;
		names[n] = strdup(e->d_name);
		if (names[n] != NULL)
			n++;
	}
	closedir(d);
	qsort(names, n, sizeof(names[0]), cmp_names);
	for (i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		if (run_file(path) != 0)
			rc = -1;
		free(names[i]);
	}
	return rc < 0 ? -1 : n;
}

int
main(int argc, char **argv)
{
	struct stat st;
	int i, n, total = 0;

	if (LLVMFuzzerInitialize != NULL)
		LLVMFuzzerInitialize(&argc, &argv);
	for (i = 1; i < argc; i++) {
		if (stat(argv[i], &st) != 0) {
			fprintf(stderr, "replay: no %s\n", argv[i]);
			return 1;
		}
		n = S_ISDIR(st.st_mode) ? run_dir(argv[i]) : run_file(argv[i]) == 0 ? 1 : -1;
		if (n < 0)
			return 1;
		total += n;
	}
	printf("replayed %d input(s)\n", total);
	/* a replay of nothing would pass whatever the target does */
	return total > 0 ? 0 : 1;
}
