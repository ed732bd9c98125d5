/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 Octopus authors
 */

#ifndef OCTOPUS_DPDK_COMPAT_H
#define OCTOPUS_DPDK_COMPAT_H

/**
 * @file
 * The API differences between the DPDK releases Octopus builds on: Debian's
 * 22.11 and 25.11 LTS.  The project's code is written to the 25.11 API;
 * what an older DPDK lacks is supplied here under the 25.11 name, or, where
 * an ethdev callback changed its signature, through an adapter macro that
 * is the callback itself on 25.11.  This is the only place that tests
 * RTE_VERSION: drop a block when the oldest DPDK supported has the API.
 *
 * Driver code using the ethdev adapters includes ethdev_driver.h first.
 */

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>
#include <rte_log.h>
#include <rte_version.h>

/** 1 when building against DPDK @p y.@p m or newer (e.g. 25, 11). */
#define OCTO_DPDK_AT_LEAST(y, m) (RTE_VERSION >= RTE_VERSION_NUM(y, m, 0, 0))

/*
 * Atomics (23.11: rte_stdatomic.h).  Before it, the same operations are the
 * compiler's builtins, which is also what rte_stdatomic.h maps them to
 * unless DPDK was built with enable_stdatomic.
 */
#if OCTO_DPDK_AT_LEAST(23, 11)
#include <rte_stdatomic.h>
#else
#define RTE_ATOMIC(type) type
#define __rte_atomic
typedef int rte_memory_order;
#define rte_memory_order_relaxed __ATOMIC_RELAXED
#define rte_memory_order_consume __ATOMIC_CONSUME
#define rte_memory_order_acquire __ATOMIC_ACQUIRE
#define rte_memory_order_release __ATOMIC_RELEASE
#define rte_memory_order_acq_rel __ATOMIC_ACQ_REL
#define rte_memory_order_seq_cst __ATOMIC_SEQ_CST
#define rte_atomic_load_explicit(ptr, mo) __atomic_load_n(ptr, mo)
#define rte_atomic_store_explicit(ptr, val, mo) __atomic_store_n(ptr, val, mo)
#define rte_atomic_exchange_explicit(ptr, val, mo) __atomic_exchange_n(ptr, val, mo)
#define rte_atomic_compare_exchange_strong_explicit(ptr, exp, des, mo_ok, mo_fail) \
	__atomic_compare_exchange_n(ptr, exp, des, 0, mo_ok, mo_fail)
#define rte_atomic_compare_exchange_weak_explicit(ptr, exp, des, mo_ok, mo_fail) \
	__atomic_compare_exchange_n(ptr, exp, des, 1, mo_ok, mo_fail)
#define rte_atomic_fetch_add_explicit(ptr, val, mo) __atomic_fetch_add(ptr, val, mo)
#define rte_atomic_fetch_sub_explicit(ptr, val, mo) __atomic_fetch_sub(ptr, val, mo)
#define rte_atomic_fetch_and_explicit(ptr, val, mo) __atomic_fetch_and(ptr, val, mo)
#define rte_atomic_fetch_or_explicit(ptr, val, mo) __atomic_fetch_or(ptr, val, mo)
#define rte_atomic_fetch_xor_explicit(ptr, val, mo) __atomic_fetch_xor(ptr, val, mo)
#endif

/*
 * Packed structures (25.03): __rte_packed is deprecated for a pair around
 * the declaration, struct __rte_packed_begin name { ... } __rte_packed_end;
 */
#ifndef __rte_packed_begin
#define __rte_packed_begin
#define __rte_packed_end __attribute__((__packed__))
#endif

/*
 * IPv6 addresses (24.11): rte_ipv6_hdr and rte_flow_item_ipv6 hold them as
 * struct rte_ipv6_addr { uint8_t a[16]; }, 22.11 as uint8_t[16].
 * OCTO_IPV6_BYTES(field) is the uint8_t[16] on both.
 */
#if OCTO_DPDK_AT_LEAST(24, 11)
#define OCTO_IPV6_BYTES(field) ((field).a)
#else
#define OCTO_IPV6_BYTES(field) (field)
#endif

