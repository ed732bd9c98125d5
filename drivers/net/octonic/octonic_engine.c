/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 Octopus authors
 */

/*
 * The NIC engine: what the NIC's hardware does between the wire and the PF
 * queues.  It has no thread of its own; it advances whenever any PF queue
 * is polled (rx or tx burst), on whichever lcore wins a trylock, so that
 * exactly one runner moves packets at a time and nobody ever waits.  Each
 * run does bounded work, Tx then Rx (octonic.rst "Datapath").
 *
 * The DMA itself is made by the queue's own poller, so that the lcore
 * that wins the engine's lock touches no queue's data, and each poller's
 * caches hold its own queue's frames as a real NIC's DMA leaves them: the
 * Rx DMA when its Rx burst takes the completion (octonic_rx_dma), the Tx
 * DMA when its Tx burst posts it (octonic_tx_dma).  What a remote DMA
 * costs that poller is in octonic.rst "Emulation cost and the NUDMA model".
 */

#include <sched.h>
#include <string.h>

#include <numa.h>

#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_ethdev.h>
#include <rte_lcore.h>
#include <rte_malloc.h>
#include <rte_pause.h>
#if defined(RTE_ARCH_X86)
#include <cpuid.h>
#endif

#include "octo_wire.h"
#include "octonic_internal.h"

/* Room for the largest frame plus headroom: frames on the wire are linear. */
#define OCTONIC_WIRE_BUF (RTE_PKTMBUF_HEADROOM + OCTONIC_MAX_FRAME + 64)
#define OCTONIC_WIRE_MBUFS 2048
#define OCTONIC_LOOP_RING 1024
#define OCTONIC_PEER_MBUFS 2048
/*
 * A paced generator owes the frames that came due while no lcore ran the
 * engine: this many under gen_pause=skip, the frames a NIC's own Rx
 * buffer holds before any ring is consulted; under gen_pause=owe up to
 * what the Rx rings hold (gen_budget()), never fewer than this, so that
 * small rings still lose their excess as imissed.
 */
#define OCTONIC_GEN_MIN_CREDIT 256
/*
 * The generator's frames stay in the Rx rings until their pollers' DMA:
 * enough for several rings of thousands of descriptors left unpolled.
 * When all are held the generator waits for the pollers (a paced one
 * keeps what came due meanwhile as credit), as a NIC's DMA waits for the
 * host to post buffers.  Its buffers fit the frames asked at probe, at
 * least OCTONIC_GEN_MIN_ROOM; longer ones (rte_pmd_octonic_gen_set) come
 * from wire_mp.
 */
#define OCTONIC_GEN_MBUFS 16384
#define OCTONIC_GEN_MIN_ROOM 256
#define OCTONIC_GEN_MAX_ROOM RTE_MBUF_DEFAULT_DATAROOM
#define OCTONIC_GEN_CACHE 64
/*
 * The Tx DMA's frames wait beside the Tx rings until the engine takes
 * them: enough for several rings of thousands of descriptors.  When all
 * are in use a Tx burst posts no more, as a NIC whose Tx buffer is full.
 * Longer frames come from wire_mp.
 */
#define OCTONIC_TX_MBUFS 8192
#define OCTONIC_TX_ROOM RTE_MBUF_DEFAULT_DATAROOM

/* Flush instructions (nudma_dma=flush), chosen once from the CPU's flags. */
enum {
	FLUSH_NONE,
	FLUSH_CLFLUSH,
	FLUSH_CLFLUSHOPT,
	FLUSH_DC_CIVAC,
};

static uint8_t
flush_insn_probe(void)
{
#if defined(RTE_ARCH_X86)
	unsigned int a, b, c, d;

	/* CPUID.(EAX=7,ECX=0):EBX[23] is CLFLUSHOPT, CPUID.1:EDX[19] CLFLUSH */
	if (__get_cpuid_count(7, 0, &a, &b, &c, &d) && (b & (1u << 23)) != 0)
		return FLUSH_CLFLUSHOPT;
	if (__get_cpuid(1, &a, &b, &c, &d) && (d & (1u << 19)) != 0)
		return FLUSH_CLFLUSH;
	return FLUSH_NONE;
#elif defined(RTE_ARCH_ARM64)
	return FLUSH_DC_CIVAC;
#else
	return FLUSH_NONE;
#endif
}

const char *
octonic_flush_insn_name(const struct octonic_nic *nic)
{
	static const char *const names[] = {
		[FLUSH_NONE] = "none", [FLUSH_CLFLUSH] = "clflush",
		[FLUSH_CLFLUSHOPT] = "clflushopt", [FLUSH_DC_CIVAC] = "dc civac",
	};

	return names[nic->flush_insn];
}

int
octonic_thread_socket(void)
{
	/* rte_socket_id() is SOCKET_ID_ANY for threads EAL did not create or
	 * whose cpuset spans sockets: ask libnuma where we run, once per
	 * thread (a thread is expected to stay on its socket).
	 */
	static __thread int cached = -2;
	int s = (int)rte_socket_id();
	int cpu;

	if (s != SOCKET_ID_ANY)
		return s;
	if (cached == -2) {
		cpu = sched_getcpu();
		cached = cpu >= 0 && numa_available() >= 0 ?
			numa_node_of_cpu(cpu) : 0;
		if (cached < 0)
			cached = 0;
	}
	return cached;
}

uint64_t
octonic_latency_ns(const struct octonic_nic *nic, double q)
{
	uint64_t v;

	/* the histogram is in the primary's heap, not in shared memory */
	if (rte_eal_process_type() != RTE_PROC_PRIMARY || nic->lat == NULL ||
			octo_latency_quantile(nic->lat, q, &v) != 0)
		return 0;
	return v * 1000000000ull / rte_get_tsc_hz();
}

uint64_t
octonic_nudma_wait(uint64_t cycles)
{
	uint64_t start = rte_get_tsc_cycles(), now;

	for (now = start; now - start < cycles; now = rte_get_tsc_cycles())
		rte_pause();
	return now - start;
}

