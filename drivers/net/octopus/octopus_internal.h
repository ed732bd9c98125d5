/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 Octopus authors
 */

#ifndef OCTOPUS_INTERNAL_H
#define OCTOPUS_INTERNAL_H

/*
 * Private state of a net_octopus port, shared by the files of the driver.
 * The port data lives in dev->data->dev_private (shared memory), so that a
 * secondary process sees the same members and counters.
 */

/*
 * The driver's files in layers, top first. A file calls only files below
 * it (within a layer, those listed after it), never back up, so each can be
 * read knowing only what it calls (tests/docs/driver_layers.py fails on a
 * call cycle; meson.build lists the files in this order):
 *   port      octopus_ethdev.c
 *   entries   octopus_events.c, octopus_telemetry.c, octopus_api.c
 *   failover  octopus_failover.c
 *   control   octopus_flow_ops.c, octopus_flow_tmpl.c, octopus_flow_tmpl_restart.c,
 *             octopus_flow_queue.c, octopus_flow_tmpl_recs.c, octopus_flow.c,
 *             octopus_flow_build.c, octopus_flow_mark.c, octopus_reta.c,
 *             octopus_queues.c, octopus_pool.c, octopus_stats.c,
 *             octopus_lockstep.c, octopus_caps.c
 *   datapath  octopus_rxtx.c, octopus_migrate.c (the requests it makes)
 *   gate      octopus_gate.c, octopus_poller_watch.c, octopus_steer.c
 *   members   octopus_members.c, octopus_devargs.c
 */

#include <pthread.h>
#include <semaphore.h>
#include <stdalign.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>

#include <rte_bitops.h>
#include <rte_common.h>
#include <rte_ether.h>
#include <rte_ethdev.h>
#include <rte_log.h>
#include <rte_mempool.h>
#include <rte_spinlock.h>
#include <ethdev_driver.h>
/* before the compat header: its direct calls of the proxy's flow ops */
#include <rte_flow_driver.h>
#include <octopus_dpdk_compat.h>

#include "octopus_poller_watch.h"
#include "octopus_steer.h"

extern int octopus_logtype;
/* RTE_LOG_LINE starts a line with the type's name: "net_octopus: " */
#define RTE_LOGTYPE_net_octopus octopus_logtype
#define OCTO_LOG(level, ...) RTE_LOG_LINE(level, net_octopus, __VA_ARGS__)
/* An error path in one statement: log as OCTO_LOG(ERR, ...) does and return @p ret. */
#define OCTO_ERR(ret, fmt, ...) octo_log_ret(ret, "net_octopus: " fmt "\n", ##__VA_ARGS__)

static inline int __rte_format_printf(2, 3)
octo_log_ret(int ret, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	rte_vlog(RTE_LOG_ERR, octopus_logtype, fmt, ap);
	va_end(ap);
	return ret;
}

#define OCTOPUS_DRIVER_NAME	"net_octopus"
#define OCTOPUS_MAX_MEMBERS	OCTOPUS_STEER_MAX_MEMBERS
/* Fixed-size queue arrays keep the private area in one allocation and let
 * a secondary process read them without pointers into primary memory.
 */
#define OCTOPUS_MAX_QUEUES	64
#define OCTOPUS_RETA_MAX	512
#define OCTOPUS_RETA_DEFAULT	64
#define OCTOPUS_MAX_SOCKETS	RTE_MAX_NUMA_NODES
#define OCTOPUS_NO_HOME		UINT8_MAX
#define OCTOPUS_MAX_PTYPES	64

/*
 * Life cycle of a member, ordered: an operation that needs a member in
 * state S applies to every member whose state is S or beyond.
 */
enum octopus_member_state {
	OCTO_MEMBER_PARSED = 0,	/**< named in devargs, not found yet */
	OCTO_MEMBER_OWNED,	/**< ethdev found, owned by this port */
	OCTO_MEMBER_CONFIGURED,	/**< rte_eth_dev_configure done */
	OCTO_MEMBER_STARTED,	/**< rte_eth_dev_start done */
};

/* Why a member is out of service (octopus_failover.c), the gravest last:
 * a member keeps the gravest reason it was given.
 */
enum octopus_member_loss {
	OCTO_LOSS_NONE = 0,	/**< in service */
	OCTO_LOSS_LINK,		/**< its link went down while the port ran */
	OCTO_LOSS_REMOVED,	/**< RTE_ETH_EVENT_INTR_RMV: the device is going */
	OCTO_LOSS_RESET,	/**< RTE_ETH_EVENT_INTR_RESET: needs a port reset */
	OCTO_LOSS_RELEASED,	/**< its ethdev was released (detach, EAL exit) */
};

/*
 * What a port has counted: its totals and each queue's (ethdev reports a
 * port's per-queue counters only as its rx_q<N>_* / tx_q<N>_* xstats).
 */
struct octopus_totals {
	struct rte_eth_stats st;
	struct eth_queue_stats qs;
};

struct octopus_member {
	char name[RTE_ETH_NAME_MAX_LEN];
	uint16_t port_id;
	int socket;		/**< NUMA node the PF hangs off */
	int socket_forced;	/**< from socket_of=, -1 if none */
	enum octopus_member_state state;
	/* Out of service: no burst touches it, no queue is homed on it.
	 * Written by the control path (events), read by the control path
	 * and the migration thread (atomic loads).
	 */
	enum octopus_member_loss loss;
	uint64_t held_at_loss;	/**< its Rx rings' packets then (counted lost) */
	struct octopus_totals last_stats; /**< its totals when it left service */
};

