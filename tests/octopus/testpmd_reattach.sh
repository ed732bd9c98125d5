#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 Octopus authors
#
# testpmd, unmodified: the octopus port closed, its NIC and vdev detached,
# then `port attach` of the NIC model and of the octopus vdev again.
# testpmd added the PFs to its forwarding list when they were attached,
# before the new octopus port owned them, and keeps them there:
#  - its `start` lists streams on the PFs and its `stop` prints their
#    forward statistics (their hardware counts: the octopus port's traffic
#    through them). The streams are disabled (testpmd never started the
#    PFs' queues, and skips a stream whose queue it has as stopped): the
#    members' Rx count (the port's rx_good_packets, summed over its members)
#    equals what the octopus port delivered (its rx_qN_local_packets +
#    rx_qN_remote_packets), so testpmd read no member queue itself;
#  - the documented remedy, `set portlist <octopus port>`: streams on, and
#    statistics of, the octopus port only, both counts still equal.
# Every step waits for testpmd's answer (a deadline, no fixed sleeps).
# Run under octopus-numa-emu --nodes 2.
set -euo pipefail

. "$(dirname "$0")/../common/testpmd.sh"
octo_prefix tpreatt
out=$octo_work/out
OCTO_FAIL_TAIL=80
nic=net_octonic0,pfs=2,numa=0:1,wire=gen,flows=64,gen_rate=100000$octo_dialect
octo=net_octopus0,member=net_octonic0_pf0,member=net_octonic0_pf1
rx=0
own=0

# "<members' rx> <octopus's own rx>" of octopus port $1, from telemetry
counts() {
	tq "/ethdev/xstats,$1" | python3 -c 'import json, sys
v = json.loads(sys.stdin.readline().split("\t", 1)[1])
own = sum(x for k, x in v.items() if k.startswith("rx_q") and
	(k.endswith("_local_packets") or k.endswith("_remote_packets")))
print(v["rx_good_packets"], own)'
}
# a forwarding run on the listed ports until the octopus port $1 has
# delivered 1000 packets more of its own; sets rx and own (the counts after
# it, minus those before)
own_above() {
	read -r rx own < <(counts "$1") || fail "telemetry unreachable"
	[ "$own" -gt "$2" ]
}
forward() {
	local rx0 own0
	read -r rx0 own0 < <(counts "$1") || fail "telemetry unreachable"
	tp_cmd "start"
	octo_until "1000 packets delivered by port $1" own_above "$1" $((own0 + 1000))
	tp_cmd "stop"
	read -r rx own < <(counts "$1") || fail "telemetry unreachable"
	rx=$((rx - rx0))
	own=$((own - own0))
}

tp_start "$out" "$("${OCTOPUS_EAL_MEM:?}" 512)" -m 512 --no-pci --file-prefix "$tp_prefix" \
	--lcores '0@0,1@0,2@1' -d "${OCTONIC_PLUGIN:?}" -d "${OCTOPUS_PLUGIN:?}" \
	--vdev "$nic" --vdev "$octo" \
	-- -i --rxq=2 --txq=2 --nb-cores=2 --total-num-mbufs=16384 \
	--forward-mode=io
tp_cmd "port stop 2"
tp_cmd "port close 2"
grep -q "Port 2 is closed" "$out" || fail "port 2 not closed"
tp_cmd "device detach net_octopus0"
tp_cmd "device detach net_octonic0"
tp_cmd "port attach $nic"
tp_cmd "port attach $octo"
grep -c "is attached" "$out" | grep -q '^[3-9]' || fail "the NIC's PFs and the octopus vdev not attached"
octo_port=$(grep -o "Port [0-9]* is attached" "$out" | awk '{print $2}' | tail -n 1)
pf_ports=$(grep -o "Port [0-9]* is attached" "$out" | awk '{print $2}' | head -n 2 | tr '\n' ' ')
echo "after re-attach: PF ports $pf_ports, octopus port $octo_port"

tp_cmd "port start $octo_port"

# what testpmd printed from line $1 on
since() { tail -n "+$1" "$out"; }
# the ports testpmd's last forwarding run (from line $1) had streams on, and
# those it printed forward statistics for
streams() { since "$1" | grep -o "RX P=[0-9]*" | sort -u | tr '\n' ' '; }
reported() { since "$1" | grep -o "Forward statistics for port [0-9]*" | awk '{print $5}' | sort -u | tr '\n' ' '; }

from=$(($(wc -l < "$out") + 1))
forward "$octo_port"
listed=$(streams "$from")
echo "after re-attach: streams on: $listed; forward statistics for ports $(reported "$from")"
echo "without the workaround: members received $rx, the octopus port delivered $own"
for p in $pf_ports; do
	case " $listed" in *" RX P=$p "*) ;;
	*) fail "member port $p not in testpmd's forwarding list: the re-attach case did not reproduce" ;;
	esac
done
# the listed members' streams are disabled (testpmd never started their
# queues), so it reads no member queue: the members received what the
# octopus port delivered
[ "$rx" = "$own" ] ||
	fail "members received $rx, the octopus port delivered $own: testpmd polled a member"

tp_cmd "set portlist $octo_port"
from=$(($(wc -l < "$out") + 1))
forward "$octo_port"
echo "with set portlist $octo_port: streams on: $(streams "$from"); forward statistics for ports $(reported "$from"); members received $rx, the octopus port delivered $own"
[ "$(streams "$from")" = "RX P=$octo_port " ] ||
	fail "after set portlist: streams on $(streams "$from")"
[ "$(reported "$from")" = "$octo_port " ] ||
	fail "after set portlist: forward statistics for ports $(reported "$from")"
[ "$rx" = "$own" ] ||
	fail "members received $rx, the octopus port delivered $own: testpmd polled a member"
tp_quit
echo "ok: members in testpmd's forwarding list after re-attach (never polled); set portlist $octo_port lists the octopus port only"
