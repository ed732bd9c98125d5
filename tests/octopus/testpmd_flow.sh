#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 Octopus authors
#
# testpmd: an rte_flow rule on the net_octopus port sends one generated flow
# to queue 2, then the forwarding lcores change to the other socket's
# (`set corelist`): the queues follow (migrations in xstats, no remote
# packets once they moved) and the flow still reaches queue 2 only.
# RETA leaves queue 2 out of the default buckets, so queue 2's packets are
# exactly the flow's, which the rule's COUNT must match. Run under
# octopus-numa-emu --nodes 2.
set -euo pipefail
# testpmd's output is block-buffered into the pipe while the command line
# echoes each command at once: line buffering (stdbuf) keeps the xstats
# lines whole.

. "$(dirname "$0")/../common/testpmd.sh"
tp_begin tpf 120

# flow 0 of the generator
read -r src_ip src_port < <(tp_gen_flow 0)

# 64 buckets over queues 0, 1, 3: none to queue 2 (16 entries per command:
# testpmd's command line is short)
qs=(0 1 3)
mapfile -t reta_cmds < <(tp_reta_cmds $port 64 'qs[b % 3]')

tp_start_octopus "$out" 0@0,1@0,2@1,3@0,4@1 "wire=gen,flows=256,gen_rate=100000$octo_dialect" ",migration=auto" \
	--rxq=4 --txq=4 --nb-cores=2 --total-num-mbufs=16384 --forward-mode=io --no-flush-rx

# forwarding until queue 2 received $1 packets more
q2_forward() {
	local n0
	# packets queue 2 received (the flow's: at most 400/s)
	n0=$(tp_rxq $port 2) || true
	tp_cmd "start"
	octo_until "$1 packets more on queue 2" tp_rxq_above $port 2 $((n0 + $1))
	tp_cmd "stop" "show port xstats $port"
}
all_moved() {
	tp_xstats $port 2>/dev/null | awk '/^rx_q[0-3]_migrations /{if ($2 > 0) n++}
		END{exit n != 4}'
}

tp_cmd "set corelist 1,3"			# socket 0
tp_cmd "${reta_cmds[@]}"
tp_cmd "show port $port rss reta 64 (0xffffffffffffffff)"
tp_cmd "flow create $port ingress pattern eth / ipv4 src is $src_ip / udp src is $src_port / end actions count / queue index 2 / end"
q2_forward 100					# snapshot 1
tp_cmd "set corelist 2,4"			# socket 1: the queues follow
tp_cmd "start"
octo_until "a move of every Rx queue" all_moved
tp_cmd "stop" "show port xstats $port"		# snapshot 2
q2_forward 50		# snapshot 3: after the moves, what they left behind
q2_forward 150		# snapshot 4: no remote packets since snapshot 3
tp_cmd "flow query $port 0 count"
tp_quit

# value of xstat $1 in snapshot $2 (1: socket 0 lcores; 2, 3, 4: socket 1)
xs() {
	awk -v n="$1:" -v k="$2" '/NIC extended statistics for port/{s++} s==k && $1==n {print $2; exit}' "$out"
}
grep -q "Flow rule #0 created" "$out" || fail "flow create refused"
hits=$(awk '/COUNT:/{f=1} f&&/hits:/{print $2; exit}' "$out")
q2=$(( $(xs rx_q2_local_packets 4) + $(xs rx_q2_remote_packets 4) ))
q2_before=$(( $(xs rx_q2_local_packets 3) + $(xs rx_q2_remote_packets 3) ))
q2_first=$(( $(xs rx_q2_local_packets 1) + $(xs rx_q2_remote_packets 1) ))
[ "$q2_first" -gt 0 ] || fail "the flow did not reach queue 2 on socket 0 lcores"
[ "$q2" -gt "$q2_before" ] || fail "the flow did not reach queue 2 after the move ($q2_before -> $q2)"
# queue 2 gets only what the rule matched: at most its count (a few may
# still sit in the ring: --no-flush-rx keeps testpmd's main lcore, on
# socket 0, from polling the queues at start)
[ "$q2" -le "${hits:-0}" ] && [ "$q2" -ge $(( ${hits:-0} * 9 / 10 )) ] ||
	fail "queue 2 got $q2 packets, the rule counted ${hits:-none}"
for q in 0 1 2 3; do
	m=$(xs "rx_q${q}_migrations" 4)
	[ "${m:-0}" -ge 1 ] || fail "rx queue $q: no migration after set corelist (${m:-no xstat})"
	for d in rx tx; do
		r3=$(xs "${d}_q${q}_remote_packets" 3); r4=$(xs "${d}_q${q}_remote_packets" 4)
		[ "$r3" -eq "$r4" ] || fail "$d queue $q: remote packets grew after the move ($r3 -> $r4)"
	done
done
fwd=$(awk '/Accumulated forward statistics/{f=1} f&&/RX-packets:/{v=$2} END{print v+0}' "$out")
echo "ok: flow $src_ip:$src_port -> queue 2: $q2 packets = rule count $hits; forwarded $fwd (last run)"
