#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 Octopus authors
#
# DPDK's aggregated-port API through testpmd (25.11; ethdev 23.03): `port
# config <p> txq <q> affinity <n>` on net_octopus over two net_octonic PFs
# (PF k on socket k). testpmd sets its queues up on socket 0 (the port
# says -1), its one forwarding lcore is on socket 0.
#   1. Tx queue 1 pinned to member 1 (affinity 2): after 1 s of forwarding
#      (5 times migrate_after) it is still homed on PF1, socket 1, polled
#      from socket 0 (its packets remote, its bursts foreign) and never
#      migrated; telemetry says its affinity in /octopus/info and
#      /octopus/migration; Tx queue 0 stays local.
#   2. refused, with testpmd's message: a mapping while the port runs, an
#      affinity beyond the 2 members.
#   3. affinity 0: the queue is homed on PF0 again (its setup's socket,
#      its poller's) and sends locally.
# Run under octopus-numa-emu --nodes 2.
set -euo pipefail

. "$(dirname "$0")/../common/testpmd.sh"
tp_begin tpaggr

tp_start_octopus "$out" 0@0,1@0 "wire=gen,gen_rate=100000$octo_dialect" "" \
	--rxq=2 --txq=2 --nb-cores=1 --total-num-mbufs=16384
info() { octo_tel "/octopus/info,$port" "$1"; }
mig() { octo_tel "/octopus/migration,$port" "$1"; }
# forward 2 s (10 times migrate_after); txq1's counters after the first as
# r0 (remote packets), f0 (foreign polls), l0 (local packets)
window() {
	tp_cmd "start"
	sleep 1
	r0=$(info txq1.remote_packets)
	f0=$(info txq1.foreign_polls)
	l0=$(info txq1.local_packets)
	sleep 1
}

# 1. pinned
tp_cmd "port stop $port" "port config $port txq 1 affinity 2" "port start $port"
window
[ "$(info txq1.affinity)" = 2 ] || fail "txq1 affinity $(info txq1.affinity) in /octopus/info, want 2"
[ "$(mig txq1.affinity)" = 2 ] || fail "txq1 affinity $(mig txq1.affinity) in /octopus/migration, want 2"
[ "$(info txq1.home_socket)" = 1 ] && [ "$(info txq1.home_member)" = 1 ] ||
	fail "pinned txq1 homed on member $(info txq1.home_member), socket $(info txq1.home_socket)"
[ "$(info txq1.poller_socket)" = 0 ] || fail "txq1 polled from socket $(info txq1.poller_socket)"
[ "$(mig txq1.migrations)" = 0 ] || fail "pinned txq1 migrated $(mig txq1.migrations) times"
[ "$(info txq1.remote_packets)" -gt "$r0" ] && [ "$(info txq1.foreign_polls)" -gt "$f0" ] ||
	fail "pinned txq1 sent nothing through PF1 in 1 s"
[ "$(info txq0.affinity)" = 0 ] && [ "$(info txq0.home_socket)" = 0 ] ||
	fail "txq0: affinity $(info txq0.affinity), home socket $(info txq0.home_socket)"
echo "pinned: txq1 on PF1 (socket 1), polled from socket 0: $(info txq1.remote_packets) packets through PF1, no migration"

# 2. refusals
tp_cmd "port config $port txq 1 affinity 1"
tp_wait "Failed to map tx queue with an aggregated port" 1
tp_cmd "stop" "port stop $port" "port config $port txq 1 affinity 3"
tp_wait "Failed to map tx queue with an aggregated port" 2
grep "Failed to map tx queue" "$out"

# 3. given back
tp_cmd "port config $port txq 1 affinity 0" "port start $port"
window
[ "$(info txq1.affinity)" = 0 ] || fail "txq1 affinity $(info txq1.affinity) after affinity 0"
[ "$(info txq1.home_socket)" = 0 ] || fail "txq1 homed on socket $(info txq1.home_socket) after affinity 0"
[ "$(info txq1.remote_packets)" = "$r0" ] && [ "$(info txq1.local_packets)" -gt "$l0" ] ||
	fail "txq1 after affinity 0: $(info txq1.remote_packets) remote packets (was $r0), $(info txq1.local_packets) local (was $l0)"
tp_cmd "stop"
tp_quit
echo "ok: testpmd's txq affinity pinned a Tx queue to a member, refused what ethdev refuses, and gave it back"