int
octonic_engine_setup(struct octonic_nic *nic)
{
	char name[RTE_MEMPOOL_NAMESIZE];
	struct octo_gen_conf gc;
	uint64_t hz = rte_get_tsc_hz();

	if (nic->args.nudma_dma == OCTONIC_NUDMA_DMA_FLUSH) {
		nic->flush_insn = flush_insn_probe();
		nic->nudma_flush = nic->flush_insn != FLUSH_NONE;
		if (!nic->nudma_flush)
			OCTONIC_LOG(WARNING, "%s: nudma_dma=flush: this CPU has no cache line flush the model knows; a remote DMA costs nothing (nudma_dma=wait busy-waits instead)",
				nic->name);
	} else {
		nic->nudma_dma_cycles =
			nic->args.nudma_dma_ns * hz / 1000000000ull;
	}
	nic->nudma_poll_cycles = nic->args.nudma_poll_ns * hz / 1000000000ull;
	nic->tx_read_cycles = nic->args.tx_read_ns * hz / 1000000000ull;
	rte_spinlock_init(&nic->engine_lock);

	snprintf(name, sizeof(name), "ocw_%u", nic->seq);
	nic->wire_mp = rte_pktmbuf_pool_create(name, OCTONIC_WIRE_MBUFS, 64, 0,
			OCTONIC_WIRE_BUF, nic->socket);
	if (nic->wire_mp == NULL)
		return OCTONIC_ERR(-ENOMEM, "%s: cannot create the wire mempool: %s",
			nic->name, rte_strerror(rte_errno));
	snprintf(name, sizeof(name), "ocx_%u", nic->seq);
	nic->tx_mp = rte_pktmbuf_pool_create(name, OCTONIC_TX_MBUFS,
			OCTONIC_GEN_CACHE, 0, RTE_PKTMBUF_HEADROOM + OCTONIC_TX_ROOM,
			nic->socket);
	if (nic->tx_mp == NULL)
		return OCTONIC_ERR(-ENOMEM, "%s: cannot create the Tx DMA's mempool: %s",
			nic->name, rte_strerror(rte_errno));
	switch (nic->args.wire) {
	case OCTONIC_WIRE_GEN:
		memset(&gc, 0, sizeof(gc));
		gc.nb_flows = nic->args.flows;
		gc.pkt_len = nic->args.pkt_len;
		gc.ipv6 = nic->args.ipv6;
		gc.l4_proto = nic->args.l4_proto;
		gc.seed = 1;
		nic->gen = octo_gen_create(&gc);
		nic->sink = octo_sink_create(nic->args.flows);
		nic->lat = octo_latency_create(nic->args.flows,
			OCTONIC_LAT_WINDOW_LOG2);
		if (nic->gen == NULL || nic->sink == NULL || nic->lat == NULL) {
			OCTONIC_LOG(ERR, "%s: cannot create the generator", nic->name);
			return -ENOMEM;
		}
		if (nic->args.pkt_len <= OCTONIC_GEN_MAX_ROOM) {
			nic->gen_room = RTE_ALIGN_CEIL(RTE_MAX(nic->args.pkt_len,
				(uint32_t)OCTONIC_GEN_MIN_ROOM), RTE_CACHE_LINE_SIZE);
			snprintf(name, sizeof(name), "ocg_%u", nic->seq);
			nic->gen_mp = rte_pktmbuf_pool_create(name,
				OCTONIC_GEN_MBUFS, OCTONIC_GEN_CACHE, 0,
				RTE_PKTMBUF_HEADROOM + nic->gen_room, nic->socket);
			if (nic->gen_mp == NULL) {
				OCTONIC_LOG(ERR, "%s: cannot create the generator's pool: %s",
					nic->name, rte_strerror(rte_errno));
				return -ENOMEM;
			}
		}
		nic->gen_rate = nic->args.gen_rate;
		nic->gen_limit = nic->args.gen_limit;
		nic->gen_on = 1;
		break;
	case OCTONIC_WIRE_LOOP:
		snprintf(name, sizeof(name), "ocl_%u", nic->seq);
		nic->loop_ring = rte_ring_create(name, OCTONIC_LOOP_RING,
				nic->socket, RING_F_SP_ENQ | RING_F_SC_DEQ);
		if (nic->loop_ring == NULL)
			return -ENOMEM;
		break;
	case OCTONIC_WIRE_ETHDEV:
		snprintf(name, sizeof(name), "ocp_%u", nic->seq);
		nic->peer_mp = rte_pktmbuf_pool_create(name, OCTONIC_PEER_MBUFS,
				64, 0, RTE_MBUF_DEFAULT_BUF_SIZE, nic->socket);
		if (nic->peer_mp == NULL)
			return -ENOMEM;
		break;
	}
	return 0;
}

void
octonic_engine_gen_addr(struct octonic_nic *nic, struct octo_gen *g)
{
	/* the far end of the wire, and the NIC (PF0's MAC: the shared one) */
	static const struct rte_ether_addr far = {
		.addr_bytes = { 0x02, 'w', 'i', 'r', 'e', 0 } };
	uint16_t i;

	for (i = 0; i < nic->nb_pfs; i++)
		if (nic->pf[i] != NULL) {
			octo_gen_set_eth(g, &far, &nic->pf[i]->dev->data->mac_addrs[0]);
			return;
		}
}

void
octonic_engine_teardown(struct octonic_nic *nic)
{
	unsigned int i;

	if (nic->peer_ready && rte_eth_dev_is_valid_port(nic->peer_port)) {
		struct rte_mbuf *pkts[OCTONIC_BURST];
		uint16_t n;

		/* frames of our wire pool may still be in the cable: take them
		 * back before the pool goes
		 */
		while ((n = rte_eth_rx_burst(nic->peer_port, 0, pkts,
				OCTONIC_BURST)) > 0)
			rte_pktmbuf_free_bulk(pkts, n);
		/* a cable port we started is left stopped; its queues used
		 * our pool, so it must be set up again before reuse
		 */
		if (nic->peer_started_by_us)
			rte_eth_dev_stop(nic->peer_port);
	}
	nic->peer_ready = 0;
	if (nic->loop_ring != NULL) {
		octonic_ring_flush(nic->loop_ring);
		rte_ring_free(nic->loop_ring);
		nic->loop_ring = NULL;
	}
	for (i = 0; i < nic->nb_stage; i++)
		rte_pktmbuf_free(nic->stage[i]);
	nic->nb_stage = 0;
	nic->stage_mp = NULL;
	octo_gen_free(nic->gen);
	nic->gen = NULL;
	octo_sink_free(nic->sink);
	nic->sink = NULL;
	octo_latency_free(nic->lat);
	nic->lat = NULL;
	rte_mempool_free(nic->wire_mp);
	nic->wire_mp = NULL;
	rte_mempool_free(nic->tx_mp);
	nic->tx_mp = NULL;
	rte_mempool_free(nic->gen_mp);
	nic->gen_mp = NULL;
	rte_mempool_free(nic->peer_mp);
	nic->peer_mp = NULL;
	nic->peer_started_by_us = 0;
}

/*
 * wire=<ethdev>: the cable is another port.  If the application has not
 * started it, the NIC drives it alone: one Rx and one Tx queue on its own
 * pool (the application must then not use that port).
 */
