/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 Octopus authors
 */

#ifndef OCTOPUS_FLOW_TYPES_H
#define OCTOPUS_FLOW_TYPES_H

/*
 * The records of the port's synchronous rte_flow rules, shared by the
 * files that make them (octopus_flow.h lists them) and read by the
 * template side: the rules, the port's rule state, what the e-switch
 * takes, and the error report every flow file makes.
 */

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/queue.h>

#include <rte_flow.h>
#include <rte_flow_driver.h>
#include <rte_spinlock.h>
#include <octopus_dpdk_compat.h>

#include "octo_steer_app.h"
#include "octopus_steer.h"

/*
 * Memory for the port's rule records (a record and its rule copy, a few
 * hundred bytes each), carved from chunks of DPDK's heap.
 *
 * Why not malloc: the C heap grows by 4K pages that fault in at first
 * touch, one fault every few records, a cost a rule insertion would pay on
 * top of its own work. DPDK's heap is on hugepages that EAL faulted in at
 * start, as the NIC model's own rules are. Why not rte_malloc per record:
 * its heap walk and lock cost more than the record's copy.
 *
 * Sizes are rounded up to classes of 64 bytes, each with a free list, so
 * that a freed record's memory serves the next record of its class; a
 * record larger than the largest class comes from malloc. The chunks go
 * back to DPDK's heap at flush and close, not when the last rule is
 * destroyed (the next rules take them again). Not thread-safe: ethdev
 * serialises the flow ops.
 */

#define OCTOPUS_FLOW_SLAB_CLASS		64	/* bytes */
#define OCTOPUS_FLOW_SLAB_CLASSES	32	/* up to 2 KB */

/* The head of a chunk (from rte_malloc); records follow, cache-line aligned. */
struct octopus_flow_slab_chunk {
	struct octopus_flow_slab_chunk *next;
};

struct octopus_flow_slab {
	struct octopus_flow_slab_chunk *chunks;	/* every chunk, linked */
	void *free[OCTOPUS_FLOW_SLAB_CLASSES + 1];	/* per class, linked */
	char *bump[OCTOPUS_FLOW_SLAB_CLASSES + 1];	/* unused part of a chunk */
	char *end[OCTOPUS_FLOW_SLAB_CLASSES + 1];
	uint64_t in_use;			/* records given out, not put */
};

/*
 * At least @p size bytes, aligned to 8, in *@p obj; *@p cls is what
 * octopus_flow_slab_put() needs back (0: from malloc).
 * @return 0, -ENOMEM.
 */
int octopus_flow_slab_get(struct octopus_flow_slab *s, size_t size, void **obj,
		uint8_t *cls);

/* Give @p obj (of class @p cls) back. */
void octopus_flow_slab_put(struct octopus_flow_slab *s, void *obj, uint8_t cls);

/* Give every chunk back to DPDK's heap; no record may be in use. */
void octopus_flow_slab_release(struct octopus_flow_slab *s);

struct octopus_flow_mark;

/* What the members' e-switch takes, asked of its transfer proxy. */
struct octopus_flow_shape {
	enum octopus_steer_meta_write meta_how;	/* SET_META or MODIFY_FIELD */
	uint32_t base;		/* transfer group of application group 0 */
	uint8_t mark_ingress;	/* MARK or FLAG refused in transfer rules */
	/*
	 * transfer group 0's rules name the wire
	 * (octopus_steer_wire_item_probe)
	 */
	uint8_t wire_item;
};

/* Rows of octopus_flows.reach after the default buckets' reta_size rows. */
enum octopus_reach_row {
	OCTO_REACH_WIDE,	/* rules whose pattern spans several buckets */
	OCTO_REACH_ALL,		/* any rule: per queue, the rows above counting it */
	OCTO_REACH_ROWS,	/* how many */
};

/* One application rule. */
struct octopus_flow {
	TAILQ_ENTRY(octopus_flow) next;
	uint32_t handle;			/* its slot in octopus_flows.slot + 1 */
	struct rte_flow_conv_rule *copy;	/* deep copy, in the same allocation */
	struct octo_steer_app_rule app;		/* rss_queues point into copy */
	uint32_t key;				/* hash of attr + pattern */
	uint32_t nb_hw;				/* planner entries */
	struct rte_flow **hw;			/* [nb_hw] member rules, NULL: none */
	struct rte_flow *hw_one;		/* hw when nb_hw is 1 (most rules) */
	uint16_t proxy;				/* port the member rules live on */
	uint8_t installed;
	uint8_t slab_class;			/* of its memory (octopus_flow_slab) */
	int32_t bucket;				/* default bucket it hits, -1: several */
	uint64_t queues;			/* queues it delivers to (bit q) */
	/* above: what a destroy reads, in the first two cache lines */
	struct octopus_flow_mark *mark;		/* its ingress MARK/FLAG rules, NULL: none */
	uint64_t hits_gone, bytes_gone;		/* counts of member rules removed */
};

