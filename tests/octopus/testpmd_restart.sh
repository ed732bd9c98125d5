#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 Octopus authors
#
# Rules through a port stop and start, driven as a user would drive
# testpmd (its defaults, io forwarding), over the NIC model's two PFs:
#
#   1. an all-UDP rule: `flow create 2 ingress pattern eth / ipv4 / udp /
#      end actions queue index 1 / end` sends every generated packet to
#      queue 1; after `port stop 2` / `port start 2` it still does (queues
#      0, 2 and 3 get nothing).
#   2. a template rule (flow 0 -> queue 2, made with testpmd's flow queue
#      commands) and a synchronous rule (flow 1 -> queue 3), the RETA over
#      queues 0 and 1 only: ten times `port stop 2` / `port start 2`, and
#      after each start both rules' flows reach their queues again.
# testpmd itself flushes a port's rules (rte_flow_flush) at its stop: on
# DPDK 22.11 always, from 23.11 unless given --disable-flow-flush, which it is
# here. On 22.11 the port keeps what testpmd leaves it: the template rules
# (rte_flow_flush removes synchronous rules only), and none of the
# synchronous ones: in case 1 the traffic is spread again after the
# restart (the flush obeyed at once), and in case 2 the synchronous rule
# is made again after each start, as a 22.11 user must.
#   Lost: no frame out of order at the sink, and none dropped by the NIC
#   for a cause the port would be the one to blame for (steered to a PF
#   that is stopped, or to a queue not set up: rx_port_down_drop_packets,
#   rx_no_queue_drop_packets of both PFs, 0). What a stop drops (the
#   frames in the PFs' rings when it comes) and ring-full misses (the
#   forwarding lcores of this shared 2-CPU host are not always scheduled)
#   are counted by the NIC, and printed.
#
#   testpmd_restart.sh <DPDK version> [model devargs, e.g. ,dialect=mlx5-hws,xmeta=4]
# Run under octopus-numa-emu --nodes 2.
set -euo pipefail

version=${1:?DPDK version}
model=${2:-}
. "$(dirname "$0")/../common/testpmd.sh"
tp_begin tprs 120
fq=1
noflush=()
[ "$(printf '%s\n' 23.11 "$version" | sort -V | head -n 1)" = 23.11 ] &&
	noflush=(--disable-flow-flush)