/*
 * Log lines (24.03): RTE_LOG_LINE/RTE_LOG_DP_LINE add the newline, and
 * 25.11's checkpatches wants them in drivers instead of RTE_LOG/rte_log.
 */
#ifndef RTE_LOG_LINE
#define RTE_LOG_LINE(l, t, fmt, ...) RTE_LOG(l, t, fmt "\n", ##__VA_ARGS__)
#define RTE_LOG_DP_LINE(l, t, fmt, ...) RTE_LOG_DP(l, t, fmt "\n", ##__VA_ARGS__)
#endif

/*
 * ICMP type names (23.11): RTE_ICMP_TYPE_ECHO_REQUEST/_REPLY replace the
 * RTE_IP_ICMP_ names 25.11 deprecates, and ICMPv6's echo types arrive.
 */
#include <rte_icmp.h>
#ifndef RTE_ICMP_TYPE_ECHO_REQUEST
#define RTE_ICMP_TYPE_ECHO_REQUEST RTE_IP_ICMP_ECHO_REQUEST
#define RTE_ICMP_TYPE_ECHO_REPLY RTE_IP_ICMP_ECHO_REPLY
#endif
#ifndef RTE_ICMP6_ECHO_REQUEST
#define RTE_ICMP6_ECHO_REQUEST 128
#define RTE_ICMP6_ECHO_REPLY 129
#endif

/* Bit scans (23.07): rte_ctz64 and rte_ctz32, where 22.11 has rte_bsf*. */
#if !OCTO_DPDK_AT_LEAST(23, 7)
static inline unsigned int
rte_ctz64(uint64_t v)
{
	return rte_bsf64(v);
}

static inline unsigned int
rte_ctz32(uint32_t v)
{
	return rte_bsf32(v);
}
#endif

/* Telemetry (22.11 has only the _u64 adders, 25.11 only the _uint ones). */
#if !OCTO_DPDK_AT_LEAST(23, 3)
#define rte_tel_data_add_dict_uint rte_tel_data_add_dict_u64
#define rte_tel_data_add_array_uint rte_tel_data_add_array_u64
#define RTE_TEL_UINT_VAL RTE_TEL_U64_VAL
#endif

/* rte_flow (24.03): MODIFY_FIELD's operand renamed. */
#if !OCTO_DPDK_AT_LEAST(24, 3)
#define rte_flow_field_data rte_flow_action_modify_data
#endif

/*
 * Control threads (23.11): rte_ctrl_thread_create (pthread, void *
 * result) is gone for rte_thread_create_control (rte_thread_t, uint32_t
 * result), joined with rte_thread_join.  22.11 has rte_thread_t and
 * rte_thread_join already; its rte_thread_t holds the pthread_t.  A
 * driver's own threads (rte_thread_create_internal_control) are named
 * with the "dpdk-" prefix.
 */
#include <rte_thread.h>
#if !OCTO_DPDK_AT_LEAST(23, 11)
#include <pthread.h>
#include <rte_lcore.h>
#include <rte_string_fns.h>

struct octo_compat_thread_start {
	rte_thread_func func;
	void *arg;
};

static inline void *
octo_compat_thread_main(void *p)
{
	struct octo_compat_thread_start s = *(struct octo_compat_thread_start *)p;

	free(p);
	return (void *)(uintptr_t)s.func(s.arg);
}

static inline int
rte_thread_create_control(rte_thread_t *thread, const char *name,
		rte_thread_func thread_func, void *arg)
{
	struct octo_compat_thread_start *s = malloc(sizeof(*s));
	pthread_t tid;
	int ret;

	if (s == NULL)
		return -ENOMEM;
	s->func = thread_func;
	s->arg = arg;
	ret = rte_ctrl_thread_create(&tid, name, NULL, octo_compat_thread_main, s);
	if (ret != 0) {
		free(s);
		return ret;
	}
	thread->opaque_id = (uintptr_t)tid;
	return 0;
}

