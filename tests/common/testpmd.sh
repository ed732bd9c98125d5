# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 Octopus authors
#
# Sourced (bash) by the test scripts that drive DPDK's testpmd: commands go
# through a FIFO on testpmd's stdin, and every step waits for what testpmd
# prints (or for a counter), with a deadline, instead of sleeping: a fixed
# sleep is too short on a loaded host and too long on an idle one.
#
# The programs come from meson (tests/meson.build sets TESTPMD, maybe a
# sanitizer wrapper): nothing here looks a program up in PATH.
#
# On top of test.sh (fail, cleanup, octo_prefix, octo_until):
#   tp_begin NAME [TAIL]     octo_prefix NAME; out, testpmd's log in the
#                            work directory; port=2, the octopus port after
#                            the 2 PFs; OCTO_FAIL_TAIL=TAIL where given
#   tp_start LOG EAL/APP...  testpmd with these arguments (run by the
#                            command in the array tp_wrap, if any), output
#                            in LOG; returns at its first prompt
#   tp_start_octopus LOG LCORES NIC OCTOPUS APP...
#                            tp_start of testpmd over net_octopus0 on the
#                            2 PFs of net_octonic0 (512 MB, no PCI, both
#                            plugins): NIC is the NIC's devargs after
#                            "pfs=2,numa=0:1,", OCTOPUS what follows the
#                            port's member list (",..." or ""), APP
#                            testpmd's own arguments after -i
#   tp_send COMMAND...       send commands, wait for nothing
#   tp_cmd COMMAND...        send commands, wait until testpmd answered them
#   tp_flow_cmd COMMAND...   tp_cmd for flow commands: fails at once when
#                            testpmd refused one, a new line of the log
#                            matching tp_refusal (set by the script; a
#                            PMD's refusal comes as port_flow_complain(),
#                            a syntax testpmd does not know as "Bad
#                            arguments")
#   tp_flow_configure PORT N SIZE
#                            `flow configure` of N flow queues of SIZE
#                            rules, the port stopped for it (ethdev's
#                            rule) and started again
#   tp_wait PATTERN [N]      wait until N (1) lines of the log match PATTERN
#   tp_xstat PORT NAME       an xstat, from telemetry (tp_xstats PORT: all;
#                            tp_rx PORT: ipackets)
#   tp_rxq PORT Q            packets PORT's Rx queue Q delivered (through
#                            any member: local + remote; -1 if unread),
#                            from telemetry (tp_rxq_above PORT Q N: > N)
#   tp_gen_flow F            "ADDRESS PORT": the IPv4 source address and
#                            UDP source port of flow F of the NIC model's
#                            generator (seed 1, lib/wire/octo_gen.c)
#   tp_forward PORT N        `start`, wait until PORT received N packets
#                            more (telemetry), `stop`
#   tp_reta_cmds PORT SIZE EXPR
#                            the commands, one a line, that map the
#                            port's RETA buckets 0..SIZE-1, bucket b to
#                            queue $((EXPR)) (EXPR names b)
#   tp_reta_mod PORT N       the port's 64 RETA buckets over queues
#                            0..N-1, bucket b to queue b mod N
#   tp_quit [any]            `quit`, wait for testpmd's exit; fails on a
#                            non-zero status (a crash) unless "any" (its
#                            status then in tp_status)
#   tp_shared_mem            EAL memory options, in the array tp_mem, of a
#                            primary whose memory a secondary maps: its
#                            hugepage files kept (test.sh's cleanup removes
#                            them), at OCTOPUS_BASE_VIRTADDR if the build
#                            sets it;
#                            skips the test (77) without hugepages
# Deadlines: OCTO_DEADLINE seconds (30) per wait.

. "$(dirname "${BASH_SOURCE[0]}")/test.sh"
tp_log=

tp_begin() {
	octo_prefix "$1"
	out=$octo_work/out
	port=2	# net_octonic0_pf0 = 0, _pf1 = 1, the octopus port after them
	[ -z "${2:-}" ] || OCTO_FAIL_TAIL=$2
}
tp_marks=0
tp_wrap=()

tp_alive() { kill -0 "$tp_pid" 2>/dev/null; }

tp_count() { grep -c -- "$1" "$tp_log" || true; }
tp_matched() { [ "$(tp_count "$1")" -ge "$2" ]; }
tp_wait() { octo_until "'$1' (#${2:-1})" tp_matched "$1" "${2:-1}"; }

tp_start() {
	tp_log=$1
	shift
	case " ${octo_logs[*]} " in
	*" $tp_log "*) ;;
	*) octo_logs+=("$tp_log") ;;
	esac
	rm -f "$octo_work/tp.in"
	mkfifo "$octo_work/tp.in"
	"${tp_wrap[@]}" stdbuf -oL "${TESTPMD:?}" "$@" <"$octo_work/tp.in" >"$tp_log" 2>&1 &
	tp_pid=$!
	exec 3>"$octo_work/tp.in"
	tp_marks=0
	OCTO_DEADLINE=$((OCTO_DEADLINE * 2)) tp_cmd
}

