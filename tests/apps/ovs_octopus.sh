#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 Octopus authors
#
# Open vSwitch with DPDK (Debian's openvswitch-switch-dpdk, unmodified) on
# net_octopus over the two PFs of net_octonic (sockets 0 and 1, wire=gen),
# with the port's default rx_pool=local: OVS keeps its dp_packet in the mbuf
# private area, initialised by its own obj_init, so this crashes OVS unless
# the port's local pools hand out mbufs OVS cannot tell from its own.
#
# Its own ovsdb-server and ovs-vswitchd-dpdk (no systemd), db/run/log in a
# private temporary directory; the plugins come from the build tree (-d).
# Bridge br0 (netdev datapath): port oct (the octopus port, 2 Rx queues) ->
# port null0 (net_null). Two PMDs, core 0 (socket 0) and core 1 (socket 1).
#   1. pmd-rxq-affinity 0:0,1:1: rxq 1 is polled from socket 1; the port
#      moves its home to PF 1 (migration=auto, counted in rx_q1_migrations),
#      rxq 0 stays on PF 0.
#   2. pmd-rxq-affinity 0:1,1:0: both queues move to the other PF (both
#      migration counters grow).
# In each phase, read twice from DPDK telemetry 1 s apart: OVS is alive, the
# octopus port receives on both queues and net_null sends (OVS forwards),
# each Rx queue's home and reported poller are on its PMD's socket, and the
# NIC model counts no remote Rx DMA on any queue of either PF.
# Exit 77 (skip) only when OVS is not installed.
# Run under octopus-numa-emu --nodes 2.
set -euo pipefail

vswitchd=/usr/lib/openvswitch-switch-dpdk/ovs-vswitchd-dpdk
for b in ovsdb-tool ovsdb-server ovs-vsctl ovs-ofctl; do
	command -v "$b" >/dev/null || { echo "SKIP: $b not installed"; exit 77; }
done
[ -x "$vswitchd" ] || { echo "SKIP: $vswitchd not installed (openvswitch-switch-dpdk)"; exit 77; }
schema=/usr/share/openvswitch/vswitch.ovsschema

here=$(cd "$(dirname "$0")" && pwd)
. "$here/../common/test.sh"
octo_prefix ovs
prefix=$tp_prefix
work=$octo_work
export OVS_RUNDIR="$work/run" OVS_LOGDIR="$work/log" OVS_DBDIR="$work/db" \
	OVS_SYSCONFDIR="$work/etc"
mkdir -p "$OVS_RUNDIR" "$OVS_LOGDIR" "$OVS_DBDIR" "$OVS_SYSCONFDIR"
log="$OVS_LOGDIR/ovs-vswitchd-dpdk.log"

# Stop a daemon of ours by its pid file: TERM, then KILL after 5 s.
stop_daemon() {
	local pid
	[ -f "$1" ] || return 0
	pid=$(cat "$1")
	kill -TERM "$pid" 2>/dev/null || return 0
	for _ in $(seq 1 50); do
		kill -0 "$pid" 2>/dev/null || return 0
		sleep 0.1
	done
	kill -KILL "$pid" 2>/dev/null || true
}
# before the directories go (the trap: tests/common/test.sh)
octo_cleanup_more() {
	stop_daemon "$OVS_RUNDIR/ovs-vswitchd-dpdk.pid"
	stop_daemon "$OVS_RUNDIR/ovsdb-server.pid"
}
octo_logs=("$log")
OCTO_FAIL_TAIL=40
vsctl() { ovs-vsctl --db="unix:$OVS_RUNDIR/db.sock" --timeout=15 "$@"; }
alive() { kill -0 "$(cat "$OVS_RUNDIR/ovs-vswitchd-dpdk.pid")" 2>/dev/null; }

ovsdb-tool create "$OVS_DBDIR/conf.db" "$schema"
ovsdb-server "$OVS_DBDIR/conf.db" --remote="punix:$OVS_RUNDIR/db.sock" \
	--pidfile --log-file --no-chdir --detach
vsctl --no-wait init
# Hugepages or --no-huge, as the project decides (tools/octopus_eal_mem.h;
# it says which on stderr). --legacy-mem with --no-huge: OVS adds
# --in-memory otherwise, which --no-huge refuses.
mem_opt=$("${OCTOPUS_EAL_MEM:?}" 512)
[ "$mem_opt" = --no-huge ] && mem_opt="--no-huge --legacy-mem"
# per-port-memory: pools sized by the ports' queues, not OVS's 256k-mbuf
# shared default. pmd-maxsleep: the PMDs sleep when idle (shared machine).
vsctl --no-wait set Open_vSwitch . other_config:dpdk-init=true \
	other_config:pmd-cpu-mask=0x3 other_config:per-port-memory=true \
	other_config:pmd-maxsleep=50 \
	other_config:dpdk-extra="$mem_opt -m 512 --no-pci --file-prefix $prefix \
-d ${OCTONIC_PLUGIN:?} -d ${OCTOPUS_PLUGIN:?} \
--vdev net_octonic0,pfs=2,numa=0:1,wire=gen,flows=256,gen_rate=100000 \
--vdev net_octopus0,member=net_octonic0_pf0,member=net_octonic0_pf1 --vdev net_null0"
"$vswitchd" "unix:$OVS_RUNDIR/db.sock" --pidfile --log-file --no-chdir --detach \
	>"$OVS_LOGDIR/vswitchd.out" 2>&1 || fail "ovs-vswitchd-dpdk did not start"