/* A driver's control thread: "dpdk-" before its name, as 23.11 does. */
static inline int
rte_thread_create_internal_control(rte_thread_t *thread, const char *name,
		rte_thread_func thread_func, void *arg)
{
	char prefixed[RTE_MAX_THREAD_NAME_LEN] = "dpdk-";

	/* cut to the thread name limit, as 23.11 does */
	rte_strlcat(prefixed, name, sizeof(prefixed));
	return rte_thread_create_control(thread, prefixed, thread_func, arg);
}
#endif

/*
 * ethdev callbacks whose signatures changed.  A driver writes the 25.11
 * form and names it in its eth_dev_ops / rte_eth_dev through
 * OCTO_DPDK_<CALLBACK>(fn), after OCTO_DPDK_<CALLBACK>_ADAPTER(fn) at file
 * scope; on 25.11 the adapter is nothing and the name is fn itself.
 *
 * stats_get (25.11): per-queue counters are no longer in rte_eth_stats;
 * the driver fills struct eth_queue_stats (qstats, which may be NULL: ethdev
 * then wants none).  On 22.11 the adapter copies them into rte_eth_stats.
 */
#if OCTO_DPDK_AT_LEAST(25, 11)
#define OCTO_DPDK_STATS_GET_ADAPTER(fn)
#define OCTO_DPDK_STATS_GET(fn) fn
#else
struct eth_queue_stats {
	uint64_t q_ipackets[RTE_ETHDEV_QUEUE_STAT_CNTRS];
	uint64_t q_opackets[RTE_ETHDEV_QUEUE_STAT_CNTRS];
	uint64_t q_ibytes[RTE_ETHDEV_QUEUE_STAT_CNTRS];
	uint64_t q_obytes[RTE_ETHDEV_QUEUE_STAT_CNTRS];
	uint64_t q_errors[RTE_ETHDEV_QUEUE_STAT_CNTRS];
};
#define OCTO_DPDK_STATS_GET_ADAPTER(fn) \
static int \
fn##_octo_compat(struct rte_eth_dev *dev, struct rte_eth_stats *st) \
{ \
	struct eth_queue_stats qs; \
	int ret; \
\
	memset(&qs, 0, sizeof(qs)); \
	ret = fn(dev, st, &qs); \
	memcpy(st->q_ipackets, qs.q_ipackets, sizeof(st->q_ipackets)); \
	memcpy(st->q_opackets, qs.q_opackets, sizeof(st->q_opackets)); \
	memcpy(st->q_ibytes, qs.q_ibytes, sizeof(st->q_ibytes)); \
	memcpy(st->q_obytes, qs.q_obytes, sizeof(st->q_obytes)); \
	memcpy(st->q_errors, qs.q_errors, sizeof(st->q_errors)); \
	return ret; \
}
#define OCTO_DPDK_STATS_GET(fn) fn##_octo_compat
#endif

/*
 * dev_supported_ptypes_get (24.03): reports the count of types; before,
 * the list ended with RTE_PTYPE_UNKNOWN (keep it there: both work).
 */
#if OCTO_DPDK_AT_LEAST(24, 3)
#define OCTO_DPDK_PTYPES_GET_ADAPTER(fn)
#define OCTO_DPDK_PTYPES_GET(fn) fn
#else
#define OCTO_DPDK_PTYPES_GET_ADAPTER(fn) \
static const uint32_t * \
fn##_octo_compat(struct rte_eth_dev *dev) \
{ \
	size_t n; \
\
	return fn(dev, &n); \
}
#define OCTO_DPDK_PTYPES_GET(fn) fn##_octo_compat
#endif

/* rx_queue_count (25.11): returns int (a negative errno), was uint32_t. */
#if OCTO_DPDK_AT_LEAST(25, 11)
#define OCTO_DPDK_RX_QUEUE_COUNT_ADAPTER(fn)
#define OCTO_DPDK_RX_QUEUE_COUNT(fn) fn
#else
#define OCTO_DPDK_RX_QUEUE_COUNT_ADAPTER(fn) \
static uint32_t \
fn##_octo_compat(void *rxq) \
{ \
	int n = fn(rxq); \
\
	return n < 0 ? 0 : (uint32_t)n; \
}
#define OCTO_DPDK_RX_QUEUE_COUNT(fn) fn##_octo_compat
#endif

