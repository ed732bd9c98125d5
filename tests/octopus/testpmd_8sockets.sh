#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 Octopus authors
#
# testpmd (unmodified) on 8 sockets: net_octopus over the 8 PFs of one
# net_octonic NIC (PF k on socket k), 8 queues, one forwarding lcore on each
# socket (lcore k+1 on socket k), migration=auto, io forwarding. Run under
# octopus-numa-emu --nodes 8 (one emulated CPU per socket on any machine).
#   1. settled: each queue q is polled from socket q and served there: over
#      a window, its packets come through PF q only (the PFs' own rx_qN
#      counters), and no PF counts a remote DMA or a remote poll on any
#      queue, Rx or Tx; the port counts no remote packet and no foreign poll;
#   2. RETA: every bucket rewritten (a permutation over the 8 queues):
#      traffic reaches all 8 queues again, still all local;
#   3. a queue moved between two sockets: `set corelist` swaps the lcores of
#      queues 0 and 7 (sockets 0 and 7), the queues follow their pollers:
#      queue 0 now comes through PF 7, queue 7 through PF 0, still local;
# and the NIC's sink (on the wire) sees nothing out of order and loses
# nothing the NIC did not count dropping (rings full while a poller waits
# for a CPU), from start to end, and no gate opens on its timeout: the test
# causes none (a poller the host deschedules is waited for), and a gate that
# opened may reorder, so it is a failure, not a phase left unjudged. Waits
# are bounded by deadlines, not fixed sleeps.
set -euo pipefail

# every wait: a settle may take this long (2 CPUs, 9 lcores)
: "${OCTO_DEADLINE:=${OCTOPUS_8S_LIMIT:-40}}"
. "$(dirname "$0")/../common/testpmd.sh"
octo_prefix tp8
npf=8
port=$npf	# the PFs are ports 0..7, the octopus port after them
work=$octo_work
out=$work/out
# why the last window was not all local, printed by fail
octo_logs+=("$work/why")

members=""
numa=""
for ((k = 0; k < npf; k++)); do
	members+=",member=net_octonic0_pf$k"
	numa+="${numa:+:}$k"
done
lcores="0@0"
for ((k = 0; k < npf; k++)); do lcores+=",$((k + 1))@$k"; done

# Every counter the checks read, one "<command>:<key> <n>" a line.
snap() {
	local cmds=(/octonic/info,0 "/ethdev/xstats,$port" "/ethdev/stats,$port") k
	for ((k = 0; k < npf; k++)); do cmds+=("/ethdev/xstats,$k"); done
	"$octo_lib/apps/telemetry_query.py" --flat "$tp_prefix" "${cmds[@]}" >"$1"
}
# value of <command>:<key> in a snapshot (0 when absent)
val() { awk -v k="$2:$3" '$1==k{v=$2} END{print v+0}' "$1"; }
# its growth from snapshot $1 to $2
dv() { echo $(( $(val "$2" "$3" "$4") - $(val "$1" "$3" "$4") )); }

