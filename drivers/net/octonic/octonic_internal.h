/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 Octopus authors
 */

#ifndef OCTONIC_INTERNAL_H
#define OCTONIC_INTERNAL_H

/**
 * @file
 * State shared by net_octonic's ethdev glue (octonic_ethdev.c), datapath
 * (octonic_rxtx.c), NIC engine (octonic_engine.c), statistics
 * (octonic_xstats.c) and public API (octonic_api.c).
 *
 * Threads: the control path (configure, setup, start, stop, close) runs on
 * one thread at a time, as ethdev requires; each queue is polled by at most
 * one lcore; the NIC engine runs on whichever lcore wins the NIC's
 * trylock, and each queue's DMA on that queue's poller: the Rx DMA into
 * the application's mbufs in its Rx burst, the Tx DMA out of them in its
 * Tx burst.  Counters therefore have a single writer each: the poller
 * (polls, packets handed to the app, Rx and Tx DMA) or the engine (drops);
 * readers use relaxed atomic loads.
 *
 * Layers, top first (meson.build lists the files so; a file calls only
 * files below it, the octonic_layers test fails on a call back up):
 * telemetry, api, ethdev, flow, dialect_port, xstats, rxtx, desc, engine,
 * txorder, port, devargs, then the e-switch (eswitch/, its own layers in
 * eswitch/meson.build, every global octonic_esw*).  A layer below the
 * ethdev glue that must tell the model's ports asks octonic_port.c, to
 * which the glue hands its ops at load.
 */

#include <stdalign.h>
#include <stdarg.h>
#include <stdint.h>

#include <rte_atomic.h>
#include <rte_ether.h>
#include <rte_mbuf.h>
#include <rte_mempool.h>
#include <rte_ring.h>
#include <rte_spinlock.h>

#include <ethdev_driver.h>
#include <octopus_dpdk_compat.h>

#include "octonic_devargs.h"
#include "octonic_eswitch.h"

extern int octonic_logtype;
#define RTE_LOGTYPE_NET_OCTONIC octonic_logtype
#define OCTONIC_LOG(level, ...) \
	RTE_LOG_LINE(level, NET_OCTONIC, "net_octonic: " __VA_ARGS__)
/*
 * An error path in one statement: logs the line OCTONIC_LOG(ERR, ...)
 * would (RTE_LOG's "NET_OCTONIC: " prefix included) and gives @p ret back.
 */
