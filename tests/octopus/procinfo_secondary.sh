#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 Octopus authors
#
# Secondary processes: a primary testpmd forwards over net_octopus (one
# net_octonic PF of two on socket 0) on hugepages; dpdk-proc-info, as a
# secondary with both plugins, reads the virtual port's and the members'
# statistics and xstats, and resets them. The counts it reads equal the
# primary's own (forwarding stopped so that they hold still), and a reset
# from the secondary is seen by the primary. Neither process crashes; the
# primary forwards again afterwards. Secondary processes need the primary's
# memory shared: skipped (77) without hugepages.
set -euo pipefail

procinfo=${PROCINFO:-dpdk-proc-info}
. "$(dirname "$0")/../common/testpmd.sh"
tp_shared_mem
octo_prefix sec
prefix=$tp_prefix
plugins=(-d "${OCTONIC_PLUGIN:?}" -d "${OCTOPUS_PLUGIN:?}")
work=$octo_work
octo_logs=("$work/primary.out")

tp_start "$work/primary.out" "${tp_mem[@]}" -m 512 --no-pci --file-prefix "$prefix" -l 0-1 \
	"${plugins[@]}" \
	--vdev "net_octonic0,pfs=2,numa=0:0,wire=gen,gen_rate=100000$octo_dialect" \
	--vdev net_octopus0,member=net_octonic0_pf0 \
	-- -i --total-num-mbufs=16384
# the octopus port is port 2 (PF0 = 0, owned; PF1 = 1, a port of its own)
port=2
grep -q "^Port $port: " "$work/primary.out" || fail "primary did not start its port"
# forwarding until the port received 1000 packets (a hundredth of a second
# at the generator's rate), then still
tp_forward $port 1000

secondary() {
	"$procinfo" --file-prefix "$prefix" "${plugins[@]}" -- "$@" \
		> "$work/sec$1.out" 2>&1 || { octo_logs+=("$work/sec$1.out"); fail "proc-info $* exited with status $?"; }
}
# RX-packets of port P in the N-th "statistics for port P" block of FILE
rx_of() {
	awk -v p="$2" '/statistics for port/{f=($6==p)} f&&/RX-packets:/{print $2; exit}' "$1"
}

# telemetry lists the NIC model's PFs, the owned one too, with its owner
tq="${OCTOPUS_SRC:?}/tests/apps/telemetry_query.py"
python3 "$tq" "$prefix" /octonic/list /octonic/info,0 > "$work/tel.out" 2>&1 ||
	fail "telemetry: $(cat "$work/tel.out")"
grep -q $'^/octonic/list\t\[0, 1\]' "$work/tel.out" || fail "/octonic/list: $(cat "$work/tel.out")"
grep -q '"owner": "net_octopus(port 2)"' "$work/tel.out" ||
	fail "/octonic/info,0 has no owner: $(cat "$work/tel.out")"

secondary --stats
r1=$(rx_of "$work/sec--stats.out" $port)
[ "${r1:-0}" -gt 0 ] || fail "secondary reads RX-packets '$r1' on the octopus port"
tp_cmd "show port stats $port"
r0=$(awk -v p="$port" '/NIC statistics for port/{f=($6==p)} f&&/RX-packets:/{v=$2} END{print v}' \
	"$work/primary.out")
[ "$r0" = "$r1" ] || fail "secondary read $r1 RX packets, the primary counts $r0"

secondary --xstats
xs() { awk -v n="$1:" '$1==n{print $2; exit}' "$work/sec--xstats.out"; }
[ "$(xs member0_in_service)" = 1 ] || fail "member0_in_service '$(xs member0_in_service)'"
[ "$(xs member0_rx_packets)" -gt 0 ] || fail "member0_rx_packets '$(xs member0_rx_packets)'"
[ "$(xs rx_q0_local_packets)" -gt 0 ] || fail "rx_q0_local_packets '$(xs rx_q0_local_packets)'"
[ "$(xs steering_rules)" -gt 0 ] || fail "steering_rules '$(xs steering_rules)'"
# the queue's current poller: testpmd's forwarding lcore 1, after the main
# lcore's drain at start
[ "$(xs rx_q0_poller_lcore)" = 1 ] && [ "$(xs rx_q0_poller_socket)" = 0 ] ||
	fail "rx_q0 poller lcore '$(xs rx_q0_poller_lcore)' socket '$(xs rx_q0_poller_socket)'"

secondary --stats-reset
secondary --xstats-reset
tp_cmd "show port stats $port"
r2=$(awk -v p="$port" '/NIC statistics for port/{f=($6==p)} f&&/RX-packets:/{v=$2} END{print v}' \
	"$work/primary.out")
[ "$r2" = 0 ] || fail "after the secondary's reset the primary counts $r2 RX packets"
secondary --xstats
[ "$(xs rx_q0_local_packets)" = 0 ] || fail "rx_q0_local_packets after xstats-reset: $(xs rx_q0_local_packets)"

# the primary goes on forwarding
tp_forward $port 1000
tp_cmd "show port stats $port"
r3=$(awk -v p="$port" '/NIC statistics for port/{f=($6==p)} f&&/RX-packets:/{v=$2} END{print v}' \
	"$work/primary.out")
[ "${r3:-0}" -gt 0 ] || fail "primary forwards nothing after the secondary's visits"
tp_quit
echo "ok: secondary read $r1 RX packets (primary: $r0), reset them; primary forwarded $r3 more"
