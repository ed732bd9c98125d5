#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 Octopus authors
#
# A secondary process on emulated sockets: a primary testpmd forwards over
# net_octopus across the N PFs of one net_octonic NIC (PF k on socket k, one
# forwarding lcore per socket, hugepages on every socket); dpdk-proc-info,
# as a secondary, maps the primary's memory (the pages of all N sockets)
# and reads the octopus port's counters: the RX packets it reads equal the
# primary's (forwarding stopped), each member's in-service flag and Rx
# count. Run under octopus-numa-emu --nodes N:
#   procinfo_numa.sh N
# Secondary processes need the primary's memory shared: skipped (77)
# without hugepages.
set -euo pipefail

npf=${1:?number of sockets}
testpmd=${TESTPMD:-dpdk-testpmd}
procinfo=${PROCINFO:-dpdk-proc-info}
limit=30	# seconds any wait may take on a loaded 2-CPU host
if [ "$("${OCTOPUS_EAL_MEM:?}" 512)" = "--no-huge" ]; then
	echo "skip: secondary processes need hugepages"
	exit 77
fi
# a secondary maps the primary's hugepage files: they must not be unlinked
mem_opt=
[ -n "${OCTOPUS_BASE_VIRTADDR:-}" ] && mem_opt="--base-virtaddr=$OCTOPUS_BASE_VIRTADDR"
work=$(mktemp -d)
prefix="octopus-secn-$npf-$$"
plugins=(-d "${OCTONIC_PLUGIN:?}" -d "${OCTOPUS_PLUGIN:?}")
port=$npf	# PFs are ports 0..N-1, the octopus port after them
out="$work/primary.out"
pid=
cleanup() {
	exec 3>&- 2>/dev/null || true
	if [ -n "$pid" ]; then
		kill -KILL "$pid" 2>/dev/null || true
		wait "$pid" 2>/dev/null || true
	fi
	rm -rf "$work" "/var/run/dpdk/${prefix:?}"
	rm -f /dev/hugepages/"${prefix:?}"map_*
}
trap cleanup EXIT
fail() { echo "FAIL: $*"; for f in "$work"/*.out; do echo "== $f"; tail -n 40 "$f"; done; exit 1; }
# Wait until file $1 has $3 lines matching $2 (default 1).
wait_for() {
	local end=$((SECONDS + limit))
	until [ "$(grep -c -- "$2" "$1")" -ge "${3:-1}" ]; do
		kill -0 "$pid" 2>/dev/null || fail "the primary exited"
		[ "$SECONDS" -lt "$end" ] || fail "no '$2' in ${1##*/} within $limit s"
		sleep 0.1
	done
}

members=""
numa=""
lcores="0@0"
for ((k = 0; k < npf; k++)); do
	members+=",member=net_octonic0_pf$k"
	numa+="${numa:+:}$k"
	lcores+=",$((k + 1))@$k"
done
mkfifo "$work/cmds"
stdbuf -oL "$testpmd" $mem_opt -m 512 --no-pci --file-prefix "$prefix" --lcores "$lcores" \
	"${plugins[@]}" \
	--vdev "net_octonic0,pfs=$npf,numa=$numa,wire=gen,gen_rate=50000" \
	--vdev "net_octopus0$members" \
	-- -i --rxq="$npf" --txq="$npf" --nb-cores="$npf" --total-num-mbufs=4096 \
	<"$work/cmds" >"$out" 2>&1 &
pid=$!
exec 3>"$work/cmds"
wait_for "$out" "^Done"
echo "start" >&3
# until every queue has delivered something (the octopus port's xstats)
end=$((SECONDS + limit))
while :; do
	echo "show port xstats $port" >&3
	sleep 0.5
	got=$(awk '/rx_q[0-9]+_local_packets:/{v[$1]=$2} END{n=0; for (k in v) if (v[k] > 0) n++; print n}' "$out")
	[ "$got" -ge "$npf" ] && break
	[ "$SECONDS" -lt "$end" ] || fail "not every queue delivered within $limit s ($got of $npf)"
done
echo "stop" >&3
wait_for "$out" "Accumulated forward statistics"
echo "show port stats $port" >&3
wait_for "$out" "NIC statistics for port $port" 1
r0=$(awk -v p="$port" '/NIC statistics for port/{f=($6==p)} f&&/RX-packets:/{v=$2} END{print v}' "$out")

secondary() {
	"$procinfo" --file-prefix "$prefix" "${plugins[@]}" -- "$@" \
		>"$work/sec$1.out" 2>&1 || fail "proc-info $* exited with status $?"
}
secondary --stats
r1=$(awk -v p="$port" '/statistics for port/{f=($6==p)} f&&/RX-packets:/{print $2; exit}' \
	"$work/sec--stats.out")
[ "${r1:-0}" -gt 0 ] || fail "the secondary reads RX-packets '$r1' on the octopus port"
[ "$r0" = "$r1" ] || fail "the secondary read $r1 RX packets, the primary counts $r0"
secondary --xstats
xs() { awk -v n="$1:" '$1==n{print $2; exit}' "$work/sec--xstats.out"; }
for ((k = 0; k < npf; k++)); do
	[ "$(xs "member${k}_in_service")" = 1 ] || fail "member${k}_in_service '$(xs "member${k}_in_service")'"
	[ "$(xs "member${k}_rx_packets")" -gt 0 ] || fail "member${k}_rx_packets '$(xs "member${k}_rx_packets")'"
done
echo "quit" >&3
exec 3>&-
wait "$pid" || { pid=; fail "the primary exited with status $?"; }
pid=
echo "ok: $npf sockets: the secondary read $r1 RX packets (primary: $r0) and every member's counters"