/*
 * Walk members whose state is at least @p st, @p m pointing at each
 * (octopus_member_next finds them).
 */
#define OCTO_FOREACH_MEMBER_STATE(p, i, m, st) \
	for ((i) = octopus_member_next((p), 0, (st)); \
	     (i) < (p)->nb_members && ((m) = &(p)->members[i]) != NULL; \
	     (i) = octopus_member_next((p), (i) + 1, (st)))

/* Every valid ethdev port, owned or not (members are owned). */
#define OCTO_FOREACH_PORT(pid) \
	for ((pid) = rte_eth_find_next(0); (pid) < RTE_MAX_ETHPORTS; \
	     (pid) = rte_eth_find_next((pid) + 1))

#define OCTO_FOREACH_MEMBER(p, i, m) \
	OCTO_FOREACH_MEMBER_STATE(p, i, m, OCTO_MEMBER_PARSED)

/*
 * Route word of a virtual queue: everything the datapath needs to pick
 * the member(s) of a burst, read with ONE load (acquire: a plain load on
 * x86) so that the control thread (queue migration) can switch it
 * atomically.
 *   bits  0..7  home member index (OCTOPUS_NO_HOME: bind on first poll)
 *   bits  8..15 the other member index: the target while REQUESTED, the
 *               old home being drained while DRAINING, the home otherwise
 *   bits 16..23 phase (enum octopus_route_phase)
 *   bits 24..31 flags (OCTO_ROUTE_F_*: flow gates, octopus_gate.c)
 * Migration (octopus_migrate.c) adds the REQUESTED and DRAINING phases,
 * the flow gate (octopus_gate.c) the flags; while the port runs every write
 * is an atomic read-modify-write (CAS or fetch-or/and), so that no writer
 * loses another's bits: see the state machines in those files for who
 * writes which transition.
 * Writers: the control path while the port is stopped (setup, start), and
 * the queue's own poller binding a home on its first burst (bind_home),
 * which happens only without steering: with steering every Rx queue gets a
 * home at start, so a migration thread is then the only writer while the
 * port runs. A Tx queue whose setup named no member's socket is bound by its
 * first poller in any case (Tx needs no rule); a migration thread must wait
 * for that (poller_lcore >= 0) before it writes the Tx route.
 */
enum octopus_route_phase {
	OCTO_ROUTE_STEADY = 0,
	OCTO_ROUTE_REQUESTED,	/* a move is asked for; still served from home */
	OCTO_ROUTE_DRAINING,	/* switched: old member drained (Rx) / completed (Tx) */
};

#define OCTO_ROUTE(home, other, phase) \
	((uint32_t)(home) | ((uint32_t)(other) << 8) | ((uint32_t)(phase) << 16))
#define OCTO_ROUTE_HOME(r)	((r) & 0xff)
#define OCTO_ROUTE_OTHER(r)	(((r) >> 8) & 0xff)
#define OCTO_ROUTE_PHASE(r)	(((r) >> 16) & 0xff)

/* Route word flag bits (bits 24..31), next to home/other/phase. */
#define OCTO_ROUTE_F_DRAIN_REQ	(1u << 24) /* a gate waits for this queue to drain */
#define OCTO_ROUTE_F_GATED	(1u << 25) /* this queue delivers nothing: gated */
#define OCTO_ROUTE_FLAGS	(0xffu << 24)
/* Anything but "steady, no flag" takes the datapath's slow path. */
#define OCTO_ROUTE_SLOW(r)	((r) >> 16)
/* No route is this one (its phase is none): a queue's fast_route when its
 * next burst must take the full path.
 */
#define OCTO_ROUTE_NONE		UINT32_MAX

/*
 * Migration and gate state, embedded in the queue and port structures
 * below; the state machines and the memory-ordering arguments are in
 * octopus_migrate.c and octopus_gate.c.
 */

/* Latency histogram: bucket 0 < 1 us, bucket k in [2^(k-1), 2^k) us, the
 * last one everything longer.
 */
#define OCTO_MIG_HIST		20

/* Automatic migration: the default of migrate_after= (ms a new poller must
 * poll a queue alone), and the fewest bursts it must have made
 * (octopus_rxtx.c, foreign_poll).
 */
#define OCTO_MIG_AFTER_MS	200
#define OCTO_MIG_MIN_POLLS	32

/* How long a gate waits for a source queue nobody polls: the CPU time its
 * poller may run elsewhere, and how long it goes unpolled at least, and
 * while its poller neither runs nor is runnable (octopus_poller_watch.h).
 * A poller descheduled on a loaded host is waited for however long. The
 * backstop: the CPU time a poller may run, polling it, without draining
 * (a drain takes well under a millisecond of it).
 */
#define OCTO_GATE_TIMEOUT_MS	50
#define OCTO_GATE_STILL_MS	1000
#define OCTO_GATE_STUCK_MS	200
/* A gate's destination with no burst for this long, its poller neither
 * running nor runnable, is not polled now: a change does not wait for its
 * earlier gate to open (octopus_gate_prepare).
 */
#define OCTO_GATE_AWAY_MS	10

