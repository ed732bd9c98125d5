#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 Octopus authors
#
# Open vSwitch's hardware offload (other_config:hw-offload=true), unmodified,
# on net_octopus (tests/apps/ovs_common.sh; $1 = system: Debian's OVS 3.1 on
# DPDK 22.11, built: OVS 3.7.1 on 25.11; $2 the test hooks library) over a
# NIC model as strict as a ConnectX (dialect=mlx5-hws,xmeta=4: MARK is no
# transfer action there, so the port marks in its members' ingress).  OVS first asks for its datapath
# flow in full (transfer, output to net_null's port), which the port
# refuses with a reason, then for its partial offload: the flow's pattern
# (eth type, has_vlan 0, ipv4 proto and fragment_offset 0/0x3fff, udp) with
# MARK + RSS over its Rx queues.  A test library preloaded into OVS
# (octonic_hooks.c) reaches the NIC model through telemetry.
#   1. generator paused: the e-switch's rules with OVS's bridge and no flow
#      (the baseline); generator on, pmd-rxq-affinity 0:0,1:1
#   2. the datapath flow is reported offloaded (dpctl/dump-flows -m:
#      offloaded:partial); the port holds an application rule, the NIC a
#      transfer rule matching fragment_offset and MARK rules in both PFs'
#      ingress; OVS logged the port's refusal of the full offload
#   3. marked: over 1 s each PMD (core 0 on socket 0, core 1 on socket 1)
#      received packets and found every one's flow by its MARK
#      (pmd-stats-show: phwol hits grow, no other lookup: caches,
#      classifier, upcall), with the queue homes and locality of
#      ovs_octopus.sh
#   4. pmd-rxq-affinity 0:1,1:0: both queues move to the other PF, marks
#      still on every packet
#   5. PF 1 unplugged: its queue (rxq 0) is served by PF 0, every packet
#      still marked; plugged back: rxq 0 home on PF 1 again, marked
#   6. generator paused: OVS removes its idle flow (max-idle 1000 ms), the
#      port its rule, the NIC's rules are the baseline again
# Throughout: no error in OVS's log.
# Exit 77 (skip) only when that OVS is not there.
# Run under octopus-numa-emu --nodes 2.
set -euo pipefail

. "$(dirname "$0")/ovs_common.sh"
ovs_pick "${1:?system or built}"
ovs_preload=$(realpath "${2:?the test hooks library}")
export OCTOTEST_DUMP="$octo_work/eswitch.txt"
ovs_start ",dialect=mlx5-hws,xmeta=4" other_config:hw-offload=true \
	other_config:max-idle=1000
# what OVS asks of the port and its answers, at debug level in the log
for m in $(appctl vlog/list | awk '$1 ~ /offload_dpdk/ { print $1 }'); do
	appctl vlog/set "$m:file:dbg" >/dev/null
done

# hooks: /octotest/<cmd>,<args> -> the reply's key $2 (ret: must be 0)
hook() {
	local v
	v=$("$octo_lib/apps/telemetry_query.py" --flat "$tp_prefix" "/octotest/$1" |
		awk -v k="/octotest/$1:${2:-ret}" '$1 == k { print $2 }')
	[ -n "$v" ] || fail "no answer to /octotest/$1"
	if [ -z "${2:-}" ]; then
		[ "$v" = 0 ] || fail "/octotest/$1: $v"
	else
		echo "$v"
	fi
}
rules() {	# the NIC's rules: transfer, PF0's ingress, PF1's ingress
	echo "$(hook rules,0 transfer_rules) $(hook rules,0 ingress_rules) $(hook rules,1 ingress_rules)"
}
app_rules() { octo_tel "/octopus/info,$ovs_port" app_rules; }

# 1. the baseline, then traffic
hook gen,0,0
ovs_bridge "0:0,1:1"
wait_homes start 0 1
base=$(rules)
[ "$(app_rules)" = 0 ] || fail "the port holds $(app_rules) rules before any traffic"
echo "e-switch rules (transfer, PF0 ingress, PF1 ingress) with no flow: $base"
hook gen,0,1

# 2. offloaded
offloaded() { appctl dpctl/dump-flows -m | grep -q 'offloaded:partial'; }
OCTO_DEADLINE=20 octo_until "datapath flow reported offloaded" offloaded
appctl dpctl/dump-flows -m | grep 'offloaded:partial'
[ "$(app_rules)" -ge 1 ] || fail "OVS reports an offload, the port holds no rule"
echo "port: $(app_rules) application rule(s); e-switch rules: $(rules)"
hook dump,0
grep -q '^transfer .*frag=0x0000/0x3fff' "$OCTOTEST_DUMP" ||
	fail "no e-switch rule matches OVS's fragment_offset: $(cat "$OCTOTEST_DUMP")"
grep '^transfer .*frag=0x0000/0x3fff' "$OCTOTEST_DUMP" | head -n 2
for pf in 0 1; do
	grep -q "^ingress pf=$pf .*mark(" "$OCTOTEST_DUMP" ||
		fail "no MARK rule in PF $pf's ingress: $(cat "$OCTOTEST_DUMP")"