int
octonic_engine_wire_start(struct octonic_nic *nic)
{
	struct rte_eth_conf conf;
	uint16_t port;
	int ret;

	if (nic->args.wire != OCTONIC_WIRE_ETHDEV || nic->peer_ready)
		return 0;
	if (rte_eth_dev_get_port_by_name(nic->args.wire_name, &port) != 0)
		return OCTONIC_ERR(-ENODEV, "%s: wire port '%s' does not exist", nic->name,
			nic->args.wire_name);
	if (octonic_is_octonic(&rte_eth_devices[port]))
		return OCTONIC_ERR(-EINVAL, "%s: wire port '%s' is an octonic PF", nic->name,
			nic->args.wire_name);
	nic->peer_port = port;
	if (!rte_eth_devices[port].data->dev_started) {
		memset(&conf, 0, sizeof(conf));
		ret = rte_eth_dev_configure(port, 1, 1, &conf);
		if (ret == 0)
			ret = rte_eth_rx_queue_setup(port, 0, 512,
				rte_eth_dev_socket_id(port), NULL, nic->peer_mp);
		if (ret == 0)
			ret = rte_eth_tx_queue_setup(port, 0, 512,
				rte_eth_dev_socket_id(port), NULL);
		if (ret == 0)
			ret = rte_eth_dev_start(port);
		if (ret != 0)
			return OCTONIC_ERR(ret, "%s: cannot start wire port '%s': %d",
				nic->name, nic->args.wire_name, ret);
		nic->peer_started_by_us = 1;
	}
	nic->peer_ready = 1;
	return 0;
}

void
octonic_ring_flush(struct rte_ring *r)
{
	void *objs[OCTONIC_BURST];
	unsigned int n, i;

	if (r == NULL)
		return;
	while ((n = rte_ring_dequeue_burst(r, objs, RTE_DIM(objs), NULL)) > 0)
		for (i = 0; i < n; i++)
			rte_pktmbuf_free(objs[i]);
}

/* Copy the packet data of a (possibly chained) mbuf to @p dst. */
static void
copy_chain(uint8_t *dst, const struct rte_mbuf *m)
{
	for (; m != NULL; m = m->next) {
		rte_memcpy(dst, rte_pktmbuf_mtod(m, const void *), m->data_len);
		dst += m->data_len;
	}
}

/* ---- Tx: PF rings -> wire ---- */

/* @p now: when the burst reached the wire (wire=gen: its latency) */
static void
wire_put(struct octonic_nic *nic, struct rte_mbuf *w, struct rte_mbuf **peer_out,
		uint16_t *nb_peer, uint64_t now)
{
	uint32_t flow;
	uint64_t seq;

	switch (nic->args.wire) {
	case OCTONIC_WIRE_GEN:
		if (octo_sink_account_id(nic->sink,
				rte_pktmbuf_mtod(w, const uint8_t *), w->data_len,
				&flow, &seq))
			octo_latency_record(nic->lat, flow, seq, now);
		rte_pktmbuf_free(w);
		break;
	case OCTONIC_WIRE_LOOP:
		if (rte_ring_sp_enqueue(nic->loop_ring, w) != 0) {
			nic->wire_drops++;
			rte_pktmbuf_free(w);
		}
		break;
	case OCTONIC_WIRE_ETHDEV:
		peer_out[(*nb_peer)++] = w;
		break;
	}
}

static uint16_t tx_switch(struct octonic_nic *nic, struct octonic_pf *pf,
		struct rte_mbuf **frames, uint16_t n);

/*
 * The Tx DMA of @p m into a frame, in *@p wp (NULL: not read, counted);
 * -ENOBUFS when the NIC has no buffer to read it into.
 */
static int
tx_read(struct octonic_nic *nic, struct octonic_txq *txq,
		const struct rte_mbuf *m, struct rte_mbuf **wp)
{
	uint32_t len = m->pkt_len;
	struct rte_mbuf *w;

	*wp = NULL;
	w = rte_pktmbuf_alloc(len <= OCTONIC_TX_ROOM ? nic->tx_mp : nic->wire_mp);
	if (w == NULL)
		return -ENOBUFS;
	if (len > rte_pktmbuf_tailroom(w)) {
		/* longer than any frame the wire carries */
		RELAXED_ADD(&txq->eng.errors, 1);
		rte_pktmbuf_free(w);
		return 0;
	}
	copy_chain(rte_pktmbuf_mtod(w, uint8_t *), m);
	w->data_len = len;
	w->pkt_len = len;
	w->ol_flags = m->ol_flags;
	w->tx_offload = m->tx_offload;
	if ((w->ol_flags & (RTE_MBUF_F_TX_IP_CKSUM | RTE_MBUF_F_TX_L4_MASK)) != 0 &&
			octo_offload_tx(w) != 0)
		RELAXED_ADD(&txq->eng.errors, 1);
	w->ol_flags = 0;
	*wp = w;
	return 0;
}

uint16_t
octonic_tx_dma(struct octonic_txq *txq, struct rte_mbuf **pkts, uint16_t n,
		uint64_t *stall)
{
	struct octonic_pf *pf = txq->pf;
	struct octonic_nic *nic = pf->nic;
	uint64_t bytes = 0, rbytes = 0;
	unsigned int ok = 0, remote = 0;
	struct rte_mbuf *w;
	uint16_t i;

	*stall = 0;
	if (!octonic_pf_up(pf)) {
		/* surprise removal, or a device waiting for its reset: the
		 * NIC never reads them
		 */
		for (i = 0; i < n; i++)
			txq->frames[(txq->posted + i) & txq->log_mask] =
				OCTONIC_TX_UNREAD;
		return n;
	}
	for (i = 0; i < n; i++) {
		if (tx_read(nic, txq, pkts[i], &w) != 0)
			break;	/* the NIC's Tx buffers are full: post no more */
		txq->frames[(txq->posted + i) & txq->log_mask] = w;
		if (w == NULL)
			continue;
		ok++;
		bytes += pkts[i]->pkt_len;
		if (pkts[i]->pool != NULL && pkts[i]->pool->socket_id != pf->socket) {
			remote++;
			rbytes += pkts[i]->pkt_len;
		}
	}
	RELAXED_ADD(&txq->eng.dma_pkts, ok);
	RELAXED_ADD(&txq->eng.dma_bytes, bytes);
	if (remote == 0)
		return i;
	RELAXED_ADD(&txq->eng.remote_dma_pkts, remote);
	RELAXED_ADD(&txq->eng.remote_dma_bytes, rbytes);
	/* under nudma_dma=flush a read costs nothing: it leaves the caches
	 * as they are
	 */
	if (nic->nudma_dma_cycles != 0)
		*stall = octonic_nudma_wait(nic->nudma_dma_cycles * remote);
	return i;
}

/* The NIC takes the next @p n frames (n <= OCTONIC_ENGINE_TX_PER_QUEUE)
 * of @p txq and sends what their DMA read.
 */