/*
 * The Tx settle bound: a NIC reads a Tx ring's descriptors within
 * microseconds of its doorbell, so what an lcore posted this long ago is
 * ahead, on the wire, of anything posted from now on, even when the PMD
 * reports no completion for it (mlx5 asks for one every 32 descriptors).
 * A drain whose lcore's Tx queues do not all report done is acked once
 * this much has passed since every packet it covers was posted
 * (octopus_rxtx.c, tx_settled). A Tx queue's move to another member
 * ends the same way (tx_draining). Far below OCTO_GATE_TIMEOUT_MS.
 */
#define OCTO_TX_SETTLE_US	200

#define OCTO_MIG_MAX_QUEUES	64

/*
 * What the port asks a member for when its caller asks for less and the
 * member reads in steps (rx_small): a PMD may round a request down to its
 * step (mlx5's vector Rx: 4; up to 64 in the NIC model) and return nothing
 * for a smaller one while frames wait.
 */
#define OCTO_RX_STASH		64

/* Per virtual queue. */
struct octopus_qmig {
	/* automatic migration's candidate poller: the poller only */
	int cand_lcore;
	int cand_socket;
	uint64_t cand_start;		/* tsc of its first burst in the streak */
	uint64_t cand_polls;		/* bursts in the streak */
	uint64_t cand_next_poll;	/* polls count its next burst must see */
	/* request: written by the requester before its REQUESTED CAS (release) */
	uint8_t automatic;		/* 1: the datapath asked, 0: the API */
	uint64_t req_tsc;
	/* written by the poller while draining, read by the control thread */
	uint64_t drained_pkts;
	/* gate, source side: control bumps drain_req, the poller acks */
	uint64_t drain_req;
	uint64_t drain_ack;
	/* poller only: drain_ack to publish at its next poll, once the packets
	 * of the short burst that drained it are out of the application's loop
	 */
	uint64_t ack_next;
	/* poller only: request drain_pos_req is served once member_pkts[m]
	 * reaches drain_pos[m] for every member (what its hardware queues held
	 * when the poller first saw the request); 0: no position taken
	 */
	uint64_t drain_pos_req;
	uint64_t drain_pos[OCTOPUS_MAX_MEMBERS];
	/* Tx: the sending thread (its lcore_txq in octopus_rxtx.c), written
	 * when it changes
	 */
	void *tx_owner;
	/* poller only: drain ack tx_mark_ack waits for its lcore's Tx since
	 * tx_mark_tsc (0: none); drains acked by the bound (tx_settled)
	 */
	uint64_t tx_mark_ack;
	uint64_t tx_mark_tsc;
	uint64_t tx_settle_bound_acks;
	/* Tx, the sending thread only: tsc of the queue's first burst in
	 * DRAINING (0: none yet), after which nothing is posted to the old
	 * member; moves ended on the Tx settle bound (tx_draining)
	 */
	uint64_t tx_drain_tsc;
	uint64_t tx_settle_bound_moves;
	/* gate, destination side: control writes, the poller reads */
	uint64_t gate_mask;			/* sources with a gate */
	uint64_t gate_need[OCTO_MIG_MAX_QUEUES];	/* drain_ack needed */
	uint64_t gate_deadline[OCTO_MIG_MAX_QUEUES];	/* tsc */
	/* whether the source is still polled (octopus_gate.c, gate_deferred;
	 * under gate_lock); until when its deadline is deferred (tsc, a hint)
	 */
	struct octopus_poller_watch gate_watch[OCTO_MIG_MAX_QUEUES];
	uint64_t gate_defer[OCTO_MIG_MAX_QUEUES];
	/* what the queue may still deliver while gated: packets that were in
	 * its hardware queues at the first open gate (older than any moved
	 * flow's), as a position in its delivered count; and the drain
	 * requests made to it before that (acked once it is reached).
	 * Seqlock: gate_seq odd while the control path writes.
	 */
	uint32_t gate_seq;
	uint64_t gate_limit;
	uint64_t gate_covers;
	/* control only, under gate_lock: where the limit counted each
	 * member's hardware queue to (its member_pkts position), so that a
	 * member leaving service takes what it still held out of the limit
	 */
	uint64_t gate_pos[OCTOPUS_MAX_MEMBERS];
	uint64_t gated_bursts;		/* poller only */
	uint64_t gate_timeouts;		/* poller, and control under gate_lock */
	uint64_t gate_settle_timeouts;	/* control only: see gates_settle() */
	uint64_t gates;			/* control only */
	/* failover: 1 + the member a sweep moved the queue off (0: none);
	 * migration thread only
	 */
	uint8_t displaced_from;
	/* completion: written by whoever moves the route back to STEADY
	 * (the poller after a drain, the control thread otherwise); the
	 * next request is ordered after it by the STEADY acquire
	 */
	uint64_t migrations;
	uint64_t failures;
	uint64_t last_ns;
	uint64_t last_switch_ns;	/* request to the rule switched (control) */
	uint64_t max_ns;
	uint64_t hist[OCTO_MIG_HIST];
};

