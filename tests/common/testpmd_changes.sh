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

# 16 entries per command: testpmd's command line is short
reta() {
	local k i r
	for k in 0 16 32 48; do
		r=""
		for i in $(seq $k $((k + 15))); do
			r+="${r:+,}($i,$(( (i + $1) % 2 )))"
		done
		tp_send "port config ${port:?} rss reta $r"
	done
}

flow() {
	if [ $((flow_n % 2)) = 0 ]; then
		tp_send "flow create ${port:?} ingress pattern eth / ipv4 / udp / end actions queue index $(( (flow_n / 2) % 2 )) / end"
	else
		tp_send "flow destroy ${port:?} rule 0"
	fi
	flow_n=$((flow_n + 1))
}

rss() {
	if [ $((rss_n % 2)) = 0 ]; then
		tp_send "flow create ${port:?} ingress pattern eth / ipv4 / end actions rss queues $(( (rss_n / 2) % 2 )) $(( (rss_n / 2 + 1) % 2 )) end / end"
	else
		tp_send "flow destroy ${port:?} rule 0"
	fi
	rss_n=$((rss_n + 1))
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
