#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 Octopus authors
#
# testpmd drives net_octopus over two net_null members: io forwarding,
# show port stats / xstats, port stop/start 100 times, close. Fails when
# the port forwards nothing, the counters disagree, a restart fails, or the
# members are visible to testpmd.
set -euo pipefail

plugin=${OCTOPUS_PLUGIN:?OCTOPUS_PLUGIN not set}
. "$(dirname "$0")/../common/testpmd.sh"
octo_prefix tpmd
out=$octo_work/out
# 100 restarts in one wait
OCTO_DEADLINE=60
port=2	# net_null0 = 0, net_null1 = 1, the octopus port after them

# run under octopus-numa-emu (2 nodes, CPU i on node i % 2): the main and
# the forwarding lcore on node 0 (member 0's socket), an idle lcore on node 1
# so that EAL knows node 1 (socket_of= names it)
tp_start "$out" "$("${OCTOPUS_EAL_MEM:?}" 512)" -m 512 --no-pci --file-prefix "$tp_prefix" \
	--lcores 0@0,1@0,2@1 -d "$plugin" --vdev net_null0 --vdev net_null1 \
	--vdev "net_octopus0,member=net_null0,member=net_null1,socket_of=net_null0:0,socket_of=net_null1:1" \
	-- -i --total-num-mbufs=8192 --forward-mode=io --nb-cores=1
tp_cmd "start" "show port stats $port" "stop"
for _ in $(seq 1 100); do
	tp_send "port stop $port" "port start $port"
done
tp_cmd "start" "show port stats $port" "show port xstats $port" "stop" \
	"port stop $port" "port close $port"
tp_quit

# testpmd sees one port: the members are owned by the octopus port
grep -q "nb forwarding ports=1" "$out" || fail "members visible to testpmd"
grep -q "RX P=$port/Q=0" "$out" || fail "octopus port not forwarding"
# io forwarding moved packets, both ways
fwd_rx=$(awk '/Accumulated forward statistics/{f=1} f&&/RX-packets:/{print $2; exit}' "$out")
fwd_tx=$(awk '/Accumulated forward statistics/{f=1} f&&/TX-packets:/{print $2; exit}' "$out")
[ "${fwd_rx:-0}" -gt 0 ] && [ "${fwd_tx:-0}" -gt 0 ] || fail "forwarded rx=$fwd_rx tx=$fwd_tx"
# show port stats: non-zero and growing between the two shows
mapfile -t rx < <(awk '/NIC statistics for port/{f=1} f&&/RX-packets:/{print $2; f=0}' "$out")
[ "${#rx[@]}" -ge 2 ] || fail "show port stats printed ${#rx[@]} times"
[ "${rx[0]}" -gt 0 ] && [ "${rx[1]}" -gt "${rx[0]}" ] || fail "port stats rx ${rx[*]}"
# xstats: member totals, per-queue locality; the queue's packets came
# through member 0 (socket 0, the forwarding lcore's socket) only, locally
xs() { awk -v n="$1:" '$1==n{print $2; exit}' "$out"; }
for n in member0_rx_packets member1_rx_packets rx_q0_local_packets \
	rx_q0_remote_packets rx_q0_polls rx_q0_foreign_polls tx_q0_local_packets; do
	[ -n "$(xs $n)" ] || fail "xstat $n missing"
done
[ "$(xs rx_q0_local_packets)" -gt 0 ] || fail "no local Rx packets"
[ "$(xs rx_q0_remote_packets)" -eq 0 ] || fail "remote Rx packets $(xs rx_q0_remote_packets)"
[ "$(xs rx_q0_foreign_polls)" -eq 0 ] || fail "foreign polls $(xs rx_q0_foreign_polls)"
[ "$(xs member1_rx_packets)" -eq 0 ] || fail "member1 received $(xs member1_rx_packets)"
[ "$(xs rx_q0_member0_packets)" -eq "$(xs rx_q0_local_packets)" ] || fail "member0 vs local"
# 100 stop/start cycles (plus the first start), then close
starts=$(grep -c "^Port $port: [0-9A-F:]*$" "$out" || true)
[ "$starts" -ge 101 ] || fail "port started $starts times, expected 101"
grep -qi "fail" "$out" && fail "a command failed"
grep -q "Port $port is closed" "$out" || fail "port not closed"
echo "ok: forwarded $fwd_rx, $starts starts, closed"