/* Per port. */
struct octopus_mig {
	bool auto_mode;			/* migration=auto (the default) */
	uint64_t after_tsc;		/* migrate_after=, in tsc cycles */
	bool running;			/* control thread started */
	uint8_t stop;			/* asks the thread to end (atomic) */
	rte_thread_t thread;
	uint64_t pending[2];		/* [rx, tx]: bit q = q REQUESTED */
	uint8_t failover;		/* a member left or returned: sweep (atomic) */
	sem_t wake;			/* posted for the control thread */
	rte_spinlock_t gate_lock;	/* gate writers (control paths) */
	/*
	 * Writers of the steering (p->steer: its plan and rules): the
	 * migration thread's home rules, RETA updates, a lost transfer proxy.
	 * Not the flow ops mutex: a gated rule change holds that while it
	 * waits for a source queue that waits for this thread.
	 */
	pthread_mutex_t steer_lock;
};

/* The member burst a virtual queue calls, resolved at start. */
struct octopus_hwq {
	void *queue;		/**< the member's own queue pointer */
	union {
		eth_rx_burst_t rx;
		eth_tx_burst_t tx;
	};
	int socket;		/**< member's socket */
};

/* Counters a queue's poller writes (single writer, plain stores). */
struct octopus_qcounters {
	uint64_t pkts_local;	/**< through the member on the poller's socket */
	uint64_t pkts_remote;	/**< through a member on another socket */
	/** 2 x the bursts ended, + 1 while a burst runs (odd: inside one).
	 *  Written at a burst's entry and at its end: octopus_rxtx.c
	 *  (burst_enter, burst_done), read by octopus_failover.c (quiesce);
	 *  octopus_queue_polls() gives the bursts
	 */
	uint64_t burst_seq;
	uint64_t foreign_polls;	/**< bursts from an lcore not on the home socket */
	uint64_t member_pkts[OCTOPUS_MAX_MEMBERS];
};

/* An lcore and its socket as one word (socket -1: 0xff), for one compare. */
#define POLLER_KEY(lcore, socket) \
	((int32_t)(((uint32_t)(lcore) << 8) | ((uint32_t)(socket) & 0xff)))

/* One virtual queue (Rx or Tx); its datapath fields first. */
struct __rte_cache_aligned octopus_queue {
	uint32_t route;		/**< see OCTO_ROUTE; one acquire load per burst */
	uint16_t vport;		/**< virtual port id (mbuf->port on Rx) */
	uint16_t qid;
	uint8_t nb_members;
	uint8_t steered;	/**< 1: only the home member receives q's traffic */
	uint8_t is_tx;
	uint8_t stash_n;	/**< Rx: frames in stash[] (datapath only) */
	uint8_t stash_head;	/**< Rx: the next one given out */
	/** Rx: 1 once a member swallowed a request below OCTO_RX_STASH (a
	 *  PMD that reads in steps): such requests then go through stash[]
	 */
	uint8_t rx_small;
	uint8_t held_n;		/**< Rx: frames in held[] (datapath only) */
	uint8_t held_head;	/**< Rx: the next one given out */
	int poller_lcore;	/**< lcore of the latest poll, -1 none yet */
	int poller_socket;	/**< its socket */
	int32_t poller_key;	/**< POLLER_KEY of both, -1 none (datapath only) */
	/** the route in which the poller's bursts take the fast path
	 *  (octopus_rxtx.c, fast_decide), OCTO_ROUTE_NONE: none (datapath
	 *  only, and the control path while no burst runs or on a member's
	 *  new socket)
	 */
	uint32_t fast_route;
	uint32_t fast_left;		/**< fast bursts left before a full one */
	const void *fast_thread;	/**< with fast_route: the poller's thread */
	struct octopus_hwq *fast_hw;	/**< with fast_route: &hw[its home] */
	uint64_t *fast_pkts;		/**< with fast_route: its home's member_pkts */
	int poller_tid;		/**< its thread (rte_gettid), 0: none yet */
	struct octopus_hwq hw[OCTOPUS_MAX_MEMBERS];
	alignas(RTE_CACHE_LINE_SIZE) struct octopus_qcounters cnt;
	/* Control path only. */
	int setup_socket;	/**< socket given to queue setup */
	uint16_t nb_desc;
	/** Tx: 1 + the member it is pinned to (rte_eth_dev_map_aggr_tx_affinity),
	 *  0: none (octopus_queues.c); read by migration requests
	 */
	uint8_t tx_affinity;
	union {
		struct rte_eth_rxconf rxconf;
		struct rte_eth_txconf txconf;
	};
	struct rte_mempool *mp[OCTOPUS_MAX_MEMBERS]; /**< Rx pool per member */
	struct octopus_priv *priv;
	/** octopus_migrate.c, octopus_gate.c */
	alignas(RTE_CACHE_LINE_SIZE) struct octopus_qmig mig;
	/** Rx: what a burst read past its caller's request (octopus_rxtx.c,
	 *  rx_stashed): older than anything still in the hardware queues
	 */
	alignas(RTE_CACHE_LINE_SIZE) struct rte_mbuf *stash[OCTO_RX_STASH];
	/** Rx: what a gated read on a member reading in steps took past the
	 *  gate's allowance (octopus_rxtx.c, rx_gated_step): newer than the
	 *  gate, given out once it opens
	 */
	struct rte_mbuf *held[OCTO_RX_STASH];
};

/* Bursts of @p q ended so far (any thread; see burst_seq). */
static inline uint64_t
octopus_queue_polls(const struct octopus_queue *q)
{
	return rte_atomic_load_explicit(&q->cnt.burst_seq, rte_memory_order_acquire) >> 1;
}

