#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 Octopus authors
#
# DPDK's own l3fwd, unmodified, on net_octopus over the two PFs of
# net_octonic (sockets 0 and 1, wire=gen), 4 queues polled by lcores of both
# sockets (l3fwd sets each queue up on its lcore's socket). l3fwd prints no
# counters, so the test watches it from outside through telemetry while it
# runs (the port's Rx/Tx counters, the sink of the NIC's wire, each queue's
# locality in the port's xstats and the NIC's remote-DMA counters of both
# PFs), then stops it with SIGINT and checks it exits cleanly.
#
# Routing: the generator sends to 198.18.0.0/15 and l3fwd's default LPM
# table has 198.18.<port>.0/24 -> <port> for enabled ports, other addresses
# missing the table go back out of the port they came in on: with the
# octopus port (2) the only enabled port, everything it routes leaves
# through port 2, so the NIC's sink counts what l3fwd forwarded.
#
#   l3fwd_octopus.sh <l3fwd binary> [lpm|em] [ipv4|ipv6] [nonuma]
#
# nonuma: l3fwd --no-numa sets every queue up on socket 0 with socket-0
# mbufs, as a NUMA-unaware application would; with the port's
# migration=auto the queues polled from socket 1 (1 and 3) must move to
# PF 1 by themselves and then carry their traffic locally; 0 and 2 stay.
# Run under octopus-numa-emu --nodes 2.
set -euo pipefail

l3fwd=${1:?l3fwd binary}
mode=${2:-lpm}
ipv6=0
[ "${3:-}" = ipv6 ] && ipv6=1
nonuma=0
app_args=()
octopus_args=""
if [ "${4:-}" = nonuma ]; then
	nonuma=1
	app_args=(--no-numa)
	octopus_args=",migration=auto"
fi
. "$(dirname "$0")/../common/test.sh"
octo_app_begin "l3fwd-$mode-$ipv6-$nonuma"
# l3fwd makes its tables on every socket with lcores: measured on hugepages
# at its peak, LPM about 300 MB, LPM6 530 MB, EM's hash tables (1M entries)
# 1190 MB in all.  With hugepages -m is what EAL takes at start (the suite's
# reservation is shared by 2 tests at a time), with --no-huge all it gets.
mem=768
[ "$mode" = em ] && mem=1280
# hugepages or --no-huge, as the project decides (tools/octopus_eal_mem.h)
mem_opt=$("${OCTOPUS_EAL_MEM:?}" "$mem")
"$l3fwd" "$mem_opt" -m "$mem" --no-pci --file-prefix "$prefix" \
	--lcores '0@0,1@1,2@0,3@1' \
	-d "${OCTONIC_PLUGIN:?}" -d "${OCTOPUS_PLUGIN:?}" \
	--vdev "net_octonic0,pfs=2,numa=0:1,wire=gen,flows=256,gen_rate=200000,ipv6=$ipv6,pkt_len=128$octo_dialect" \
	--vdev "net_octopus0,member=net_octonic0_pf0,member=net_octonic0_pf1$octopus_args" \
	-- -p 0x4 -P "${app_args[@]}" --lookup="$mode" --config "($port,0,0),($port,1,1),($port,2,2),($port,3,3)" \
	>"$out" 2>&1 &
pid=$!
octo_pids+=("$pid")

# Wait for the main loops, then let it forward for 2 s more.
main_loops() {
	kill -0 "$pid" 2>/dev/null || fail "l3fwd exited before forwarding"
	[ "$(grep -c 'entering main loop' "$out")" -eq 4 ]
}
octo_until "4 l3fwd lcores in their main loop" main_loops
# nonuma: the queues polled from socket 1 move there first, later on a busy
# host or in a sanitizer build: wait for their migrations (30 s at most), so
# that the 2 s below all come after the moves
if [ "$nonuma" = 1 ]; then
	for _ in $(seq 1 100); do
		xs=$(tq "/ethdev/xstats,$port" 2>/dev/null || true)
		nmig=0
		for k in rx_q1 rx_q3 tx_q1 tx_q3; do
			grep -qE "\"${k}_migrations\": *[1-9]" <<<"$xs" && nmig=$((nmig + 1))
		done
		[ "$nmig" -eq 4 ] && break
		sleep 0.3
	done
fi
# the NIC's counters once the moves are done: what a moved queue DMAs
# across sockets is judged from here on (before, it was remote on purpose)
tq "/octonic/info,0" "/octonic/info,1" >"$work/tel0" || fail "telemetry unreachable"
# the window whose cross-socket DMA is judged
sleep 2
tq "/octonic/info,0" "/octonic/info,1" "/octopus/info,$port" "/ethdev/stats,$port" "/ethdev/xstats,$port" \
	>"$work/tel" || fail "telemetry unreachable"