static void
tx_drain_queue(struct octonic_nic *nic, struct octonic_pf *pf,
		struct octonic_txq *txq, unsigned int n)
{
	struct rte_mbuf *pkts[OCTONIC_ENGINE_TX_PER_QUEUE];
	struct rte_mbuf *peer_out[OCTONIC_ENGINE_TX_PER_QUEUE];
	struct rte_mbuf *out[OCTONIC_ENGINE_TX_PER_QUEUE];
	struct octonic_txd *d = txq->desc;
	uint16_t nb_peer = 0, nb_out = 0, sent;
	struct rte_mbuf *w;
	unsigned int i;
	uint64_t now = 0;

	/* the frames first: once the ring's slots are free the sender may
	 * post (and DMA) into theirs again
	 */
	for (i = 0; i < n; i++) {
		w = txq->frames[(txq->taken + i) & txq->log_mask];
		if (w == NULL)
			continue;	/* its DMA failed, counted */
		if (w == OCTONIC_TX_UNREAD || !octonic_pf_up(pf)) {
			RELAXED_ADD(&pf->tx_drop_down, 1);
			if (w != OCTONIC_TX_UNREAD)
				rte_pktmbuf_free(w);
			continue;
		}
		out[nb_out++] = w;
	}
	/* the completion: the driver frees the mbufs of the descriptors the
	 * NIC has read, or the NIC does it here
	 */
	if (d != NULL) {
		rte_atomic_store_explicit(&d->hw_ci,
			rte_atomic_load_explicit(&d->hw_ci, rte_memory_order_relaxed) + n,
			rte_memory_order_release);
	} else {
		n = rte_ring_sc_dequeue_burst(txq->ring, (void **)pkts, n, NULL);
		if (n > 0)
			rte_pktmbuf_free_bulk(pkts, n);
	}
	if (nb_out > 0 && nic->args.wire == OCTONIC_WIRE_GEN)
		now = rte_rdtsc();
	if (nb_out > 0 && nic->args.dialect == OCTONIC_DIALECT_MLX5_HWS)
		nb_out = tx_switch(nic, pf, out, nb_out);
	for (i = 0; i < nb_out; i++)
		wire_put(nic, out[i], peer_out, &nb_peer, now);
	if (nb_peer > 0) {
		sent = rte_eth_tx_burst(nic->peer_port, 0, peer_out, nb_peer);
		for (i = sent; i < nb_peer; i++) {
			nic->wire_drops++;
			rte_pktmbuf_free(peer_out[i]);
		}
	}
}

/*
 * What the PFs' Tx rings were given, in the order the NIC read it
 * (octonic_txorder.c), as much of it as OCTONIC_ENGINE_TX_PER_QUEUE per
 * ring holding some allows in one run.
 */
static void
tx_drain(struct octonic_nic *nic)
{
	/* ordered after the loads that follow: a post logged before this
	 * time is seen by them
	 */
	uint64_t now = rte_rdtsc_precise(), until;
	unsigned int budget = 0, rings, n;
	struct octonic_txq *txq;
	bool first = true;

	for (;;) {
		txq = octonic_txorder_first(nic, now, &until, &rings);
		if (txq == NULL)
			break;
		if (first)
			budget = rings * OCTONIC_ENGINE_TX_PER_QUEUE;
		first = false;
		n = octonic_txorder_count(txq, until,
			RTE_MIN(budget, (unsigned int)OCTONIC_ENGINE_TX_PER_QUEUE));
		tx_drain_queue(nic, txq->pf, txq, n);
		octonic_txorder_taken(txq, n);
		budget -= n;
		if (budget == 0)
			break;
	}
}

/* ---- Rx: wire -> classification -> PF rings ---- */

/*
 * Frames the NIC's Rx side can take while no lcore polls: a slot in each
 * ring of every started Rx queue of the PFs up and started (the wire
 * feeds them all: through the e-switch, or by MAC under
 * topology=separate), at least OCTONIC_GEN_MIN_CREDIT.  On hardware the
 * wire keeps delivering while the host is away and the rings fill at the
 * frames' arrival; what finds its ring full is missed there.  No frame
 * beyond this room could have reached a ring, whatever the steering, so
 * under gen_pause=owe that excess alone is the generator's to count; the
 * rest it makes up and the rings drop what they have no slot for, as
 * imissed.
 */
static uint64_t
gen_rx_room(const struct octonic_nic *nic)
{
	const struct rte_eth_dev_data *data;
	const struct octonic_rxq *rxq;
	const struct octonic_pf *pf;
	uint64_t room = 0;
	uint16_t p, q;

	for (p = 0; p < nic->nb_pfs; p++) {
		pf = nic->pf[p];
		if (pf == NULL || !octonic_pf_up(pf) || !pf->started)
			continue;
		data = pf->dev->data;
		for (q = 0; q < data->nb_rx_queues; q++) {
			rxq = data->rx_queues[q];
			if (rxq == NULL || data->rx_queue_state[q] !=
					RTE_ETH_QUEUE_STATE_STARTED)
				continue;
			room += rxq->desc != NULL ? rxq->desc->size :
				rte_ring_get_capacity(rxq->ring);
		}
	}
	return RTE_MAX(room, (uint64_t)OCTONIC_GEN_MIN_CREDIT);
}

/*
 * Frames the generator may produce now, at most @p want.  With gen_rate=
 * the k-th frame of the schedule is due at a fixed time; *first_due gets
 * the due time of the first frame granted and *period the cycles between
 * two (0, 0 when unpaced), so that their latency counts from when they
 * were due on the wire, as a tester stamps a frame when it sends it, and
 * not from the engine pass that happened to take them.  After a pause of
 * the lcores that run the engine the frames that came due meanwhile are
 * owed (the credit), generated a burst per pass, oldest first; what the
 * schedule offered past OCTONIC_GEN_MIN_CREDIT (gen_pause=skip) or the Rx
 * side's room (gen_pause=owe, gen_rx_room(): lost as a NIC's full rings
 * lose it) is never generated and is counted in gen_overflow.
 */
