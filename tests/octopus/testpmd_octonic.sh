#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 Octopus authors
#
# testpmd drives net_octopus over the two PFs of net_octonic (sockets 0 and
# 1, e-switch steering), 4 queues forwarded by lcores of both sockets.
# testpmd sets every queue up on the port's socket (0), so the queues polled
# from socket-1 lcores have a remote home: the port must say so in
# rx_qN_foreign_polls (and not for the others), while steering is active and
# traffic flows (migration=manual: with the default, auto, the queues would
# move to their pollers; testpmd_flow.sh checks that). Run under
# octopus-numa-emu --nodes 2.
set -euo pipefail

. "$(dirname "$0")/../common/testpmd.sh"
tp_begin tpo

tp_start_octopus "$out" 0@0,1@0,2@1,3@0,4@1 "wire=gen,flows=256,gen_rate=100000$octo_dialect" ",migration=manual" \
	--rxq=4 --txq=4 --nb-cores=4 --total-num-mbufs=16384 --forward-mode=io
# forwarding until every queue got 2000 packets (a fifth of a second at
# the generator's rate): its lcore's polls far outnumber those of the main
# lcore's flush
each_queue() {
	tp_xstats $port 2>/dev/null | awk '/^rx_q[0-3]_(local|remote)_packets /{
		split($1, k, "_"); n[k[2]] += $2 }
		END { for (q = 0; q < 4; q++) if (n["q" q] < 2000) exit 1 }'
}
tp_cmd "start"
octo_until "2000 packets on every queue" each_queue
tp_cmd "stop" "show port xstats $port"
tp_quit

xs() { awk -v n="$1:" '$1==n{print $2; exit}' "$out"; }

grep -q "nb forwarding ports=1" "$out" || fail "members visible to testpmd"
[ "$(xs steering_rules)" -gt 0 ] || fail "no steering rules"
fwd_rx=$(awk '/Accumulated forward statistics/{f=1} f&&/RX-packets:/{print $2; exit}' "$out")
[ "${fwd_rx:-0}" -gt 0 ] || fail "nothing forwarded"
# which lcore (and socket) polls which queue, as testpmd reports it
n=0
while read -r sock q; do
	polls=$(xs "rx_q${q}_polls"); foreign=$(xs "rx_q${q}_foreign_polls")
	[ "$polls" -gt 0 ] || fail "queue $q never polled"
	if [ "$sock" = 0 ]; then
		[ "$foreign" -eq 0 ] || fail "queue $q polled from socket 0 (its home): $foreign foreign polls"
		[ "$(xs rx_q${q}_remote_packets)" -eq 0 ] || fail "queue $q: remote packets"
	else
		# all but the few polls of testpmd's main lcore (socket 0)
		# flushing the queues at stop
		[ "$foreign" -gt $((polls * 9 / 10)) ] && [ "$(xs rx_q${q}_remote_packets)" -gt 0 ] ||
			fail "queue $q polled from socket 1: $foreign of $polls polls foreign"
	fi
	n=$((n + 1))
done < <(awk '/Logical Core [0-9]+ \(socket/ { s = $5; gsub(/[^0-9]/, "", s) }
	/RX P=2\/Q=/ { match($0, /Q=[0-9]+/); print s, substr($0, RSTART + 2, RLENGTH - 2) }' "$out" | sort -u)
[ "$n" -eq 4 ] || fail "expected 4 forwarding streams, saw $n"
echo "ok: forwarded $fwd_rx, steering rules $(xs steering_rules)"
