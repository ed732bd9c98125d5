#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 Octopus authors
#
# Overhead of the virtual port's datapath next to its peers, measured three
# ways, each run printing what it measured on (hugepages or 4K pages):
#  1. instructions per packet (valgrind --tool=callgrind; deterministic, the
#     primary figure): bench_datapath ir, direct net_null vs net_octopus vs
#     net_failsafe vs net_bonding mode 1, all Rx-ing into the app's pool
#     (octopus with rx_pool=app, and with its own local pools);
#  2. cycles per packet of the same bursts (bench_datapath cycles: best,
#     median, p90 of interleaved rounds), on hugepages and with --no-huge;
#  3. testpmd io forwarding with --record-core-cycles, one testpmd run per
#     memory kind, the setups alternating ROUNDS times for SECS seconds:
#     medians and spread (min-max) of cycles/packet.
# Not a test: a measurement. Needs root (octopus-numa-emu) and valgrind.
#   usage: bench_overhead.sh [ROUNDS] [SECS]
set -euo pipefail

rounds=${1:-5}
secs=${2:-2}
src=$(cd "$(dirname "$0")/../.." && pwd)
build=${OCTOPUS_BUILD:-$src/build}
# the DPDK the build is made against: its testpmd, net_bonding's key
# shellcheck disable=SC1091
. "$build/tests/octopus-dpdk.env"
export TESTPMD=${TESTPMD:-$OCTOPUS_DPDK_BINDIR/dpdk-testpmd}
# the plugin where EAL accepts it (see meson.build)
[ -n "${OCTOPUS_PLUGIN:-}" ] || . "$build/octopus-plugins.env"
emu="$src/tools/octopus-numa-emu --nodes 2 --"
bench=$build/tests/bench/bench_datapath
. "$src/tests/common/testpmd.sh"
work=$octo_work
octo_prefix bench
prefix=$tp_prefix
octo_prefixes+=("$prefix-ir" "$prefix-cy")
huge=$("${OCTOPUS_EAL_MEM:-$build/tools/octopus-eal-mem}" 512 2>/dev/null)
kinds=("--no-huge")
[ "$huge" != "--no-huge" ] && kinds=("$huge" "--no-huge")
name_of() { [ "$1" = "--no-huge" ] && echo "4K pages (--no-huge)" || echo "hugepages"; }

echo "== 1. instructions per packet (callgrind; rx+tx bursts of 32, app reads data_len)"
if command -v valgrind > /dev/null; then
	$emu valgrind --tool=callgrind --callgrind-out-file="$work/cg.out" \
		"$bench" --no-huge -m 512 --no-pci --lcores 0@0,1@1 \
		--file-prefix "$prefix-ir" -- ir 2000 > "$work/ir.out" 2> "$work/ir.err" ||
		{ tail -n 20 "$work/ir.err"; exit 1; }
	callgrind_annotate --inclusive=yes "$work/cg.out" > "$work/cg.txt" 2>/dev/null
	awk 'NR == FNR && /^ir / { pk[$3] = $4; name[$3] = $2; next }
		/=> .*bench_datapath.c:loop_/ {
			gsub(",", "", $1); f = $0; sub(/.*bench_datapath.c:/, "", f); sub(/ .*/, "", f)
			if (f in pk) ir[f] = $1
		}
		END {
			base = ir["loop_direct"] / pk["loop_direct"]
			for (f in ir) printf "ir %-14s %7.1f instructions/packet (%+.1f over direct)\n",
				name[f], ir[f] / pk[f], ir[f] / pk[f] - base
		}' "$work/ir.out" "$work/cg.txt" | sort -k3 -n
else
	echo "(valgrind not installed: skipped)"
fi

echo "== 2. cycles per packet (bench_datapath: best / median / p90 of 200 interleaved rounds)"
for m in "${kinds[@]}"; do
	echo "-- $(name_of "$m")"
	$emu "$bench" $m -m 512 --no-pci --lcores 0@0,1@1 --file-prefix "$prefix-cy" \
		-- cycles 200 2>/dev/null | grep -E "^(cycles|overhead) "
done

echo "== 3. testpmd io forwarding, cycles/packet (--record-core-cycles), ${rounds}x ${secs}s each"
# Port ids follow --vdev order: null0..5 are 0..5 (null0/1 owned by the
# octopus port, null4/5 enslaved), net_octopus0 is 6, net_bonding0 7,
# net_failsafe0 8 (its sub-device, net_null6, comes after it, owned).
direct=2 octopus=6 bonding=7 failsafe=8
tp_wrap=($emu)
for m in "${kinds[@]}"; do
	tp_start "$work/tpmd.out" $m -m 512 --no-pci --file-prefix "$prefix" \
		--lcores 0@0,1@0,2@1 -d "$OCTOPUS_PLUGIN" \
		--vdev net_null0 --vdev net_null1 --vdev net_null2 --vdev net_null3 \
		--vdev net_null4 --vdev net_null5 \
		--vdev "net_octopus0,member=net_null0,member=net_null1,socket_of=net_null0:0,socket_of=net_null1:1,rx_pool=app,migration=manual" \
		--vdev "net_bonding0,mode=1,$OCTOPUS_BOND_MEMBER_KEY=net_null4,$OCTOPUS_BOND_MEMBER_KEY=net_null5" \
		--vdev "net_failsafe0,dev(net_null6)" \
		-- -i --total-num-mbufs=16384 --port-topology=loop --record-core-cycles \
		--nb-cores=1 --burst=32
	tp_cmd "set fwd io"
	for _ in $(seq 1 "$rounds"); do
		for p in $direct $octopus $bonding $failsafe; do
			tp_cmd "set portlist $p" "show config fwd" "start"
			# the window measured
			sleep "$secs"
			tp_cmd "stop"
		done
	done
	tp_quit
	echo "-- $(name_of "$m") (one testpmd run; every port Rx-es into testpmd's pool)"
	awk -v d=$direct -v o=$octopus -v b=$bonding -v f=$failsafe '
		/RX P=[0-9]+\/Q=0/ { match($0, /RX P=[0-9]+/); p = substr($0, RSTART + 5, RLENGTH - 5) }
		/CPU cycles\/packet=/ {
			split($0, a, "="); split(a[2], c, " ");
			n = (p == d) ? "direct" : (p == o) ? "octopus" : (p == b) ? "bonding-ab" : (p == f) ? "failsafe" : "port" p;
			v[n] = v[n] " " c[1]
		}
		END {
			for (n in v) {
				k = split(v[n], x, " ");
				for (i = 1; i <= k; i++) for (j = i + 1; j <= k; j++)
					if (x[j] + 0 < x[i] + 0) { t = x[i]; x[i] = x[j]; x[j] = t }
				printf "testpmd %-10s median %6.2f  min %6.2f  max %6.2f cycles/packet (%d runs)\n",
					n, x[int((k + 1) / 2)], x[1], x[k], k
			}
		}' "$work/tpmd.out" | sort
done
