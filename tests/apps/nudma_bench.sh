#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 Octopus authors
#
# The NUDMA benchmark (a model result): examples/octopus_fwd with one
# forwarding lcore per socket, on net_octonic's one PF on socket 0, then on
# net_octopus over the NIC's two PFs (sockets 0 and 1), with the model's
# NUDMA cost on (a DMA into the other socket's memory flushes the lines it
# wrote, NUDMA_DMA=wait busy-waits NUDMA_NS per remote DMA instead; every
# poll from the other socket busy-waits NUDMA_NS, default 107), first at the
# same offered load
# (PPS, default 300000 packets/s), then unthrottled (the generator makes 32
# frames per engine run).  For each: packets forwarded, host cycles per
# packet (what the forwarding lcores spent, less what emulating the NIC
# cost them; the NUDMA cost stays in) and its split (nudma_figures.py).
# Unthrottled, it checks the goals (Octopus: at most 2/3 of one PF's host
# cycles per packet, at least 1.2x its packets) and reports them met or not;
# it fails only if a run fails.
#
#   nudma_bench.sh <octopus_fwd binary>      (under octopus-numa-emu --nodes 2)
#   env: SECONDS_PER_RUN (default 5), PPS, NUDMA_NS, NUDMA_DMA (flush|wait)
set -euo pipefail

app=${1:?octopus_fwd binary}
here=$(cd "$(dirname "$0")" && pwd)
secs=${SECONDS_PER_RUN:-5}
pps=${PPS:-300000}
ns=${NUDMA_NS:-107}
. "$here/../common/test.sh"
work=$octo_work
mem_opt=$("${OCTOPUS_EAL_MEM:?}" 512)
case ${NUDMA_DMA:-flush} in
flush) cost="nudma_dma=flush,nudma_poll_ns=$ns" ;;
wait) cost="nudma_dma_ns=$ns,nudma_poll_ns=$ns" ;;
*) fail "NUDMA_DMA: flush or wait" ;;
esac

# run NAME RATE VDEV...: octopus_fwd for $secs s; its report in $work/NAME
run() {
	local name=$1 rate=$2
	shift 2
	octo_prefix "nudma-bench-$name"
	octo_logs=("$work/$name")
	"$app" "$mem_opt" -m 512 --no-pci --file-prefix "$tp_prefix" \
		--lcores '0@0,1@0,2@1' -d "${OCTONIC_PLUGIN:?}" \
		--vdev "net_octonic0,wire=gen,flows=1024,gen_rate=$rate,$cost,$1" \
		"${@:2}" -- -t "$secs" -x _cycles,wire_latency,nudma_flushed >"$work/$name" 2>&1 ||
		OCTO_FAIL_TAIL=1000 fail "$name"
}

# pair RATE: one PF, then net_octopus, at generator rate RATE
pair() {
	run "single-$1" "$1" pfs=1,numa=0
	run "octopus-$1" "$1" pfs=2,numa=0:1 \
		--vdev net_octopus0,member=net_octonic0_pf0,member=net_octonic0_pf1
}

echo "Model results (net_octonic, NUDMA cost: ${NUDMA_DMA:-flush} per remote DMA, ${ns} ns per"
echo "remote poll; host cycles exclude the model's emulation of the NIC):"
pair "$pps"
echo "== offered load $pps packets/s, $secs s per run"
"$here/nudma_figures.py" "one PF (socket 0)=$work/single-$pps" \
	"net_octopus over PF0 + PF1=$work/octopus-$pps"
pair 0
echo "== unthrottled, $secs s per run"
"$here/nudma_figures.py" --goals "one PF (socket 0)=$work/single-0" \
	"net_octopus over PF0 + PF1=$work/octopus-0"
