#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 Octopus authors
#
# The drain on real bursts: testpmd (io forwarding,
# unmodified) on net_octopus over the NIC model under dialect=mlx5-hws with
# its datapath realism (the Rx ring kept as mlx5's, Tx completions every 32
# descriptors, no tx_done_cleanup) and Rx bursts in steps of STEP
# (rx_step=), while the burst size changes (`set burst`) through BURSTS
# and, at each, the traffic changes queue: the forwarding lcores swap
# sockets (the queues migrate), the RETA turns over, an all-UDP rule and an
# RSS rule are made and destroyed (the flow gate).
#
#   testpmd_burst_matrix.sh STEP BURST...
#
# Asserted, over the whole run:
#  - every burst size forwards (packets reach the sink at each);
#  - 0 out of order at the model's sink;
#  - an exact balance once the generator (gen_limit) is done: generated =
#    at the sink + counted drops, each drop with its reason (the PFs' Rx
#    ring full or no queue, no mbuf, their Tx errors, the wire's drops,
#    testpmd's own Tx drops); a frame left in a ring no one reads is lost;
#  - 0 gate timeouts: a gate that opened on its timeout did not keep order
#    by draining, whatever the sink saw (a source whose Tx queue went quiet
#    with fewer than 32 descriptors pending, whose completions mlx5 never
#    reports, is one; so is an lcore starved for 50 ms: run it alone).
# Coverage: every burst size at each step (one testpmd per step, `set
# burst` between), each with 8 changes: 2 migrations, 2 RETA turns, 2
# rules made and destroyed.
# Run under octopus-numa-emu --nodes 2.
set -euo pipefail