[ "$(vsctl get Open_vSwitch . dpdk_initialized)" = true ] || fail "DPDK not initialised"

port=2	# net_octonic0_pf0 = 0, _pf1 = 1, the octopus port, net_null0 = 3
null=3
# ovs-vsctl waits for ovs-vswitchd to apply each change: it times out when
# ovs-vswitchd died meanwhile
died() { alive || echo " (ovs-vswitchd-dpdk died)"; }
vsctl add-br br0 -- set bridge br0 datapath_type=netdev || fail "add-br$(died)"
vsctl add-port br0 oct -- set Interface oct type=dpdk ofport_request=1 \
	options:dpdk-devargs=net_octopus0 options:n_rxq=2 \
	other_config:pmd-rxq-affinity="0:0,1:1" || fail "add-port oct$(died)"
vsctl add-port br0 null0 -- set Interface null0 type=dpdk ofport_request=2 \
	options:dpdk-devargs=net_null0 || fail "add-port null0$(died)"
ovs-ofctl del-flows br0
ovs-ofctl add-flow br0 in_port=1,actions=output:2

# What the virtual port tells OVS about its socket, and where OVS put its pool.
numa=$(vsctl get Interface oct status:numa_id | tr -d '"')
echo "rte_eth_dev_socket_id(octopus port) as OVS reads it: $numa"
[ "$numa" = -1 ] || fail "the port reports socket $numa (expected -1: it spans sockets)"

# Every number of the telemetry replies, as T[<snapshot>:<command>:<key>].
declare -A T
snap() {
	local k v
	while read -r k v; do
		T[$1:$k]=$v
	done < <("$here/telemetry_query.py" --flat "$prefix" "/octopus/info,$port" \
		"/octonic/info,0" "/octonic/info,1" "/ethdev/stats,$port" "/ethdev/stats,$null" \
		"/ethdev/xstats,$port")
}
tel() {
	[ -n "${T[$1:$2]:-}" ] || fail "telemetry has no $2 in snapshot $1"
	echo "${T[$1:$2]}"
}
home() { tel "$1" "/octopus/info,$port:rxq$2.home_socket"; }
moves() { tel "$1" "/ethdev/xstats,$port:rx_q$2_migrations"; }

# wait_homes <phase> <socket of rxq0> <socket of rxq1>: up to 15 s
wait_homes() {
	for _ in $(seq 1 75); do
		alive || fail "ovs-vswitchd-dpdk died"
		snap "$1"
		[ "$(home "$1" 0)" = "$2" ] && [ "$(home "$1" 1)" = "$3" ] && return 0
		sleep 0.2
	done
	fail "$1: rxq homes on sockets $(home "$1" 0) $(home "$1" 1), want $2 $3"
}

# check <phase> <socket of rxq0> <socket of rxq1>
check() {
	local a="$1a" b="$1b" q pf s d
	snap "$a"
	sleep 1
	snap "$b"
	alive || fail "$1: ovs-vswitchd-dpdk died"
	for s in ipackets; do
		[ "$(tel "$b" "/ethdev/stats,$port:$s")" -gt "$(tel "$a" "/ethdev/stats,$port:$s")" ] ||
			fail "$1: the octopus port received nothing in 1 s"
	done
	[ "$(tel "$b" "/ethdev/stats,$null:opackets")" -gt "$(tel "$a" "/ethdev/stats,$null:opackets")" ] ||
		fail "$1: OVS sent nothing to net_null in 1 s"
	echo "$1: octopus port rx $(tel "$b" "/ethdev/stats,$port:ipackets"), net_null tx $(tel "$b" "/ethdev/stats,$null:opackets")"
	for q in 0 1; do
		s=$2
		[ "$q" = 1 ] && s=$3
		d="/octopus/info,$port:rxq$q"
		[ "$(tel "$b" "$d.home_socket")" = "$s" ] &&
			[ "$(tel "$b" "$d.poller_socket")" = "$s" ] ||
			fail "$1: rxq $q home socket $(tel "$b" "$d.home_socket"), poller socket $(tel "$b" "$d.poller_socket"), want $s"
		[ "$(tel "$b" "$d.local_packets")" -gt "$(tel "$a" "$d.local_packets")" ] ||
			fail "$1: rxq $q carried nothing through its home PF in 1 s"
		for pf in 0 1; do
			d="/octonic/info,$pf:rx_q$q.remote_dma_packets"
			[ "$(tel "$a" "$d")" = 0 ] && [ "$(tel "$b" "$d")" = 0 ] ||
				fail "$1: PF $pf rxq $q: $(tel "$b" "$d") packets DMA-ed across sockets"
		done
		echo "$1: rxq $q on socket $s (poller lcore $(tel "$b" "/octopus/info,$port:rxq$q.poller_lcore")), no remote DMA"
	done
}

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
echo "OVS mempool of oct: $(ovs-appctl -t "$(ls "$OVS_RUNDIR"/ovs-vswitchd-dpdk.*.ctl)" \
	netdev-dpdk/get-mempool-info oct | grep -m1 socket_id)"
echo "ok: OVS forwarded from the octopus port on local pools, rxqs followed their PMDs' sockets both ways, no remote DMA"
