#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 Octopus authors
#
# Overhead of the virtual port's datapath, in one testpmd run: io forwarding
# (each port back to itself) with --record-core-cycles over
#   direct:  a net_null port polled directly,
#   octopus: net_octopus over two net_null members,
#   bonding: net_bonding mode 1 (active-backup) over two net_null ports,
# alternating ROUNDS times, SECS seconds each; prints cycles/packet per run
# and the median per setup. Not a timed test: a measurement.
#   usage: bench_overhead.sh [ROUNDS] [SECS]
set -euo pipefail

rounds=${1:-5}
secs=${2:-2}
testpmd=${TESTPMD:-dpdk-testpmd}
build=${OCTOPUS_BUILD:-$(cd "$(dirname "$0")/../.." && pwd)/build}
# the plugin where EAL accepts it (see meson.build)
[ -n "${OCTOPUS_PLUGIN:-}" ] || . "$build/octopus-plugins.env"
plugin=$OCTOPUS_PLUGIN
out=$(mktemp)
prefix="octopus-bench-$$"
# EAL leaves its runtime directory behind; the prefix is per run.
trap 'rm -rf "$out" "/var/run/dpdk/${prefix:?}"' EXIT
# hugepages or --no-huge, as the project decides (tools/octopus_eal_mem.h)
mem_opt=$("${OCTOPUS_EAL_MEM:-$build/tools/octopus-eal-mem}" 512)

# Port ids follow --vdev order: null0..5 are 0..5 (null0/1 owned by the
# octopus port, null4/5 enslaved), net_octopus0 is 6, net_bonding0 is 7.
direct=2 octopus=6 bonding=7
{
	echo "set fwd io"
	for _ in $(seq 1 "$rounds"); do
		for p in $direct $octopus $bonding; do
			echo "set portlist $p"
			echo "show config fwd"
			echo "start"
			sleep "$secs"
			echo "stop"
			sleep 0.5
		done
	done
	echo "quit"
} | "$testpmd" "$mem_opt" -m 512 --no-pci --file-prefix "$prefix" -l 0-1 \
	-d "$plugin" \
	--vdev net_null0 --vdev net_null1 --vdev net_null2 --vdev net_null3 \
	--vdev net_null4 --vdev net_null5 \
	--vdev "net_octopus0,member=net_null0,member=net_null1,socket_of=net_null1:1" \
	--vdev "net_bonding0,mode=1,slave=net_null4,slave=net_null5" \
	-- -i --total-num-mbufs=16384 --port-topology=loop --record-core-cycles \
	--burst=32 > "$out" 2>&1 || { tail -n 40 "$out"; exit 1; }

# Pair each "CPU cycles/packet" with the port of the run it belongs to.
awk -v d=$direct -v o=$octopus -v b=$bonding '
	/RX P=[0-9]+\/Q=0/ { match($0, /RX P=[0-9]+/); p = substr($0, RSTART + 5, RLENGTH - 5) }
	/CPU cycles\/packet=/ {
		split($0, a, "="); split(a[2], c, " ");
		name = (p == d) ? "direct" : (p == o) ? "octopus" : (p == b) ? "bonding" : "port" p;
		v[name] = v[name] " " c[1]; printf "%-8s %s\n", name, c[1]
	}
	END {
		for (n in v) {
			k = split(v[n], x, " ");
			for (i = 1; i <= k; i++) for (j = i + 1; j <= k; j++)
				if (x[j] + 0 < x[i] + 0) { t = x[i]; x[i] = x[j]; x[j] = t }
			printf "median %-8s %.2f cycles/packet (%d runs)\n", n, x[int((k + 1) / 2)], k
		}
	}' "$out"