step=${1:?rx step}
shift
[ $# -gt 0 ] || { echo "usage: $0 STEP BURST..."; exit 2; }
. "$(dirname "$0")/../common/testpmd.sh"
. "$(dirname "$0")/../common/testpmd_changes.sh"
port=2	# net_octonic0_pf0 = 0, _pf1 = 1, the octopus port after them
a=1	# on socket 0
b=2	# on socket 1
rate=100000
# enough for every phase at this rate on a loaded host; the end waits for
# the rest (OCTO_BURST_LIMIT: fewer for a run of few bursts)
limit=${OCTO_BURST_LIMIT:-3000000}

# "key value" lines of the counters judged, from telemetry (one query)
counts() {
	"$octo_lib/apps/telemetry_query.py" --flat "$tp_prefix" "/octonic/info,0" \
		"/ethdev/xstats,0" "/ethdev/xstats,1" "/ethdev/xstats,$port" |
		awk '{ cmd = $1; k = $1; sub(/:.*/, "", cmd); sub(/^[^:]*:/, "", k) }
			k == "generated" { gen = $2 }
			k == "sink_packets" { sink = $2 }
			k == "sink_out_of_order" { ooo = $2 }
			cmd ~ /xstats,[01]$/ && (k == "rx_missed_errors" ||
				k == "rx_mbuf_allocation_errors" || k == "tx_errors" ||
				k == "rx_flow_drop_packets") { drops += $2 }
			cmd ~ /xstats,0$/ && (k == "wire_drop_packets" ||
				k == "wire_mac_drop_packets") { drops += $2 }
			cmd ~ /xstats,[01]$/ && k == "rx_missed_errors" { missed += $2 }
			cmd ~ /xstats,2$/ && k ~ /^[^.]*_gate_timeouts$/ { tmo += $2 }
			END { printf "%d %d %d %d %d %d\n", gen, sink, ooo, drops,
				missed, tmo }'
}
read_counts() {
	read -r gen sink ooo drops missed tmo < <(counts 2>/dev/null)
}
sink_above() { read_counts && [ "$sink" -gt "$1" ]; }
gen_done() { read_counts && [ "$gen" -ge "$limit" ]; }
# testpmd's own drops (a Tx burst that took fewer than given): the sum of
# its forward statistics, printed at each stop
tp_dropped() {
	awk '/Accumulated forward statistics/ { acc = 1 }
		acc && /TX-dropped:/ { for (i = 1; i < NF; i++)
			if ($i == "TX-dropped:") s += $(i + 1); acc = 0 }
		END { print s + 0 }' "$out"
}
# the sink and the drops stop moving: nothing left in flight
settled() {
	read_counts || return 1
	local now="$sink $drops"
	[ "$now" = "${last:-}" ] && return 0
	last=$now
	sleep 0.3
	return 1
}

octo_prefix "tpburst-$step"
out="$octo_work/out"
tp_start_octopus "$out" 0@0,1@0,2@1 "wire=gen,flows=256,dialect=mlx5-hws,xmeta=4,rx_step=$step,gen_rate=$rate,gen_limit=$limit" ",migration=auto" \
	--rxq=2 --txq=2 --nb-cores=2 --total-num-mbufs=16384 \
	--forward-mode=io --no-flush-rx --burst="$1"
# the datapath under test is mlx5's
dp=$("$octo_lib/apps/telemetry_query.py" --flat "$tp_prefix" "/octonic/info,0" |
	awk '{ k = $1; sub(/^[^:]*:/, "", k) } k ~ /^(rx_step|tx_comp_every|tx_cleanup)$/ { printf "%s=%s ", k, $2 }')
echo "PF0 datapath: $dp"
case "$dp" in
*"rx_step=$step "*"tx_comp_every=32 "*"tx_cleanup=0 "*) ;;
*) fail "the model's datapath is not mlx5's with rx_step=$step: $dp" ;;
esac
tp_cmd "set corelist $a,$b" "start"
octo_until "packets at the sink" sink_above 0
t0=$SECONDS
for burst in "$@"; do
	read_counts || fail "telemetry unreachable"
	if [ "$gen" -ge "$limit" ]; then
		# the changes would see no traffic: not a judgement
		echo "SKIP: the generator ran out before --burst=$burst (host too slow)"
		exit 77
	fi
	tb=$SECONDS
	tp_cmd "stop" "set burst $burst" "start"
	read_counts || fail "telemetry unreachable"
	ooo0=$ooo tmo0=$tmo sink0=$sink
	for change in swap reta flow rss flow rss swap reta; do
		case $change in
		reta) reta $((RANDOM % 2)) ;;
		*) $change ;;
		esac
		# the traffic between two changes, under test
		sleep 0.1
	done
	changes_end
	tp_cmd
	# this burst size forwards: 10000 packets more
	read_counts || fail "telemetry unreachable"
	octo_until "10000 packets more at the sink with --burst=$burst" sink_above $((sink + 10000))
	printf 'rx_step=%s burst %-3s: %s at the sink, %s out of order, %s gate timeouts, generated %s, %s s\n' \
		"$step" "$burst" $((sink - sink0)) $((ooo - ooo0)) $((tmo - tmo0)) "$gen" $((SECONDS - tb))
done
echo "changes done in $((SECONDS - t0)) s, generated $gen of $limit"
# the generator's end (at the rate it kept so far, twice the time), then
# everything in flight delivered or dropped
OCTO_DEADLINE=$(( (limit - gen) * 2 * (SECONDS - t0 + 1) / (gen + 1) + 30 )) \
	octo_until "the generator's end" gen_done
octo_until "the sink and the drops settled" settled
tp_cmd "stop" "show port xstats $port"
read_counts || fail "telemetry unreachable"
tpd=$(tp_dropped)
tp_quit
grep -q "Flow rule #0 created" "$out" || fail "flow create refused"
if grep -q "bad arguments\|Bad arguments\|Failed to update RSS redirection table" "$out"; then
	fail "a command was refused"
fi
lost=$((gen - sink - drops - tpd))
echo "generated $gen = at the sink $sink + NIC drops $drops (Rx missed $missed) + testpmd Tx drops $tpd + lost $lost"
echo "out of order $ooo, gate timeouts $tmo"
[ "$ooo" = 0 ] || fail "$ooo packets out of order at the sink"
[ "$lost" = 0 ] || fail "$lost packets lost (not at the sink, no drop counted)"
[ "$tmo" = 0 ] || fail "$tmo gates opened on their timeout: order kept by chance"
echo "ok: rx_step=$step, bursts $*: 0 out of order, 0 lost, 0 gate timeouts"
