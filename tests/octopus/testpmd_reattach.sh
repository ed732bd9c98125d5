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

testpmd=${TESTPMD:-dpdk-testpmd}
here=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
prefix="octopus-tpreatt-$$"
pid=
cleanup() {
	if [ -n "$pid" ]; then
		kill -KILL "$pid" 2>/dev/null || true
		wait "$pid" 2>/dev/null || true
	fi
	exec 3>&- 2>/dev/null || true
	rm -rf "$work" /var/run/dpdk/"${prefix:?}"
}
trap cleanup EXIT
out=$work/out
nic=net_octonic0,pfs=2,numa=0:1,wire=gen,flows=64,gen_rate=100000
octo=net_octopus0,member=net_octonic0_pf0,member=net_octonic0_pf1

fail() { tail -n 80 "$out"; echo "FAIL: $1"; exit 1; }
rx=0
own=0

# until N PATTERN: wait (20 s at most) until PATTERN has matched at least
# N lines of testpmd's output
until_n() {
	local n=$1 pat=$2 end=$((SECONDS + 20))
	while [ "$(grep -c -- "$pat" "$out" || true)" -lt "$n" ]; do
		kill -0 "$pid" 2>/dev/null || fail "testpmd exited waiting for '$pat'"
		[ "$SECONDS" -lt "$end" ] || fail "no '$pat' (#$n) within 20 s"
		sleep 0.05
	done
}
# cmd COMMAND: send it, and wait for testpmd's next prompt
prompts=0
cmd() {
	prompts=$((prompts + 1))
	echo "$1" >&3
	echo "show port summary all" >&3	# a marker after each command's output
	until_n "$prompts" "Number of available ports"
}

tq() { "$here/apps/telemetry_query.py" "$prefix" "$@"; }
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
forward() {
	local rx0 own0 end=$((SECONDS + 20))
	read -r rx0 own0 < <(counts "$1") || fail "telemetry unreachable"
	cmd "start"
	while :; do
		read -r rx own < <(counts "$1") || fail "telemetry unreachable"
		[ "$own" -gt $((own0 + 1000)) ] && break
		[ "$SECONDS" -lt "$end" ] || fail "port $1 delivered $((own - own0)) packets in 20 s"
		sleep 0.05
	done
	cmd "stop"
	read -r rx own < <(counts "$1") || fail "telemetry unreachable"
	rx=$((rx - rx0))
	own=$((own - own0))
}

mkfifo "$work/in"
stdbuf -oL "$testpmd" "$("${OCTOPUS_EAL_MEM:?}" 512)" -m 512 --no-pci --file-prefix "$prefix" \
	--lcores '0@0,1@0,2@1' -d "${OCTONIC_PLUGIN:?}" -d "${OCTOPUS_PLUGIN:?}" \
	--vdev "$nic" --vdev "$octo" \
	-- -i --rxq=2 --txq=2 --nb-cores=2 --total-num-mbufs=16384 \
	--forward-mode=io <"$work/in" >"$out" 2>&1 &
pid=$!
exec 3>"$work/in"
until_n 1 "^Done"
cmd "port stop 2"
cmd "port close 2"
grep -q "Port 2 is closed" "$out" || fail "port 2 not closed"
cmd "device detach net_octopus0"
cmd "device detach net_octonic0"
cmd "port attach $nic"
cmd "port attach $octo"
grep -c "is attached" "$out" | grep -q '^[3-9]' || fail "the NIC's PFs and the octopus vdev not attached"
octo_port=$(grep -o "Port [0-9]* is attached" "$out" | awk '{print $2}' | tail -n 1)
pf_ports=$(grep -o "Port [0-9]* is attached" "$out" | awk '{print $2}' | head -n 2 | tr '\n' ' ')
echo "after re-attach: PF ports $pf_ports, octopus port $octo_port"

cmd "port start $octo_port"

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

cmd "set portlist $octo_port"
from=$(($(wc -l < "$out") + 1))
forward "$octo_port"
echo "with set portlist $octo_port: streams on: $(streams "$from"); forward statistics for ports $(reported "$from"); members received $rx, the octopus port delivered $own"
[ "$(streams "$from")" = "RX P=$octo_port " ] ||
	fail "after set portlist: streams on $(streams "$from")"
[ "$(reported "$from")" = "$octo_port " ] ||
	fail "after set portlist: forward statistics for ports $(reported "$from")"
[ "$rx" = "$own" ] ||
	fail "members received $rx, the octopus port delivered $own: testpmd polled a member"
echo "quit" >&3
exec 3>&-
wait "$pid" || { pid=; fail "testpmd exit status"; }
pid=
echo "ok: members in testpmd's forwarding list after re-attach (never polled); set portlist $octo_port lists the octopus port only"