# until the sink counts more (the check below wants it to grow)
sink_grew() { [ "$(octo_tel "/octonic/info,0" sink_packets)" -gt "$1" ] 2>/dev/null; }
octo_until "packets more at the sink" sink_grew "$(octo_tel "/octonic/info,0" sink_packets || echo 0)"
tq "/octonic/info,0" >"$work/tel2" || fail "telemetry unreachable"

kill -INT "$pid"
rc=0
wait "$pid" || rc=$?
octo_pids=()
[ "$rc" -eq 0 ] || fail "l3fwd exit status $rc after SIGINT"
grep -q "Signal 2 received" "$out" && grep -q "^Bye" "$out" || fail "l3fwd did not stop cleanly"

# Every numeric field of every reply as "<file>:<command>:<key> <value>",
# read once (a python start per value is seconds on a loaded machine).
declare -A T
while read -r k v; do
	T[$k]=$v
done < <(python3 -c 'import json,sys
for f in sys.argv[1:]:
	for l in open(f):
		c, v = l.rstrip("\n").split("\t", 1)
		for k, x in (json.loads(v) or {}).items():
			items = x.items() if isinstance(x, dict) else [("", x)]
			for k2, y in items:
				if isinstance(y, int):
					print("%s:%s:%s%s %d" % (f.rsplit("/", 1)[1], c, k,
						"." + k2 if k2 else "", y))' "$work/tel" "$work/tel2" "$work/tel0")
# tel <command> <key> [file]: a number from a telemetry reply
tel() {
	local k="${3:-tel}:$1:$2"
	[ -n "${T[$k]:-}" ] || { echo "FAIL: telemetry has no $k" >&2; exit 1; }
	echo "${T[$k]}"
}
sink=$(tel "/octonic/info,0" sink_packets)
sink2=$(tel "/octonic/info,0" sink_packets tel2)
opk=$(tel "/ethdev/stats,$port" opackets)
ipk=$(tel "/ethdev/stats,$port" ipackets)
lost=$(tel "/octonic/info,0" sink_lost)
missed=$(( $(tel "/ethdev/xstats,$port" member0_rx_missed) + $(tel "/ethdev/xstats,$port" member1_rx_missed) ))
echo "l3fwd $mode (ipv6=$ipv6 nonuma=$nonuma): rx $ipk tx $opk, sink $sink then $sink2 (lost $lost, missed by the PFs $missed)"
[ "$ipk" -gt 0 ] || fail "port $port received nothing"
[ "$opk" -gt 0 ] || fail "l3fwd sent nothing on port $port"
[ "$sink" -gt 0 ] && [ "$sink2" -gt "$sink" ] || fail "the wire's sink does not see l3fwd's packets grow"
for q in 0 1 2 3; do
	# with --no-numa, the queues whose lcore is on socket 1 start remote
	moved=$((nonuma && q % 2))
	for d in rx tx; do
		loc=$(tel "/ethdev/xstats,$port" "${d}_q${q}_local_packets")
		rem=$(tel "/ethdev/xstats,$port" "${d}_q${q}_remote_packets")
		fp=$(tel "/ethdev/xstats,$port" "${d}_q${q}_foreign_polls")
		[ "$loc" -gt 0 ] || fail "$d queue $q: no packet through its socket's PF"
		if [ "$moved" = 1 ]; then
			mig=$(tel "/ethdev/xstats,$port" "${d}_q${q}_migrations")
			echo "$d queue $q: $mig migrations, $rem remote before, $loc local"
			[ "$mig" -ge 1 ] || fail "$d queue $q polled from socket 1 did not move there"
		else
			[ "$rem" -eq 0 ] || fail "$d queue $q: $rem packets through a remote PF"
			[ "$fp" -eq 0 ] || fail "$d queue $q: $fp polls from the other socket"
		fi
		# the NIC's view: no DMA across sockets on hardware queue q of
		# either PF (Rx uses the port's per-socket pools; a moved queue
		# may send a few socket-0 mbufs received before its move: at
		# most 1% of its local packets, counted from the moves on)
		for pf in 0 1; do
			dma=$(tel "/octonic/info,$pf" "${d}_q${q}.remote_dma_packets")
			if [ "$moved" = 1 ] && [ "$d" = tx ]; then
				dma=$((dma - $(tel "/octonic/info,$pf" "${d}_q${q}.remote_dma_packets" tel0)))
				[ "$dma" -le $((loc / 100)) ] ||
					fail "PF $pf tx queue $q: $dma of $loc packets DMA-ed across sockets after the move"
			else
				[ "$dma" -eq 0 ] || fail "PF $pf $d queue $q: $dma packets DMA-ed across sockets"
			fi
		done
	done
done
echo "ok: l3fwd ($mode, ipv6=$ipv6, nonuma=$nonuma) forwarded on all 4 queues of the octopus port, all socket-local, no remote DMA"
