#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 Octopus authors
#
# Queue migration latency (request to steady) under load, with its phases,
# loss and order, for 1 and 100000 generator flows, in two setups that
# alternate ROUNDS times:
#  dedicated: one forwarding lcore (CPU 1) and the main lcore with the
#             port's control thread (CPU 0): one busy poller per CPU;
#  oversub:   two forwarding lcores (CPUs 1 and 0) and the main lcore with
#             the control thread on CPU 0 too: 2 pollers + control on 2 CPUs.
# Not a test: a measurement (bench_migrate.c says what each line means).
# Needs root (octopus-numa-emu). On a host shared with other jobs the tail
# follows their load: each run prints the load average and how long the
# poller and the control thread waited for a CPU during the moves.
#   usage: bench_migrate.sh [MOVES] [ROUNDS] [RATE]
set -euo pipefail

moves=${1:-1000}
rounds=${2:-1}
rate=${3:-200000}
src=$(cd "$(dirname "$0")/../.." && pwd)
build=${OCTOPUS_BUILD:-$src/build}
emu="$src/tools/octopus-numa-emu --nodes 2 --"
bench=$build/tests/bench/bench_migrate

for r in $(seq 1 "$rounds"); do
	for setup in dedicated:0@0,1@1 oversub:0@0,1@1,2@0; do
		name=${setup%%:*}
		lcores=${setup#*:}
		echo "== round $r, $name (--lcores $lcores)"
		echo "\$ $emu $bench --lcores $lcores -- $moves $rate"
		$emu "$bench" --lcores "$lcores" -- "$moves" "$rate" 2>&1 |
			grep -v -e '^EAL' -e '^TELEMETRY' -e 'virtio' -e '^memory:' -e '^command:'
	done
done