#define OCTONIC_ERR(ret, fmt, ...) \
	octonic_log_ret(ret, "NET_OCTONIC: net_octonic: " fmt "\n", ##__VA_ARGS__)

static inline int __rte_format_printf(2, 3)
octonic_log_ret(int ret, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	rte_vlog(RTE_LOG_ERR, octonic_logtype, fmt, ap);
	va_end(ap);
	return ret;
}

#define OCTONIC_MAX_QUEUES 64		/**< Rx and Tx queues per PF */
#define OCTONIC_MIN_DESC 32
#define OCTONIC_MAX_DESC 16384
#define OCTONIC_MAX_MTU (OCTONIC_MAX_FRAME - RTE_ETHER_HDR_LEN - RTE_ETHER_CRC_LEN)
#define OCTONIC_MAX_MAC 16		/**< MAC addresses per PF */
#define OCTONIC_BURST 32		/**< engine batch (wire in, Tx out) */
/* Work per engine run: bounded so the lcore that wins the lock returns
 * to its own queue quickly.
 */
#define OCTONIC_ENGINE_RX_BATCHES 1
#define OCTONIC_ENGINE_TX_PER_QUEUE 64
/* Latency stamps of the last 64k generated frames: more than rings hold. */
#define OCTONIC_LAT_WINDOW_LOG2 16
/* txq->frames of a frame posted while its PF was down: the NIC never reads it */
#define OCTONIC_TX_UNREAD ((struct rte_mbuf *)(uintptr_t)1)

#define RELAXED_GET(p) rte_atomic_load_explicit((p), rte_memory_order_relaxed)

/*
 * A counter with one writer: a relaxed load and store, no atomic
 * read-modify-write; readers (stats) see whole values.
 */
static inline void
octonic_relaxed_add(RTE_ATOMIC(uint64_t) *p, uint64_t v)
{
	rte_atomic_store_explicit(p, RELAXED_GET(p) + v, rte_memory_order_relaxed);
}
#define RELAXED_ADD(p, v) octonic_relaxed_add((p), (v))

struct octonic_pf;
struct octo_gen;
struct octo_sink;
struct octo_latency;
struct rte_vdev_device;

/**
 * Counters of what the NIC does for a queue: on Rx, the DMA (dma_*,
 * nombuf, flush_lines) is written by the queue's poller, which makes it,
 * missed and errors by the engine; on Tx all by the queue's sender, which
 * makes the DMA.  One writer each.
 */
struct octonic_engine_cnt {
	uint64_t dma_pkts;		/**< Rx: written into mbufs; Tx: read out */
	uint64_t dma_bytes;
	uint64_t remote_dma_pkts;	/**< ...into/from a mempool of another socket */
	uint64_t remote_dma_bytes;
	uint64_t missed;		/**< Rx: ring full or queue not started */
	uint64_t nombuf;		/**< Rx: mempool empty */
	uint64_t errors;		/**< Rx: frame too big; Tx: too big, offload failed */
	/** Rx, nudma_dma=flush: cache lines a remote DMA wrote, flushed */
	uint64_t flush_lines;
};

/**
 * An Rx completion: what the NIC posts in a queue's ring for a frame.
 * The queue's poller makes its DMA (the one copy of the frame into the
 * application's mbuf) when its burst takes it, then frees the frame: the
 * frame is the NIC's (a wire frame), held by reference until then.
 */
struct octonic_rx_ref {
	struct rte_mbuf *frame;		/**< one reference, the ring's */
	uint64_t ol_flags;		/**< what the descriptor says ... */
	uint32_t packet_type;
	uint32_t rss;			/**< ... hash.rss */
	uint32_t mark;			/**< ... hash.fdir.hi */
	uint32_t pad;
};

/**
 * Counters written by the lcore polling the queue.  The two cycle counters
 * split the time its bursts spend in the model (TSC cycles, read twice per
 * burst, never per packet): emu_cycles is what emulating the hardware
 * cost that lcore (the socket check of a poll, the engine's lock and runs:
 * generator, e-switch, RSS, ring moves, DMA copies, sink), which a real
 * NIC would not take from a host CPU; nudma_cycles is the NUDMA stall
 * charged on purpose (remote polls of this queue and remote DMA of the
 * engine runs it made), which a host does pay.
 */
struct octonic_poll_cnt {
	uint64_t pkts;			/**< handed to / accepted from the app */
	uint64_t bytes;
	uint64_t polls;
	uint64_t remote_polls;
	uint64_t emu_cycles;
	uint64_t nudma_cycles;
	/** Rx, rx_ring=mlx5: buffers the driver could not post (pool dry) */
	uint64_t nombuf;
};

/**
 * rx_ring=mlx5: an Rx descriptor ring kept as mlx5's driver keeps it
 * (octonic_desc.c).  The driver posts buffers (rq_ci), the NIC writes
 * frames into posted buffers only and completes them (hw_pi), the driver
 * hands completions to the application (rq_pi):
 * rq_pi <= hw_pi <= rq_ci <= rq_pi + size, free-running 32-bit indexes,
 * slot = index & mask.  Each index has one writer; the other side reads
 * it with acquire, after the slots it covers were written.
 */
struct octonic_rxd {
	alignas(RTE_CACHE_LINE_SIZE) RTE_ATOMIC(uint32_t) rq_pi;	/**< driver */
	RTE_ATOMIC(uint32_t) rq_ci;	/**< driver: posted so far */
	/** driver: completions DMA-written into their buffers, rq_pi <= dma_pi <= hw_pi */
	uint32_t dma_pi;
	alignas(RTE_CACHE_LINE_SIZE) RTE_ATOMIC(uint32_t) hw_pi;	/**< NIC */
	alignas(RTE_CACHE_LINE_SIZE) uint32_t size;	/**< slots, a power of 2 */
	uint32_t mask;
	uint32_t nb_desc;		/**< descriptors: size * sges */
	uint16_t sges;			/**< descriptors (segments) per packet */
	uint16_t repl_thresh;		/**< post again once this many are free */
	/** mlx5's scalar Rx (scatter over more than one segment): no steps */
	uint8_t scalar;
	/** NIC: the completion of each slot in [dma_pi, hw_pi), not DMA-written yet */
	struct octonic_rx_ref *pend;
	struct rte_mbuf *elts[];	/**< the slots' buffers */
};

/**
 * tx_comp_every > 1: a Tx descriptor ring whose mbufs the driver frees
 * only at a completion, and asks the NIC for one every `every`
 * descriptors (octonic_desc.c).  The driver posts (head), the NIC reads
 * (hw_ci), the driver learns of completions for the descriptors it asked
 * them for (done) and frees up to there (tail):
 * tail <= done <= hw_ci <= head <= tail + size.
 */
struct octonic_txd {
	alignas(RTE_CACHE_LINE_SIZE) RTE_ATOMIC(uint32_t) head;	/**< driver */
	uint32_t done;			/**< driver: completed up to */
	uint32_t tail;			/**< driver: freed up to */
	uint32_t comp;			/**< driver: head at the last request */
	uint32_t req_pi, req_ci;	/**< driver: requests not completed */
	alignas(RTE_CACHE_LINE_SIZE) RTE_ATOMIC(uint32_t) hw_ci;	/**< NIC */
	alignas(RTE_CACHE_LINE_SIZE) uint32_t size;	/**< a power of 2 */
	uint32_t mask;
	uint32_t every;			/**< tx_comp_every, at most size */
	uint32_t *req;			/**< request points, size of them */
	struct rte_mbuf *elts[];
};

struct octonic_rxq {
	/** the completions (struct octonic_rx_ref), on the PF's socket (rx_ring=plain) ... */
	struct rte_ring *ring;
	struct octonic_rxd *desc;	/**< ... or this (rx_ring=mlx5) */
	struct rte_mempool *mp;
	uint32_t room;			/**< mp's data room less headroom */
	struct octonic_pf *pf;
	uint16_t qid;
	uint16_t nb_desc;
	uint8_t remote_pool;		/**< mp->socket_id differs from the PF's */
	uint8_t deferred;		/**< rx_deferred_start */
	uint8_t step;			/**< rx_step */
	struct octonic_poll_cnt poll;
	struct octonic_engine_cnt eng;
	/* snapshots taken by stats_reset, subtracted from the above */
	struct octonic_poll_cnt poll_base;
	struct octonic_engine_cnt eng_base;
};

/** One post of a Tx burst, as the NIC sees its doorbell (octonic_txorder.c). */
struct octonic_txpost {
	uint32_t end;			/**< frames posted up to it, included */
	uint64_t read;			/**< TSC from which the NIC has read it */
};

struct octonic_txq {
	struct rte_ring *ring;		/**< tx_comp_every=1 ... */
	struct octonic_txd *desc;	/**< ... or this */
	struct octonic_pf *pf;
	uint16_t qid;
	uint16_t nb_desc;
	uint8_t deferred;		/**< tx_deferred_start */
	struct octonic_poll_cnt poll;
	struct octonic_engine_cnt eng;
	struct octonic_poll_cnt poll_base;
	struct octonic_engine_cnt eng_base;
	/* Posting order (octonic_txorder.c): the driver logs each post, the
	 * NIC takes the posts of every ring in the order it read them.
	 */
	struct octonic_txpost *log;	/**< a power of 2, >= the ring's size */
	/**
	 * the wire frame the sender's Tx DMA made of each frame posted, by
	 * its index (posted, taken) & log_mask: NULL when the DMA failed
	 * (counted), OCTONIC_TX_UNREAD when the PF was down
	 */
	struct rte_mbuf **frames;
	uint32_t log_mask;
	alignas(RTE_CACHE_LINE_SIZE) RTE_ATOMIC(uint32_t) log_pi; /**< driver */
	uint32_t posted;		/**< driver: frames posted */
	uint32_t rnd;			/**< driver: read latency draws */
	uint64_t last_read;		/**< driver: read time of the last post */
	alignas(RTE_CACHE_LINE_SIZE) uint32_t log_ci;	/**< NIC: posts taken */
	uint32_t taken;			/**< NIC: frames taken */
};

struct octonic_nic;

/** dev_private of a PF port. */
struct octonic_pf {
	struct octonic_nic *nic;
	struct rte_eth_dev *dev;
	uint16_t idx;			/**< PF index in the NIC */
	uint16_t port_id;
	/** NUMA node the PF reports and its DMA goes through: its own, or
	 *  under topology=mpesw the owner's (PF0's)
	 */
	int socket;
	int pci_socket;			/**< node of the PF's own PCIe function */
	struct rte_vdev_device *vdev;	/**< its rte_device ... */
	/** ... by name (read by secondary processes) */
	char dev_name[RTE_DEV_NAME_MAX_LEN];
	struct octonic_domain *dom;	/**< its e-switch */
	uint16_t sw_pf;			/**< its index in that e-switch */
	uint8_t rmv_notified;		/**< RMV sent by a device-fatal event */
	volatile uint8_t plugged;	/**< 0 after rte_pmd_octonic_unplug */
	/** 1 from rte_pmd_octonic_reset_raise until rte_eth_dev_reset */
	volatile uint8_t reset_pending;
	volatile uint8_t started;
	/** most frames an Rx burst returns, 0: as many as asked and held
	 *  (rte_pmd_octonic_rx_burst_max)
	 */
	RTE_ATOMIC(uint16_t) rx_burst_max;
	/** 1: its Rx queue count answers 0 (rte_pmd_octonic_rx_count_zero) */
	RTE_ATOMIC(uint8_t) rx_count_zero;
	/** us its next Rx burst sleeps inside, 0: none (rte_pmd_octonic_rx_stall) */
	RTE_ATOMIC(uint32_t) rx_stall_us;
	/** that stall's progress (enum rte_pmd_octonic_stall) */
	RTE_ATOMIC(uint8_t) rx_stall_state;
	/* engine counters of what never reached a queue */
	uint64_t drop_flow;		/**< DROP verdicts for this PF */
	uint64_t drop_down;		/**< arrived while unplugged or stopped */
	uint64_t drop_noqueue;		/**< verdict names a queue not set up/started */
	uint64_t tx_drop_down;		/**< Tx drained while unplugged */
	/**
	 * topology=mpesw: wire frames a
	 * transfer rule sent out of its uplink
	 */
	uint64_t uplink_out;
	uint64_t drop_flow_base, drop_down_base, drop_noqueue_base;
	uint64_t tx_drop_down_base, uplink_out_base;
};

/*
 * Whether PF @p pf's device works: plugged in and not waiting for a reset
 * (either way the NIC neither writes into its Rx rings nor reads its Tx).
 */
static inline bool
octonic_pf_up(const struct octonic_pf *pf)
{
	return pf->plugged && !pf->reset_pending;
}

/**
 * A switch domain: an e-switch and the engine's cache of its verdicts.
 * One for the NIC, or (topology=separate) one per PF.
 */
struct octonic_domain {
	struct octonic_eswitch *sw;
	struct octonic_eswitch_cache *cache;	/**< the engine's, under its lock */
	uint16_t domain_id;		/**< rte_eth_switch_domain_alloc's */
	uint16_t first_pf;		/**< NIC index of its e-switch's PF 0 */
	uint8_t domain_allocated;
};

/** One NIC: K PFs, one wire, one e-switch (or one per PF). */
struct octonic_nic {
	char name[RTE_DEV_NAME_MAX_LEN];
	struct octonic_devargs args;
	struct octonic_domain dom[OCTONIC_MAX_PFS];
	uint16_t nb_dom;		/**< 1, or nb_pfs under topology=separate */
	uint16_t nb_pfs;
	uint16_t nb_open;		/**< PFs not closed yet */
	int pci_node[OCTONIC_MAX_PFS];	/**< NUMA node of each PF's function */
	struct octonic_pf *pf[OCTONIC_MAX_PFS];	/**< NULL once closed */
	int socket;			/**< socket of the NIC's own memory */
	uint32_t seq;			/**< unique per probe: names pools and rings */

	/* The engine: one runner at a time, nobody waits for it.  On a line
	 * of its own: every burst of every poller reads it.
	 */
	alignas(RTE_CACHE_LINE_SIZE) rte_spinlock_t engine_lock;
	/* NUDMA cost model: a PCIe read of a small buffer from the remote
	 * socket's memory was measured at about +107 ns over a local one
	 * (the IOctopus paper's figures); 107 is the value we suggest for
	 * nudma_dma_ns and nudma_poll_ns.  0 (default) turns it off.
	 */
	uint64_t nudma_dma_cycles;	/**< nudma_dma=wait: per remote DMA */
	uint8_t nudma_flush;		/**< nudma_dma=flush */
	uint8_t flush_insn;		/**< the line flush the CPU has */
	uint64_t nudma_poll_cycles;	/**< busy-wait per remote poll */
	/**
	 * tx_read_ns: the NIC reads a Tx
	 * post within this after its doorbell
	 */
	uint64_t tx_read_cycles;

	/* wire */
	struct rte_mempool *wire_mp;	/**< frames in flight on the wire */
	/** what the Tx DMA reads frames into, held until the NIC takes them (wire_mp if longer) */
	struct rte_mempool *tx_mp;
	/** wire=gen: generated frames, held in the Rx rings until their DMA (wire_mp if longer) */
	struct rte_mempool *gen_mp;
	uint32_t gen_room;		/**< gen_mp's data room less headroom */
	struct rte_ring *loop_ring;	/**< wire=loop: Tx re-enters here */
	uint16_t peer_port;		/**< wire=<ethdev>: the cable */
	uint8_t peer_ready;
	uint8_t peer_started_by_us;
	struct rte_mempool *peer_mp;
	struct octo_gen *gen;
	struct octo_sink *sink;
	struct octo_latency *lat;	/**< generation to sink, TSC cycles */
	volatile uint8_t gen_on;
	uint64_t gen_rate;		/**< pps, 0: as fast as polled */
	uint64_t gen_limit;		/**< 0: no limit */
	uint64_t gen_last_tsc;
	uint64_t gen_credit;		/**< frames due, not generated yet */
	/** due past the credit's cap (gen_pause=): never generated */
	uint64_t gen_overflow;
	uint64_t wire_drops;		/**< frames the wire could not take */
	/** topology=separate: unicast frames for a MAC no PF has */
	uint64_t mac_drops;
	uint64_t gen_count;		/**< frames generated */
	/** frames ready for the generator, stage[0, nb_stage), of stage_mp */
	struct rte_mbuf *stage[OCTONIC_BURST];
	uint16_t nb_stage;
	struct rte_mempool *stage_mp;
};

static inline struct octonic_pf *
octonic_pf_of(const struct rte_eth_dev *dev)
{
	return dev->data->dev_private;
}

/* octonic_ethdev.c */
extern const struct eth_dev_ops octonic_ops;

/* octonic_port.c: which ports are the model's PFs */
/** The ethdev glue's ops (primary, secondary), set once at load. */
void octonic_port_ops_set(const struct eth_dev_ops *primary,
		const struct eth_dev_ops *secondary);
/** Whether @p dev is a PF of the model (its ops are the glue's). */
int octonic_is_octonic(const struct rte_eth_dev *dev);
/**
 * The e-switch and PF index behind an octonic port, or NULL when @p dev
 * is not an octonic PF.
 */
struct octonic_eswitch *octonic_dev_eswitch(const struct rte_eth_dev *dev,
		uint16_t *pf);

/* octonic_dialect_port.c: the mlx5 dialects' start and stop (F7, F8) */
/** dev_capa's flow flags: FLOW_RULE_KEEP, or mlx5's SHARED_OBJECT_KEEP. */
uint64_t octonic_dialect_dev_capa(const struct octonic_nic *nic);
/** 0 or -ENODEV with @p error set: rte_flow_create on a stopped port. */
int octonic_dialect_create_check(const struct rte_eth_dev *dev,
		struct rte_flow_error *error);
/** 0, or the errno mlx5 refuses the start with (logged). */
int octonic_dialect_start_check(const struct octonic_pf *pf);
void octonic_dialect_started(const struct octonic_pf *pf);
/** 0, or -EBUSY: the transfer proxy stops last (logged). */
int octonic_dialect_stop_check(const struct octonic_pf *pf);
/** The port stopped: its rules go under the mlx5 dialects. */
void octonic_dialect_stopped(const struct octonic_pf *pf);

/* octonic_engine.c */
int octonic_engine_setup(struct octonic_nic *nic);
void octonic_engine_teardown(struct octonic_nic *nic);
/** Address generated frames to the NIC (its first PF's MAC). */
void octonic_engine_gen_addr(struct octonic_nic *nic, struct octo_gen *g);
int octonic_engine_wire_start(struct octonic_nic *nic);
/** Run the engine once if nobody else is (bounded work). */
void octonic_engine_run(struct octonic_nic *nic);
/** Same, from a burst: the lock is only read while another lcore holds it. */
void octonic_engine_run_poll(struct octonic_nic *nic);
/** Run it under the lock taken by the control path. */
void octonic_engine_run_locked(struct octonic_nic *nic);
/** Quantile @p q of the generator-to-sink latency in ns; 0 when none. */
uint64_t octonic_latency_ns(const struct octonic_nic *nic, double q);
/** Socket of the calling thread, also for non-EAL threads. */
int octonic_thread_socket(void);
/** Busy-wait @p cycles (the NUDMA cost model); returns the cycles waited. */
uint64_t octonic_nudma_wait(uint64_t cycles);
/** The cache line flush nudma_dma=flush uses ("none" when it has none). */
const char *octonic_flush_insn_name(const struct octonic_nic *nic);
/**
 * The Rx DMA of completion @p r into @p m, a fresh or posted buffer of
 * @p rxq's pool, made by the queue's poller: the frame's one copy into
 * the host's memory.  A remote DMA under nudma_dma=flush flushes the
 * lines it wrote (counted).  -1, nombuf counted, when a scatter chain
 * finds the pool dry.  The frame stays the caller's to free.
 */
int octonic_rx_dma(struct octonic_rxq *rxq, struct rte_mbuf *m,
		const struct octonic_rx_ref *r);
/**
 * Count @p k frames of @p bytes DMA-written by a burst; returns the
 * stall of nudma_dma=wait.
 */
uint64_t octonic_rx_dma_done(struct octonic_rxq *rxq, uint16_t k,
		uint64_t bytes);
/** Free the frames of @p n completions. */
void octonic_rx_refs_free(const struct octonic_rx_ref *r, unsigned int n);
/**
 * The Tx DMA of @p pkts[0, n), about to be posted on @p txq, made by the
 * queue's sender: each is read into a wire frame, with its Tx offloads
 * applied, in txq->frames from the next post's first index.  Returns how
 * many got a frame: fewer when the NIC's Tx buffers are all in use (the
 * rest must not be posted); *stall: the nudma_dma=wait stall paid.
 */
uint16_t octonic_tx_dma(struct octonic_txq *txq, struct rte_mbuf **pkts,
		uint16_t n, uint64_t *stall);

/* octonic_desc.c: the rings of rx_ring=mlx5 and tx_comp_every > 1 */
struct octonic_rxd *octonic_rxd_create(uint16_t nb_desc, uint16_t sges,
		int socket);
/** Post a buffer in every slot; -ENOMEM (nothing posted) when the pool
 *  cannot fill them, as mlx5's queue start fails.
 */
int octonic_rxd_start(struct octonic_rxq *rxq);
/**
 * Free every buffer, posted or completed, and the frames of completions
 * not DMA-written; the ring is empty after.
 */
void octonic_rxd_stop(struct octonic_rxd *d);
/** An Rx burst of @p n asked, returning at most @p max (the fault's cap,
 *  after the step).
 */
uint16_t octonic_rxd_burst(struct octonic_rxq *rxq, struct rte_mbuf **pkts,
		uint16_t n, uint16_t max);
/**
 * The DMA of what the NIC completed, as much as a burst of @p n can
 * take, made by the queue's poller; returns the nudma_dma=wait stall.
 */
uint64_t octonic_rxd_dma(struct octonic_rxq *rxq, uint32_t n);
int octonic_rxd_count(const struct octonic_rxd *d);
struct octonic_txd *octonic_txd_create(uint16_t nb_desc, uint16_t every,
		int socket);
void octonic_txd_free(struct octonic_txd *d);
/** Free every mbuf not freed yet, read by the NIC or not. */
void octonic_txd_stop(struct octonic_txd *d);
/** Post up to @p n, as many as are free (after octonic_txd_complete). */
uint16_t octonic_txd_burst(struct octonic_txd *d, struct rte_mbuf **pkts,
		uint16_t n);
/** Take the completions the NIC made; free up to @p max of their mbufs
 *  (0: all); returns how many were freed.
 */
uint32_t octonic_txd_complete(struct octonic_txd *d, uint32_t max);
/** Descriptors not freed yet (posted, read or completed). */
static inline uint32_t
octonic_txd_used(const struct octonic_txd *d)
{
	return rte_atomic_load_explicit(&d->head, rte_memory_order_relaxed) -
		d->tail;
}

/* octonic_txorder.c: the order in which the NIC reads Tx posts */
int octonic_txorder_setup(struct octonic_txq *txq, uint32_t size, int socket);
void octonic_txorder_free(struct octonic_txq *txq);
void octonic_txorder_reset(struct octonic_txq *txq);
struct octonic_txq *octonic_txorder_first(struct octonic_nic *nic, uint64_t now,
		uint64_t *until, unsigned int *rings);
uint32_t octonic_txorder_count(const struct octonic_txq *txq, uint64_t until,
		uint32_t max);
void octonic_txorder_taken(struct octonic_txq *txq, uint32_t n);

/*
 * The doorbell of a Tx burst that posted @p n frames at TSC @p now: the
 * NIC reads them at a time drawn in [now, now + tx_read_cycles], never
 * before an earlier post of the ring.  Single writer (the ring's sender).
 */
static inline void
octonic_txorder_post(struct octonic_txq *txq, uint32_t n, uint64_t now)
{
	uint64_t w = txq->pf->nic->tx_read_cycles, read = now;
	uint32_t pi = rte_atomic_load_explicit(&txq->log_pi, rte_memory_order_relaxed);
	struct octonic_txpost *e;

	if (w != 0) {
		/* xorshift32: a draw, no call */
		txq->rnd ^= txq->rnd << 13;
		txq->rnd ^= txq->rnd >> 17;
		txq->rnd ^= txq->rnd << 5;
		read += ((uint64_t)txq->rnd * (w + 1)) >> 32;
	}
	if (read < txq->last_read)
		read = txq->last_read;
	txq->last_read = read;
	txq->posted += n;
	e = &txq->log[pi & txq->log_mask];
	e->end = txq->posted;
	e->read = read;
	rte_atomic_store_explicit(&txq->log_pi, pi + 1, rte_memory_order_release);
}

/* octonic_rxtx.c */
uint16_t octonic_rx_burst(void *q, struct rte_mbuf **pkts, uint16_t n);
uint16_t octonic_tx_burst(void *q, struct rte_mbuf **pkts, uint16_t n);
int octonic_rx_queue_count(void *q);
int octonic_rx_descriptor_status(void *q, uint16_t offset);
int octonic_tx_descriptor_status(void *q, uint16_t offset);
int octonic_tx_done_cleanup(void *q, uint32_t free_cnt);
void octonic_ring_flush(struct rte_ring *r);

/* octonic_xstats.c */
/** A queue's counters since its last stats reset. */
struct octonic_qcnt {
	struct octonic_poll_cnt poll;
	struct octonic_engine_cnt eng;
};
/**
 * The counters of Tx (@p tx) or Rx queue @p qid of a PF, for the control
 * path: false when the queue does not exist or is not set up.
 */
bool octonic_qcnt(const struct rte_eth_dev_data *data, uint16_t qid, bool tx,
		struct octonic_qcnt *c);
int octonic_stats_get(struct rte_eth_dev *dev, struct rte_eth_stats *st,
		struct eth_queue_stats *qs);
int octonic_stats_reset(struct rte_eth_dev *dev);
int octonic_xstats_get(struct rte_eth_dev *dev, struct rte_eth_xstat *xs,
		unsigned int n);
int octonic_xstats_get_names(struct rte_eth_dev *dev,
		struct rte_eth_xstat_name *names, unsigned int size);

#endif /* OCTONIC_INTERNAL_H */