/* Devargs keys; the string is what RTE_PMD_REGISTER_PARAM_STRING shows. */
#define ARG_MEMBER	"member"
#define ARG_NIC		"nic"
#define ARG_SOCKET_OF	"socket_of"
#define ARG_MAC		"mac"
#define ARG_RX_POOL	"rx_pool"
#define ARG_FORCE	"force"
#define ARG_RETA	"reta_size"
#define ARG_SPREAD	"spread"
#define ARG_CATCHALL	"catchall"
#define ARG_MIGRATION	"migration"
#define ARG_MIGRATE_AFTER "migrate_after"
#define OCTOPUS_PARAM_STRING \
	ARG_MEMBER "=<ethdev name or PCI address> (repeat, one per PF) " \
	ARG_NIC "=<one PF: every port of its switch domain> " \
	ARG_SOCKET_OF "=<member>:<node> " \
	ARG_MAC "=<xx:xx:xx:xx:xx:xx> " \
	ARG_RX_POOL "=local|app " \
	ARG_FORCE "=0|1 (allow members of different switch domains) " \
	ARG_RETA "=<power of 2, 1..512: default spreading buckets> " \
	ARG_SPREAD "=l4_src|l4_dst|ip_src|ip_dst (header bits choosing a bucket) " \
	ARG_CATCHALL "=<queue for non-IP traffic> " \
	ARG_MIGRATION "=auto|manual " \
	ARG_MIGRATE_AFTER "=<ms a new poller polls a queue alone before it moves, default 200>"

/* Parsed devargs. */
struct octopus_args {
	uint16_t nb_names;
	char names[OCTOPUS_MAX_MEMBERS][RTE_ETH_NAME_MAX_LEN];
	int socket_of[OCTOPUS_MAX_MEMBERS];	/**< -1: from the device */
	char nic[RTE_ETH_NAME_MAX_LEN];		/**< nic=: all ports of its switch domain */
	bool has_mac;
	struct rte_ether_addr mac;
	bool rx_pool_app;			/**< rx_pool=app */
	bool force_domain;			/**< force=1: allow mixed NICs */
	uint16_t reta_size;
	enum octo_steer_field field;
	uint16_t catchall_queue;
	bool migration_manual;			/**< migration=manual */
	uint32_t migrate_after_ms;		/**< migrate_after= */
};

/* A local Rx pool (octopus_pool.c) and the app pool it mirrors. */
struct octopus_pool {
	struct rte_mempool *mp;
	int socket;
	const struct rte_mempool *app;
	char app_name[RTE_MEMPOOL_NAMESIZE];
};

struct octopus_priv {
	uint16_t port_id;
	uint16_t nb_members;
	struct octopus_member members[OCTOPUS_MAX_MEMBERS];
	struct octopus_args args;
	uint64_t owner_id;
	bool started;

	struct octopus_queue *rxq[OCTOPUS_MAX_QUEUES];
	struct octopus_queue *txq[OCTOPUS_MAX_QUEUES];

	uint16_t reta[OCTOPUS_RETA_MAX];
	/* the queues reta[] names (bit q: queue q), kept with it by
	 * octopus_reta_changed(): a rule's gates need it at every create
	 */
	uint64_t reta_queues;
	/* the Rx queues that have ever had a poller (bit q), set before
	 * their poller_lcore: a template rule's destroy skips its gates at
	 * once when no queue but its own was ever polled
	 */
	RTE_ATOMIC(uint64_t) rxq_polled;
	/* some members are ports of one device on one node (mlx5's
	 * multiport e-switch): their queues DMA through one function, and
	 * nothing steers into their Rx queues (octopus_members.c)
	 */
	bool one_function;
	struct octopus_steer *steer;	/**< NULL: fallback (no e-switch steering) */
	/* the members' transfer proxy when the port last started its members
	 * (-1: none), and the name of that member once its port was released
	 * ("": not released, or back): its e-switch then steers nothing, and a
	 * NIC may refuse to start its other ports (mlx5, facts F8)
	 */
	int proxy_member;
	char proxy_gone[RTE_ETH_NAME_MAX_LEN];
	bool steer_refused_logged;
	/*
	 * a member's refusal in full: mlx5-like messages run long,
	 * and a refused META write names both forms' causes
	 */
	char steer_why[512];
	/* The application's rte_flow rules (octopus_flow.c); NULL: none yet. */
	struct octopus_flows *flows;
	/* The template API's state (octopus_flow_ops.c); NULL: not configured. */
	struct octopus_tmpl *tmpl;

	uint16_t nb_pools;
	struct octopus_pool pools[2 * OCTOPUS_MAX_SOCKETS];

	/* packet types every member recognises, RTE_PTYPE_UNKNOWN-terminated */
	uint32_t ptypes[OCTOPUS_MAX_PTYPES + 1];

	struct octopus_mig mig;		/**< queue migration (octopus_migrate.c) */

	/* failover (octopus_failover.c); control path writers, any reader */
	uint64_t member_losses;		/**< members taken out of service */
	uint64_t member_returns;	/**< members back in service */
	uint64_t outage_lost_pkts;	/**< held by lost members' Rx rings then */
	uint64_t proxy_releases;	/**< the transfer proxy's port released */
	uint64_t start_refusals;	/**< starts a member's NIC refused */
	/** read from a member (counted received) but still in an Rx queue's
	 * stash or held[] when the queue was stopped or released: freed
	 */
	uint64_t stop_freed_pkts;
	struct octopus_totals gone_stats;	/**< released members' last totals */
};

