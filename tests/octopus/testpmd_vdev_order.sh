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

testpmd=${TESTPMD:-dpdk-testpmd}
flowperf=${FLOWPERF:-dpdk-test-flow-perf}
work=$(mktemp -d)
prefix="octopus-order-$$"
trap 'rm -rf "$work" /var/run/dpdk/"${prefix:?}"-*' EXIT
# hugepages or --no-huge, as the project decides (tools/octopus_eal_mem.h)
mem_opt=$("${OCTOPUS_EAL_MEM:?}" 512)

fail() { echo "FAIL ($1): $2"; tail -n 40 "$work/$1.out"; exit 1; }
eal() {
	echo "$mem_opt" -m 512 --no-pci --file-prefix "$prefix-$1" --lcores 0@0,1@0,2@1 \
		-d "${OCTONIC_PLUGIN:?}" -d "${OCTOPUS_PLUGIN:?}"
}
nic=(--vdev net_octonic0,pfs=2,numa=0:1,wire=gen,flows=64)
octo=(--vdev net_octopus0,member=net_octonic0_pf0,member=net_octonic0_pf1)

tpmd() {
	local name=$1
	shift
	{ sleep 1; echo "show port info all"; echo "start"; sleep 1; echo "stop"; echo "quit"; } |
	timeout 60 stdbuf -oL "$testpmd" $(eal "$name") "$@" -- -i --rxq=2 --txq=2 \
		--nb-cores=2 --total-num-mbufs=16384 --forward-mode=io \
		> "$work/$name.out" 2>&1 || fail "$name" "testpmd exited with status $?"
}

check_tpmd() {
	local name=$1 port=$2 out=$work/$1.out rx

	grep -q "nb forwarding ports=1" "$out" || fail "$name" "members visible to testpmd"
	grep -q "Infos for port $port " "$out" || fail "$name" "no port $port"
	awk -v p="$port" '/Infos for port/{f=($5==p)} f&&/Driver name:/{print $3; exit}' "$out" |
		grep -qx net_octopus || fail "$name" "port $port is not the octopus port"
	awk -v p="$port" '/Infos for port/{f=($5==p)} f&&/MAC address:/{print $3; exit}' "$out" |
		grep -q "^02:6F" || fail "$name" "the port's MAC is not its member's"
	awk -v p="$port" '/Infos for port/{f=($5==p)} f&&/Supported RSS offload flow types:/{g=1; next}
		g&&/ipv4/{print; exit}' "$out" | grep -q ipv4 || fail "$name" "no RSS types from the members"
	rx=$(awk '/Accumulated forward statistics/{f=1} f&&/RX-packets:/{print $2; exit}' "$out")
	[ "${rx:-0}" -gt 0 ] || fail "$name" "forwarded $rx"
}

tpmd first "${octo[@]}" "${nic[@]}"
check_tpmd first 0
tpmd last "${nic[@]}" "${octo[@]}"
check_tpmd last 2

timeout 60 "$flowperf" $(eal flowperf) "${octo[@]}" --vdev net_octonic0,pfs=2,numa=0:1 \
	-- --ingress --ether --ipv4 --queue --rules-count=4000 --rules-batch=2000 --deletion \
	> "$work/flowperf.out" 2>&1 || fail flowperf "flow-perf exited with status $?"
grep -q "Port 0 :: Total flows insertion rate -> [0-9.]* K Rules/Sec" "$work/flowperf.out" ||
	fail flowperf "no insertion rate for port 0"
grep -q "inf K Rules" "$work/flowperf.out" && fail flowperf "nothing inserted (inf)"
grep -q "Port 0 :: Total deletion rate -> [0-9.]* K Rules/Sec" "$work/flowperf.out" ||
	fail flowperf "no deletion rate for port 0"

{ sleep 1; echo "quit"; } | timeout 60 "$testpmd" $(eal missing) \
	--vdev net_octopus0,member=net_octonic0_pf0,member=net_nope0 "${nic[@]}" \
	-- -i --total-num-mbufs=16384 > "$work/missing.out" 2>&1 || true
grep -q "member net_nope0: no such ethdev" "$work/missing.out" ||
	fail missing "no error naming the missing member"

echo "ok: octopus first and last in testpmd, first in flow-perf, a missing member named"
