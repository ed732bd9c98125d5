#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 Octopus authors
#
# Packet capture of the octopus port: a primary testpmd forwards over
# net_octopus (one net_octonic PF of two, wire=gen) on hugepages, and
# dpdk-dumpcap, a secondary process, captures N packets of the port by its
# name; the pcapng file must hold at least N packets, each one of the
# generator's frames (IPv4 to 198.18.0.0/15).  The secondary probes the
# vdevs too: the plugins are preloaded into it (dumpcap takes no -d).
#
# On DPDK before 23.11 (Debian's 22.11) dumpcap captures nothing from any
# port: the primary drops every copy, because the secondary and the primary
# register their mempool ops in different orders, so the pool dumpcap
# gives the primary names other ops there.  The test then checks that
# net_null fails the same way (0 captured, copies dropped) and the octopus
# port too, and skips (77) with that reason.
#
#   dumpcap_capture.sh <DPDK version>
# Secondary processes need the primary's memory shared: skipped (77)
# without hugepages.
set -euo pipefail

version=${1:?DPDK version}
dumpcap=${DUMPCAP:?}
N=100
. "$(dirname "$0")/../common/testpmd.sh"
tp_shared_mem
work=$octo_work
plugins=(-d "${OCTONIC_PLUGIN:?}" -d "${OCTOPUS_PLUGIN:?}")
old=0
[ "$(printf '%s\n' 23.11 "$version" | sort -V | head -n 1)" = 23.11 ] || old=1

# primary NAME VDEVS...: testpmd forwarding (io) over the last port of VDEVS
primary() {
	local name=$1
	shift
	octo_prefix "cap-$name"
	octo_logs=("$work/$name.out")
	tp_start "$work/$name.out" "${tp_mem[@]}" -m 512 --no-pci --file-prefix "$tp_prefix" \
		-l 0-1 "${plugins[@]}" "$@" -- -i --total-num-mbufs=16384
	tp_cmd "start"
}

# capture NAME PORT ARGS...: dumpcap on PORT of the running primary into
# $work/NAME.pcapng, its output in $work/NAME-cap.out; its status in cap_st
capture() {
	local name=$1 port=$2
	shift 2
	octo_logs+=("$work/$name-cap.out")
	cap_st=0
	LD_PRELOAD="${OCTONIC_PLUGIN}:${OCTOPUS_PLUGIN}${LD_PRELOAD:+:$LD_PRELOAD}" \
		timeout 60 "$dumpcap" --file-prefix="$tp_prefix" -i "$port" \
		-w "$work/$name.pcapng" "$@" > "$work/$name-cap.out" 2>&1 || cap_st=$?
}

# packets in pcapng $1 (Enhanced Packet Blocks); with $2 = ipv4: those that
# are IPv4 frames to 198.18.0.0/15 (the generator's), counted apart
pcapng_count() {
	python3 - "$@" <<'PY'
import struct, sys
data = open(sys.argv[1], "rb").read()
off, n, gen = 0, 0, 0
endian = "<"
while off + 12 <= len(data):
    btype = struct.unpack_from(endian + "I", data, off)[0]
    if btype == 0x0A0D0D0A:
        endian = "<" if data[off + 8:off + 12] == b"\x4d\x3c\x2b\x1a" else ">"
    blen = struct.unpack_from(endian + "I", data, off + 4)[0]
    if blen < 12:
        sys.exit("bad block")
    if btype == 6:
        n += 1
        caplen = struct.unpack_from(endian + "I", data, off + 20)[0]
        frame = data[off + 28:off + 28 + caplen]
        if len(frame) >= 34 and frame[12:14] == b"\x08\x00" and frame[30] == 198 and \
                frame[31] in (18, 19):
            gen += 1
    off += blen
print(n, gen)
PY
}

# the primary's end after a capture on 22.11: its quit, or noted if it
# died (22.11's primary may crash when dumpcap leaves; seen under load)
died=""
end_old_primary() {
	tp_quit any
	[ "$tp_status" = 0 ] ||
		died+=" $1's primary exited with status $tp_status after the capture;"
}

if [ "$old" = 1 ]; then
	primary null --vdev net_null0
	capture null net_null0 -a duration:3
	end_old_primary net_null
	grep -q "Packets captured: 0 *$" "$work/null-cap.out" ||
		fail "$version: dumpcap captured on net_null: the reason to skip is gone"
	dropped=$(sed -n "s|^Packets received/dropped on interface 'net_null0': \([0-9]*\)/\([0-9]*\).*|\2|p" \
		"$work/null-cap.out")
	[ "${dropped:-0}" -gt 0 ] || fail "$version: net_null: no copies dropped"
	primary octopus --vdev "net_octonic0,pfs=2,numa=0:0,wire=gen,gen_rate=100000$octo_dialect" \
		--vdev net_octopus0,member=net_octonic0_pf0
	capture octopus net_octopus0 -a duration:3
	end_old_primary net_octopus
	grep -q "Packets captured: 0 *$" "$work/octopus-cap.out" ||
		fail "$version: dumpcap captured on the octopus port but not on net_null"
	echo "skip: DPDK $version's dumpcap captures nothing from any port (net_null: $dropped" \
		"copies dropped by the primary): secondary and primary register mempool ops in" \
		"different orders; the octopus port fails the same.$died"
	exit 77
fi

primary octopus --vdev "net_octonic0,pfs=2,numa=0:0,wire=gen,gen_rate=100000$octo_dialect" \
	--vdev net_octopus0,member=net_octonic0_pf0
capture octopus net_octopus0 -c "$N"
[ "$cap_st" = 0 ] || fail "dumpcap exited with status $cap_st"
# the primary forwards on after the capture
tp_forward 2 1000
tp_quit
read -r n gen < <(pcapng_count "$work/octopus.pcapng") || fail "cannot read the pcapng file"
[ "$n" -ge "$N" ] || fail "$n packets in the capture, asked for $N"
[ "$gen" = "$n" ] || fail "$((n - gen)) of $n captured packets are not the generator's"
echo "ok: dumpcap (DPDK $version) captured $n packets of net_octopus0, all the generator's"