static uint16_t
gen_budget(struct octonic_nic *nic, uint16_t want, uint64_t *first_due,
		uint64_t *period)
{
	uint64_t now, hz, add, gap, cap;

	*first_due = 0;
	*period = 0;
	if (!nic->gen_on)
		return 0;
	if (nic->gen_limit != 0) {
		if (nic->gen_count >= nic->gen_limit)
			return 0;
		if (nic->gen_limit - nic->gen_count < want)
			want = nic->gen_limit - nic->gen_count;
	}
	if (nic->gen_rate == 0)
		return want;
	now = rte_get_tsc_cycles();
	hz = rte_get_tsc_hz();
	/*
	 * The schedule starts at the first pass, with one frame due then (a
	 * pause restarts it): dating it earlier would owe, at once, frames
	 * due before any queue was polled, which rings shorter than that
	 * stretch of the schedule would have to miss.
	 */
	if (nic->gen_last_tsc == 0) {
		nic->gen_last_tsc = now;
		nic->gen_credit = 1;
	}
	gap = now - nic->gen_last_tsc;
	/* in two parts: gap * rate alone overflows after minutes */
	add = gap / hz * nic->gen_rate + gap % hz * nic->gen_rate / hz;
	if (add > 0) {
		nic->gen_last_tsc += add / nic->gen_rate * hz +
			add % nic->gen_rate * hz / nic->gen_rate;
		nic->gen_credit += add;
		/* the rings are walked only when the credit passes the least
		 * room, not on every pass
		 */
		if (nic->gen_credit > OCTONIC_GEN_MIN_CREDIT) {
			cap = nic->args.gen_pause == OCTONIC_GEN_PAUSE_OWE ?
				gen_rx_room(nic) : OCTONIC_GEN_MIN_CREDIT;
			if (nic->gen_credit > cap) {
				RELAXED_ADD(&nic->gen_overflow,
					nic->gen_credit - cap);
				nic->gen_credit = cap;
			}
		}
	}
	if (nic->gen_credit < want)
		want = nic->gen_credit;
	if (want == 0)
		return 0;
	/* the credit's frames, oldest first, were due up to gen_last_tsc */
	*period = hz / nic->gen_rate;
	*first_due = nic->gen_last_tsc -
		(nic->gen_credit - 1) * hz / nic->gen_rate;
	nic->gen_credit -= want;
	return want;
}

/*
 * Frames ready for the generator, up to OCTONIC_BURST: buffers of the
 * pool its frame length takes, fewer while the Rx rings hold them all.
 */
static uint16_t
gen_stage(struct octonic_nic *nic)
{
	struct rte_mempool *mp = nic->gen_mp != NULL &&
		nic->args.pkt_len <= nic->gen_room ? nic->gen_mp : nic->wire_mp;
	uint16_t want;
	struct rte_mbuf *m;

	if (nic->stage_mp != mp) {
		if (nic->nb_stage > 0)
			rte_pktmbuf_free_bulk(nic->stage, nic->nb_stage);
		nic->nb_stage = 0;
		nic->stage_mp = mp;
	}
	want = OCTONIC_BURST - nic->nb_stage;
	if (want == 0)
		return OCTONIC_BURST;
	if (rte_pktmbuf_alloc_bulk(mp, nic->stage + nic->nb_stage, want) == 0) {
		nic->nb_stage = OCTONIC_BURST;
	} else {
		while (nic->nb_stage < OCTONIC_BURST &&
				(m = rte_pktmbuf_alloc(mp)) != NULL)
			nic->stage[nic->nb_stage++] = m;
	}
	return nic->nb_stage;
}

static uint16_t
wire_fetch(struct octonic_nic *nic, struct rte_mbuf **frames)
{
	uint64_t due, period;
	uint16_t n = 0, len, first;
	struct rte_mbuf *m;

	switch (nic->args.wire) {
	case OCTONIC_WIRE_GEN:
		if (!nic->gen_on)
			return 0;
		n = gen_budget(nic, gen_stage(nic), &due, &period);
		/* the frames go to the rings: the stage's last n */
		first = nic->nb_stage - n;
		nic->nb_stage = first;
		for (uint16_t i = 0; i < n; i++) {
			m = nic->stage[first + i];
			len = octo_gen_next(nic->gen, rte_pktmbuf_mtod(m, uint8_t *),
				rte_pktmbuf_tailroom(m) + m->data_len);
			m->data_len = len;
			m->pkt_len = len;
			m->ol_flags = 0;
			m->packet_type = 0;
			frames[i] = m;
		}
		if (period != 0)
			for (uint16_t i = 0; i < n; i++)
				octo_latency_stamp(nic->lat, nic->gen_count + i,
					1, due + i * period);
		else if (n > 0)
			octo_latency_stamp(nic->lat, nic->gen_count, n, rte_rdtsc());
		nic->gen_count += n;
		return n;
	case OCTONIC_WIRE_LOOP:
		return rte_ring_sc_dequeue_burst(nic->loop_ring, (void **)frames,
			OCTONIC_BURST, NULL);
	case OCTONIC_WIRE_ETHDEV:
		if (!nic->peer_ready)
			return 0;
		return rte_eth_rx_burst(nic->peer_port, 0, frames, OCTONIC_BURST);
	}
	return 0;
}

/*
 * Copy frame @p src (possibly chained) into @p head, chaining more mbufs
 * of @p mp where it does not fit.  -1 when @p mp runs dry; head is then
 * left alone (the segments chained to it freed).
 */
static int
chain_write(struct rte_mempool *mp, struct rte_mbuf *head,
		const struct rte_mbuf *src)
{
	struct rte_mbuf *seg = head, *prev = NULL;
	uint32_t len = src->pkt_len, off = 0, src_off = 0, chunk;

	while (off < len) {
		if (seg == NULL) {
			seg = rte_pktmbuf_alloc(mp);
			if (seg == NULL) {
				rte_pktmbuf_free(head->next);
				head->next = NULL;
				head->nb_segs = 1;
				return -1;
			}
			prev->next = seg;
			head->nb_segs++;
		}
		chunk = RTE_MIN(len - off, (uint32_t)rte_pktmbuf_tailroom(seg));
		/* walk the source chain (frames of an ethdev wire may be chained) */
		for (uint32_t done = 0; done < chunk; ) {
			uint32_t c = RTE_MIN(chunk - done,
				(uint32_t)src->data_len - src_off);

			rte_memcpy(rte_pktmbuf_mtod_offset(seg, uint8_t *,
				seg->data_len + done),
				rte_pktmbuf_mtod_offset(src, const uint8_t *, src_off),
				c);
			done += c;
			src_off += c;
			if (src_off == src->data_len && src->next != NULL) {
				src = src->next;
				src_off = 0;
			}
		}
		seg->data_len += chunk;
		off += chunk;
		prev = seg;
		seg = NULL;
	}
	head->pkt_len = len;
	return 0;
}

/*
 * A transfer rule sent frame @p f out of PF @p pf's uplink (topology=mpesw,
 * REPRESENTED_PORT): a copy goes on the wire, as a PF's transmission does.
 */
static void
uplink_out(struct octonic_nic *nic, struct octonic_pf *pf,
		const struct rte_mbuf *f)
{
	struct rte_mbuf *w = rte_pktmbuf_alloc(nic->wire_mp), *peer[1];
	uint16_t nb_peer = 0;

	if (w == NULL || f->pkt_len > rte_pktmbuf_tailroom(w)) {
		rte_pktmbuf_free(w);
		nic->wire_drops++;
		return;
	}
	copy_chain(rte_pktmbuf_mtod(w, uint8_t *), f);
	w->data_len = f->pkt_len;
	w->pkt_len = f->pkt_len;
	RELAXED_ADD(&pf->uplink_out, 1);
	wire_put(nic, w, peer, &nb_peer,
		nic->args.wire == OCTONIC_WIRE_GEN ? rte_rdtsc() : 0);
	if (nb_peer > 0 && rte_eth_tx_burst(nic->peer_port, 0, peer, 1) != 1) {
		nic->wire_drops++;
		rte_pktmbuf_free(peer[0]);
	}
}

