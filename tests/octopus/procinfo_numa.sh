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
procinfo=${PROCINFO:-dpdk-proc-info}
. "$(dirname "$0")/../common/testpmd.sh"
tp_shared_mem
octo_prefix "secn-$npf"
prefix=$tp_prefix
work=$octo_work
plugins=(-d "${OCTONIC_PLUGIN:?}" -d "${OCTOPUS_PLUGIN:?}")
port=$npf	# PFs are ports 0..N-1, the octopus port after them
out="$work/primary.out"

members=""
numa=""
lcores="0@0"
for ((k = 0; k < npf; k++)); do
	members+=",member=net_octonic0_pf$k"
	numa+="${numa:+:}$k"
	lcores+=",$((k + 1))@$k"
done
tp_start "$out" "${tp_mem[@]}" -m 512 --no-pci --file-prefix "$prefix" --lcores "$lcores" \
	"${plugins[@]}" \
	--vdev "net_octonic0,pfs=$npf,numa=$numa,wire=gen,gen_rate=50000$octo_dialect" \
	--vdev "net_octopus0$members" \
	-- -i --rxq="$npf" --txq="$npf" --nb-cores="$npf" --total-num-mbufs=4096
# forwarding until every queue has delivered something (the port's own
# telemetry: ethdev's /ethdev/xstats keeps only the first 256 of a port's
# xstats, fewer than 8 queues over 8 members have), then still; how many
# did, for fail
octo_logs+=("$work/delivered")
delivered() {
	local got
	got=$("$octo_lib/apps/telemetry_query.py" --flat "$tp_prefix" "/octopus/info,$port" |
		sed 's/^[^:]*://' |
		awk '$1 ~ /^rxq[0-9]+\.local_packets$/ && $2 > 0 {n++} END {print n + 0}')
	echo "$got of $npf queues delivered" >"$work/delivered"
	[ "$got" -ge "$npf" ]
}
tp_cmd "start"
octo_until "a packet on every queue" delivered
tp_cmd "stop"
tp_wait "Accumulated forward statistics"
tp_cmd "show port stats $port"
r0=$(awk -v p="$port" '/NIC statistics for port/{f=($6==p)} f&&/RX-packets:/{v=$2} END{print v}' "$out")

secondary() {
	octo_logs+=("$work/sec$1.out")
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
tp_quit
echo "ok: $npf sockets: the secondary read $r1 RX packets (primary: $r0) and every member's counters"
