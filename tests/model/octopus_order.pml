/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 Octopus authors
 */

/*
 * net_octopus's order protocol in Promela, as the C code of this tree
 * implements it: the route word's state machine (octopus_migrate.c), the
 * Rx drain and the poller's side of the gate (octopus_rxtx.c), the flow
 * gate (octopus_gate.c) and failover (octopus_failover.c), with the NIC's
 * frames in flight. README.md (next to this file) maps every process,
 * inline and variable to the C function and field it stands for.
 *
 * check.sh runs it, for every interleaving of the two pollers, the control
 * thread's rule changes (with their gates), the application's migration
 * request, the migration thread, failover and the NIC:
 *  - order: no frame is taken by the application before an older frame of
 *    its flow (assert in app_take);
 *  - none stranded: once everything is done and quiet, every frame the NIC
 *    generated was delivered, or dropped by the NIC (a PF down), or counted
 *    lost with a member (assert in Audit);
 *  - no deadlock: no invalid end state (a burst is only taken when it can
 *    change something, so a protocol that waits for ever blocks);
 *  - no livelock: no cycle without progress (-DNP, weak fairness).
 * The C code's timeouts (the gate's and gates_settle's, for a queue no
 * longer polled; the prepare wait's 1 s, quiesce's 5 s) never pass here:
 * the claim is what holds while none passes, and that no wait needs one to
 * end (a gate waits for a source for as long as it is polled).
 * Memory is sequentially consistent; each atomic step is one of the C
 * code's atomic accesses or a section whose accesses the others cannot
 * observe half-done (README.md says which, and why).
 *
 * Scenarios (-DSCEN=n):
 *  1 gates:    flow 0 moved Q0 -> Q1 -> Q0 (two gated rule changes);
 *              flow 1 stays on Q1
 *  2 migrate:  Q0 migrates from member 0 to member 1 (API request,
 *              migration thread, drain) while flow 0 moves Q0 -> Q1
 *  3 failover: member 1 (Q1's home) lost while flow 0 moves Q0 -> Q1, its
 *              queue re-homed to member 0; then back, and Q1 returns
 *  4 removed:  member 1 (Q1's home) lost for good while flow 1 is on Q1
 * Bugs (negative controls, -DBUG_x, check.sh requires spin to find each):
 *  BUG_SHORT_EMPTY  the drain takes a short burst for an empty queue
 *                   (order: scenario 2)
 *  BUG_GATE_OPEN    the gate does not wait for the source's ack (order: 1)
 *  BUG_REQUESTED_ACK a drain is acked while the queue is REQUESTED, its
 *                   rule already at the target (order: 2; the C code
 *                   before "no drain ack while a queue is REQUESTED")
 *  BUG_LOSS_UNCOUNTED failover does not count what a lost member's rings
 *                   held (stranded: 3)
 *  BUG_NO_REARM     a burst that did not ack does not set F_DRAIN_REQ
 *                   again (deadlock: 1)
 *  BUG_STUB_COUNT   the drain asks a member out of service for its queue
 *                   count (livelock: 4)
 * Options: -DNOCOUNT (the members have no rx_queue_count), -DZEROS=n
 * (bursts returning nothing while frames are pending, at most n a run).
 */

#ifndef SCEN
#define SCEN 1
#endif

#define NQ 2		/* Rx queues */
#define NM 2		/* members (PFs) */
#define NF 2		/* flows */
#ifndef NFRAMES
#define NFRAMES 3
#endif
#ifndef RING
#define RING 3
#endif
#define BURST 2		/* the application's burst size (n) */
#ifndef ZEROS
#define ZEROS 1
#endif

#define STEADY 0
#define REQUESTED 1
#define DRAINING 2
#define NEED_MAX 255	/* UINT64_MAX: a prepared gate */
/* the drain is not served while REQUESTED: the NIC may already deliver to
 * the target, which the poller does not read yet */
