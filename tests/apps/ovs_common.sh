# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 Octopus authors
#
# Sourced (bash) by the Open vSwitch tests: OVS with DPDK, unmodified, on
# net_octopus over the two PFs of net_octonic (sockets 0 and 1, wire=gen),
# with its own ovsdb-server and ovs-vswitchd (no systemd), database, run
# and log directories in a private temporary directory; the plugins come
# from the build tree (-d).
#
#   ovs_pick system|built   which OVS: Debian's openvswitch-switch-dpdk (OVS
#                           3.1 on Debian's DPDK 22.11), or the OVS that
#                           tools/octopus-ovs built on the DPDK of this build
#                           (3.7.1 on 25.11); exits 77 (skip) when there is
#                           none, saying how to get it
#   ovs_start NIC_ARGS OTHER_CONFIG...   ovsdb-server, then ovs-vswitchd
#                           with DPDK (2 PMDs: core 0 on socket 0, core 1 on
#                           socket 1) and these Open_vSwitch other_config
#                           settings, the NIC's devargs extended by NIC_ARGS,
#                           the library $ovs_preload (if set) preloaded, in a
#                           network namespace of its own
#   ovs_bridge AFFINITY     bridge br0 (netdev): port oct (the octopus port,
#                           2 Rx queues pinned by pmd-rxq-affinity) -> port
#                           null0 (net_null), one OpenFlow flow
#                           in_port=1,udp -> output:2
#   vsctl, appctl, ofctl    OVS's tools on this OVS; alive, died
#   snap NAME               telemetry snapshot: numbers as T[NAME:cmd:key]
#   tel NAME KEY, home NAME Q, moves NAME Q
#   wait_homes NAME S0 S1   until the Rx queues are homed on sockets S0, S1
#   check NAME S0 S1        two snapshots 1 s apart: OVS forwards, each Rx
#                           queue homed and polled on its socket, carried
#                           through its home PF, no remote Rx DMA
#   log_clean               OVS's log has no ERR or EMER line
# Run under octopus-numa-emu --nodes 2.

. "$(dirname "${BASH_SOURCE[0]}")/../common/test.sh"

ovs_port=2	# net_octonic0_pf0 = 0, _pf1 = 1, the octopus port, net_null0 = 3
declare -A ovs_tool	# ovsdb-tool, ovsdb-server, ovs-vsctl, ovs-ofctl, ovs-appctl
ovs_null=3

ovs_pick() {
	local dpdk ovs
	case $1 in
	system)
		ovs_vswitchd=/usr/lib/openvswitch-switch-dpdk/ovs-vswitchd-dpdk
		ovs_bin=	# its tools from PATH
		ovs_schema=/usr/share/openvswitch/vswitch.ovsschema
		[ -x "$ovs_vswitchd" ] || {
			echo "SKIP: $ovs_vswitchd not installed (openvswitch-switch-dpdk)"
			exit 77
		}
		;;
	built)
		dpdk=$(dirname "${OCTOPUS_DPDK_BINDIR:?}")
		if ! ovs=$("${OCTOPUS_SRC:?}/tools/octopus-ovs" --find --dpdk "$dpdk"); then
			echo "SKIP: no OVS built on $dpdk: run tools/octopus-ovs --dpdk $dpdk"
			exit 77
		fi
		ovs_vswitchd=$ovs/bin/ovs-vswitchd
		ovs_bin=$ovs/bin
		ovs_schema=$ovs/share/openvswitch/vswitch.ovsschema
		;;
	*) fail "ovs_pick: system or built, not '$1'" ;;
	esac
	local b
	for b in ovsdb-tool ovsdb-server ovs-vsctl ovs-ofctl ovs-appctl; do
		if [ -n "$ovs_bin" ]; then
			ovs_tool[$b]=$ovs_bin/$b
		else
			ovs_tool[$b]=$(command -v "$b") || true
		fi
		[ -x "${ovs_tool[$b]}" ] || { echo "SKIP: $b not installed"; exit 77; }
	done
	ovs_name=$(basename "$ovs_vswitchd")
	echo "OVS: $("$ovs_vswitchd" --version | head -n 1) ($ovs_vswitchd)"
}