/* The first member from @p i on whose state is at least @p st. */
static inline uint16_t
octopus_member_next(const struct octopus_priv *p, uint16_t i,
		enum octopus_member_state st)
{
	while (i < p->nb_members && p->members[i].state < st)
		i++;
	return i;
}

static inline struct octopus_priv *
octo_priv(const struct rte_eth_dev *dev)
{
	return dev->data->dev_private;
}

/* octopus_devargs.c */
int octopus_args_parse(struct octopus_args *a, const char *params);
int octopus_member_name_full(const char *name, char *out, size_t len);

/* octopus_members.c */
int octopus_members_init(struct octopus_priv *p, bool at_probe);
int octopus_member_by_socket(const struct octopus_priv *p, int socket);
bool octopus_member_serving(const struct octopus_priv *p, unsigned int m);
/**
 * A burst that does nothing, for Rx and Tx (same type): what a virtual
 * queue calls for a member out of service (the queue pointer next to it is
 * left as it was and never dereferenced, so a poller that reads the pair
 * while it changes is safe either way), and the port's bursts in a
 * secondary process.
 */
uint16_t octopus_burst_none(void *q, struct rte_mbuf **pkts, uint16_t n);
int octopus_member_nearest(const struct octopus_priv *p, int socket);
int octopus_member_proxy(const struct octopus_priv *p);
unsigned int octopus_members_order(const struct octopus_priv *p, uint16_t *order);
bool octopus_members_keep_rules(const struct octopus_priv *p);
const char *octopus_locality_name(const struct octopus_priv *p);
const char *octopus_locality_says(const struct octopus_priv *p);
bool octopus_members_missing(const struct octopus_priv *p);
bool octopus_members_reprobed(const struct octopus_priv *p);
void octopus_members_probe_later(void);
bool octopus_is_octopus(uint16_t port_id);
int octopus_alloc_socket(int socket);

/* octopus_failover.c */
void octopus_member_lost(struct rte_eth_dev *dev, uint16_t m,
		enum octopus_member_loss why);
void octopus_member_back(struct rte_eth_dev *dev, uint16_t m);
const char *octopus_loss_name(enum octopus_member_loss why);

/* octopus_caps.c */
int octopus_caps_get(struct octopus_priv *p, struct rte_eth_dev_info *info);

const uint32_t *octopus_ptypes_get(struct rte_eth_dev *dev, size_t *count);

/* octopus_pool.c */
struct rte_mempool *octopus_pool_get(struct octopus_priv *p, int socket,
		struct rte_mempool *app_mp, uint32_t nb_mbufs);
void octopus_pools_sweep(struct octopus_priv *p);
void octopus_pools_free_from(struct octopus_priv *p, uint16_t nb_pools);
void octopus_pools_free(struct octopus_priv *p);

/* octopus_migrate.c: queue migration between members (its state machine is written down there) */
/**
 * Ask for virtual queue @p qid (Rx if !tx, else Tx) to move to the member on
 * @p socket: STEADY -> REQUESTED, then the control thread does the rest.
 *
 * @return 0 requested; -EALREADY home is on @p socket already; -EBUSY a
 * migration of the queue is in progress; -EINVAL no member on @p socket or
 * queue not set up; -EIO port not started; -EPERM a Tx queue pinned to a
 * member (octopus_queues.c).
 */
int octopus_migrate_request(struct octopus_priv *p, uint16_t qid, int tx,
		int socket, bool automatic);

/**
 * Like octopus_migrate_request(), to member index @p member (which must
 * serve). Used by the failover sweep.
 */
int octopus_migrate_request_member(struct octopus_priv *p, uint16_t qid, int tx,
		unsigned int member, bool automatic);

/**
 * Wake the control thread: a request or a sweep is pending. A post the
 * thread is not waiting for is counted and makes its next wait return at
 * once, so none is lost. A system call only when the thread sleeps.
 */
void octopus_migrate_wake(struct octopus_priv *p);

/** Reset the queues' migration state and start the control thread (dev_start). */
int octopus_migrate_start(struct octopus_priv *p);

/** Join the control thread (dev_stop); queues are left STEADY. */
void octopus_migrate_stop(struct octopus_priv *p);

/**
 * Initial migration state of a port (probe): migration=, migrate_after=
 * devargs.
 */
void octopus_migrate_init(struct octopus_mig *m, bool auto_mode, uint32_t after_ms);

/** Record a finished migration of @p q (latency from its request to @p now). */
void octopus_migrate_done(struct octopus_queue *q, uint64_t now);

/*
 * octopus_gate.c: the flow gate, order across a rule change that moves
 * traffic between Rx queues (octopus_flow.c, octopus_reta.c); its protocol
 * is written down there.
 */

/**
 * The gates of one rule change: Rx queue d of @p dsts (bit d) is gated on
 * every queue of src[d] (bit q: queue q). src[d] is read only for the d of
 * dsts: a rule change fills in the few it moves traffic to, not all 64.
 * A change has one source queue or one destination queue: a queue is then
 * never both (a rule over several queues changes one queue at a time).
 */