#ifdef BUG_REQUESTED_ACK
#define REQUESTED_NOACK 255
#define REQUESTED_NOPOS 255
#else
#define REQUESTED_NOACK REQUESTED
#define REQUESTED_NOPOS REQUESTED
#endif

#define RI(q, m) ((q) * NM + (m))
#define GI(d, f) ((d) * NQ + (f))

/* ---- the NIC ---- */
chan ring[NQ * NM] = [RING] of { byte, byte };	/* flow, seq */
byte bucket[NF];	/* classification: the Rx queue of a flow */
byte homerule[NQ];	/* home rule: the member a queue's traffic lands on */
bool pf_up[NM];
byte next_seq[NF];
byte generated, missed, lost, delivered;
byte zeros = ZEROS;

/* ---- route word of each Rx queue ---- */
byte r_home[NQ], r_other[NQ], r_phase[NQ];
bool f_drain[NQ], f_gated[NQ];

/* ---- members ---- */
bool serving[NM];	/* octopus_member_serving() */
bool stub[NQ * NM];	/* hw[m].rx == octopus_burst_none */
byte held_at_loss[NM];

/* ---- queue: counters, source side of the gate ---- */
byte member_pkts[NQ * NM];
byte settle_wanted[NQ];	/* gates_settle(): burst ends still awaited */
byte quiesce_wanted[NQ];	/* quiesce(): burst ends still awaited */
byte drain_req[NQ], drain_ack[NQ], ack_next[NQ], drain_pos_req[NQ];
byte drain_pos[NQ * NM];

/* ---- destination side of the gate ---- */
bool gate_mask[NQ * NQ];
byte gate_need[NQ * NQ];
byte gate_seq[NQ], gate_limit[NQ], gate_covers[NQ];

/* ---- migration ---- */
bool pending[NQ];	/* mig.pending bit */
bool sweep;		/* mig.failover */
bool mig_busy;		/* the migration thread is between its wait and its next */
byte displaced_from[NQ];	/* 0: none, else member + 1 */

/* ---- the application ---- */
byte last_seq[NF];	/* 1 + the last seq of the flow taken */
bool ctl_done, req_done, fo_done;
byte pollers_done;

/* progress (-DNP): set by every step that moves the system on */
bool prog;
#ifdef NP
#define PROGRESS prog = true
#else
#define PROGRESS skip
#endif

#define delivered_q(q) (member_pkts[RI(q, 0)] + member_pkts[RI(q, 1)])

/* ============================================================== NIC */

/* octonic_engine.c wire_rx(): classify and deliver (one step) */
proctype Nic()
{
	byte f, q, m;

	do
	:: generated < NFRAMES ->
		atomic {
			f = generated % NF;
			q = bucket[f];
			m = homerule[q];
			if
			:: pf_up[m] && nfull(ring[RI(q, m)]) -> ring[RI(q, m)]!f, next_seq[f]
			:: !pf_up[m] || full(ring[RI(q, m)]) -> missed++
			fi;
			next_seq[f]++;
			PROGRESS;
			generated++;
			f = 0; q = 0; m = 0
		}
	:: else -> break
	od
}

/* ============================================================== poller */

/* the gate of d on f still holds (octopus_gate_holds, one source) */
#define gate_on(d, f) (gate_mask[GI(d, f)] && gate_need[GI(d, f)] != 0 && \
		drain_ack[f] < gate_need[GI(d, f)])
#ifdef BUG_GATE_OPEN
#define holds_now(q) false
#else
#define holds_now(q) (gate_on(q, 1 - (q)))
#endif
#define ring_has(q, m) (!stub[RI(q, m)] && len(ring[RI(q, m)]) > 0)
/* what a burst of q could read now */
#define readable(q) (ring_has(q, r_home[q]) || \
		(r_phase[q] == DRAINING && ring_has(q, r_other[q])))