octo_prefix ovs
export OVS_RUNDIR="$octo_work/run" OVS_LOGDIR="$octo_work/log" OVS_DBDIR="$octo_work/db" \
	OVS_SYSCONFDIR="$octo_work/etc"
mkdir -p "$OVS_RUNDIR" "$OVS_LOGDIR" "$OVS_DBDIR" "$OVS_SYSCONFDIR"
OCTO_FAIL_TAIL=40

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
	[ -z "${ovs_name:-}" ] || stop_daemon "$OVS_RUNDIR/$ovs_name.pid"
	stop_daemon "$OVS_RUNDIR/ovsdb-server.pid"
}
vsctl() { "${ovs_tool[ovs-vsctl]}" --db="unix:$OVS_RUNDIR/db.sock" --timeout=15 "$@"; }
appctl() { "${ovs_tool[ovs-appctl]}" -t "$(ls "$OVS_RUNDIR/$ovs_name".*.ctl)" "$@"; }
ofctl() { "${ovs_tool[ovs-ofctl]}" "$@"; }
alive() { kill -0 "$(cat "$OVS_RUNDIR/$ovs_name.pid")" 2>/dev/null; }
# ovs-vsctl waits for ovs-vswitchd to apply each change: it times out when
# ovs-vswitchd died meanwhile
died() { alive || echo " (ovs-vswitchd died)"; }

ovs_start() {
	local nic_args=$1 mem_opt
	shift
	ovs_log="$OVS_LOGDIR/$ovs_name.log"
	octo_logs=("$ovs_log")
	"${ovs_tool[ovsdb-tool]}" create "$OVS_DBDIR/conf.db" "$ovs_schema"
	"${ovs_tool[ovsdb-server]}" "$OVS_DBDIR/conf.db" --remote="punix:$OVS_RUNDIR/db.sock" \
		--pidfile --log-file --no-chdir --detach
	vsctl --no-wait init
	# Hugepages or --no-huge, as the project decides (tools/octopus_eal_mem.h;
	# it says which on stderr). --legacy-mem with --no-huge: OVS adds
	# --in-memory otherwise, which --no-huge refuses.
	# On hugepages OVS adds --in-memory (no hugepage files at all), which
	# 25.11's EAL refuses beside --huge-unlink: left to OVS.
	mem_opt=$("${OCTOPUS_EAL_MEM:?}" 512)
	[ "$mem_opt" = --no-huge ] && mem_opt="--no-huge --legacy-mem"
	mem_opt=${mem_opt/--huge-unlink/}
	# per-port-memory: pools sized by the ports' queues, not OVS's 256k-mbuf
	# shared default. pmd-maxsleep: the PMDs sleep when idle (shared machine).
	vsctl --no-wait set Open_vSwitch . other_config:dpdk-init=true \
		other_config:pmd-cpu-mask=0x3 other_config:per-port-memory=true \
		other_config:pmd-maxsleep=50 "$@" \
		other_config:dpdk-extra="$mem_opt -m 512 --no-pci --file-prefix $tp_prefix \
-d ${OCTONIC_PLUGIN:?} -d ${OCTOPUS_PLUGIN:?} \
--vdev net_octonic0,pfs=2,numa=0:1,wire=gen,flows=256,gen_rate=100000$nic_args \
--vdev net_octopus0,member=net_octonic0_pf0,member=net_octonic0_pf1 --vdev net_null0"
	# a test library of ours first (ovs_preload), then the emulation's shim
	local pre=()
	[ -z "${ovs_preload:-}" ] ||
		pre=(env "LD_PRELOAD=$ovs_preload${LD_PRELOAD:+ $LD_PRELOAD}")
	# in a network namespace of its own: the userspace datapath makes
	# kernel tap devices (ovs-netdev, br0), which two OVS tests running
	# side by side would both claim
	unshare --net -- "${pre[@]}" "$ovs_vswitchd" "unix:$OVS_RUNDIR/db.sock" --pidfile \
		--log-file --no-chdir --detach >"$OVS_LOGDIR/vswitchd.out" 2>&1 ||
		fail "$ovs_name did not start"
	[ "$(vsctl get Open_vSwitch . dpdk_initialized)" = true ] || fail "DPDK not initialised"
}

