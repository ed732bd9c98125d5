#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 Octopus authors
#
# testpmd, unmodified, loses members of a started net_octopus port:
#  null:    `device detach net_null0` while forwarding over two net_null
#           members: no crash, forwarding goes on through net_null1, the
#           port stops and starts again without it;
#  octonic: `device detach net_octonic0` (both PFs, the whole NIC) while
#           forwarding: no crash, the port reports its link down and
#           refuses to start with no member left, and closes;
#  stopped: the member detached while the port is stopped, then `port
#           start`: starts on the other member and forwards.
# Fails on a crash (testpmd's exit status), or when a check below fails.
# Run under octopus-numa-emu --nodes 2.
set -euo pipefail

. "$(dirname "$0")/../common/testpmd.sh"
# hugepages or --no-huge, as the project decides (tools/octopus_eal_mem.h)
mem_opt=$("${OCTOPUS_EAL_MEM:?}" 512)

# run NAME VDEVS...: testpmd with the lcores of both sockets, its log
# $octo_work/NAME.out the one a failure shows
run() {
	local name=$1
	shift
	octo_prefix "tpd-$name"
	octo_logs=("$octo_work/$name.out")
	tp_start "$octo_work/$name.out" "$mem_opt" -m 512 --no-pci \
		--file-prefix "$tp_prefix" --lcores '0@0,1@0,2@1' \
		-d "${OCTONIC_PLUGIN:?}" -d "${OCTOPUS_PLUGIN:?}" "$@" \
		-- -i --rxq=2 --txq=2 --nb-cores=2 --total-num-mbufs=16384 \
		--forward-mode=io
}
# started: wait until port $1 received $2 packets more than it had
rx_grows() {
	local rx0
	rx0=$(tp_rx "$1") || true
	[ -n "$rx0" ] || fail "telemetry unreachable"
	octo_until "$2 packets on port $1" tp_rx_above "$1" $((rx0 + $2))
}
link_down() { tq "/ethdev/link_status,$1" 2>/dev/null | grep -q '"DOWN"'; }

# RX-packets of the N-th "Accumulated forward statistics" block
fwd_rx() {
	awk -v n="$2" '/Accumulated forward statistics/{k++; f=(k==n)}
		f&&/RX-packets:/{print $2; exit}' "$octo_work/$1.out"
}

null_vdevs=(--vdev net_null0 --vdev net_null1
	--vdev net_octopus0,member=net_null0,member=net_null1,socket_of=net_null0:0,socket_of=net_null1:1)
port=2

# the member detached under traffic, which goes on through the other
run null "${null_vdevs[@]}"
tp_cmd "start"
rx_grows $port 1000
tp_cmd "device detach net_null0"
rx_grows $port 1000
tp_cmd "stop" "show port xstats $port" "port stop $port" "port start $port"
tp_forward $port 1000
tp_quit
out=$octo_work/null.out
grep -q "Device net_null0 is detached" "$out" || fail "null: not detached"
grep -q "member net_null0 (socket 0) out of service (released)" "$out" ||
	fail "null: the loss was not logged"
[ "$(awk '$1=="member0_in_service:"{print $2}' "$out")" = 0 ] ||
	fail "null: member0_in_service is not 0"
[ "$(awk '$1=="member_losses:"{print $2}' "$out")" = 1 ] || fail "null: member_losses"
[ "$(fwd_rx null 2)" -gt 0 ] 2>/dev/null || fail "null: nothing forwarded after the restart"

# the whole NIC detached under traffic: the port's link goes down
run octonic --vdev "net_octonic0,pfs=2,numa=0:1,wire=gen,flows=64$octo_dialect" \
	--vdev net_octopus0,member=net_octonic0_pf0,member=net_octonic0_pf1
tp_cmd "start"
rx_grows $port 1000
tp_cmd "device detach net_octonic0"
octo_until "link down on port $port" link_down $port
tp_cmd "stop" "show port info $port" "port stop $port" "port start $port" "port close $port"
tp_quit
out=$octo_work/octonic.out
grep -q "Device net_octonic0 is detached" "$out" || fail "octonic: not detached"
grep -q "Link status: down" "$out" || fail "octonic: link not down with no member left"
grep -q "no member in service" "$out" || fail "octonic: start without members not refused"
grep -q "Port $port is closed" "$out" || fail "octonic: port not closed"
# the port's totals keep what the gone PFs counted: testpmd's difference
# since start does not wrap below 0
rx=$(fwd_rx octonic 1)
[ "${#rx}" -lt 16 ] && [ "$rx" -gt 0 ] || fail "octonic: forwarded RX-packets $rx"

# the member detached while the port is stopped
run stopped "${null_vdevs[@]}"
tp_cmd "port stop $port" "device detach net_null1" "port start $port"
tp_forward $port 1000
tp_quit
[ "$(fwd_rx stopped 1)" -gt 0 ] 2>/dev/null || fail "stopped: nothing forwarded on the remaining member"

echo "ok: null, octonic and stopped detaches survived"