/* a gated burst that would deliver and ack nothing */
#define gate_stuck(q) (f_gated[q] && holds_now(q) && \
		((gate_seq[q] & 1) != 0 || \
		 (gate_limit[q] <= delivered_q(q) && gate_covers[q] <= drain_ack[q]) || \
		 (gate_limit[q] > delivered_q(q) && !readable(q))))
/* whether a burst of q can change anything but statistics */
#define has_work(q) (r_phase[q] == DRAINING || f_drain[q] || \
		settle_wanted[q] > 0 || quiesce_wanted[q] > 0 || \
		(f_gated[q] && !gate_stuck(q)) || (!f_gated[q] && readable(q)))
/* every frame in a ring of a member in service read */
#define ring_idle(q, m) (stub[RI(q, m)] || len(ring[RI(q, m)]) == 0)
#define q_idle(q) (r_phase[q] == STEADY && !f_drain[q] && !f_gated[q] && \
		ring_idle(q, 0) && ring_idle(q, 1) && !has_work(q))
#define quiet (generated == NFRAMES && ctl_done && req_done && fo_done && \
		!pending[0] && !pending[1] && !sweep && !mig_busy && q_idle(0) && q_idle(1))

/* the application takes a frame the burst returned: order per flow */
inline app_take(f, s)
{
	atomic {
		printf("MSC: Q%d delivers flow %d seq %d\n", q, f, s);
		assert(s >= last_seq[f]);
		last_seq[f] = s + 1;
		PROGRESS;
		delivered++
	}
}

/* A member's Rx burst into bf/bs from nb on (one ring dequeue, one step):
 * up to ask frames, possibly fewer while more are pending (mlx5: steps of
 * 4, ring end, replenish limit, mbuf shortage; at least one, or none at
 * most ZEROS times a run); nothing from a stub (octopus_burst_none).
 * count() is part of it (the counters are the poller's own). */
inline hw_rx(q, m, ask)
{
	atomic {
		got = 0;
		if
		:: !stub[RI(q, m)] ->
			lim = len(ring[RI(q, m)]);
			if
			:: ask < lim -> lim = ask
			:: else -> skip
			fi;
			if
			:: lim > 0 && zeros > 0 -> zeros--
			:: lim > 0 -> got = 1;
				do
				:: got < lim -> got++
				:: break
				od
			:: lim == 0 -> skip
			fi;
			i = 0;
			do
			:: i < got -> ring[RI(q, m)]?bf[nb + i], bs[nb + i]; i++
			:: else -> break
			od;
			i = 0;
			lim = 0;
			member_pkts[RI(q, m)] = member_pkts[RI(q, m)] + got
		:: else -> skip
		fi;
		nb = nb + got
	}
}

/* octopus_rxtx.c rx_member_empty(): after a burst of m that returned got
 * (of those asked): out of service, or its queue count is 0 (no count:
 * the burst returned nothing). One step: the NIC may deliver between the
 * burst and the count. */
inline rx_member_empty(q, m)
{
	atomic {
#ifdef BUG_SHORT_EMPTY
		isempty = true
#else
		if
#ifndef BUG_STUB_COUNT
		:: stub[RI(q, m)] -> isempty = true
		:: else ->
#else
		:: true ->
#endif
#ifdef NOCOUNT
			isempty = (got == 0)
#else
			isempty = (len(ring[RI(q, m)]) == 0)
#endif
		fi
#endif
	}
}

/* burst_done(): the poll count the control side waits on */
inline burst_done(q)
{
	atomic {
		if
		:: settle_wanted[q] > 0 -> PROGRESS; settle_wanted[q]--
		:: else -> skip
		fi;
		if
		:: quiesce_wanted[q] > 0 -> PROGRESS; quiesce_wanted[q]--
		:: else -> skip
		fi
	}
}