/*
 * The Rx queue a verdict of domain @p dom sends frame @p f to, or NULL
 * with the drop counted (or the frame sent out of an uplink).
 */
static struct octonic_rxq *
steer(struct octonic_nic *nic, const struct octonic_domain *dom,
		const struct octonic_verdict *v, const struct rte_mbuf *f)
{
	struct rte_eth_dev_data *data;
	struct octonic_pf *pf;
	uint16_t p = dom->first_pf + v->pf;

	if (p >= nic->nb_pfs || nic->pf[p] == NULL) {
		nic->wire_drops++;	/* a PF already closed */
		return NULL;
	}
	pf = nic->pf[p];
	if (v->drop) {
		RELAXED_ADD(&pf->drop_flow, 1);
		return NULL;
	}
	if (v->to_uplink) {
		uplink_out(nic, pf, f);
		return NULL;
	}
	if (!octonic_pf_up(pf) || !pf->started) {
		RELAXED_ADD(&pf->drop_down, 1);
		return NULL;
	}
	data = pf->dev->data;
	if (v->queue >= data->nb_rx_queues ||
			data->rx_queues[v->queue] == NULL ||
			data->rx_queue_state[v->queue] != RTE_ETH_QUEUE_STATE_STARTED) {
		RELAXED_ADD(&pf->drop_noqueue, 1);
		return NULL;
	}
	return data->rx_queues[v->queue];
}

/*
 * The completion of frame @p w (verdict @p v) in @p r: the frame's
 * reference, passed on, and what the descriptor says besides the data,
 * which the NIC's parser reads from the frame.
 */
static void
rx_ref(struct octonic_rx_ref *r, struct rte_mbuf *w,
		const struct octonic_verdict *v, uint64_t offloads)
{
	const uint8_t *frame = rte_pktmbuf_mtod(w, const uint8_t *);
	uint64_t flags = 0;

	r->frame = w;
	r->packet_type = octo_offload_ptype(frame, w->data_len);
	if (offloads & RTE_ETH_RX_OFFLOAD_CHECKSUM)
		flags |= octo_offload_rx_cksum(frame, w->data_len);
	r->rss = 0;
	r->mark = 0;
	if (v->has_rss) {
		flags |= RTE_MBUF_F_RX_RSS_HASH;
		r->rss = v->rss_hash;
	}
	if (v->has_flag)
		flags |= RTE_MBUF_F_RX_FDIR;
	if (v->has_mark) {
		flags |= RTE_MBUF_F_RX_FDIR | RTE_MBUF_F_RX_FDIR_ID;
		r->mark = v->mark;
	}
	r->ol_flags = flags;
}

/*
 * Whether frame @p w fits @p rxq's buffers: one longer than a buffer
 * without scatter is an error (counted), as on a NIC.
 */
static bool
rx_fits(struct octonic_rxq *rxq, const struct rte_mbuf *w, uint64_t offloads)
{
	if (w->pkt_len <= rxq->room || (offloads & RTE_ETH_RX_OFFLOAD_SCATTER) != 0)
		return true;
	RELAXED_ADD(&rxq->eng.errors, 1);
	return false;
}

/* ---- the Rx DMA, on the queue's poller ---- */

/*
 * Write back and evict the lines of [@p p, @p p + @p len) from every
 * cache; returns how many lines.
 */
static unsigned int
lines_flush(uint8_t insn, const void *p, size_t len)
{
	uintptr_t a = (uintptr_t)p & ~(uintptr_t)(RTE_CACHE_LINE_SIZE - 1);
	uintptr_t end = (uintptr_t)p + len;
	unsigned int n = 0;

	for (; a < end; a += RTE_CACHE_LINE_SIZE, n++) {
		switch (insn) {
#if defined(RTE_ARCH_X86)
		case FLUSH_CLFLUSHOPT:
			/* 66 0F AE /7: clflushopt, for assemblers that lack it */
			asm volatile(".byte 0x66; clflush %0"
				: "+m" (*(volatile char *)a));
			break;
		case FLUSH_CLFLUSH:
			asm volatile("clflush %0" : "+m" (*(volatile char *)a));
			break;
#elif defined(RTE_ARCH_ARM64)
		case FLUSH_DC_CIVAC:
			asm volatile("dc civac, %0" : : "r" (a) : "memory");
			break;
#endif
		default:
			return 0;
		}
	}
	return n;
}

int
octonic_rx_dma(struct octonic_rxq *rxq, struct rte_mbuf *m,
		const struct octonic_rx_ref *r)
{
	const struct octonic_nic *nic = rxq->pf->nic;
	const struct rte_mbuf *f = r->frame, *seg;
	unsigned int lines = 0;

	if (f->next == NULL && f->data_len <= rte_pktmbuf_tailroom(m)) {
		/* the common case: one segment into one buffer */
		rte_memcpy(rte_pktmbuf_mtod(m, void *),
			rte_pktmbuf_mtod(f, const void *), f->data_len);
		m->data_len = f->data_len;
		m->pkt_len = f->data_len;
	} else if (chain_write(rxq->mp, m, f) != 0) {
		RELAXED_ADD(&rxq->eng.nombuf, 1);
		return -1;
	}
	m->port = rxq->pf->port_id;
	m->packet_type = r->packet_type;
	m->ol_flags = r->ol_flags;
	m->hash.rss = r->rss;
	m->hash.fdir.hi = r->mark;
	if (!rxq->remote_pool || !nic->nudma_flush)
		return 0;
	/*
	 * What a DMA into another socket's memory writes is not in any cache
	 * (DDIO allocates lines in the LLC of the PF's socket only): the
	 * frame's lines leave the caches, so that its reader takes the
	 * misses.  The mbuf's own fields are the driver's writes, from the
	 * completion, made by the CPU: they stay.
	 */
	for (seg = m; seg != NULL; seg = seg->next)
		lines += lines_flush(nic->flush_insn,
			rte_pktmbuf_mtod(seg, const void *), seg->data_len);
	RELAXED_ADD(&rxq->eng.flush_lines, lines);
	return 0;
}