# socket of each queue's poller, from testpmd's forwarding configuration
# (the last one it printed): "Logical Core N (socket S) forwards ... RX P=8/Q=q"
declare -a sock_of
read_streams() {
	local s q
	sock_of=()
	while read -r s q; do sock_of[$q]=$s; done < <(awk -v p="$port" '
		/Logical Core [0-9]+ \(socket/ { s = $5; gsub(/[^0-9]/, "", s) }
		$0 ~ "RX P=" p "/Q=" { match($0, /Q=[0-9]+/); last[substr($0, RSTART + 2, RLENGTH - 2)] = s }
		END { for (q in last) print last[q], q }' "$out")
	[ "${#sock_of[@]}" = "$npf" ] || fail "testpmd shows ${#sock_of[@]} forwarding streams, not $npf"
}

# Whether the window from snapshot $1 to $2 is all local: queue q's Rx
# through PF sock_of[q] alone, no remote DMA or poll anywhere, no foreign
# poll or remote packet on the port. Prints why not.
local_window() {
	python3 - "$1" "$2" "$npf" "$port" "${sock_of[@]}" <<'PY'
import sys
a_file, b_file, npf, port = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
sock_of = [int(s) for s in sys.argv[5:]]
def load(path):
    v = {}
    for line in open(path):
        k, _, n = line.rpartition(" ")
        v[k] = int(n)
    return v
a, b = load(a_file), load(b_file)
def d(cmd, key):
    k = "%s:%s" % (cmd, key)
    return b.get(k, 0) - a.get(k, 0)
why = []
for q in range(npf):
    for p in range(npf):
        n = d("/ethdev/xstats,%d" % p, "rx_q%d_dma_packets" % q)
        if p == sock_of[q] and n <= 0:
            why.append("queue %d: nothing through PF %d (its poller's socket)" % (q, p))
        elif p != sock_of[q] and n != 0:
            why.append("queue %d: %d packets through PF %d, its poller is on socket %d"
                       % (q, n, p, sock_of[q]))
        for c in ("rx_q%d_remote_dma_packets", "rx_q%d_remote_polls",
                  "tx_q%d_remote_dma_packets", "tx_q%d_remote_polls"):
            n = d("/ethdev/xstats,%d" % p, c % q)
            if n:
                why.append("PF %d: %s grew by %d" % (p, c % q, n))
    for c in ("rx_q%d_remote_packets", "rx_q%d_foreign_polls"):
        n = d("/ethdev/xstats," + port, c % q)
        if n:
            why.append("port: %s grew by %d" % (c % q, n))
print("; ".join(why))
sys.exit(1 if why else 0)
PY
}

# A window of 1 s (measured: snapshots $work/$1.a and $work/$1.b around
# it) that is all local; why not in $work/why.
local_1s() {
	snap "$work/$1.a"
	sleep 1
	snap "$work/$1.b"
	local_window "$work/$1.a" "$work/$1.b" >"$work/why"
}
# Wait for such a window; its snapshots stay in $work/$1.a and $work/$1.b.
settle() {
	octo_until "$1: an all-local window" local_1s "$1"
	echo "$1: all local at ${SECONDS} s (queue q through PF ${sock_of[*]})"
	phase_order "$1"
}

# Out of order at the sink and gate timeouts in phase $1 (since the
# previous phase's end), kept in $work/$1.order: "<out of order> <timeouts>"
prev_ooo=0
prev_tmo=0
phase_order() {
	local b="$work/$1.b" ooo tmo q
	ooo=$(val "$b" /octonic/info,0 sink_out_of_order)
	tmo=0
	for ((q = 0; q < npf; q++)); do
		tmo=$((tmo + $(val "$b" "/ethdev/xstats,$port" "rx_q${q}_gate_timeouts")))
	done
	echo "$((ooo - prev_ooo)) $((tmo - prev_tmo))" >"$work/$1.order"
	echo "$((ooo - prev_ooo)) out of order at the sink, $((tmo - prev_tmo)) gate timeouts"
	prev_ooo=$ooo
	prev_tmo=$tmo
}

tp_start "$out" "$("${OCTOPUS_EAL_MEM:?}" 1024)" -m 1024 --no-pci --file-prefix "$tp_prefix" \
	--lcores "$lcores" -d "${OCTONIC_PLUGIN:?}" -d "${OCTOPUS_PLUGIN:?}" \
	--vdev "net_octonic0,pfs=$npf,numa=$numa,wire=gen,flows=512,gen_rate=5000$octo_dialect" \
	--vdev "net_octopus0$members" \
	-- -i --rxq=$npf --txq=$npf --nb-cores=$npf --total-num-mbufs=4096 \
	--forward-mode=io --no-flush-rx
tp_cmd "show port info $port"
reta_size=$(awk '/Redirection table size/{print $NF; exit}' "$out")
[ "${reta_size:-0}" -gt 0 ] || fail "no RETA size"
tp_cmd "start"
tp_wait "RX P=$port/Q=$((npf - 1))"
read_streams
for ((q = 0; q < npf; q++)); do
	[ "${sock_of[$q]}" = "$q" ] || fail "queue $q polled from socket ${sock_of[$q]}, not $q"
done
settle start

# RETA: bucket b to queue (b * 3 + 1) mod 8, 16 entries per command
# (testpmd's command line is short): every queue keeps some buckets, each
# bucket changes queue
mapfile -t reta_cmds < <(tp_reta_cmds $port $reta_size '(b * 3 + 1) % npf')
tp_cmd "${reta_cmds[@]}"
tp_cmd "show port $port rss reta $reta_size (0xffffffffffffffff)"
settle reta

# queue 0 to socket 7 and queue 7 to socket 0: their lcores swapped
m0=$(val "$work/reta.b" "/ethdev/xstats,$port" rx_q0_migrations)
corelist=$npf
for ((k = 2; k < npf; k++)); do corelist+=",$k"; done
corelist+=",1"
tp_cmd "stop" "set corelist $corelist" "start"
tp_wait "RX P=$port/Q=$((npf - 1))" 2
read_streams
[ "${sock_of[0]}" = $((npf - 1)) ] && [ "${sock_of[$((npf - 1))]}" = 0 ] ||
	fail "after set corelist queue 0 is polled from socket ${sock_of[0]}, queue $((npf - 1)) from ${sock_of[$((npf - 1))]}"
settle move
m1=$(val "$work/move.b" "/ethdev/xstats,$port" rx_q0_migrations)
[ "$m1" -gt "$m0" ] || fail "queue 0 did not migrate ($m0 -> $m1 moves)"

# from start to end: nothing lost but what was counted dropping, nothing
# lost in a member's rings; in each phase nothing out of order and no gate
# opened on its timeout.  Counted drops are the port's Rx rings full (imissed:
# a poller waiting for a CPU, 9 lcores on this 2-CPU host) and what
# testpmd dropped at Tx (a member's Tx ring full).  The sink's count is
# read first: a drop it has seen is in the counters read after it; a drop
# the counters have whose gap the sink has not seen yet makes them larger,
# so the check is an upper bound, not an equality.
last="$work/move.b"
lost=$(val "$last" /octonic/info,0 sink_lost)
missed=$(val "$last" "/ethdev/stats,$port" imissed)
ring=$(val "$last" "/ethdev/xstats,$port" outage_lost_packets)
pkts=$(val "$last" /octonic/info,0 sink_packets)
echo "sink: $pkts packets, $lost lost; port: $missed missed (rings full), $ring lost in rings"
[ "$pkts" -gt 0 ] || fail "nothing reached the sink"
[ "$ring" = 0 ] || fail "$ring packets lost in the members' rings"
for phase in start reta move; do
	read -r ooo tmo <"$work/$phase.order"
	[ "$tmo" = 0 ] ||
		fail "$phase: $tmo gate(s) opened on their timeout ($ooo packets out of order at the sink)"
	[ "$ooo" = 0 ] || fail "$phase: $ooo packets out of order at the sink"
done
tp_cmd "stop"
# each stop prints the forwarding run's totals (set corelist stopped the
# first run): their Tx drops summed
txdrop=$(awk '/Accumulated forward statistics for all ports/ { acc = 1 }
	acc && /TX-dropped:/ { for (i = 1; i < NF; i++) if ($i == "TX-dropped:") n += $(i + 1); acc = 0 }
	END { print n + 0 }' "$out")
echo "testpmd: $txdrop dropped at Tx"
[ "$lost" -le $((missed + txdrop)) ] ||
	fail "$lost packets lost on the wire, $missed counted missed at Rx and $txdrop dropped at Tx"
tp_quit
grep -q "Failed to update RSS redirection table\|Bad arguments\|bad arguments" "$out" &&
	fail "a command was refused"
echo "ok: 8 sockets, 8 queues: all local at start, after RETA updates over the 8, after queue 0 moved to socket $((npf - 1)) and queue $((npf - 1)) to socket 0; every phase in order with no gate timeout, nothing lost uncounted"