/*
 * net/bonding's devargs key for a member port (23.11: "member", was
 * "slave"), for the programs that create bonding ports.
 */
#if OCTO_DPDK_AT_LEAST(23, 11)
#define OCTO_DPDK_BOND_MEMBER_KEY "member"
#else
#define OCTO_DPDK_BOND_MEMBER_KEY "slave"
#endif

/*
 * The release of DPDK's mlx5 PMD the NIC model's mlx5 dialects follow by
 * default (doc/guides/nics/octonic.rst, "Dialects"), year * 100 + month:
 * that of the DPDK built against; 22.11 for the releases between.
 */
#define OCTO_DPDK_MLX5_MODEL (OCTO_DPDK_AT_LEAST(25, 11) ? 2511 : 2211)

/*
 * A template table's specialisation hints (23.03: struct
 * rte_flow_template_table_attr's specialize, e.g.
 * RTE_FLOW_TABLE_SPECIALIZE_TRANSFER_WIRE_ORIG); 22.11 has none.
 */
#define OCTO_DPDK_HAS_TABLE_SPECIALIZE OCTO_DPDK_AT_LEAST(23, 3)

/*
 * rte_flow's asynchronous (template) operations.  Up to 23.11 a driver
 * gives them in struct rte_flow_ops (async_actions_update from 23.03);
 * from 24.03 the fast-path ones (async_create, async_destroy,
 * async_actions_update, push, pull) live in a struct rte_flow_fp_ops that
 * the driver installs in dev->flow_fp_ops (rte_flow.c dispatches through
 * it; until a driver installs its own, the defaults refuse with ENOSYS).
 * The slow-path ones (info_get, configure, templates, tables) stay in
 * rte_flow_ops in every release.  Driver code written once:
 *
 *   OCTO_DPDK_FLOW_FP_OPS_DEFINE(my_fp_ops, create, destroy, update, push, pull)
 *   const struct rte_flow_ops my_ops = {
 *           ...,
 *           OCTO_DPDK_FLOW_FP_OPS_IN_OPS(create, destroy, update, push, pull)
 *   };
 *   ... in configure: OCTO_DPDK_FLOW_FP_OPS_INSTALL(dev, my_fp_ops);
 *   ... in close:     OCTO_DPDK_FLOW_FP_OPS_UNINSTALL(dev);
 *
 * The functions have the signatures of 24.03's rte_flow_async_create_t,
 * rte_flow_async_destroy_t, rte_flow_async_actions_update_t,
 * rte_flow_push_t and rte_flow_pull_t (the same as the rte_flow_ops
 * members of the releases before).  22.11 has no actions update at all:
 * there the update function is not referenced, so mark it __rte_unused.
 * Include rte_flow_driver.h (and ethdev_driver.h) before using them.
 */
/** 1 when rte_flow_async_actions_update() exists (23.03), for callers. */
#define OCTO_DPDK_HAS_FLOW_ACTIONS_UPDATE OCTO_DPDK_AT_LEAST(23, 3)

/*
 * The aggregated-port API (23.03): rte_eth_dev_count_aggr_ports(),
 * rte_eth_dev_map_aggr_tx_affinity() and their ethdev ops, which
 * OCTO_DPDK_AGGR_OPS() puts in a driver's ops table (nothing before 23.03).
 */
#define OCTO_DPDK_HAS_AGGR_PORTS OCTO_DPDK_AT_LEAST(23, 3)
#if OCTO_DPDK_HAS_AGGR_PORTS
#define OCTO_DPDK_AGGR_OPS(count_, map_) \
	.count_aggr_ports = (count_), \
	.map_aggr_tx_affinity = (map_),