uint64_t
octonic_rx_dma_done(struct octonic_rxq *rxq, uint16_t k, uint64_t bytes)
{
	const struct octonic_nic *nic = rxq->pf->nic;

	RELAXED_ADD(&rxq->eng.dma_pkts, k);
	RELAXED_ADD(&rxq->eng.dma_bytes, bytes);
	if (!rxq->remote_pool)
		return 0;
	RELAXED_ADD(&rxq->eng.remote_dma_pkts, k);
	RELAXED_ADD(&rxq->eng.remote_dma_bytes, bytes);
	if (nic->nudma_flush) {
		/* clflushopt is ordered by a fence only: the burst's flushes
		 * are done before the application reads the frames
		 */
		rte_wmb();
		return 0;
	}
	if (nic->nudma_dma_cycles == 0)
		return 0;
	return octonic_nudma_wait(nic->nudma_dma_cycles * k);
}

void
octonic_rx_refs_free(const struct octonic_rx_ref *r, unsigned int n)
{
	struct rte_mbuf *f[OCTONIC_BURST];
	unsigned int i, k;

	while (n > 0) {
		k = RTE_MIN(n, (unsigned int)OCTONIC_BURST);
		for (i = 0; i < k; i++)
			f[i] = r[i].frame;
		rte_pktmbuf_free_bulk(f, k);
		r += k;
		n -= k;
	}
}

/* ---- Rx completions, on the engine ---- */

/*
 * rx_ring=mlx5: complete frames[0..n) in the slots the driver posted
 * buffers in, in order; with none left the rest is dropped (imissed), as
 * a ConnectX counts out-of-buffer.  A frame that does not fit is an
 * error and leaves its buffer posted for the next one.  The slot's
 * buffer is written by the poller's DMA (octonic_rxd_dma).  The frames'
 * references are taken: dropped ones go in @p drop.
 */
static void
deliver_posted(struct octonic_rxq *rxq, struct rte_mbuf **frames,
		const struct octonic_verdict *v, uint16_t n,
		struct rte_mbuf **drop, uint16_t *nb_drop)
{
	struct octonic_rxd *d = rxq->desc;
	uint64_t offloads = rxq->pf->dev->data->dev_conf.rxmode.offloads;
	uint32_t pi = rte_atomic_load_explicit(&d->hw_pi, rte_memory_order_relaxed);
	uint32_t ci = rte_atomic_load_explicit(&d->rq_ci, rte_memory_order_acquire);
	uint32_t start = pi;
	uint16_t i;

	for (i = 0; i < n; i++) {
		if (pi == ci) {
			RELAXED_ADD(&rxq->eng.missed, n - i);
			for (; i < n; i++)
				drop[(*nb_drop)++] = frames[i];
			break;
		}
		if (!rx_fits(rxq, frames[i], offloads)) {
			drop[(*nb_drop)++] = frames[i];	/* counted */
			continue;
		}
		rx_ref(&d->pend[pi & d->mask], frames[i], &v[i], offloads);
		pi++;
	}
	if (pi != start)
		rte_atomic_store_explicit(&d->hw_pi, pi, rte_memory_order_release);
}

/*
 * Complete frames[0..n) (all steered to @p rxq) in its ring, one enqueue
 * for the run; a full ring drops the rest (imissed).  The frames'
 * references are taken: dropped ones go in @p drop.
 */
static void
deliver_run(struct octonic_rxq *rxq, struct rte_mbuf **frames,
		const struct octonic_verdict *v, uint16_t n,
		struct rte_mbuf **drop, uint16_t *nb_drop)
{
	uint64_t offloads = rxq->pf->dev->data->dev_conf.rxmode.offloads;
	struct octonic_rx_ref r[OCTONIC_BURST];
	uint16_t i, k = 0, e;

	if (rxq->desc != NULL) {
		deliver_posted(rxq, frames, v, n, drop, nb_drop);
		return;
	}
	for (i = 0; i < n; i++) {
		if (!rx_fits(rxq, frames[i], offloads)) {
			drop[(*nb_drop)++] = frames[i];	/* counted */
			continue;
		}
		rx_ref(&r[k++], frames[i], &v[i], offloads);
	}
	if (k == 0)
		return;
	e = rte_ring_sp_enqueue_burst_elem(rxq->ring, r, sizeof(r[0]), k, NULL);
	if (e < k) {
		RELAXED_ADD(&rxq->eng.missed, k - e);
		for (i = e; i < k; i++)
			drop[(*nb_drop)++] = r[i].frame;
	}
}

/*
 * Frames @p frames with their verdicts @p v (of switch domain @p dom) to
 * their queues, or counted as dropped; the caller is in a read section.
 * One reference of each frame is taken: the queue's ring keeps it, or
 * it is freed with the frame dropped.
 */
static void
deliver_all(struct octonic_nic *nic, const struct octonic_domain *dom,
		struct rte_mbuf **frames, const struct octonic_verdict *v,
		uint16_t n)
{
	struct rte_mbuf *run_f[OCTONIC_BURST], *drop[OCTONIC_BURST];
	struct octonic_verdict run_v[OCTONIC_BURST];
	struct octonic_rxq *q[OCTONIC_BURST];
	uint16_t i, j, k, nb_drop = 0;

	for (i = 0; i < n; i++) {
		q[i] = steer(nic, dom, &v[i], frames[i]);
		if (q[i] == NULL)
			drop[nb_drop++] = frames[i];	/* counted */
	}
	/*
	 * The frames of one queue go as one run, in their order (one
	 * enqueue per queue: spread over queues frame by frame, as
	 * net_octopus's buckets spread flows, runs of consecutive frames
	 * would be one frame long).  The order between queues does not
	 * matter.
	 */
	for (i = 0; i < n; i++) {
		struct octonic_rxq *rq = q[i];

		if (rq == NULL)
			continue;
		for (j = i, k = 0; j < n; j++)
			if (q[j] == rq) {
				run_f[k] = frames[j];
				run_v[k++] = v[j];
				q[j] = NULL;
			}
		deliver_run(rq, run_f, run_v, k, drop, &nb_drop);
	}
	if (nb_drop > 0)
		rte_pktmbuf_free_bulk(drop, nb_drop);
}

/*
 * mlx5-hws: what PF @p pf transmits passes the e-switch's transfer rules
 * (F9: a transfer rule without a REPRESENTED_PORT item matches what every
 * port sends, not only the wire's frames).  A rule's port action delivers
 * the frame to that PF, DROP drops it (counted on the sender), a miss
 * sends it to the wire.  @return the frames for the wire, first in
 * @p frames; the others are the switch's (delivered or freed).
 */
static uint16_t
tx_switch(struct octonic_nic *nic, struct octonic_pf *pf,
		struct rte_mbuf **frames, uint16_t n)
{
	struct octonic_verdict v[OCTONIC_ENGINE_TX_PER_QUEUE];
	struct rte_mbuf *in[OCTONIC_ENGINE_TX_PER_QUEUE];
	struct octonic_verdict in_v[OCTONIC_ENGINE_TX_PER_QUEUE];
	uint16_t own = pf->idx - pf->dom->first_pf;
	uint16_t i, nw = 0, ni = 0, b;

