#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 Octopus authors
#
# Order on the wire through testpmd (unmodified) forwarding net_octopus:
# the NIC model's sink checks every generated flow's order (telemetry
# /octonic/info,0 sink_out_of_order) while the traffic changes queue, one
# kind of change per phase, then all interleaved:
#   corelist  `set corelist` swaps the two forwarding lcores (stop/start;
#             with one lcore per socket the queues migrate, migration=auto)
#   reta      `port config 2 rss reta`: every bucket to the other queue
#   flow      `flow create` of a rule taking all UDP to one queue, then
#             `flow destroy` (a wide pattern: traffic of both queues)
#   rss       the same with a rule spreading all IPv4 over both queues
#             (RSS, the queues in either order)
#   all       the four interleaved
# Every phase must leave 0 packets out of order at the sink and no gate
# opened on its timeout: the test causes none, and a gate that times out
# may reorder (a run with a timeout is a failure, not a run to repeat or
# skip).
#
#   testpmd_order.sh io|mac 1|2 [full|reorders]
# forwarding mode; lcores on 1 or 2 sockets; the generator at 100k packets/s,
# or (full) as fast as it can, more than the forwarding lcores take: the
# source of a moved flow then never runs empty. Run under octopus-numa-emu
# --nodes 2.
# reorders: the negative control, for a model made to break the port's
# promise (a NIC reading Tx posts later than the port waits for them): it
# passes only if frames come out of order at the sink while no gate opened
# on its timeout, so the reordering is the one the control is about (a
# crash, a refused command or a timed-out gate fails it, as in the test).
set -euo pipefail

mode=${1:?io or mac}
sockets=${2:?1 or 2}
rate=,gen_rate=100000
expect=order
case ${3:-} in
'') ;;
full) rate= ;;
reorders) expect=reorders ;;
*) echo "usage: $0 io|mac 1|2 [full|reorders]" >&2; exit 2 ;;
esac
. "$(dirname "$0")/../common/testpmd.sh"
. "$(dirname "$0")/../common/testpmd_changes.sh"
port=2	# net_octonic0_pf0 = 0, _pf1 = 1, the octopus port after them
# lcores 1, 3 on socket 0; 2, 4 on socket 1
if [ "$sockets" = 1 ]; then a=1; b=3; else a=1; b=2; fi

# "<out of order at the sink> <gate timeouts> <packets at the sink>" now,
# from telemetry (one query: this runs in polling loops)
counts() {
	"$octo_lib/apps/telemetry_query.py" --flat "$tp_prefix" "/octonic/info,0" "/ethdev/xstats,$port" |
		awk '{ k = $1; sub(/^[^:]*:/, "", k) }
			k == "sink_out_of_order" { ooo += $2 }
			k == "sink_packets" { pkts += $2 }
			k ~ /^[^.]*_gate_timeouts$/ { tmo += $2 }
			END { print ooo + 0, tmo + 0, pkts + 0 }'
}

# reads the counts into ooo tmo pkts; true once pkts is above $1
sink_above() {
	read -r ooo tmo pkts < <(counts 2>/dev/null) && [ "$pkts" -gt "$1" ]
}

run() {
	local out="$octo_work/out.$1" phase i ooo tmo ooo0 tmo0 pkts total_ooo=0 total_tmo=0
	octo_prefix "tpord-$mode-$sockets-$1"
	tp_start_octopus "$out" 0@0,1@0,2@1,3@0,4@1 "wire=gen,flows=256$rate$octo_dialect" ",migration=auto" \
		--rxq=2 --txq=2 --nb-cores=2 --total-num-mbufs=16384 \
		--forward-mode="$mode" --no-flush-rx
	tp_cmd "set corelist $a,$b" "start"
	octo_until "packets at the sink" sink_above 0
	read -r ooo0 tmo0 pkts < <(counts) || fail "telemetry unreachable"
	for phase in baseline corelist reta flow rss all; do
		for i in $(seq 0 7); do
			case $phase in
			baseline) ;;
			corelist) [ $((i % 2)) = 0 ] && swap ;;
			reta) reta $((i + 1)) ;;
			flow) flow ;;
			rss) rss ;;
			all)
				case $((i % 4)) in
				0) swap ;;
				1) reta $((i + 1)) ;;
				2) [ $((rss_n % 2)) = 0 ] && flow ;;
				3) [ $((flow_n % 2)) = 0 ] && rss ;;
				esac
				;;
			esac
			# the traffic between two changes, under test
			sleep 0.1
		done
		# no rule left over
		changes_end
		# every change answered, then 20000 packets more (0.2 s of the
		# throttled generator) through the queues as they are
		tp_cmd
		read -r ooo tmo pkts < <(counts) || fail "telemetry unreachable"
		octo_until "20000 packets more at the sink" sink_above $((pkts + 20000))
		printf 'run %s %s %s sockets %-8s: %s out of order at the sink, %s gate timeouts\n' \
			"$1" "$mode" "$sockets" "$phase" $((ooo - ooo0)) $((tmo - tmo0))
		total_ooo=$((total_ooo + ooo - ooo0))
		total_tmo=$((total_tmo + tmo - tmo0))
		ooo0=$ooo
		tmo0=$tmo
	done
	tp_cmd "stop" "show port xstats $port"
	tp_quit
	grep -q "Flow rule #0 created" "$out" || fail "flow create refused"
	grep -q "Flow rule #0 destroyed" "$out" || fail "flow destroy refused"
	if grep -q "bad arguments\|Bad arguments\|Failed to update RSS redirection table" "$out"; then
		fail "a command was refused"
	fi
	[ "$total_tmo" = 0 ] ||
		fail "$total_tmo gate(s) opened on their timeout ($total_ooo packets out of order at the sink)"
	if [ "$expect" = reorders ]; then
		[ "$total_ooo" -gt 0 ] || fail "no packet out of order at the sink: the control shows nothing"
		echo "ok: $mode forwarding, lcores on $sockets socket(s): $total_ooo out of order" \
			"at the sink, no gate timeout (the reordering the control expects)"
	else
		[ "$total_ooo" = 0 ] || fail "$total_ooo packets out of order at the sink"
		echo "ok: $mode forwarding, lcores on $sockets socket(s): 0 out of order at the sink," \
			"no gate timeout"
	fi
}

run 1
