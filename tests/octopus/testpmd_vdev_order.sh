#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 Octopus authors
#
# The octopus vdev listed before or after its members, in DPDK's own tools:
#  testpmd, octopus first: the virtual port is port 0, the only forwarding
#      port, with the members' MAC and RSS; packets flow;
#  testpmd, octopus last: the same, the port being port 2;
#  flow-perf, octopus first: rules are inserted and deleted on port 0 (the
#      virtual port; flow-perf configures ports 0..count-1, so with the
#      octopus vdev last it would set up an owned member instead);
#  a member that never appears: testpmd stops at the port with an error
#      naming it.
# Run under octopus-numa-emu --nodes 2.
set -euo pipefail

flowperf=${FLOWPERF:-dpdk-test-flow-perf}
. "$(dirname "$0")/../common/testpmd.sh"
# hugepages or --no-huge, as the project decides (tools/octopus_eal_mem.h)
mem_opt=$("${OCTOPUS_EAL_MEM:?}" 512)

# eal NAME: EAL arguments of run NAME, its log $octo_work/NAME.out
eal() {
	octo_prefix "order-$1"
	octo_logs=("$octo_work/$1.out")
	eal_args=("$mem_opt" -m 512 --no-pci --file-prefix "$tp_prefix" --lcores 0@0,1@0,2@1
		-d "${OCTONIC_PLUGIN:?}" -d "${OCTOPUS_PLUGIN:?}")
}
nic=(--vdev "net_octonic0,pfs=2,numa=0:1,wire=gen,flows=64$octo_dialect")
octo=(--vdev net_octopus0,member=net_octonic0_pf0,member=net_octonic0_pf1)

# tpmd NAME PORT VDEVS...: port info, then forwarding until the octopus
# port PORT received 1000 packets
tpmd() {
	local name=$1 port=$2
	shift 2
	eal "$name"
	tp_start "$octo_work/$name.out" "${eal_args[@]}" "$@" -- -i --rxq=2 --txq=2 \
		--nb-cores=2 --total-num-mbufs=16384 --forward-mode=io
	tp_cmd "show port info all"
	tp_forward "$port" 1000
	tp_quit
}

check_tpmd() {
	local name=$1 port=$2 out=$octo_work/$1.out rx

	grep -q "nb forwarding ports=1" "$out" || fail "$name: members visible to testpmd"
	grep -q "Infos for port $port " "$out" || fail "$name: no port $port"
	awk -v p="$port" '/Infos for port/{f=($5==p)} f&&/Driver name:/{print $3; exit}' "$out" |
		grep -qx net_octopus || fail "$name: port $port is not the octopus port"
	awk -v p="$port" '/Infos for port/{f=($5==p)} f&&/MAC address:/{print $3; exit}' "$out" |
		grep -q "^02:6F" || fail "$name: the port's MAC is not its member's"
	awk -v p="$port" '/Infos for port/{f=($5==p)} f&&/Supported RSS offload flow types:/{g=1; next}
		g&&/ipv4/{print; exit}' "$out" | grep -q ipv4 || fail "$name: no RSS types from the members"
	rx=$(awk '/Accumulated forward statistics/{f=1} f&&/RX-packets:/{print $2; exit}' "$out")
	[ "${rx:-0}" -gt 0 ] || fail "$name: forwarded $rx"
}

tpmd first 0 "${octo[@]}" "${nic[@]}"
check_tpmd first 0
tpmd last 2 "${nic[@]}" "${octo[@]}"
check_tpmd last 2

eal flowperf
timeout 60 "$flowperf" "${eal_args[@]}" "${octo[@]}" --vdev "net_octonic0,pfs=2,numa=0:1$octo_dialect" \
	-- --ingress --ether --ipv4 --queue --rules-count=4000 --rules-batch=2000 --deletion \
	> "$octo_work/flowperf.out" 2>&1 || fail "flow-perf exited with status $?"
grep -q "Port 0 :: Total flows insertion rate -> [0-9.]* K Rules/Sec" "$octo_work/flowperf.out" ||
	fail "flowperf: no insertion rate for port 0"
grep -q "inf K Rules" "$octo_work/flowperf.out" && fail "flowperf: nothing inserted (inf)"
grep -q "Port 0 :: Total deletion rate -> [0-9.]* K Rules/Sec" "$octo_work/flowperf.out" ||
	fail "flowperf: no deletion rate for port 0"

# testpmd stops at the port: a quit waiting on stdin ends it if it does not
eal missing
echo "quit" | timeout 60 "${TESTPMD:?}" "${eal_args[@]}" \
	--vdev net_octopus0,member=net_octonic0_pf0,member=net_nope0 "${nic[@]}" \
	-- -i --total-num-mbufs=16384 > "$octo_work/missing.out" 2>&1 || true
grep -q "member net_nope0: no such ethdev" "$octo_work/missing.out" ||
	fail "missing: no error naming the missing member"

# a NIC with refused devargs after the octopus vdev: probed early by the
# octopus port, then by the bus in its turn; its error is printed once
eal refused
echo "quit" | timeout 60 "${TESTPMD:?}" "${eal_args[@]}" "${octo[@]}" \
	--vdev "net_octonic0,pfs=2,numa=0:1,wire=loop,gen_rate=1000$octo_dialect" \
	-- -i --total-num-mbufs=16384 > "$octo_work/refused.out" 2>&1 || true
n=$(grep -c "net_octonic0: devarg 'gen_rate' sets the generator" "$octo_work/refused.out" || true)
[ "$n" = 1 ] || fail "refused: the NIC's devargs error printed $n times, not once"

echo "ok: octopus first and last in testpmd, first in flow-perf, a missing member named, a NIC's refusal printed once"