/* octopus_rxtx.c drain_acked() (tx_settled(): true, Tx is not modelled) */
inline drain_acked(q, a, n)
{
	atomic {
		if
		:: n == 0 ->
			PROGRESS;
			drain_ack[q] = a;
			printf("MSC: Q%d acks drain %d\n", q, a)
		:: else ->
			if
			:: a > ack_next[q] -> ack_next[q] = a
			:: else -> skip
			fi;
			f_drain[q] = true
		fi
	}
}

/* octopus_rxtx.c drain_pos_take(): where request a is served (one step:
 * a count taken later than the request only asks for more) */
inline drain_pos_take(q, a)
{
	atomic {
		drain_pos_req[q] = 0;
		m = 0;
		do
		:: m < NM ->
			drain_pos[RI(q, m)] = member_pkts[RI(q, m)];
			if
			:: (m != h && !(ph == DRAINING && m == o)) || stub[RI(q, m)] -> skip
			:: else ->
#ifdef NOCOUNT
				goto nopos
#else
				drain_pos[RI(q, m)] = drain_pos[RI(q, m)] + len(ring[RI(q, m)])
#endif
			fi;
			m++
		:: else -> break
		od;
		drain_pos_req[q] = a;
nopos:		m = 0
	}
}

#define drain_pos_reached(q) (member_pkts[RI(q, 0)] >= drain_pos[RI(q, 0)] && \
		member_pkts[RI(q, 1)] >= drain_pos[RI(q, 1)])

/* octopus_rxtx.c migration_finish(): DRAINING -> STEADY */
inline migration_finish(q)
{
	atomic {
		PROGRESS;
		r_phase[q] = STEADY;
		r_other[q] = r_home[q];
		printf("MSC: Q%d STEADY(M%d)\n", q, r_home[q])
	}
}

/* octopus_rx_burst() with rx_slow(), rx_draining(), rx_members(),
 * gate_holds(), gate_allowance(); then the application's loop */