struct octopus_gate_set {
	uint64_t dsts;
	uint64_t src[OCTO_MIG_MAX_QUEUES];
};

/**
 * Before the rule change: close every destination of @p s to what it
 * receives until octopus_gate_finish(), so that it delivers no packet of
 * the moved traffic arriving between the change and the finish ahead of
 * older packets still in a source. Pairs with a queue that is not set up
 * or has no home yet, and all of them while the port is stopped, are
 * dropped from @p s: nothing polls them.
 */
void octopus_gate_prepare(struct octopus_priv *p, struct octopus_gate_set *s);

/**
 * After the rule change: gate every pair of @p s (octopus_gate_pair) when
 * @p changed, else open what octopus_gate_prepare() closed (not counted).
 */
void octopus_gate_finish(struct octopus_priv *p, const struct octopus_gate_set *s,
		bool changed);

/**
 * Gate a flow that the control path just moved from Rx queue @p q_from to
 * Rx queue @p q_to (call it right after the rule change returned): until
 * q_from's poller has consumed everything that was in its hardware queue at
 * this moment (a burst started after this call found it empty), come back
 * for its next burst and seen its lcore's Tx queue complete, q_to's
 * datapath delivers nothing but what its own hardware queues held when the
 * gate closed (older than the moved flow's packets). Having delivered that,
 * q_to counts as drained for gates waiting on it, so gates in both
 * directions (a flow moved a -> b -> a quickly) do not wait on each other.
 * A gate whose source is no longer polled opens anyway (counted in
 * gate_timeouts): no burst of it for OCTO_GATE_STILL_MS, while its poller
 * ran OCTO_GATE_TIMEOUT_MS of CPU time elsewhere or neither ran nor was
 * runnable; so does one polled that does not drain in OCTO_GATE_STUCK_MS
 * of its poller's CPU time. A source still polled is waited for, however slowly
 * (its poller descheduled on a loaded host, blocked for a while, or another
 * thread now: octopus_poller_watch.h). Lock-free for the datapath; callers
 * on control threads are serialised by a spinlock, which a poller past
 * its gate's deadline only tries.
 *
 * @return 0; -EINVAL when a queue is not set up or q_from == q_to.
 */
int octopus_gate_pair(struct octopus_priv *p, uint16_t q_from, uint16_t q_to);

/**
 * Whether a gate on Rx queue @p dst still holds: its source has not acked
 * the drain it waits for, and is still polled or its deadline has not
 * passed (octopus_gate_pair). With @p expire
 * (the queue's poller only) a gate past its deadline is opened for good,
 * counted in gate_timeouts; without, it is only taken as open.
 */
bool octopus_gate_holds(struct octopus_priv *p, struct octopus_queue *dst,
		bool expire);

/**
 * Member @p m left service and no burst reads it any more: what its
 * hardware queues still held of a gated destination's limit will never be
 * delivered (it is lost with the member), so take it out of the limit.
 * Else the destination would deliver as many of the moved flows' new
 * packets, from another member, before the gate opens.
 */
void octopus_gate_member_lost(struct octopus_priv *p, uint16_t m);
/**
 * A full barrier on every CPU that runs a thread of this process
 * (membarrier): once it returns, a burst that may have read what the
 * caller changed before the call has its burst_seq odd to the caller.
 */
void octopus_pollers_barrier(void);

/* octopus_rxtx.c */
uint16_t octopus_rx_burst(void *q, struct rte_mbuf **pkts, uint16_t n);
uint16_t octopus_tx_burst(void *q, struct rte_mbuf **pkts, uint16_t n);
void octopus_rx_stash_flush(struct octopus_queue *q);
void octopus_queue_bind(struct octopus_queue *q);
void octopus_queue_member_bind(struct octopus_queue *q, uint16_t m);

/* octopus_stats.c */
int octopus_stats_get(struct rte_eth_dev *dev, struct rte_eth_stats *st,
		struct eth_queue_stats *qs);
int octopus_stats_reset(struct rte_eth_dev *dev);
int octopus_xstats_get_names(struct rte_eth_dev *dev,
		struct rte_eth_xstat_name *names, unsigned int size);
int octopus_xstats_get(struct rte_eth_dev *dev, struct rte_eth_xstat *xs,
		unsigned int n);
int octopus_xstats_reset(struct rte_eth_dev *dev);
void octopus_stats_snapshot(struct octopus_priv *p, uint16_t m);
void octopus_stats_keep(struct octopus_priv *p, uint16_t m);

/* octopus_lockstep.c (lockstep settings) */
int octopus_promisc_enable(struct rte_eth_dev *dev);
int octopus_promisc_disable(struct rte_eth_dev *dev);
int octopus_allmulti_enable(struct rte_eth_dev *dev);
int octopus_allmulti_disable(struct rte_eth_dev *dev);
int octopus_mtu_set(struct rte_eth_dev *dev, uint16_t mtu);
int octopus_mac_set(struct rte_eth_dev *dev, struct rte_ether_addr *addr);
int octopus_mac_add(struct rte_eth_dev *dev, struct rte_ether_addr *addr,
		uint32_t index, uint32_t vmdq);
