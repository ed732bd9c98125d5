#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 Octopus authors
#
# testpmd's template and asynchronous flow commands on the net_octopus port
# over the two PFs of net_octonic (sockets 0 and 1), checked with traffic:
#
#   flow configure (port stopped), flow pattern_template (eth / ipv4 src /
#   udp src, both fully masked), flow actions_template (0: QUEUE whose index
#   each rule gives; 1: QUEUE index 3 fixed by the template's mask),
#   flow template_table (one table, both actions templates), then on flow
#   queue 1 (of 2): flow queue create, flow push, flow pull, flow queue
#   destroy, and on DPDKs whose testpmd has it (24.03 and later) flow queue
#   update.
#
# testpmd forwards 4 queues with 2 lcores: queues 0 and 1 from socket 0,
# queues 2 and 3 from socket 1 (migration=auto homes them there before any
# rule exists); RETA spreads every flow over queues 0 and 1 only, so what
# queues 2 and 3 receive is what the rules send there. One generated flow
# (flow 0 of seed 1) is steered:
#   1. rule A, actions template 0, queue 2: queue 2 grows, queue 3 not;
#   2. (update) rule A to actions template 1: queue 3 grows, queue 2 not;
#   3. rule A destroyed, rule B, actions template 1: queue 3 grows, 2 not;
#   4. rule B destroyed: neither grows, the flow is back on RSS.
# Every pull must complete each operation, none failed; queues 2 and 3
# must receive nothing through PF0 (rx_q{2,3}_remote_packets 0: the rules
# steer to the PF on the socket of the queue's poller, socket-local DMA).
#
#   testpmd_template.sh <DPDK version> [model devargs, e.g. ,dialect=mlx5-hws,xmeta=4]
# Run under octopus-numa-emu --nodes 2.
set -euo pipefail

version=${1:?DPDK version}
model=${2:-}
. "$(dirname "$0")/../common/testpmd.sh"
tp_begin tpt 120
fq=1	# the flow queue the rules go through (of 2)
update=0
[ "$(printf '%s\n' 24.03 "$version" | sort -V | head -n 1)" = 24.03 ] && update=1

# flow 0 of the generator
read -r src_ip src_port < <(tp_gen_flow 0)

tp_start_octopus "$out" 0@0,1@0,2@1 "wire=gen,flows=256,gen_rate=100000$model" ",migration=auto" \
	--rxq=4 --txq=4 --nb-cores=2 --total-num-mbufs=16384 --forward-mode=io --no-flush-rx

# forwarding until queue $1 received $2 packets more; $other: how many
# queue $3 received meanwhile (globals, not output: tp_cmd counts its
# answers in this shell, never in a subshell)
forward_until() {
	local n0 o0
	n0=$(tp_rxq $port "$1")
	o0=$(tp_rxq $port "$3")
	tp_cmd "start"
	octo_until "$2 packets more on queue $1" tp_rxq_above $port "$1" $((n0 + $2))
	tp_cmd "stop"
	other=$(( $(tp_rxq $port "$3") - o0 ))
}
# forwarding until queues 0 and 1 received $1 packets more (the flow's
# share of that is ~$1/256); $other: what queues 2 and 3 got meanwhile
forward_rss() {
	local n0 o0
	n0=$(( $(tp_rxq $port 0) + $(tp_rxq $port 1) ))
	o0=$(( $(tp_rxq $port 2) + $(tp_rxq $port 3) ))
	tp_cmd "start"
	octo_until "$1 packets more on queues 0 and 1" rss_above $((n0 + $1))
	tp_cmd "stop"
	other=$(( $(tp_rxq $port 2) + $(tp_rxq $port 3) - o0 ))
}
rss_above() { [ $(( $(tp_rxq $port 0) + $(tp_rxq $port 1) )) -gt "$1" ]; }
moved() {
	[ "$(tp_xstat $port rx_q2_migrations)" -ge 1 ] 2>/dev/null &&
		[ "$(tp_xstat $port rx_q3_migrations)" -ge 1 ] 2>/dev/null
}

# pull flow queue $fq until $1 operations completed; any failed one fails
pulled=0
pull() {
	local want=$((pulled + $1)) end=$((SECONDS + OCTO_DEADLINE)) line n f
	while [ "$pulled" -lt "$want" ]; do
		tp_flow_cmd "flow pull $port queue $fq"
		line=$(grep "^Queue #$fq pulled " "$out" | tail -n 1)
		[ -n "$line" ] || fail "flow pull: no answer"
		read -r n f < <(echo "$line" | sed -E 's/.* pulled ([0-9]+) operations \(([0-9]+) failed.*/\1 \2/')
		[ "$f" = 0 ] || fail "flow pull: $f failed operation(s): $line"
		pulled=$((pulled + n))
		[ "$SECONDS" -lt "$end" ] || fail "$1 operation(s) not completed within $OCTO_DEADLINE s"
	done
	[ "$pulled" = "$want" ] || fail "flow pull: $pulled operations completed, $want enqueued"
}
# the id testpmd gave the last rule enqueued
last_rule() {
	grep -oE '^Flow rule #[0-9]+ creation enqueued' "$out" | tail -n 1 | grep -oE '[0-9]+'
}
expect() { tp_wait "$1" "${2:-1}"; }
# flow commands refused (tp_flow_cmd)
tp_refusal='port_flow_complain\|Bad arguments\|is invalid\|^Failed to'