proctype Poller(byte q)
{
	byte h, o, ph, a, nb, got, lim, i, m, want, room, covers;
	byte bf[BURST], bs[BURST];
	bool fd, fg, isempty, acking, gated, holds;

	do
	:: atomic { quiet -> pollers_done++; break }
	:: atomic {
		/* queue_home(): one ACQUIRE load of the route */
		has_work(q) ->
		h = r_home[q]; o = r_other[q]; ph = r_phase[q];
		fd = f_drain[q]; fg = f_gated[q];
		nb = 0; want = BURST
	   };
		if
		:: ph == STEADY && !fd && !fg ->
			/* rx_members() (steered: the home only) */
			hw_rx(q, h, BURST)
		:: else ->
			/* rx_slow() */
			if
			:: fd ->
				/* clear, THEN read the request */
				f_drain[q] = false;
				a = drain_req[q];
				atomic {
					acking = true;
					if
					:: ack_next[q] > drain_ack[q] -> drain_acked(q, ack_next[q], 0)
					:: else -> skip
					fi;
					if
					:: a > drain_pos_req[q] && a > drain_ack[q] &&
					   ph != REQUESTED_NOPOS -> drain_pos_take(q, a)
					:: else -> skip
					fi
				}
			:: else -> skip
			fi;
			if
			:: fg ->
				/* gate_holds(): clear F_GATED, check, set it again */
				f_gated[q] = false;
				atomic {
					holds = holds_now(q);
					if
					:: holds -> f_gated[q] = true
					:: else -> skip
					fi
				}
			:: else -> skip
			fi;
			if
			:: holds ->
				/* gate_allowance(): under the seqlock */
				gated = true;
				atomic {
					if
					:: (gate_seq[q] & 1) == 0 ->
						covers = gate_covers[q];
						if
						:: gate_limit[q] > delivered_q(q) ->
							room = gate_limit[q] - delivered_q(q)
						:: else -> room = 0
						fi
					:: else -> room = 0; covers = 0
					fi;
					if
					:: room < BURST -> want = room
					:: else -> skip
					fi
				}
			:: else -> skip
			fi;
			if
			:: want == 0 -> skip
			:: want > 0 && ph == DRAINING ->
				/* rx_draining(): the old member until empty */
				hw_rx(q, o, want);
				if
				:: nb < want ->
					rx_member_empty(q, o);
					if
					:: isempty ->
						migration_finish(q);
						hw_rx(q, h, want - nb)
					:: else -> skip
					fi
				:: else -> skip
				fi
			:: want > 0 && ph != DRAINING ->
				hw_rx(q, h, want)
			fi;
			if
			:: gated && nb == room && covers > drain_ack[q] -> drain_acked(q, covers, nb)
			:: else -> skip
			fi;
			if
			:: acking ->
				/* a short burst with every queue it read empty */
				isempty = false;
				if
				:: want > 0 && nb < want && ph != DRAINING && ph != REQUESTED_NOACK ->
					rx_member_empty(q, h)
				:: else -> skip
				fi;
				atomic {
					if
					:: isempty ->
						if
						:: a > drain_ack[q] -> drain_acked(q, a, nb)
						:: else -> skip
						fi
					:: else ->
						if
						:: drain_pos_req[q] > drain_ack[q] &&
						   drain_pos_req[q] > ack_next[q] &&
						   drain_pos_reached(q) ->
							drain_acked(q, drain_pos_req[q], nb)
						:: else -> skip
						fi
					fi;
#ifndef BUG_NO_REARM
					if
					:: drain_ack[q] < a -> f_drain[q] = true
					:: else -> skip
					fi
#endif
				}
			:: else -> skip
			fi
		fi;
		burst_done(q);
		/* the burst returned: the application takes its frames */
		atomic {
			i = 0;
			do
			:: i < nb -> app_take(bf[i], bs[i]); bf[i] = 0; bs[i] = 0; i++
			:: else -> break
			od;
			h = 0; o = 0; ph = 0; a = 0; nb = 0; got = 0; lim = 0; i = 0;
			want = 0; room = 0; covers = 0;
			fd = false; fg = false; isempty = false; acking = false;
			gated = false; holds = false
		}
	od
}

/* ============================================================== control */

/* octopus_gate.c gate_holds(d, expire = false): the control path's view */
#define ctl_holds(d) (gate_on(d, 1 - (d)))

/* A gated rule change moving flow fl from queue s to queue d (a RETA
 * update or a rule create: octopus_gate_prepare(), the rule change,
 * octopus_gate_finish(changed)) */
inline gated_move(fl, s, d)
{
	/* octopus_gate_prepare(): wait for d to open (its poller is there) */
	!ctl_holds(d);
	/* pair_prepare() under gate_lock: gate_limit_begin(), gate_close() */
	atomic {
		if
		:: !ctl_holds(d) -> gate_seq[d]++
		:: else -> skip
		fi;
		gate_need[GI(d, s)] = NEED_MAX;
		gate_mask[GI(d, s)] = true;
		f_gated[d] = true;
		/* gates_settle(): two more bursts of d's poller */
		settle_wanted[d] = 2
	};
	/* gate_limit_end() under gate_lock, once settled */
	atomic {
		settle_wanted[d] == 0;
		if
		:: (gate_seq[d] & 1) != 0 ->
			gate_covers[d] = drain_req[d];
			gate_limit[d] = delivered_q(d) + len(ring[RI(d, 0)]) + len(ring[RI(d, 1)]);
			gate_seq[d]++
		:: else -> skip
		fi
	};
	/* the rule change: when it returns, the NIC holds no frame classified
	 * by the old rule (one step with the NIC's classification) */
	atomic {
		PROGRESS;
		bucket[fl] = d;
		printf("MSC: rule: flow %d -> Q%d\n", fl, d)
	};
	/* octopus_gate_finish(changed): octopus_gate_pair() under gate_lock */
	atomic {
		nd = drain_req[s] + 1;
		/* gate_limit_set(): d is held by the prepared gate: kept */
		if
		:: !ctl_holds(d) ->
			gate_covers[d] = drain_req[d];
			gate_limit[d] = delivered_q(d) + len(ring[RI(d, 0)]) + len(ring[RI(d, 1)]);
			gate_seq[d] = gate_seq[d] + 2
		:: else -> skip
		fi;
		gate_need[GI(d, s)] = nd;
		gate_mask[GI(d, s)] = true;
		f_gated[d] = true;
		drain_req[s] = nd;
		f_drain[s] = true;
		printf("MSC: gate Q%d on Q%d needs %d\n", d, s, nd);
		nd = 0
	}
}

