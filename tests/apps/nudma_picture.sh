#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 Octopus authors
#
# The demo's picture (tools/octopus-demo, section 4), made briefly and
# checked: examples/octopus_fwd with one forwarding lcore per socket on
# net_octonic's one PF on socket 0, then on net_octopus over the NIC's two
# PFs with the application NUMA-unaware (-n: both queues set up on socket
# 0), so that queue 1, polled from socket 1, moves to PF1 while the run is
# sampled.  Both runs sampled through telemetry (telemetry_sample.py), drawn
# (nudma_picture.py), and the SVG checked against the samples
# (nudma_picture_check.py: valid SVG, labelled as a model result with its
# cost, every series drawn with the values the samples give, the move
# marked where the samples show it, no polls from the other socket after it).
#
#   nudma_picture.sh <octopus_fwd binary>      (under octopus-numa-emu --nodes 2)
set -euo pipefail

app=${1:?octopus_fwd binary}
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../common/test.sh"
ns=107
work=$octo_work
OCTO_FAIL_TAIL=40
mem_opt=$("${OCTOPUS_EAL_MEM:?}" 512)
cost="nudma_dma_ns=$ns,nudma_poll_ns=$ns"

# run NAME COMMANDS APP_ARGS VDEV...: octopus_fwd sampled from the start of
# forwarding (the sampler starts with the application and keeps only what
# it sampled once the queues were set up); it stops after 2 s, or, with a
# port to watch for moves (MOVE_PORT), 1.5 s after queue 1 has moved (Rx
# and Tx; 30 s at most).
run() {
	local name=$1 cmds=$2 app_args=$3 prefix pid spid
	shift 3
	octo_prefix "nudma-picture-$name"
	prefix=$tp_prefix
	octo_logs=("$work/$name.out")
	"$app" "$mem_opt" -m 512 --no-pci --file-prefix "$prefix" \
		--lcores '0@0,1@0,2@1' -d "${OCTONIC_PLUGIN:?}" "$@" \
		-- ${app_args:+"$app_args"} >"$work/$name.out" 2>&1 &
	pid=$!
	# shellcheck disable=SC2086 # a list of commands
	"$here/telemetry_sample.py" "$work/$name.jsonl" "$prefix" $cmds 2>/dev/null &
	spid=$!
	octo_pids=("$spid" "$pid")
	forwarding() {
		kill -0 "$pid" 2>/dev/null || fail "$name: octopus_fwd exited"
		grep -qs '^forwarding on' "$work/$name.out"
	}
	octo_until "$name: forwarding" forwarding
	if [ -n "${MOVE_PORT:-}" ]; then
		for _ in $(seq 1 100); do
			"$here/telemetry_query.py" --flat "$prefix" "/octopus/migration,$MOVE_PORT" \
				>"$work/mig" 2>/dev/null || true
			[ "$(grep -cE ':(rx|tx)q1\.migrations [1-9]' "$work/mig")" -eq 2 ] && break
			sleep 0.3
		done
		# the samples the picture is drawn from
		sleep 1.5
	else
		sleep 2
	fi
	kill -TERM "$spid"
	wait "$spid" || true
	octo_pids=("$pid")
	kill -INT "$pid"
	wait "$pid" || { octo_pids=(); fail "$name: octopus_fwd failed"; }
	octo_pids=()
}

run one-pf "/octonic/latency,0 /ethdev/xstats,0" "" \
	--vdev "net_octonic0,pfs=1,numa=0,wire=gen,flows=256,gen_rate=200000,$cost$octo_dialect"
MOVE_PORT=2 run octopus-move \
	"/octopus/migration,2 /octonic/latency,0 /ethdev/xstats,0 /ethdev/xstats,1" -n \
	--vdev "net_octonic0,pfs=2,numa=0:1,wire=gen,flows=256,gen_rate=200000,$cost$octo_dialect" \
	--vdev net_octopus0,member=net_octonic0_pf0,member=net_octonic0_pf1,migration=auto,migrate_after=1500
"$here/nudma_picture.py" --nudma-ns "$ns" "$work/p.svg" \
	"one PF=$work/one-pf.jsonl" "net_octopus, queue 1 moves=$work/octopus-move.jsonl" \
	|| fail "nudma_picture.py failed"
"$here/nudma_picture_check.py" "$ns" "$work/p.svg" "$work/one-pf.jsonl" \
	"$work/octopus-move.jsonl" || fail "the picture does not match its samples"