#else
#define OCTO_DPDK_AGGR_OPS(count_, map_)
#endif
#if OCTO_DPDK_AT_LEAST(24, 3)
#define OCTO_DPDK_FLOW_FP_OPS_DEFINE(name, create_, destroy_, update_, push_, pull_) \
static const struct rte_flow_fp_ops name = { \
	.async_create = (create_), \
	.async_destroy = (destroy_), \
	.async_actions_update = (update_), \
	.push = (push_), \
	.pull = (pull_), \
};
#define OCTO_DPDK_FLOW_FP_OPS_IN_OPS(create_, destroy_, update_, push_, pull_)
#define OCTO_DPDK_FLOW_FP_OPS_INSTALL(dev, name) \
	((dev)->flow_fp_ops = &(name))
#define OCTO_DPDK_FLOW_FP_OPS_UNINSTALL(dev) \
	((dev)->flow_fp_ops = &rte_flow_fp_default_ops)
#else
#define OCTO_DPDK_FLOW_FP_OPS_DEFINE(name, create_, destroy_, update_, push_, pull_)
#if OCTO_DPDK_AT_LEAST(23, 3)
#define OCTO_DPDK_FLOW_FP_OPS_IN_OPS(create_, destroy_, update_, push_, pull_) \
	.async_create = (create_), \
	.async_destroy = (destroy_), \
	.async_actions_update = (update_), \
	.push = (push_), \
	.pull = (pull_),
#else
#define OCTO_DPDK_FLOW_FP_OPS_IN_OPS(create_, destroy_, update_, push_, pull_) \
	.async_create = (create_), \
	.async_destroy = (destroy_), \
	.push = (push_), \
	.pull = (pull_),
#endif
#define OCTO_DPDK_FLOW_FP_OPS_INSTALL(dev, name) ((void)(dev))
#define OCTO_DPDK_FLOW_FP_OPS_UNINSTALL(dev) ((void)(dev))
#endif

/*
 * Another port's asynchronous flow operations, called directly by a
 * driver stacked on that port (net_octopus on its members' transfer
 * proxy): struct octo_dpdk_flow_fp holds the port's device and operations,
 * resolved once by octo_dpdk_flow_fp_resolve() after the port's
 * rte_flow_configure() (where a driver installs its rte_flow_fp_ops from
 * 24.03).  octo_dpdk_flow_fp_create() and the others then return, set
 * rte_errno and fill the error as rte_flow_async_create() and the others
 * do on that port, without ethdev's lookup of the port's operations at
 * every call (before 24.03: the port check and the driver's flow_ops_get,
 * through rte_flow_ops_get()).  From 24.03 ethdev's fast-path trace points
 * of that port (compiled in only with enable_trace_fp) are not emitted.
 * The caller stops calling once the port is released.  Defined where
 * rte_flow_driver.h is included before this header.
 */
#ifdef RTE_FLOW_DRIVER_H_
#include <rte_branch_prediction.h>
#include <rte_errno.h>

struct octo_dpdk_flow_fp {
	struct rte_eth_dev *dev;
#if OCTO_DPDK_AT_LEAST(24, 3)
	const struct rte_flow_fp_ops *ops;
#else
	const struct rte_flow_ops *ops;
#endif
};

static inline int
octo_dpdk_flow_fp_resolve(uint16_t port_id, struct octo_dpdk_flow_fp *fp,
		struct rte_flow_error *error)
{
	struct rte_eth_dev *dev = &rte_eth_devices[port_id];
#if OCTO_DPDK_AT_LEAST(24, 3)
	int code = rte_eth_dev_is_valid_port(port_id) ? 0 : ENODEV;

	if (code == 0)
		fp->ops = dev->flow_fp_ops;
#else
	const struct rte_flow_ops *ops = NULL;
	int code;

	/* rte_flow_ops_get()'s answers (not exported to drivers in 22.11) */
	if (!rte_eth_dev_is_valid_port(port_id))
		code = ENODEV;
	else if (dev->dev_ops->flow_ops_get == NULL)
		code = ENOSYS;
	else
		code = dev->dev_ops->flow_ops_get(dev, &ops);
	if (code == 0 && ops == NULL)
		code = ENOSYS;
	fp->ops = ops;
#endif
	if (code != 0)
		return rte_flow_error_set(error, code, RTE_FLOW_ERROR_TYPE_UNSPECIFIED, NULL,
			rte_strerror(code));
	fp->dev = dev;
	return 0;
}