proctype Control()
{
	byte nd;

#if SCEN == 1
	gated_move(0, 0, 1);
	gated_move(0, 1, 0);
#elif SCEN == 2
	gated_move(0, 0, 1);
#endif
	ctl_done = true
}

/* octopus_migrate.c octopus_migrate_request_member(): STEADY -> REQUESTED
 * (ok: whether it was taken) */
inline request(q, t, ok)
{
	atomic {
		if
		:: r_phase[q] == STEADY && r_home[q] != t && serving[t] ->
			r_phase[q] = REQUESTED;
			r_other[q] = t;
			pending[q] = true;
			ok = true
		:: else -> ok = false
		fi
	}
}

/* octopus_migrate.c migrate_one(): REQUESTED -> DRAINING (Rx, steered) */
inline migrate_one(q)
{
	atomic {
		if
		:: r_phase[q] == REQUESTED && !serving[r_other[q]] ->
			/* the target left service: stay, sweep */
			r_phase[q] = STEADY; r_other[q] = r_home[q]; sweep = true
		:: r_phase[q] == REQUESTED && serving[r_other[q]] ->
			/* octopus_steer_set_home(): the NIC's home rule */
			PROGRESS;
			homerule[q] = r_other[q];
			go = true
		:: else -> skip
		fi
	};
	atomic {
		if
		:: go ->
			/* route_from_requested(DRAINING(target, home)) */
			mh = r_home[q];
			r_home[q] = r_other[q]; r_other[q] = mh; r_phase[q] = DRAINING;
			printf("MSC: Q%d DRAINING(M%d, old M%d)\n", q, r_home[q], mh);
			mh = 0; go = false
		:: else -> skip
		fi
	}
}

/* octopus_migrate.c failover_sweep(), for NQ queues; again: a queue was
 * busy migrating */
inline failover_sweep()
{
	k = 0;
	do
	:: k < NQ ->
		atomic {
			if
			:: !serving[r_home[k]] ->
				/* octopus_member_nearest(): the one serving */
				if
				:: serving[0] -> t = 0
				:: !serving[0] && serving[1] -> t = 1
				:: else -> t = 255
				fi;
				if
				:: t == 255 -> skip
				:: else ->
					request(k, t, ok);
					if
					:: !ok -> again = true
					:: ok && displaced_from[k] == 0 ->
						displaced_from[k] = r_home[k] + 1
					:: else -> skip
					fi
				fi
			:: serving[r_home[k]] && displaced_from[k] != 0 ->
				t = displaced_from[k] - 1;
				if
				:: t == r_home[k] -> displaced_from[k] = 0
				:: t != r_home[k] && serving[t] ->
					request(k, t, ok);
					if
					:: ok -> displaced_from[k] = 0
					:: else -> again = true
					fi
				:: else -> skip
				fi
			:: else -> skip
			fi;
			t = 0; ok = false
		};
		k++
	:: else -> k = 0; break
	od
}