TAILQ_HEAD(octopus_flow_list, octopus_flow);

/* The port's application rules (priv->flows, allocated at first use). */
struct octopus_flows {
	struct octopus_flow_list list;
	uint32_t nb;
	/*
	 * The rules by key, so that a create (is there a rule for the same
	 * traffic?) does not walk every rule: open addressing with linear
	 * probing over (key, handle) pairs, at most half full. A lookup reads
	 * one line of the table, not the records (a chained table's walk
	 * would miss the cache at every record); it grows by rehashing the
	 * pairs alone.
	 */
	uint32_t nb_buckets;			/* power of 2, 0 before the first rule */
	struct octopus_flow_key_slot {
		uint32_t key;
		uint32_t handle;		/* 0: empty */
	} *by_key;
	/*
	 * The rules by handle: a handle is a slot number + 1, not an address,
	 * so that a destroy checks it in one load, never dereferencing what
	 * the application passed. A free slot holds the next free one + 1,
	 * shifted left and tagged with bit 0.
	 */
	struct octopus_flow **slot;
	uint32_t nb_slots;			/* allocated */
	uint32_t slots_used;			/* slots ever used: [0, slots_used) */
	uint32_t slot_free;			/* first free slot + 1, 0: none */
	int isolated;
	struct rte_flow *isolate_rule;		/* ETH -> DROP at the isolate priority */
	uint16_t isolate_proxy;
	/*
	 * QUEUE/RSS rules per (row, queue): rows 0 .. reta_size - 1 for the
	 * rules whose pattern fixes that default bucket, then the rows of
	 * enum octopus_reach_row (octopus_flow.c).
	 */
	RTE_ATOMIC(uint32_t) *reach;
	uint64_t *reach_mask;	/* per row: the queues counted non-zero there */
	/* a count's change to or from 0 and its mask bit, and the gates'
	 * reads of the masks (octopus_flow.c, reach_add): template rules
	 * count from every flow queue
	 */
	rte_spinlock_t reach_lock;
	struct octopus_flow_slab slab;	/* the records' memory */
	/* the proxy's answers (octopus_flow_mark.c), asked once per proxy */
	uint8_t shape_known;
	uint16_t shape_proxy;
	struct octopus_flow_shape shape;
	uint64_t *tag_used;	/* bitmap of the ingress MARK/FLAG tags in use */
	uint32_t tag_next;	/* where the next tag search starts */
};

/* Application rule parsed for the planner. */
struct octopus_flow_parsed {
	struct octo_steer_app_rule app;
	uint16_t rss_queues[OCTO_STEER_APP_MAX_RSS];
};

/*
 * @p n bytes (a spec or a conf: 4 to 44, a multiple of 4, for most) to a
 * rule's copy, synchronous or template: the sizes the port's items and
 * actions have, each a copy of known size the compiler makes a few moves
 * of (a call of memcpy costs more than the copy, once per item of every
 * rule).
 */
static __rte_always_inline void
octopus_flow_copy_bytes(void *dst, const void *src, size_t n)
{
	switch (n) {
	case 4:
		memcpy(dst, src, 4);
		break;
	case 8:
		memcpy(dst, src, 8);
		break;
	case 12:
		memcpy(dst, src, 12);
		break;
	case 20:
		memcpy(dst, src, 20);
		break;
	case 44:
		memcpy(dst, src, 44);
		break;
	default:
		memcpy(dst, src, n);
		break;
	}
}

/*
 * Set @p error to @p code with a formatted message; what every flow file
 * reports with. rte_flow_error keeps a pointer to the message: a buffer per
 * thread (and per file including this) outlives the call, as the API needs.
 */
static inline int __rte_format_printf(5, 6)
octopus_flow_error(struct rte_flow_error *error, int code,
		enum rte_flow_error_type type, const void *cause, const char *fmt, ...)
{
	static __thread char msg[384];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return rte_flow_error_set(error, code, type, cause, msg);
}

#endif /* OCTOPUS_FLOW_TYPES_H */
