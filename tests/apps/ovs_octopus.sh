#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 Octopus authors
#
# Open vSwitch with DPDK, unmodified and with its defaults, on net_octopus
# (tests/apps/ovs_common.sh): Debian's OVS 3.1 on Debian's DPDK 22.11
# ($1 = system), or OVS 3.7.1 built by tools/octopus-ovs on the project's
# DPDK 25.11 ($1 = built). The port's default rx_pool=local: OVS keeps its
# dp_packet in the mbuf private area, initialised by its own obj_init, so
# this crashes OVS unless the port's local pools hand out mbufs OVS cannot
# tell from its own.
#   1. pmd-rxq-affinity 0:0,1:1: rxq 1 is polled from socket 1; the port
#      moves its home to PF 1 (migration=auto, counted in rx_q1_migrations),
#      rxq 0 stays on PF 0.
#   2. pmd-rxq-affinity 0:1,1:0: both queues move to the other PF (both
#      migration counters grow).
# In each phase, read twice from DPDK telemetry 1 s apart: OVS is alive, the
# octopus port receives on both queues and net_null sends (OVS forwards),
# each Rx queue's home and reported poller are on its PMD's socket, and the
# NIC model counts no remote Rx DMA on any queue of either PF. No error in
# OVS's log.
# Exit 77 (skip) only when that OVS is not there.
# Run under octopus-numa-emu --nodes 2.
set -euo pipefail

. "$(dirname "$0")/ovs_common.sh"
ovs_pick "${1:?system or built}"
ovs_start "$octo_dialect"
ovs_bridge "0:0,1:1"

# What the virtual port tells OVS about its socket, and where OVS put its pool.
numa=$(vsctl get Interface oct status:numa_id | tr -d '"')
echo "rte_eth_dev_socket_id(octopus port) as OVS reads it: $numa"
[ "$numa" = -1 ] || fail "the port reports socket $numa (expected -1: it spans sockets)"

wait_homes pinned 0 1
check pinned 0 1
# OVS sets its queues up for socket 0 (the port says -1): rxq 1 moved
[ "$(moves pinnedb 1)" -ge 1 ] || fail "pinned: rxq 1 never migrated"
vsctl set Interface oct other_config:pmd-rxq-affinity="0:1,1:0" || fail "re-pinning$(died)"
wait_homes swapped 1 0
check swapped 1 0
for q in 0 1; do
	[ "$(moves swappedb $q)" -gt "$(moves pinnedb $q)" ] ||
		fail "swapped: rxq $q did not migrate ($(moves swappedb $q) migrations)"
done
echo "migrations: rxq0 $(moves swappedb 0), rxq1 $(moves swappedb 1)"
echo "OVS mempool of oct: $(appctl netdev-dpdk/get-mempool-info oct | grep -m1 socket_id)"
log_clean
echo "ok: OVS forwarded from the octopus port on local pools, rxqs followed their PMDs' sockets both ways, no remote DMA"