#if OCTO_DPDK_AT_LEAST(24, 3)
/* ethdev passes the driver's answers on as they are */
#define OCTO_DPDK_FLOW_FP_ERR(fp, ret, error) (ret)
#else
/* A failure of a removed device becomes EIO (rte_flow.c's flow_err()). */
static inline int
octo_dpdk_flow_fp_err(const struct octo_dpdk_flow_fp *fp, int ret, struct rte_flow_error *error)
{
	if (ret == 0)
		return 0;
	if (rte_eth_dev_is_removed(fp->dev->data->port_id))
		return rte_flow_error_set(error, EIO, RTE_FLOW_ERROR_TYPE_UNSPECIFIED, NULL,
			rte_strerror(EIO));
	return ret;
}
#define OCTO_DPDK_FLOW_FP_ERR(fp, ret, error) octo_dpdk_flow_fp_err(fp, ret, error)
#endif

static inline struct rte_flow *
octo_dpdk_flow_fp_create(const struct octo_dpdk_flow_fp *fp, uint32_t queue_id,
		const struct rte_flow_op_attr *op_attr, struct rte_flow_template_table *table,
		const struct rte_flow_item pattern[], uint8_t pt_index,
		const struct rte_flow_action actions[], uint8_t at_index,
		void *user_data, struct rte_flow_error *error)
{
	struct rte_flow *flow = fp->ops->async_create(fp->dev, queue_id, op_attr, table,
		pattern, pt_index, actions, at_index, user_data, error);

	if (unlikely(flow == NULL))
		(void)OCTO_DPDK_FLOW_FP_ERR(fp, -rte_errno, error);
	return flow;
}

static inline int
octo_dpdk_flow_fp_destroy(const struct octo_dpdk_flow_fp *fp, uint32_t queue_id,
		const struct rte_flow_op_attr *op_attr, struct rte_flow *flow,
		void *user_data, struct rte_flow_error *error)
{
	int ret = fp->ops->async_destroy(fp->dev, queue_id, op_attr, flow, user_data, error);

	return unlikely(ret != 0) ? OCTO_DPDK_FLOW_FP_ERR(fp, ret, error) : 0;
}

#if OCTO_DPDK_HAS_FLOW_ACTIONS_UPDATE
static inline int
octo_dpdk_flow_fp_update(const struct octo_dpdk_flow_fp *fp, uint32_t queue_id,
		const struct rte_flow_op_attr *op_attr, struct rte_flow *flow,
		const struct rte_flow_action actions[], uint8_t at_index,
		void *user_data, struct rte_flow_error *error)
{
	int ret = fp->ops->async_actions_update(fp->dev, queue_id, op_attr, flow, actions,
		at_index, user_data, error);

	return unlikely(ret != 0) ? OCTO_DPDK_FLOW_FP_ERR(fp, ret, error) : 0;
}
#endif

static inline int
octo_dpdk_flow_fp_push(const struct octo_dpdk_flow_fp *fp, uint32_t queue_id,
		struct rte_flow_error *error)
{
	int ret = fp->ops->push(fp->dev, queue_id, error);

	return unlikely(ret != 0) ? OCTO_DPDK_FLOW_FP_ERR(fp, ret, error) : 0;
}

/* (ethdev maps none of pull's answers in either release) */
static inline int
octo_dpdk_flow_fp_pull(const struct octo_dpdk_flow_fp *fp, uint32_t queue_id,
		struct rte_flow_op_result res[], uint16_t n_res, struct rte_flow_error *error)
{
	return fp->ops->pull(fp->dev, queue_id, res, n_res, error);
}
#endif /* RTE_FLOW_DRIVER_H_ */

#endif /* OCTOPUS_DPDK_COMPAT_H */
