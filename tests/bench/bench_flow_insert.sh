#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 Octopus authors
#
# Rule insertion and deletion through net_octopus next to a bare PF of the
# NIC model, two ways:
#  1. dpdk-test-flow-perf (DPDK's tool, unmodified), ingress
#     `ether / ipv4 / queue` rules in one batch, one process per run, the
#     bare PF and the octopus port alternating ROUNDS times per rule count;
#     medians of each side's K rules/s and their ratio;
#  2. bench_flow_insert (one process, the two sides interleaved in chunks,
#     so that both meet the same load), 100k rules.
# A measurement: on a shared host each run meets the load of its moment
# (the script prints the load average with the figures).
#   usage: bench_flow_insert.sh [--meson] [--check] [--min-ratio R] [ROUNDS] [RULE COUNTS...]
#   (5, 100000 1000000)
# Needs root (octopus-numa-emu) and hugepages (-m 1024 per run).
#   --meson      run by meson under octopus-numa-emu: memory as the project
#                decides (its test and benchmark)
#   --check      only flow-perf, and it fails unless every run made and
#                destroyed its rules (the test octopus_flowperf_runs: no
#                rate judged)
#   --min-ratio R  fails unless the octopus port's median insertion rate
#                is at least R times the bare PF's (the benchmark
#                octopus_flowperf_rates: a loaded host can miss it)
set -euo pipefail

check=0 meson=0 min_ratio=
while [ $# -gt 0 ]; do
	case $1 in
	--check) check=1 ;;
	--meson) meson=1 ;;
	--min-ratio) min_ratio=$2; shift ;;
	*) break ;;
	esac
	shift
done
rounds=${1:-5}
shift || true
counts=("${@:-100000}")
[ $# -gt 0 ] || counts=(100000 1000000)
src=$(cd "$(dirname "$0")/../.." && pwd)
build=${OCTOPUS_BUILD:-$src/build}
# by hand: the build's plugins and DPDK; as a test, meson's environment
if [ -z "${OCTOPUS_PLUGIN:-}" ]; then
	# shellcheck disable=SC1091
	. "$build/octopus-plugins.env"
fi
if [ -z "${FLOWPERF:-}" ]; then
	# shellcheck disable=SC1091
	. "$build/tests/octopus-dpdk.env"
	FLOWPERF=$OCTOPUS_DPDK_BINDIR/dpdk-test-flow-perf
fi
emu="$src/tools/octopus-numa-emu --nodes 2 --"
mem=(-m 1024 --huge-unlink)
if [ "$meson" = 1 ]; then
	# run under octopus-numa-emu by meson; memory as the project decides
	emu=""
	mem=("$("${OCTOPUS_EAL_MEM:?}" 512)" -m 512)
fi

# "<insert K/s> <delete K/s>" of port 0 in one flow-perf run of $2 rules
flowperf() {
	local side=$1 n=$2 vdevs out ins del
	if [ "$side" = octopus ]; then
		vdevs=(-d "$OCTONIC_PLUGIN" -d "$OCTOPUS_PLUGIN"
			--vdev net_octopus0,member=net_octonic0_pf0,member=net_octonic0_pf1
			--vdev net_octonic0,pfs=2,numa=0:1)
	else
		vdevs=(-d "$OCTONIC_PLUGIN" --vdev net_octonic0,pfs=2,numa=0:1)
	fi
	out=$($emu "$FLOWPERF" "${mem[@]}" --no-pci \
		--file-prefix "bfi-$$-$side" --lcores 0@0,1@1 "${vdevs[@]}" -- \
		--ingress --ether --ipv4 --queue --rules-count="$n" --rules-batch="$n" \
		--deletion 2>&1) || { echo "$out" | tail -20 >&2; return 1; }
	rm -rf "/var/run/dpdk/bfi-$$-$side"
	ins=$(echo "$out" | grep -m1 'Port 0 :: Total flows insertion rate' |
		grep -oE '[0-9.]+ K' | grep -oE '[0-9.]+') || true
	del=$(echo "$out" | grep -m1 'Port 0 :: Total deletion rate' |
		grep -oE '[0-9.]+ K' | grep -oE '[0-9.]+') || true
	if [ -z "$ins" ] || [ -z "$del" ]; then
		echo "$out" | tail -20 >&2
		echo "FAIL: flow-perf on the $side port reported no insertion or deletion rate" >&2
		return 1
	fi
	echo "$ins $del"
}

median() { sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

echo "== dpdk-test-flow-perf, ingress ether/ipv4/queue, $rounds alternating runs per count"
echo "   ($(uptime | sed 's/.*load/load/'))"
for n in "${counts[@]}"; do
	: >"/tmp/bfi-$$-pf"
	: >"/tmp/bfi-$$-octopus"
	for _ in $(seq 1 "$rounds"); do
		flowperf pf "$n" >>"/tmp/bfi-$$-pf"
		flowperf octopus "$n" >>"/tmp/bfi-$$-octopus"
	done
	pi=$(cut -d' ' -f1 "/tmp/bfi-$$-pf" | median)
	pd=$(cut -d' ' -f2 "/tmp/bfi-$$-pf" | median)
	oi=$(cut -d' ' -f1 "/tmp/bfi-$$-octopus" | median)
	od=$(cut -d' ' -f2 "/tmp/bfi-$$-octopus" | median)
	awk -v n="$n" -v pi="$pi" -v pd="$pd" -v oi="$oi" -v od="$od" 'BEGIN {
		printf "%8d rules: bare PF %7.0f / %7.0f, net_octopus %7.0f / %7.0f K rules/s (insert / delete), octopus / PF %.2f / %.2f\n",
			n, pi, pd, oi, od, oi / pi, od / pd }'
	echo "   runs (insert delete): PF $(tr '\n' ' ' <"/tmp/bfi-$$-pf")"
	echo "   runs (insert delete): octopus $(tr '\n' ' ' <"/tmp/bfi-$$-octopus")"
	rm -f "/tmp/bfi-$$-pf" "/tmp/bfi-$$-octopus"
	if [ -n "$min_ratio" ]; then
		awk -v pi="$pi" -v oi="$oi" -v r="$min_ratio" 'BEGIN { exit !(oi >= pi * r) }' ||
			{ echo "FAIL: octopus inserts $oi K rules/s, under $min_ratio x the bare PF's $pi"; exit 1; }
		echo "ok: the octopus port inserts at least $min_ratio x the bare PF's rate"
	fi
done
if [ "$check" = 1 ]; then
	echo "ok: flow-perf made and destroyed every rule on both ports"
	exit 0
fi
echo "== bench_flow_insert, 100000 rules per side in 100 interleaved chunks"
$emu "$build/tests/bench/bench_flow_insert" --no-pci --lcores 0@0,1@1 -- 100000 100 2>&1 |
	grep -e 'rules' -e 'octopus / PF'
echo "   ($(uptime | sed 's/.*load/load/'))"
