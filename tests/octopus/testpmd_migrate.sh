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

. "$(dirname "$0")/../common/testpmd.sh"
tp_begin tpm

tp_start_octopus "$out" 0@0,1@1 "wire=gen$octo_dialect" "" \
	--rxq=2 --txq=2 --nb-cores=1 --total-num-mbufs=16384
migrated() {
	[ "$(tp_xstat $port rx_q0_migrations)" -ge 1 ] 2>/dev/null &&
		[ "$(tp_xstat $port rx_q1_migrations)" -ge 1 ] 2>/dev/null
}
# the first cycle lasts until both queues have moved to the poller's socket
tp_cmd "start"
octo_until "a move of both Rx queues" migrated
tp_cmd "stop"
# four more: each 1 s window (5 times migrate_after=) is what is measured,
# time enough for the move back and forth that testpmd's drain would cause
for _ in 2 3 4 5; do
	tp_cmd "start"
	sleep 1
	tp_cmd "stop"
done
tp_cmd "show port xstats $port"
tp_quit

xs() { awk -v n="$1:" '$1==n{print $2; exit}' "$out"; }
for q in 0 1; do
	m=$(xs "rx_q${q}_migrations")
	[ -n "$m" ] || fail "no rx_q${q}_migrations"
	[ "$m" -eq 1 ] || fail "Rx queue $q moved $m times in 5 start/stop cycles (want 1)"
done
echo "ok: each Rx queue moved once in 5 start/stop cycles"