ovs_bridge() {
	vsctl add-br br0 -- set bridge br0 datapath_type=netdev || fail "add-br$(died)"
	vsctl add-port br0 oct -- set Interface oct type=dpdk ofport_request=1 \
		options:dpdk-devargs=net_octopus0 options:n_rxq=2 \
		other_config:pmd-rxq-affinity="$1" || fail "add-port oct$(died)"
	vsctl add-port br0 null0 -- set Interface null0 type=dpdk ofport_request=2 \
		options:dpdk-devargs=net_null0 || fail "add-port null0$(died)"
	ofctl del-flows br0
	ofctl add-flow br0 in_port=1,udp,actions=output:2
}

# Every number of the telemetry replies, as T[<snapshot>:<command>:<key>].
declare -A T
snap() {
	local k v
	while read -r k v; do
		T[$1:$k]=$v
	done < <("$octo_lib/apps/telemetry_query.py" --flat "$tp_prefix" \
		"/octopus/info,$ovs_port" "/octonic/info,0" "/octonic/info,1" \
		"/ethdev/stats,$ovs_port" "/ethdev/stats,$ovs_null" "/ethdev/xstats,$ovs_port" \
		"${snap_more[@]}")
}
snap_more=()
tel() {
	[ -n "${T[$1:$2]:-}" ] || fail "telemetry has no $2 in snapshot $1"
	echo "${T[$1:$2]}"
}
home() { tel "$1" "/octopus/info,$ovs_port:rxq$2.home_socket"; }
moves() { tel "$1" "/ethdev/xstats,$ovs_port:rx_q$2_migrations"; }

# wait_homes <phase> <socket of rxq0> <socket of rxq1>: up to 15 s
wait_homes() {
	for _ in $(seq 1 75); do
		alive || fail "$ovs_name died"
		snap "$1"
		[ "$(home "$1" 0)" = "$2" ] && [ "$(home "$1" 1)" = "$3" ] && return 0
		sleep 0.2
	done
	fail "$1: rxq homes on sockets $(home "$1" 0) $(home "$1" 1), want $2 $3"
}

# check <phase> <socket of rxq0> <socket of rxq1>: snapshots <phase>a and
# <phase>b
check() {
	local a="$1a" b="$1b" q pf s d
	snap "$a"
	sleep 1
	snap "$b"
	alive || fail "$1: $ovs_name died"
	[ "$(tel "$b" "/ethdev/stats,$ovs_port:ipackets")" -gt \
		"$(tel "$a" "/ethdev/stats,$ovs_port:ipackets")" ] ||
		fail "$1: the octopus port received nothing in 1 s"
	[ "$(tel "$b" "/ethdev/stats,$ovs_null:opackets")" -gt \
		"$(tel "$a" "/ethdev/stats,$ovs_null:opackets")" ] ||
		fail "$1: OVS sent nothing to net_null in 1 s"
	echo "$1: octopus port rx $(tel "$b" "/ethdev/stats,$ovs_port:ipackets"), net_null tx $(tel "$b" "/ethdev/stats,$ovs_null:opackets")"
	for q in 0 1; do
		s=$2
		[ "$q" = 1 ] && s=$3
		d="/octopus/info,$ovs_port:rxq$q"
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
		echo "$1: rxq $q on socket $s (poller lcore $(tel "$b" "/octopus/info,$ovs_port:rxq$q.poller_lcore")), no remote DMA"
	done
}

# OVS's log: no error (a warning is OVS saying what it did instead)
log_clean() {
	if grep -E '\|(ERR|EMER)\|' "$ovs_log"; then
		fail "errors in $ovs_name's log (above)"
	fi
}