done
grep "^ingress pf=.*mark(" "$OCTOTEST_DUMP" | head -n 4
# the full offload OVS asked first, refused with the port's reason
grep -q 'transfer rules are not supported' "$ovs_log" ||
	fail "OVS logged no refusal of its full offload"
echo "OVS logged: $(grep -m1 'transfer rules are not supported' "$ovs_log")"

# Per PMD (core 0, core 1): packets received, partial-offload hits (the
# flow found by the packet's MARK) and every other way a packet finds its
# flow (caches, the classifier, an upcall), as P[<snap>:<core>:rx|phwol|other].
declare -A P
pmd_snap() {
	local core=x line n
	while IFS= read -r line; do
		n=$(awk -F': *' 'NF > 1 { split($2, v, " "); print v[1] }' <<<"$line")
		case $line in
		*"core_id "*) core=${line##*core_id }; core=${core%%:*}; P[$1:$core:other]=0 ;;
		"main thread:"*) core=main; P[$1:$core:other]=0 ;;
		*"packets received:"*) P[$1:$core:rx]=$n ;;
		*"phwol hits:"*) P[$1:$core:phwol]=$n ;;
		*"simple match hits:"* | *"emc hits:"* | *"smc hits:"* | *"megaflow hits:"* | \
		*"miss with success upcall:"* | *"miss with failed upcall:"*)
			P[$1:$core:other]=$((P[$1:$core:other] + n)) ;;
		esac
	done < <(appctl dpif-netdev/pmd-stats-show)
}
# marked <phase>: over 1 s each PMD received packets, and found the flow of
# every one by its MARK (a packet without it, or with an unknown one, would
# count in another lookup; the counters of one burst may be read half
# updated, so the hits are not compared with the packets received)
marked() {
	local c rx hit other
	pmd_snap "$1a"
	sleep 1
	pmd_snap "$1b"
	for c in 0 1; do
		[ -n "${P[$1a:$c:rx]:-}" ] && [ -n "${P[$1b:$c:phwol]:-}" ] ||
			fail "$1: pmd-stats-show has no core $c: $(appctl dpif-netdev/pmd-stats-show)"
		rx=$((P[$1b:$c:rx] - P[$1a:$c:rx]))
		hit=$((P[$1b:$c:phwol] - P[$1a:$c:phwol]))
		other=$((P[$1b:$c:other] - P[$1a:$c:other]))
		[ "$rx" -gt 0 ] && [ "$hit" -gt 0 ] ||
			fail "$1: the PMD of core $c received $rx packets in 1 s, $hit found by MARK: $(appctl dpif-netdev/pmd-stats-show)"
		[ "$other" = 0 ] ||
			fail "$1: the PMD of core $c found $other of its $rx packets' flows otherwise than by MARK: $(appctl dpif-netdev/pmd-stats-show)"
		echo "$1: PMD core $c: $rx packets in 1 s, $hit of them found their flow by MARK, none another way"
	done
}

# 3. marked where each queue's PF is local
check marked 0 1
marked marked

# 4. both queues to the other PF
vsctl set Interface oct other_config:pmd-rxq-affinity="0:1,1:0" || fail "re-pinning$(died)"
wait_homes swapped 1 0
check swapped 1 0
marked swapped

# 5. PF 1 out: rxq 0 (homed there) fails over to PF 0, and comes back
hook unplug,1
for _ in $(seq 1 75); do
	snap out
	[ "$(home out 0)" = 0 ] && [ "$(home out 1)" = 0 ] && break
	sleep 0.2
done
[ "$(home out 0)" = 0 ] || fail "PF 1 unplugged: rxq 0 still homed on socket $(home out 0)"
marked out
snap outb
[ "$(tel outb "/octopus/info,$ovs_port:rxq0.remote_packets")" -gt \
	"$(tel out "/octopus/info,$ovs_port:rxq0.remote_packets")" ] ||
	fail "PF 1 unplugged: rxq 0 received nothing through PF 0"
echo "PF 1 out: rxq 0 served by PF 0 (polled from socket 1), still marked"
hook plug,1
wait_homes back 1 0
check back 1 0
marked back

# 6. no traffic: OVS removes the idle flow, the port its rule
hook gen,0,0
gone() { [ "$(app_rules)" = 0 ] && ! appctl dpctl/dump-flows | grep -q 'in_port('; }
OCTO_DEADLINE=20 octo_until "flows removed" gone
[ "$(rules)" = "$base" ] || fail "e-switch rules $(rules) after OVS removed its flow, $base before"
echo "OVS removed its flow: the port holds no rule, e-switch rules $(rules) as before"
alive || fail "$ovs_name died"
log_clean
echo "OVS's log of its first offload:"
grep -m 4 -E 'rte_flow creation|rte_flow 0x|installed flow' "$ovs_log" || true
echo "ok: OVS's flows offloaded (MARK + RSS) on the octopus port, every packet marked on whichever PF served it, through a queue move and a PF unplug; removed with OVS's flow"