	octonic_eswitch_reader_enter(pf->dom->sw);
	octonic_eswitch_classify_tx(pf->dom->sw, own, frames, n, v);
	for (i = 0; i < n; i++) {
		if (v[i].to_wire) {
			frames[nw++] = frames[i];
			continue;
		}
		if (v[i].drop)
			v[i].pf = own;
		in[ni] = frames[i];
		in_v[ni++] = v[i];
	}
	for (b = 0; b < ni; b += OCTONIC_BURST)
		deliver_all(nic, pf->dom, in + b, in_v + b, RTE_MIN(ni - b, OCTONIC_BURST));
	octonic_eswitch_reader_leave(pf->dom->sw);
	return nw;
}

/*
 * Classify frames[0..n) in switch domain @p dom and deliver them (one
 * reference of each).
 */
static void
classify_deliver(struct octonic_nic *nic, struct octonic_domain *dom,
		struct rte_mbuf **frames, uint16_t n)
{
	struct octonic_verdict v[OCTONIC_BURST];

	memset(v, 0, sizeof(v[0]) * n);
	/*
	 * The read section covers delivery too, not only classification: a
	 * rule change returns once every reader has left, and by then each
	 * frame classified by the old rules must already sit in its queue's
	 * ring, as a NIC finishes the packets in its pipeline before it
	 * acknowledges a rule update.  Whoever drains a queue after a rule
	 * change (net_octopus's migration) relies on it: otherwise a frame
	 * routed by the old rule could land in the old queue after the drain
	 * found it empty, and be delivered out of order.
	 */
	octonic_eswitch_reader_enter(dom->sw);
	octonic_eswitch_classify_cached(dom->sw, dom->cache, frames, n, v);
	deliver_all(nic, dom, frames, v, n);
	octonic_eswitch_reader_leave(dom->sw);
}

/* Whether PF @p pf answers to destination MAC @p dst. */
static bool
pf_has_mac(const struct octonic_pf *pf, const struct rte_ether_addr *dst)
{
	const struct rte_ether_addr *a = pf->dev->data->mac_addrs;
	unsigned int i;

	for (i = 0; i < OCTONIC_MAX_MAC; i++)
		if (rte_is_same_ether_addr(&a[i], dst))
			return !rte_is_zero_ether_addr(dst);
	return false;
}

/*
 * topology=separate: each PF is a host of a multi-host NIC, its own
 * switch domain; a frame goes to the PF whose MAC it carries (multicast
 * and broadcast to every PF), a unicast frame for no PF's MAC is dropped.
 * A frame for k domains has k references, one for each.
 */
static void
deliver_by_mac(struct octonic_nic *nic, struct rte_mbuf **frames, uint16_t n)
{
	struct rte_mbuf *sub[OCTONIC_BURST];
	uint64_t in[OCTONIC_BURST] = { 0 };	/* domains, one bit each */
	const struct rte_ether_addr *dst;
	uint16_t d, i, k;
	unsigned int refs;
	uint64_t m;

	RTE_BUILD_BUG_ON(OCTONIC_MAX_PFS > 64);
	for (d = 0; d < nic->nb_dom; d++) {
		const struct octonic_pf *pf = nic->pf[nic->dom[d].first_pf];

		if (pf == NULL)
			continue;
		for (i = 0; i < n; i++) {
			dst = rte_pktmbuf_mtod(frames[i], const struct rte_ether_addr *);
			if (rte_is_multicast_ether_addr(dst) || pf_has_mac(pf, dst))
				in[i] |= UINT64_C(1) << d;
		}
	}
	for (i = 0; i < n; i++) {
		/* the domains it goes to: a reference for each */
		refs = 0;
		for (m = in[i]; m != 0; m &= m - 1)
			refs++;
		if (refs == 0) {
			nic->mac_drops++;
			rte_pktmbuf_free(frames[i]);
		} else if (refs > 1) {
			rte_mbuf_refcnt_update(frames[i], (int16_t)(refs - 1));
		}
	}
	for (d = 0; d < nic->nb_dom; d++) {
		for (i = 0, k = 0; i < n; i++)
			if ((in[i] & (UINT64_C(1) << d)) != 0)
				sub[k++] = frames[i];
		if (k > 0)
			classify_deliver(nic, &nic->dom[d], sub, k);
	}
}

/*
 * topology=mpesw: the wire stands for every uplink's physical port; a
 * frame comes in by the uplink whose MAC it carries (PF0's otherwise),
 * which the e-switch reads in its port field.
 */
static void
mark_arrival(struct octonic_nic *nic, struct rte_mbuf **frames, uint16_t n)
{
	const struct rte_ether_addr *dst;
	uint16_t i, p;

	for (i = 0; i < n; i++) {
		dst = rte_pktmbuf_mtod(frames[i], const struct rte_ether_addr *);
		frames[i]->port = 0;
		for (p = 0; p < nic->nb_pfs; p++)
			if (nic->pf[p] != NULL && pf_has_mac(nic->pf[p], dst)) {
				frames[i]->port = p;
				break;
			}
	}
}

static unsigned int
wire_rx(struct octonic_nic *nic)
{
	struct rte_mbuf *frames[OCTONIC_BURST];
	uint16_t n;

	n = wire_fetch(nic, frames);
	if (n == 0)
		return 0;
	if (nic->args.topology == OCTONIC_TOPO_SEPARATE) {
		deliver_by_mac(nic, frames, n);
	} else {
		if (nic->args.topology == OCTONIC_TOPO_MPESW)
			mark_arrival(nic, frames, n);
		classify_deliver(nic, &nic->dom[0], frames, n);
	}
	return n;
}

void
octonic_engine_run_locked(struct octonic_nic *nic)
{
	unsigned int b;

	tx_drain(nic);
	for (b = 0; b < OCTONIC_ENGINE_RX_BATCHES; b++)
		if (wire_rx(nic) < OCTONIC_BURST)
			break;
}

void
octonic_engine_run(struct octonic_nic *nic)
{
	if (!rte_spinlock_trylock(&nic->engine_lock))
		return;
	octonic_engine_run_locked(nic);
	rte_spinlock_unlock(&nic->engine_lock);
}

void
octonic_engine_run_poll(struct octonic_nic *nic)
{
	/* read before the atomic exchange: while another lcore runs the
	 * engine, pollers share the lock's line instead of taking it
	 */
	if (rte_spinlock_is_locked(&nic->engine_lock) ||
			!rte_spinlock_trylock(&nic->engine_lock))
		return;
	octonic_engine_run_locked(nic);
	rte_spinlock_unlock(&nic->engine_lock);
}
