#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 Octopus authors
#
# examples/octopus_fwd on net_octopus over the two PFs of net_octonic
# (sockets 0 and 1, wire=gen): 4 worker lcores, 2 per socket, one queue each.
# Asserts that every queue forwarded, that each queue's home is the PF of its
# lcore's socket with no packet through the other PF (the app's report, from
# rte_pmd_octopus_locality_get), that the NIC did no remote DMA on any queue
# of either PF (its telemetry, read while the app runs), that what was sent
# reached the wire, and that SIGINT stops the app cleanly.
#
#   octopus_fwd.sh <octopus_fwd binary> [route]
# With a route (e.g. 10.0.0.0/8=2) no generated packet matches: the test
# then asserts every packet was dropped as unroutable and none sent.
# Run under octopus-numa-emu --nodes 2.
set -euo pipefail

app=${1:?octopus_fwd binary}
route=${2:-}
. "$(dirname "$0")/../common/test.sh"
octo_app_begin fwd
# hugepages or --no-huge, as the project decides (tools/octopus_eal_mem.h)
mem_opt=$("${OCTOPUS_EAL_MEM:?}" 512)
"$app" "$mem_opt" -m 512 --no-pci --file-prefix "$prefix" \
	--lcores '0@0,1@0,2@1,3@0,4@1' \
	-d "${OCTONIC_PLUGIN:?}" \
	--vdev "net_octonic0,pfs=2,numa=0:1,wire=gen,flows=256,gen_rate=200000$octo_dialect" \
	--vdev net_octopus0,member=net_octonic0_pf0,member=net_octonic0_pf1 \
	-- ${route:+-r "$route"} >"$out" 2>&1 &
pid=$!
octo_pids+=("$pid")
forwarding() {
	kill -0 "$pid" 2>/dev/null || fail "octopus_fwd exited early"
	grep -q "^forwarding on 4 lcores" "$out"
}
octo_until "forwarding" forwarding
# traffic until every queue received 1000 packets, and sent 1000 unless
# nothing routes
busy() {
	"$octo_lib/apps/telemetry_query.py" --flat "$prefix" "/ethdev/xstats,$port" 2>/dev/null | awk -v tx="${route:+0}" '
		sub(/^[^:]*:/, "") && /^(rx|tx)_q[0-3]_local_packets / && $2 >= 1000 {
			split($1, k, "_"); n[k[1]]++ }
		END { exit !(n["rx"] == 4 && (tx == "0" || n["tx"] == 4)) }'
}
octo_until "1000 packets through every queue" busy
"$octo_lib/apps/telemetry_query.py" "$prefix" "/octonic/info,0" "/octonic/info,1" >"$work/tel" ||
	fail "telemetry unreachable"
kill -INT "$pid"
rc=0
wait "$pid" || rc=$?
octo_pids=()
[ "$rc" -eq 0 ] || fail "exit status $rc after SIGINT"
grep -q "^bye" "$out" || fail "no clean stop"

# The NIC's own view: no queue of either PF DMA-ed to or from the other
# socket's memory; the sink counts what reached the wire.
read -r remote sink < <(python3 -c 'import json,sys
rem = sink = 0
for l in open(sys.argv[1]):
	v = json.loads(l.split("\t", 1)[1])
	sink = max(sink, v.get("sink_packets", 0))
	rem += sum(c["remote_dma_packets"] for k, c in v.items()
		if isinstance(c, dict) and k[:4] in ("rx_q", "tx_q"))
print(rem, sink)' "$work/tel")
echo "NIC: remote DMA packets $remote, sink $sink"
[ "$remote" -eq 0 ] || fail "$remote packets DMA-ed across sockets"

# kv <line> <key>
kv() { sed -n "s/.* $2=\([^ ]*\).*/\1/p" <<<"$1"; }
declare -A sock
n=0
while read -r line; do
	q=$(kv "$line" queue); s=$(kv "$line" socket); sock[$q]=$s
	rx=$(kv "$line" rx); tx=$(kv "$line" tx)
	echo "queue $q (socket $s): rx $rx tx $tx no_route $(kv "$line" no_route)"
	[ "$(kv "$line" bad)" -eq 0 ] || fail "queue $q: bad packets: $line"
	[ "$rx" -gt 0 ] || fail "queue $q received nothing"
	if [ -n "$route" ]; then
		[ "$tx" -eq 0 ] && [ "$(kv "$line" no_route)" -eq "$rx" ] ||
			fail "queue $q: with route $route all must be unroutable: $line"
	else
		[ "$(kv "$line" no_route)" -eq 0 ] || fail "queue $q: unroutable packets: $line"
		[ "$tx" -gt 0 ] && [ $((tx + $(kv "$line" tx_drop))) -eq "$rx" ] ||
			fail "queue $q: sent + dropped at Tx != received: $line"
	fi
	n=$((n + 1))
done < <(grep "^queue port=$port " "$out")
[ "$n" -eq 4 ] || fail "expected 4 queue reports, saw $n"
[ "${sock[0]}${sock[1]}${sock[2]}${sock[3]}" = 0101 ] || fail "lcores not on sockets 0,1,0,1"

m=0
while read -r line; do
	q=$(kv "$line" queue); d=$(kv "$line" dir)
	[ "$(kv "$line" home_socket)" = "${sock[$q]}" ] || fail "$d queue $q: home not on its lcore's socket: $line"
	if [ -n "$route" ] && [ "$d" = tx ]; then
		# nothing routed: the app never called Tx
		[ "$(kv "$line" polls)" -eq 0 ] || fail "tx queue $q: sent with no route: $line"
	else
		[ "$(kv "$line" poller_socket)" = "${sock[$q]}" ] || fail "$d queue $q: poller socket: $line"
	fi
	[ "$(kv "$line" remote)" -eq 0 ] || fail "$d queue $q: packets through a remote PF: $line"
	[ "$(kv "$line" foreign_polls)" -eq 0 ] || fail "$d queue $q: polls from another socket: $line"
	if [ -z "$route" ] || [ "$d" = rx ]; then
		[ "$(kv "$line" local)" -gt 0 ] || fail "$d queue $q: no local packet: $line"
	fi
	m=$((m + 1))
done < <(grep "^locality port=$port " "$out")
[ "$m" -eq 8 ] || fail "expected 8 locality reports (4 queues x rx/tx), saw $m"
if [ -z "$route" ]; then
	[ "$sink" -gt 0 ] || fail "nothing reached the wire"
else
	[ "$sink" -eq 0 ] || fail "$sink packets reached the wire with no route"
fi
echo "ok: octopus_fwd${route:+ (route $route)}: 4 queues, socket-local, no remote DMA"
