#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 Octopus authors
#
# testpmd drives net_octonic: a transfer rule sends the generated UDP flows
# to PF1 and PF1's ingress rule to its queue 2.  testpmd's own forwarding
# statistics must show packets on port 1 queue 2 and on no other queue.
set -euo pipefail
: "${TESTPMD:?}" "${OCTONIC_PLUGIN:?}"
. "$(dirname "$0")/../common/testpmd.sh"
octo_prefix octonic-steer
out=$octo_work/out

tp_start "$out" -d "$OCTONIC_PLUGIN" "$("${OCTOPUS_EAL_MEM:?}" 512)" -m 512 --no-pci \
	--file-prefix "$tp_prefix" \
	--vdev net_octonic0,pfs=2,wire=gen,flows=64,gen_rate=1000000 -- \
	-i --rxq=4 --txq=4 --forward-mode=rxonly --total-num-mbufs=16384
tp_cmd "flow create 0 transfer pattern eth / ipv4 / udp / end actions represented_port ethdev_port_id 1 / end" \
	"flow create 1 ingress pattern eth / ipv4 / udp / end actions queue index 2 / end"
# forwarding until port 1 received 100000 packets (0.1 s of the generator's)
tp_forward 1 100000
tp_quit

[ "$(grep -c 'Flow rule #[0-9]* created' "$out")" -eq 2 ] ||
	fail "the two rules were not both created"
# per-stream blocks are printed only for streams that saw packets
streams=$(grep -c "Forward Stats for RX Port=" "$out" || true)
[ "$streams" -eq 1 ] || fail "$streams streams got packets, want 1"
grep -A1 "Forward Stats for RX Port= 1/Queue= 2 " "$out" |
	grep -Eq "RX-packets: [1-9][0-9]*" || fail "no packets on port 1 queue 2"
# nothing reached port 0, not even as drops (imissed)
awk '/Forward statistics for port 0/ { getline; print; exit }' "$out" |
	grep -Eq "RX-packets: 0 +RX-dropped: 0 " || fail "port 0 saw packets"
rx=$(awk '/Forward statistics for port 1/ { getline; print $2; exit }' "$out")
[ "${rx:-0}" -gt 1000 ] || fail "port 1 received only ${rx:-0}"
echo "PASS: port 1 queue 2 received $rx packets, nothing elsewhere"
