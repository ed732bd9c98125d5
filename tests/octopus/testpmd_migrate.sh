#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 Octopus authors
#
# Automatic migration follows the poller, not testpmd's drain: testpmd's
# `start` first drains every Rx queue from the main lcore (socket 0) while
# the only forwarding lcore is on socket 1. Five start/stop cycles move
# each queue once (to socket 1), not back and forth (migrate_after=,
# default). Run under octopus-numa-emu --nodes 2.
set -euo pipefail

testpmd=${TESTPMD:-dpdk-testpmd}
work=$(mktemp -d)
prefix="octopus-tpm-$$"
trap 'rm -rf "$work" "/var/run/dpdk/${prefix:?}"' EXIT
# hugepages or --no-huge, as the project decides (tools/octopus_eal_mem.h)
mem_opt=$("${OCTOPUS_EAL_MEM:?}" 512)
port=2

{
	sleep 1
	for _ in 1 2 3 4 5; do
		echo "start"; sleep 1; echo "stop"
	done
	echo "show port xstats $port"
	echo "quit"
} | timeout 60 stdbuf -oL "$testpmd" "$mem_opt" -m 512 --no-pci --file-prefix "$prefix" \
	--lcores 0@0,1@1 -d "${OCTONIC_PLUGIN:?}" -d "${OCTOPUS_PLUGIN:?}" \
	--vdev net_octonic0,pfs=2,numa=0:1,wire=gen \
	--vdev net_octopus0,member=net_octonic0_pf0,member=net_octonic0_pf1 \
	-- -i --rxq=2 --txq=2 --nb-cores=1 --total-num-mbufs=16384 \
	> "$work/out" 2>&1 || { tail -n 40 "$work/out"; echo "testpmd failed"; exit 1; }

xs() { awk -v n="$1:" '$1==n{print $2; exit}' "$work/out"; }
for q in 0 1; do
	m=$(xs "rx_q${q}_migrations")
	[ -n "$m" ] || { tail -n 40 "$work/out"; echo "FAIL: no rx_q${q}_migrations"; exit 1; }
	if [ "$m" -ne 1 ]; then
		tail -n 60 "$work/out"
		echo "FAIL: Rx queue $q moved $m times in 5 start/stop cycles (want 1)"
		exit 1
	fi
done
echo "ok: each Rx queue moved once in 5 start/stop cycles"
