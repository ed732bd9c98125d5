# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 Octopus authors
#
# Sourced (bash) after testpmd.sh by the scripts that move traffic between
# the queues of a 2-queue port under testpmd, one change a call:
#   reta N    every RETA bucket b to queue (b + N) % 2
#   flow      `flow create` of a rule taking all UDP to one queue (the
#             other one at every second create), then `flow destroy`
#   rss       the same with a rule spreading all IPv4 over both queues
#             (RSS, the queues in either order)
#   swap      `set corelist` swaps the two forwarding lcores (stop/start;
#             with one lcore per socket the queues migrate, migration=auto)
#   changes_end   destroys a rule flow or rss left behind
# The caller sets port (testpmd's number of the port) and a, b (the two
# forwarding lcores, started as `set corelist $a,$b`). Rules are the
# port's only ones: each is rule 0.
flow_n=0
rss_n=0
swap_n=0

reta() {
	local cmds
	mapfile -t cmds < <(tp_reta_cmds "${port:?}" 64 "(b + $1) % 2")
	tp_send "${cmds[@]}"
}

# rule_flip COUNTER RULE: the COUNTER-th call (its variable's name) of a
# rule change; even ones create RULE (pattern and actions), odd ones
# destroy it
rule_flip() {
	local -n n=$1
	if [ $((n % 2)) = 0 ]; then
		tp_send "flow create ${port:?} ingress pattern $2"
	else
		tp_send "flow destroy ${port:?} rule 0"
	fi
	n=$((n + 1))
}

flow() {
	rule_flip flow_n "eth / ipv4 / udp / end actions queue index $(( (flow_n / 2) % 2 )) / end"
}

rss() {
	rule_flip rss_n "eth / ipv4 / end actions rss queues $(( (rss_n / 2) % 2 )) $(( (rss_n / 2 + 1) % 2 )) end / end"
}

swap() {
	tp_send "stop"
	if [ $((swap_n % 2)) = 0 ]; then
		tp_send "set corelist ${b:?},${a:?}"
	else
		tp_send "set corelist ${a:?},${b:?}"
	fi
	tp_send "start"
	swap_n=$((swap_n + 1))
}

changes_end() {
	if [ $((flow_n % 2)) = 1 ]; then flow; fi
	if [ $((rss_n % 2)) = 1 ]; then rss; fi
}