tp_start_octopus() {
	local log=$1 lcores=$2 nic=$3 octo=$4
	shift 4
	tp_start "$log" "$("${OCTOPUS_EAL_MEM:?}" 512)" -m 512 --no-pci --file-prefix "$tp_prefix" \
		--lcores "$lcores" -d "${OCTONIC_PLUGIN:?}" -d "${OCTOPUS_PLUGIN:?}" \
		--vdev "net_octonic0,pfs=2,numa=0:1,$nic" \
		--vdev "net_octopus0,member=net_octonic0_pf0,member=net_octonic0_pf1$octo" \
		-- -i "$@"
}

tp_send() {
	local c
	# a write to the FIFO of an exited testpmd would end this shell with
	# SIGPIPE, silently: ignored for the write, whose error then says it
	for c in "$@"; do
		(trap '' PIPE; echo "$c" >&3) 2>/dev/null || fail "testpmd does not read its input (exited?)"
	done
}

# testpmd answers commands in order: a marker command after them, whose
# answer names itself, is answered once they are
tp_cmd() {
	tp_send "$@" "show port summary all"
	tp_marks=$((tp_marks + 1))
	tp_wait "^Number of available ports" "$tp_marks"
}

tp_flow_cmd() {
	local n0
	n0=$(tp_count "${tp_refusal:?}")
	tp_cmd "$@"
	[ "$(tp_count "$tp_refusal")" = "$n0" ] ||
		fail "refused: $*: $(grep "$tp_refusal" "$tp_log" | tail -n 1)"
}

tp_flow_configure() {
	tp_flow_cmd "port stop $1"
	tp_flow_cmd "flow configure $1 queues_number $2 queues_size $3"
	tp_wait "^Configure flows on port $1: number of queues $2 with $3 elements"
	tp_flow_cmd "port start $1"
}

# xstat $2 of port $1; all of them, "name value" a line; packets port $1
# received
tp_xstat() { octo_tel "/ethdev/xstats,$1" "$2"; }
tp_xstats() {
	"$octo_lib/apps/telemetry_query.py" --flat "${tp_prefix:?}" "/ethdev/xstats,$1" |
		sed 's/^[^:]*://'
}
tp_rx() { octo_tel "/ethdev/stats,$1" ipackets; }
tp_rxq() {
	tp_xstats "$1" 2>/dev/null |
		awk -v q="$2" '$1 ~ "^rx_q" q "_(local|remote)_packets$" {n += $2; f++}
			END{print f == 2 ? n : -1}'
}
tp_rxq_above() { [ "$(tp_rxq "$1" "$2")" -gt "$3" ]; }

# flow f of the generator: source 10.0.0.0/8 + ((f + h) & 0xffffff) and
# port 0xc000 | ((f + (h >> 8)) & 0x3fff), h the mix of its seed (1)
tp_gen_flow() {
	local h=1 a
	h=$(( (h ^ (h >> 16)) & 0xffffffff ))
	h=$(( (h * 0x7feb352d) & 0xffffffff ))
	h=$(( (h ^ (h >> 15)) & 0xffffffff ))
	h=$(( (h * 0x846ca68b) & 0xffffffff ))
	h=$(( (h ^ (h >> 16)) & 0xffffffff ))
	a=$(( 0x0a000000 | (($1 + h) & 0xffffff) ))
	echo "$(( (a >> 24) & 255 )).$(( (a >> 16) & 255 )).$(( (a >> 8) & 255 )).$(( a & 255 ))" \
		$(( 0xc000 | (($1 + (h >> 8)) & 0x3fff) ))
}
tp_rx_above() { [ "$(tp_rx "$1" 2>/dev/null)" -gt "$2" ] 2>/dev/null; }

tp_forward() {
	local rx0
	rx0=$(tp_rx "$1") || true
	[ -n "$rx0" ] || fail "telemetry unreachable"
	tp_cmd "start"
	octo_until "$2 packets on port $1" tp_rx_above "$1" $((rx0 + $2))
	tp_cmd "stop"
}

# 16 entries per command: testpmd's command line is short
tp_reta_cmds() {
	local k b r
	for ((k = 0; k < $2; k += 16)); do
		r=""
		for ((b = k; b < k + 16 && b < $2; b++)); do
			r+="${r:+,}($b,$(($3)))"
		done
		echo "port config $1 rss reta $r"
	done
}

tp_reta_mod() {
	local cmds
	mapfile -t cmds < <(tp_reta_cmds "$1" 64 "b % $2")
	tp_cmd "${cmds[@]}"
}

tp_quit() {
	local st=0
	local end=$((SECONDS + OCTO_DEADLINE))
	if [ "${1:-}" = any ]; then
		(trap '' PIPE; echo quit >&3) 2>/dev/null || true
	else
		tp_send "quit"
	fi
	exec 3>&-
	while tp_alive; do
		[ "$SECONDS" -lt "$end" ] || fail "testpmd still running $OCTO_DEADLINE s after quit"
		sleep 0.05
	done
	wait "$tp_pid" || st=$?
	tp_pid=
	tp_status=$st
	[ "$st" = 0 ] || [ "${1:-}" = any ] || fail "testpmd exited with status $st"
}

tp_shared_mem() {
	if [ "$("${OCTOPUS_EAL_MEM:?}" 512)" = "--no-huge" ]; then
		echo "skip: secondary processes need hugepages"
		exit 77
	fi
	tp_mem=()
	# where the primary's memory goes (sanitizers: tests/meson.build)
	if [ -n "${OCTOPUS_BASE_VIRTADDR:-}" ]; then
		tp_mem=("--base-virtaddr=$OCTOPUS_BASE_VIRTADDR")
	fi
}