void octopus_mac_remove(struct rte_eth_dev *dev, uint32_t index);
int octopus_vlan_filter(struct rte_eth_dev *dev, uint16_t vlan, int on);
/*
 * Members on different switch domains (force=1: a NIC whose PFs are
 * separate devices, each its own e-switch, or several NICs) each answer to
 * their own MAC, and a unicast MAC given to two of them is a frame
 * delivered twice (a multi-host NIC sends a frame to every PF that has its
 * MAC). The port's unicast MACs then go to its first member only, where
 * the NIC delivers them; the others keep theirs.
 */
bool octopus_macs_first_only(const struct octopus_priv *p);
/** 0 if the Rx queues (or @p mp alone, when given) receive frames of
 *  @p mtu: scatter on, or the mbufs' room; else -EINVAL, logged.
 */
int octopus_mtu_fits(struct rte_eth_dev *dev, uint16_t mtu,
		const struct rte_mempool *mp);

/* octopus_queues.c */
int octopus_rx_queue_setup(struct rte_eth_dev *dev, uint16_t qid, uint16_t nb_desc,
		unsigned int socket, const struct rte_eth_rxconf *conf,
		struct rte_mempool *mp);
int octopus_tx_queue_setup(struct rte_eth_dev *dev, uint16_t qid, uint16_t nb_desc,
		unsigned int socket, const struct rte_eth_txconf *conf);
void octopus_rx_queue_release(struct rte_eth_dev *dev, uint16_t qid);
void octopus_tx_queue_release(struct rte_eth_dev *dev, uint16_t qid);
void octopus_rxq_info_get(struct rte_eth_dev *dev, uint16_t qid,
		struct rte_eth_rxq_info *qinfo);
void octopus_txq_info_get(struct rte_eth_dev *dev, uint16_t qid,
		struct rte_eth_txq_info *qinfo);
/* DPDK's aggregated-port ops (23.03) */
int octopus_count_aggr_ports(struct rte_eth_dev *dev);
int octopus_map_aggr_tx_affinity(struct rte_eth_dev *dev, uint16_t qid,
		uint8_t affinity);

/*
 * Virtual queue @p qid (Rx, or Tx if @p tx) of the port; NULL when the
 * port is configured with fewer queues or the queue is not set up.
 */
static inline struct octopus_queue *
octopus_queue_get(const struct octopus_priv *p, uint16_t qid, int tx)
{
	const struct rte_eth_dev_data *d = rte_eth_devices[p->port_id].data;

	if (qid >= OCTOPUS_MAX_QUEUES || qid >= (tx ? d->nb_tx_queues : d->nb_rx_queues))
		return NULL;
	return tx ? p->txq[qid] : p->rxq[qid];
}

/* octopus_reta.c */
void octopus_reta_changed(struct octopus_priv *p);
int octopus_reta_update(struct rte_eth_dev *dev, struct rte_eth_rss_reta_entry64 *conf,
		uint16_t size);
int octopus_reta_query(struct rte_eth_dev *dev, struct rte_eth_rss_reta_entry64 *conf,
		uint16_t size);
int octopus_rss_conf_get(struct rte_eth_dev *dev, struct rte_eth_rss_conf *rss);

/* octopus_events.c */
void octopus_events_listen(struct rte_eth_dev *dev, struct octopus_member *m, bool on);
bool octopus_member_has_lsc(uint16_t port);
int octopus_link_update(struct rte_eth_dev *dev, int wait);
int octopus_set_link_up(struct rte_eth_dev *dev);
int octopus_set_link_down(struct rte_eth_dev *dev);

/* octopus_flow_ops.c (flow ops; the rest in octopus_flow.h) */
struct rte_flow_ops;
int octopus_flow_ops_get(struct rte_eth_dev *dev, const struct rte_flow_ops **ops);

/*
 * rte_flow's template and asynchronous API on the virtual port, as the
 * rest of the port calls it (its files: octopus_flow_tmpl_priv.h): flow
 * queues, pattern and actions templates, template tables, rules made and
 * destroyed on a flow queue. Every template, table and rule of the
 * application is one on the members' transfer proxy, translated once per
 * template where the template fixes a value and per rule where it does
 * not; application flow queue q is flow queue q of the proxy (and of every
 * member, configured alike).
 */

/* The port's template state (priv->tmpl), NULL before rte_flow_configure. */
struct octopus_tmpl;

/*
 * Port @p port, the transfer proxy, was released, and with it every
 * template, table and rule made on it: forget their handles, never to be
 * passed to that port id again; template ops answer ENODEV from then on
 * (octopus_flow_ops.c).
 */
void octopus_tmpl_forget_proxy(struct octopus_priv *p, uint16_t port);

/*
 * Restart, where the members keep no rules across their stop (no
 * FLOW_RULE_KEEP): every template rule taken off the proxy before the
 * members stop (kept in its copy, its handle the application's still),
 * rules made while stopped kept in copies only, and all of them made
 * again at start, before the first burst. Replay: 0, or -EIO when some
 * could not be made (logged; they wait for the next start)
 * (octopus_flow_tmpl_restart.c).
 */
void octopus_tmpl_park(struct octopus_priv *p);
int octopus_tmpl_replay(struct octopus_priv *p);

/*
 * Destroy every rule, table and template on the proxy and free the state
 * (close; octopus_flow_ops.c).
 */
void octopus_tmpl_free(struct octopus_priv *p);

#endif /* OCTOPUS_INTERNAL_H */