# testpmd 22.11 flushes its rule list at every stop, the template rule's
# record with it (which the port refuses to destroy there: it is the
# asynchronous API's), and frees at its exit neither the templates' nor the
# table's records: three allocations of testpmd's own, which ASan's leak
# check would report at the exit. The port's leaks on this path are
# checked by octopus_template_restart (C, every rule and template removed).
[ ${#noflush[@]} -gt 0 ] || export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"

# flows 0 and 1 of the generator
read -r ip0 port0 < <(tp_gen_flow 0)
read -r ip1 port1 < <(tp_gen_flow 1)

tp_start_octopus "$out" 0@0,1@0,2@1 "wire=gen,flows=16,gen_rate=20000$model" "" \
	--rxq=4 --txq=4 --nb-cores=2 --total-num-mbufs=16384 --forward-mode=io \
	--no-flush-rx "${noflush[@]}"

# flow commands refused (tp_flow_cmd)
tp_refusal='port_flow_complain\|Bad arguments\|is invalid\|^Failed to\|Fail to'
expect() { tp_wait "$1" "${2:-1}"; }

# queues $1 and $3 above $2 and $4
qq_above() { tp_rxq_above $port "$1" "$2" && tp_rxq_above $port "$3" "$4"; }
# forward until queue $1 (and $3) received $2 packets more; got[q]: what
# each queue received meanwhile
declare -a got
forward() {
	local q n0=() n
	for q in 0 1 2 3; do n0[q]=$(tp_rxq $port $q); done
	tp_cmd "start"
	if [ -n "${3:-}" ]; then
		octo_until "$2 packets more on queues $1 and $3" qq_above "$1" \
			$((n0[$1] + $2)) "$3" $((n0[$3] + $2))
	else
		octo_until "$2 packets more on queue $1" tp_rxq_above $port "$1" $((n0[$1] + $2))
	fi
	tp_cmd "stop"
	for q in 0 1 2 3; do
		n=$(tp_rxq $port $q)
		got[q]=$((n - n0[q]))
	done
}
# generated, minus arrived at the sink, minus the port's Rx misses (a ring
# full: counted): what the stops dropped, and what the rings hold now
held_now() {
	"$octo_lib/apps/telemetry_query.py" --flat "$tp_prefix" "/octonic/info,0" \
			"/ethdev/stats,$port" |
		awk '{ k = $1; sub(/^[^:]*:/, "", k) }
			k == "generated" { g = $2 } k == "sink_packets" { s = $2 }
			k == "imissed" { m = $2 }
			END { print g - s - m }'
}
# NIC drops of cause $1 on both PFs
nic_drops() {
	"$octo_lib/apps/telemetry_query.py" --flat "$tp_prefix" "/ethdev/xstats,0" \
			"/ethdev/xstats,1" |
		awk -v n="$1" '{ k = $1; sub(/^[^:]*:/, "", k) } k == n { d += $2 } END { print d + 0 }'
}
sink() { octo_tel "/octonic/info,0" "$1"; }
restart() {
	tp_flow_cmd "port stop $port"
	tp_flow_cmd "port start $port"
}

# 1. an all-UDP rule to queue 1
tp_flow_cmd "flow create $port ingress pattern eth / ipv4 / udp / end actions queue index 1 / end"
expect "^Flow rule #0 created"
forward 1 500	# what the other queues held before the rule
forward 1 1000
[ "${got[0]}" = 0 ] && [ "${got[2]}" = 0 ] && [ "${got[3]}" = 0 ] ||
	fail "rule to queue 1: queues 0, 2, 3 got ${got[0]}, ${got[2]}, ${got[3]}"
restart 0
forward 1 1000
if [ ${#noflush[@]} -gt 0 ]; then
	[ "${got[0]}" = 0 ] && [ "${got[2]}" = 0 ] && [ "${got[3]}" = 0 ] ||
		fail "after port stop/start: queues 0, 2, 3 got ${got[0]}, ${got[2]}, ${got[3]}: the rule is gone"
	echo "all-UDP rule: all UDP on queue 1 before and after a port stop/start"
	tp_flow_cmd "flow destroy $port rule 0"
else
	[ "${got[0]}" -gt 0 ] && [ "${got[2]}" -gt 0 ] && [ "${got[3]}" -gt 0 ] ||
		fail "after port stop/start: testpmd flushed the rule, but queues 0, 2, 3 got ${got[0]}, ${got[2]}, ${got[3]}"
	echo "all-UDP rule: testpmd $version flushes the rule at the stop; the traffic is spread again after it"
fi

# 2. a template rule and a synchronous rule, ten restarts
tp_flow_configure $port 2 64
tp_reta_mod $port 2
tp_flow_cmd "flow pattern_template $port create ingress pattern_template_id 0 template eth / ipv4 src mask 255.255.255.255 / udp src mask 0xffff / end"
tp_flow_cmd "flow actions_template $port create ingress actions_template_id 0 template queue / end mask queue / end"
tp_flow_cmd "flow template_table $port create table_id 0 group 0 priority 0 ingress rules_number 64 pattern_template 0 actions_template 0"
expect "^Template table #0 created"
tp_flow_cmd "flow queue $port create $fq template_table 0 pattern_template 0 actions_template 0 postpone no pattern eth / ipv4 src is $ip0 / udp src is $port0 / end actions queue index 2 / end"
expect "creation enqueued"
tp_flow_cmd "flow push $port queue $fq"
tp_flow_cmd "flow pull $port queue $fq"
expect "^Queue #$fq pulled 1 operations (0 failed, 1 succeeded)"
sync_rule="flow create $port ingress pattern eth / ipv4 src is $ip1 / udp src is $port1 / end actions queue index 3 / end"
tp_flow_cmd "$sync_rule"
forward 2 50 3
for i in $(seq 1 10); do
	restart "$i"
	# testpmd 22.11 flushed it at the stop
	[ ${#noflush[@]} -gt 0 ] || tp_flow_cmd "$sync_rule"
	forward 2 50 3
done
echo "10 restarts: the template rule's flow on queue 2, the synchronous rule's on queue 3 after each"
tp_cmd "stop"
ooo=$(sink sink_out_of_order)
missed=$(octo_tel "/ethdev/stats,$port" imissed)
down=$(nic_drops rx_port_down_drop_packets)
noq=$(nic_drops rx_no_queue_drop_packets)
dropped=$(held_now)
tp_quit
[ "${ooo:-1}" = 0 ] || fail "$ooo frames out of order at the sink"
[ "$down" = 0 ] && [ "$noq" = 0 ] ||
	fail "the NIC dropped $down frames steered to a stopped PF, $noq to a queue not set up"
echo "ok: testpmd $version${model:+ (${model#,})}: rules kept through 12 port restarts; 0 out of order, 0 steered to a stopped PF or to no queue; $missed ring-full misses counted, $dropped frames in the rings at the stops or now"