/* the migration thread (octopus_migrate.c migrate_thread) */
proctype MigThread()
{
	byte mh, k, t;
	bool ok, again, go;

	do
	:: atomic { sweep -> sweep = false; again = false; mig_busy = true };
		failover_sweep();
		atomic {
			if
			:: again -> sweep = true; again = false
			:: else -> skip
			fi;
			mig_busy = false
		}
	:: atomic { pending[0] -> pending[0] = false; mig_busy = true };
		migrate_one(0);
		mig_busy = false
	:: atomic { pending[1] -> pending[1] = false; mig_busy = true };
		migrate_one(1);
		mig_busy = false
	:: atomic { quiet -> break }
	od
}

/* the application asks for Q0 on member 1 (rte_pmd_octopus_queue_migrate) */
proctype Requester()
{
	bool ok;

	request(0, 1, ok);
	req_done = true
}

/* octopus_failover.c octopus_member_lost() and octopus_member_back() */
proctype Failover()
{
	byte q, held, stale;

	/* its link goes down: the NIC delivers nothing to it */
	pf_up[1] = false;
	/* 1. out of service; 2. the queues' entries are stubs */
	serving[1] = false;
	for (q : 0 .. NQ - 1) {
		stub[RI(q, 1)] = true
	}
	/* 3. quiesce(): a burst end of each queue's poller */
	atomic {
		quiesce_wanted[0] = 1;
		quiesce_wanted[1] = 1
	};
	(quiesce_wanted[0] == 0 && quiesce_wanted[1] == 0);
	/* rx_held(): what its rings hold is lost */
	atomic {
		held = len(ring[RI(0, 1)]) + len(ring[RI(1, 1)]);
		held_at_loss[1] = held;
#ifndef BUG_LOSS_UNCOUNTED
		lost = lost + held;
#endif
		printf("MSC: M1 lost, %d frame(s) in its rings\n", held)
	};
	/* 4. sweep_request() */
	sweep = true;
#if SCEN == 3
	/* octopus_member_back(): link up, rx_flush(), in service, rebind */
	pf_up[1] = true;
	atomic {
		stale = len(ring[RI(0, 1)]) + len(ring[RI(1, 1)]);
		do
		:: nempty(ring[RI(0, 1)]) -> ring[RI(0, 1)]?_, _
		:: nempty(ring[RI(1, 1)]) -> ring[RI(1, 1)]?_, _
		:: empty(ring[RI(0, 1)]) && empty(ring[RI(1, 1)]) -> break
		od;
		if
		:: stale > held_at_loss[1] -> lost = lost + stale - held_at_loss[1]
		:: else -> skip
		fi
	};
	serving[1] = true;
	for (q : 0 .. NQ - 1) {
		stub[RI(q, 1)] = false
	}
	sweep = true;
#endif
	fo_done = true
}

/* passes its progress label once after each step that moved things on */
proctype Progress()
{
end:	do
	:: atomic { prog -> prog = false };
progress:	skip
	od
}

/* the balance, once everything is done */
proctype Audit()
{
	(pollers_done == NQ);
	assert(generated == NFRAMES);
	assert(delivered + missed + lost == generated)
}

init
{
	byte q, m;

	atomic {
		for (q : 0 .. NQ - 1) {
			/* queue q homed on member q */
			r_home[q] = q;
			r_other[q] = q;
			homerule[q] = q
		}
		for (m : 0 .. NM - 1) {
			serving[m] = true;
			pf_up[m] = true
		}
		bucket[0] = 0;
		bucket[1] = 1;
#if SCEN != 2
		req_done = true;
#endif
#if SCEN != 3 && SCEN != 4
		fo_done = true;
#endif
#if SCEN == 3 || SCEN == 4
		ctl_done = true;
#endif
		run Nic();
		run Control();
		run MigThread();
#if SCEN == 2
		run Requester();
#endif
#if SCEN == 3 || SCEN == 4
		run Failover();
#endif
		for (q : 0 .. NQ - 1) {
			run Poller(q)
		}
		run Audit();
#ifdef NP
		run Progress()
#endif
	}
}
