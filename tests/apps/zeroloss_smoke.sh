#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 Octopus authors
#
# tools/octopus-zeroloss, briefly: one PF polled from the other socket, 64
# bytes, 1 queue, trials of 0.3 s, two search steps, the latency at 50 %
# of what it found, and one trial at 100 Mpps, far above what the model
# forwards on any host (a pass of its engine generates at most 32 frames).
# Checked: the CSV's header and every row's fields (numbers where numbers
# belong), a lossless trial lost nothing and the sink got exactly rate x
# seconds frames, the trial at 100 Mpps is reported lossy with the frames
# it lost counted, the zero-loss rate is one a lossless trial ran at and
# below the lossy bound, the SVG is well-formed with a bar, the text
# says the result.  Not a measurement: the figures are the benchmark's
# (meson test --benchmark apps_zeroloss).
#
#   zeroloss_smoke.sh <octopus-zeroloss> <testpmd>   (under octopus-numa-emu --nodes 2)
set -euo pipefail

tool=${1:?octopus-zeroloss}
testpmd=${2:?dpdk-testpmd}
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../common/test.sh"
out=$octo_work/out
high=100000000

"$tool" --testpmd "$testpmd" --seconds 0.3 --configs pf-remote --sizes 64 \
	--queues 1 --max-steps 2 --loads 50 --check-lossy $high --out "$out" \
	> "$octo_work/tool.out" 2>&1 || { cat "$octo_work/tool.out"; fail "the tool failed"; }
cat "$octo_work/tool.out"

python3 - "$out" $high <<'PY' || fail "the tool's output is wrong (above)"
import csv, sys
import xml.etree.ElementTree as ET

out, high = sys.argv[1], int(sys.argv[2])
bad = []
fields = ["config", "pkt_len", "queues", "kind", "offered_pps", "load_pct",
          "seconds", "generated", "sink_packets", "lost", "gen_overflow",
          "sink_lost", "imissed", "rx_nombuf", "oerrors", "tx_dropped",
          "lossless", "forwarded_pps", "p50_ns", "p99_ns", "p999_ns",
          "latency_samples", "lossy_above_pps", "dpdk", "date"]
rows = list(csv.DictReader(open(out + "/zeroloss.csv")))
if not rows or list(rows[0].keys()) != fields:
    sys.exit("header: %s" % (list(rows[0].keys()) if rows else "no rows"))
counts = ["generated", "sink_packets", "lost", "gen_overflow", "sink_lost",
          "imissed", "rx_nombuf", "oerrors", "tx_dropped", "lossless",
          "forwarded_pps", "p50_ns", "p99_ns", "p999_ns", "latency_samples"]
kinds = {}
for r in rows:
    kinds.setdefault(r["kind"], []).append(r)
    if r["config"] != "pf-remote" or r["pkt_len"] != "64" or r["queues"] != "1":
        bad.append("point: %s" % r)
    try:
        float(r["seconds"])
        int(r["offered_pps"])
        if r["kind"] != "zeroloss":
            for f in counts:
                if int(r[f]) < 0:
                    bad.append("%s < 0: %s" % (f, r))
    except ValueError as e:
        bad.append("%s: %s" % (e, r))
if bad:
    sys.exit("\n".join(bad))
for k, n in (("free", 1), ("check", 1), ("zeroloss", 1)):
    if len(kinds.get(k, [])) != n:
        sys.exit("%d rows of kind %s, expected %d" % (len(kinds.get(k, [])), k, n))
trials = kinds.get("trial", []) + kinds.get("latency", [])
if not kinds.get("trial"):
    sys.exit("no search trial")
for r in trials:
    if r["lossless"] == "1":
        want = int(int(r["offered_pps"]) * float(r["seconds"]))
        if int(r["lost"]) or int(r["generated"]) != want or \
                int(r["sink_packets"]) != want or int(r["gen_overflow"]) or int(r["imissed"]):
            bad.append("lossless but: %s" % r)
chk = kinds["check"][0]
if int(chk["offered_pps"]) != high or chk["lossless"] != "0" or int(chk["lost"]) <= 0:
    bad.append("%d pps not reported lossy with its loss counted: %s" % (high, chk))
zl = kinds["zeroloss"][0]
rate, above = int(zl["offered_pps"]), int(zl["lossy_above_pps"])
if not rate < above < high:
    bad.append("zero-loss %d, lossy above %d" % (rate, above))
if rate and not any(r["lossless"] == "1" and int(r["offered_pps"]) == rate
                    for r in kinds["trial"]):
    bad.append("zero-loss rate %d: no lossless trial there" % rate)
if not any(r["lossless"] == "0" and int(r["offered_pps"]) == above for r in kinds["trial"]):
    bad.append("lossy bound %d: no lossy trial there" % above)
if rate and len(kinds.get("latency", [])) != 1:
    bad.append("no latency row at 50 %")
root = ET.parse(out + "/zeroloss.svg").getroot()
if not root.tag.endswith("svg") or not any(e.tag.endswith("rect") for e in root.iter()):
    bad.append("zeroloss.svg: no svg with bars")
if "zero-loss:" not in open(out + "/zeroloss.txt").read():
    bad.append("zeroloss.txt: no result")
if bad:
    sys.exit("\n".join(bad))
print("ok: zero-loss %d pps, lossy at %d; %d pps lossy, %s lost" %
      (rate, above, high, chk["lost"]))
PY
