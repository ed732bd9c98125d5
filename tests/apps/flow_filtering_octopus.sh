#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 Octopus authors
#
# DPDK's own flow_filtering example, unmodified, on net_octopus over the two
# PFs of net_octonic (sockets 0 and 1).  The example takes port 0 (the
# octopus vdev is listed first), sets up 4 or 5 queues without RSS, creates
# one rule, IPv4 destination 192.168.1.1 -> queue 1, and prints the source
# MAC and queue of every packet it receives.
#
# Traffic: the model's generator only sends to 198.18.0.0/15, so the NIC's
# wire is a net_pcap port replaying a capture written here: frames to
# 192.168.1.1 from source MAC 02:00:00:00:00:01 and, interleaved, frames to
# 198.18.0.1 from 02:00:00:00:00:02.  Every frame of the first kind must be
# printed on queue 1, none of the second kind there; then SIGINT, and the
# example must exit 0 (flushing its rule and closing the port).
#
#   flow_filtering_octopus.sh <flow_filtering binary> <DPDK version>
#
# DPDK 25.11's flow_filtering uses the template API by default: it stops
# the port, calls rte_flow_configure with ONE flow queue, starts the port,
# makes a table of one rule and inserts the rule with rte_flow_async_create
# on flow queue 1 (postpone 0), and never pulls its completion. mlx5 takes
# that (it adds a control queue of its own at index nb_queue), and the rule
# steers once pushed, pulled or not: the model's mlx5-hws dialect (xmeta=4,
# which net_octopus needs over mlx5-hws) does as mlx5 does, and so must the
# port in front of it. On 25.11 the default mode runs there, then
# --non-template on the generic model as on 22.11; before 23.11 the example
# has no template mode and no options. Run under octopus-numa-emu --nodes 2.
set -euo pipefail

ff=${1:?flow_filtering binary}
version=${2:?DPDK version}
. "$(dirname "$0")/../common/test.sh"
work=$octo_work
N=64
template=0
[ "$(printf '%s\n' 23.11 "$version" | sort -V | head -n 1)" = 23.11 ] && template=1

# the capture the wire replays: N frames of each kind, alternating
python3 - "$work/wire.pcap" "$N" <<'PY'
import struct, sys

def frame(src_mac_last, dst_ip):
    eth = bytes.fromhex("02000000ff00") + bytes([2, 0, 0, 0, 0, src_mac_last]) + b"\x08\x00"
    udp_len = 8 + 18
    ip = struct.pack("!BBHHHBBH4s4s", 0x45, 0, 20 + udp_len, 0, 0x4000, 64, 17, 0,
                     bytes([10, 0, 0, 1]), bytes(dst_ip))
    s = sum(struct.unpack("!10H", ip))
    s = (s & 0xffff) + (s >> 16)
    ip = ip[:10] + struct.pack("!H", ~s & 0xffff) + ip[12:]
    udp = struct.pack("!HHHH", 49152, 9, udp_len, 0) + bytes(18)
    return eth + ip + udp

with open(sys.argv[1], "wb") as f:
    f.write(struct.pack("<IHHiIII", 0xa1b2c3d4, 2, 4, 0, 0, 65535, 1))
    for i in range(int(sys.argv[2])):
        for fr in (frame(1, [192, 168, 1, 1]), frame(2, [198, 18, 0, 1])):
            f.write(struct.pack("<IIII", i, 0, len(fr), len(fr)) + fr)
PY

# run NAME MODEL_ARGS APP_ARGS...: the example in the background (the
# NIC model's devargs extended by MODEL_ARGS), output in $work/NAME.out
run() {
	local name=$1 model=$2
	shift 2
	octo_prefix "ff-$name"
	out=$work/$name.out
	octo_logs=("$out")
	# hugepages or --no-huge, as the project decides (tools/octopus_eal_mem.h)
	stdbuf -oL "$ff" "$("${OCTOPUS_EAL_MEM:?}" 512)" -m 512 --no-pci --file-prefix "$tp_prefix" \
		--lcores 0@0 -d "${OCTONIC_PLUGIN:?}" -d "${OCTOPUS_PLUGIN:?}" \
		--vdev net_octopus0,member=net_octonic0_pf0,member=net_octonic0_pf1 \
		--vdev "net_pcap0,rx_pcap=$work/wire.pcap,tx_pcap=$work/$name-tx.pcap" \
		--vdev "net_octonic0,pfs=2,numa=0:1,wire=net_pcap0$model" \
		-- "$@" > "$out" 2>&1 &
	ff_pid=$!
	octo_pids+=("$ff_pid")
}
alive() { kill -0 "$ff_pid" 2>/dev/null; }
# frames of kind $1 (the last byte of their source MAC) printed on queue $2
# (or any queue: "")
printed() {
	local n
	n=$(grep -c "^src=02:00:00:00:00:0$1 - dst=.* - queue=0x$2" "$out" 2>/dev/null) || true
	echo "${n:-0}"
}
all_printed() {
	alive || fail "flow_filtering ($what) exited before printing every frame"
	[ "$(printed 1 '[0-9a-f]*')" -ge "$N" ] && [ "$(printed 2 '[0-9a-f]*')" -ge "$N" ]
}
not_exited() { ! alive; }

# check NAME MODEL_ARGS APP_ARGS...: one run of the example; every frame
# to 192.168.1.1 printed on queue 1, none of the others; exit 0 on SIGINT
check() {
	local name=$1 st on1 other1
	what="$version, $name"
	run "$@"
	octo_until "all $((2 * N)) frames printed ($what)" all_printed
	kill -INT "$ff_pid"
	octo_until "flow_filtering's exit after SIGINT ($what)" not_exited
	st=0
	wait "$ff_pid" || st=$?
	[ "$st" = 0 ] || fail "$what: flow_filtering exited with status $st after SIGINT"
	on1=$(printed 1 1)
	other1=$(printed 2 1)
	[ "$on1" = "$N" ] || fail "$what: $on1 of $N frames to 192.168.1.1 printed on queue 1"
	[ "$other1" = 0 ] || fail "$what: $other1 frames to 198.18.0.1 printed on queue 1"
	echo "ok: flow_filtering ($what): $on1/$N frames to 192.168.1.1 on queue 1, the $N others elsewhere"
}

if [ "$template" = 1 ]; then
	# the default, template API, over the mlx5-hws model
	check template ",dialect=mlx5-hws,xmeta=4"
	grep -q "Configuring template port \[0\] Done" "$out" ||
		fail "template API: rte_flow_configure not reported done on port 0"
	check sync "$octo_dialect" --non-template
else
	check sync "$octo_dialect"
fi