# the rule engine, configured while the port is stopped (ethdev's rule)
tp_flow_configure $port 2 64
# 64 buckets over queues 0 and 1
tp_reta_mod $port 2
tp_flow_cmd "flow pattern_template $port create ingress pattern_template_id 0 template eth / ipv4 src mask 255.255.255.255 / udp src mask 0xffff / end"
expect "^Pattern template #0 created"
tp_flow_cmd "flow actions_template $port create ingress actions_template_id 0 template queue / end mask queue / end" \
	"flow actions_template $port create ingress actions_template_id 1 template queue index 3 / end mask queue index 0xffff / end"
expect "^Actions template #1 created"
expect "^Actions template #0 created"
tp_flow_cmd "flow template_table $port create table_id 0 group 0 priority 0 ingress rules_number 64 pattern_template 0 actions_template 0 actions_template 1"
expect "^Template table #0 created"

# queues 2 and 3 homed on socket 1, their poller's, before any rule
tp_cmd "start"
octo_until "the move of Rx queues 2 and 3 to their poller's socket" moved
tp_cmd "stop"
grep -q "nb forwarding ports=1" "$out" || fail "members visible to testpmd"
for q in 2 3; do
	[ "$(tp_xstat $port "rx_q${q}_poller_socket")" = 1 ] ||
		fail "queue $q is not polled from socket 1 (show config fwd: lcore 2 takes queues 2, 3)"
done
rule_pattern="pattern eth / ipv4 src is $src_ip / udp src is $src_port / end"

# 1. rule A: per-rule queue 2
tp_flow_cmd "flow queue $port create $fq template_table 0 pattern_template 0 actions_template 0 postpone no $rule_pattern actions queue index 2 / end"
expect "creation enqueued"
rule_a=$(last_rule)
tp_flow_cmd "flow push $port queue $fq"
expect "^Queue #$fq operations pushed"
pull 1
forward_until 2 100 3
[ "$other" = 0 ] || fail "rule A (queue 2): queue 3 got $other packets"
echo "rule A ($src_ip:$src_port -> queue 2): queue 2 +100 or more, queue 3 +0"
q3_rule_steps=0

# 2. rule A updated to the template's queue 3
if [ "$update" = 1 ]; then
	tp_flow_cmd "flow queue $port update $fq rule $rule_a actions_template 1 postpone no pattern end actions queue index 3 / end"
	expect "^Flow rule #$rule_a update enqueued"
	tp_flow_cmd "flow push $port queue $fq"
	pull 1
	forward_until 3 50 2	# what queue 2 held before the update
	forward_until 3 100 2
	[ "$other" = 0 ] || fail "rule A updated to queue 3: queue 2 got $other packets"
	echo "rule A updated (actions template 1): queue 3 +100 or more, queue 2 +0"
	q3_rule_steps=1
fi

# 3. rule A destroyed, rule B through the template's queue 3
tp_flow_cmd "flow queue $port destroy $fq postpone no rule $rule_a"
expect "^Flow rule #$rule_a destruction enqueued"
tp_flow_cmd "flow queue $port create $fq template_table 0 pattern_template 0 actions_template 1 postpone no $rule_pattern actions queue index 3 / end"
expect "creation enqueued" 2
rule_b=$(last_rule)
tp_flow_cmd "flow push $port queue $fq"
pull 2
forward_until 3 50 2
forward_until 3 100 2
[ "$other" = 0 ] || fail "rule B (template queue 3): queue 2 got $other packets"
echo "rule A destroyed, rule B (actions template 1): queue 3 +100 or more, queue 2 +0"

# 4. rule B destroyed: the flow goes back to RSS (queues 0 and 1)
tp_flow_cmd "flow queue $port destroy $fq postpone no rule $rule_b"
expect "^Flow rule #$rule_b destruction enqueued"
tp_flow_cmd "flow push $port queue $fq"
pull 1
forward_rss 2000
forward_rss 25600	# the flow's share: ~100 packets
[ "$other" = 0 ] || fail "rules destroyed: queues 2 and 3 still got $other packets"
echo "rule B destroyed: queues 2 and 3 +0 while queues 0 and 1 took 25600 more"

# each frame the port received came once from the wire: the rules did not
# take what the port forwarded back into its Rx (an e-switch whose transfer
# rules see its ports' Tx, facts F9, needs them to name the wire); the port's
# count first, the generator's after it
rx=$(tp_rx $port)
gen=$(octo_tel "/octonic/info,0" generated)
[ -n "$rx" ] && [ -n "$gen" ] || fail "no Rx count ($rx) or generator count ($gen)"
[ "$rx" -le "$gen" ] ||
	fail "the port received $rx frames of $gen generated: its own Tx came back to its Rx"
echo "the port received $rx frames of $gen generated"

tp_cmd "show port xstats $port"
tp_quit
xs() { awk -v n="$1:" '$1==n{v=$2} END{print v}' "$out"; }
for q in 2 3; do
	r=$(xs "rx_q${q}_remote_packets")
	l=$(xs "rx_q${q}_local_packets")
	[ "$r" = 0 ] || fail "queue $q: $r packets through the remote PF (remote DMA)"
	[ "${l:-0}" -gt 0 ] || fail "queue $q: no local packets"
done
echo "ok: testpmd template commands ($version${model:+, ${model#,}}): $pulled operations" \
	"pulled, queue 2 $(xs rx_q2_local_packets) and queue 3 $(xs rx_q3_local_packets)" \
	"packets all through the local PF$([ "$q3_rule_steps" = 1 ] && echo ", update included")"
