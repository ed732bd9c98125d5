#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 Octopus authors
"""Check a picture of nudma_picture.py against the samples it was drawn from.

    nudma_picture_check.py NUDMA_NS OUT.svg SAMPLES_ONE_PF SAMPLES_MOVE

SAMPLES_ONE_PF: a run on one PF on socket 0 (lcore of queue 1 on socket 1);
SAMPLES_MOVE: a run on net_octopus where queue 1 starts homed on socket 0
and moves to socket 1 while sampled.  Checks that the file is an SVG
labelled as a model result with the NUDMA cost, that every series of both
runs is drawn, that each point drawn is the value recomputed here from the
raw samples (computed again, not with the drawing script's code) placed on
the panel's axes, that the queue moves drawn are those the samples show,
and what the model must show: one PF DMAs across sockets for queue 1 only;
on net_octopus queue 1 is polled from the other socket until it moves, and
not after.  Prints FAIL and exits 1 on the first mismatch.
"""
import json
import math
import sys
import xml.etree.ElementTree as ET

NS = "{http://www.w3.org/2000/svg}"
PX = 0.02   # points are written with 2 decimals


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def samples_of(path):
    """Samples with the NIC's latency reply and every PF's xstats."""
    res = []
    for line in open(path):
        try:
            r = json.loads(line)["replies"]
        except (ValueError, KeyError):
            continue
        ok = [isinstance(v, dict) and ("tsc" in v if k.startswith("/octonic/latency,")
                                       else "rx_q0_remote_dma_packets" in v)
              for k, v in r.items()
              if k.startswith(("/octonic/latency,", "/ethdev/xstats,"))]
        if len(ok) >= 2 and all(ok):
            res.append(r)
    return res


def p_of(counts, q):
    """Middle of the bucket holding the q quantile of {(lo, hi): n}."""
    total = sum(counts.values())
    if total == 0:
        return None
    rank = min(int(q * total), total - 1)
    seen = 0
    for (lo, hi) in sorted(counts):
        seen += counts[(lo, hi)]
        if seen > rank:
            return lo + (hi - lo) // 2
    return None


def expected(samples):
    """The values the picture should show for a run, per interval."""
    lat = [k for k in samples[0] if k.startswith("/octonic/latency,")]
    pfs = sorted(k for k in samples[0] if k.startswith("/ethdev/xstats,"))
    mig = [k for k in samples[0] if k.startswith("/octopus/migration,")]
    hz = samples[0][lat[0]]["tsc_hz"]
    start = samples[0][lat[0]]["tsc"]
    e = {"t": [], "rate": [], "p50": [], "p99": [], "moves": []}
    for q in (0, 1):
        e["rdma-q%d" % q] = []
        e["rpoll-q%d" % q] = []
    for a, b in zip(samples, samples[1:]):
        ta, tb = a[lat[0]]["tsc"], b[lat[0]]["tsc"]
        if tb <= ta:
            continue
        dt = (tb - ta) / hz
        t = ((ta + tb) / 2 - start) / hz
        e["t"].append(t)
        sent = 0
        for pf in pfs:
            for q in (0, 1):
                sent += b[pf]["tx_q%d_dma_packets" % q] - a[pf]["tx_q%d_dma_packets" % q]
        e["rate"].append(sent / dt)
        for q in (0, 1):
            for name, field in (("rdma", "remote_dma_packets"), ("rpoll", "remote_polls")):
                n = 0
                for pf in pfs:
                    for d in ("rx", "tx"):
                        key = "%s_q%d_%s" % (d, q, field)
                        n += b[pf][key] - a[pf][key]
                e["%s-q%d" % (name, q)].append(n / dt)
        p50 = p99 = None
        if lat:
            ha, hb = a[lat[0]], b[lat[0]]
            old = dict(zip(zip(ha["bucket_low_cycles"], ha["bucket_high_cycles"]),
                           ha["bucket_count"]))
            new = dict(zip(zip(hb["bucket_low_cycles"], hb["bucket_high_cycles"]),
                           hb["bucket_count"]))
            diff = {k: n - old.get(k, 0) for k, n in new.items() if n > old.get(k, 0)}
            if diff:
                p50 = p_of(diff, 0.5) * 1e9 / hz
                p99 = p_of(diff, 0.99) * 1e9 / hz
        e["p50"].append(p50)
        e["p99"].append(p99)
        if mig:
            # a reply taken before the queues were set up names none of them
            ma, mb = a.get(mig[0]) or {}, b.get(mig[0]) or {}
            for q in (0, 1):
                moved = [k for k in ("rxq%d" % q, "txq%d" % q)
                         if k in ma and k in mb and mb[k]["migrations"] > ma[k]["migrations"]]
                if moved:
                    e["moves"].append((t, q, mb[moved[-1]]["home_socket"]))
    return e


def main(argv):
    ns, svg, one_pf, move = int(argv[0]), argv[1], argv[2], argv[3]
    try:
        root = ET.parse(svg).getroot()
    except (OSError, ET.ParseError) as err:
        fail("%s is not XML: %s" % (svg, err))
    if root.tag != NS + "svg" or not root.get("viewBox") or not root.get("width"):
        fail("the root is not an SVG element with a size: %s" % root.tag)
    text = " ".join(t for t in root.itertext())
    for want in ("model result", "nudma_dma_ns=%d" % ns, "nudma_poll_ns=%d" % ns):
        if want not in text:
            fail("the picture does not say %r" % want)
    panels = {g.get("id"): g for g in root.iter(NS + "g")
              if g.get("class") == "panel"}
    for p in ("panel-rate", "panel-latency", "panel-rdma", "panel-rpoll"):
        if p not in panels:
            fail("no %s" % p)

    def axes(panel):
        return {k: float(panel.get("data-" + k)) for k in
                ("x0", "x1", "y0", "y1", "scale", "left", "top", "width", "height")}

    def x_of(panel, t):
        a = axes(panel)
        return a["left"] + (t - a["x0"]) / (a["x1"] - a["x0"]) * a["width"]

    def place(panel, t, v):
        a = axes(panel)
        x = x_of(panel, t)
        v /= a["scale"]
        if panel.get("data-log") == "1":
            if v < a["y0"] * 0.999 or v > a["y1"] * 1.001:
                fail("%s: %g outside the axis %g..%g" % (panel.get("id"), v, a["y0"], a["y1"]))
            f = (math.log10(v) - math.log10(a["y0"])) / \
                (math.log10(a["y1"]) - math.log10(a["y0"]))
        else:
            if v < a["y0"] - 1e-9 or v > a["y1"] * 1.001 + 1e-9:
                fail("%s: %g outside the axis %g..%g" % (panel.get("id"), v, a["y0"], a["y1"]))
            f = (v - a["y0"]) / (a["y1"] - a["y0"])
        return x, a["top"] + a["height"] - f * a["height"]

    where = {"rate": "panel-rate", "p50": "panel-latency", "p99": "panel-latency",
             "rdma-q0": "panel-rdma", "rdma-q1": "panel-rdma",
             "rpoll-q0": "panel-rpoll", "rpoll-q1": "panel-rpoll"}
    runs = {}
    for rid, path in (("run0", one_pf), ("run1", move)):
        s = samples_of(path)
        if len(s) < 3:
            fail("%s: %d samples while forwarding, want at least 3" % (path, len(s)))
        e = expected(s)
        runs[rid] = e
        for name, pid in where.items():
            lines = [pl for pl in panels[pid].iter(NS + "polyline")
                     if pl.get("data-run") == rid and pl.get("data-series") == name]
            if len(lines) != 1:
                fail("%s: %d polylines of %s, want 1" % (rid, len(lines), name))
            got = [tuple(map(float, p.split(","))) for p in lines[0].get("points").split()]
            want = [place(panels[pid], t, v) for t, v in zip(e["t"], e[name])
                    if v is not None]
            if len(got) != len(want) or not want:
                fail("%s %s: %d points drawn, %d sampled" % (rid, name, len(got), len(want)))
            for (gx, gy), (wx, wy) in zip(got, want):
                if abs(gx - wx) > PX or abs(gy - wy) > PX:
                    fail("%s %s: point (%.2f, %.2f) drawn, (%.2f, %.2f) from the samples"
                         % (rid, name, gx, gy, wx, wy))
        marks = sorted((float(g.get("data-t")), int(g.get("data-queue")),
                        int(g.get("data-socket")))
                       for g in root.iter(NS + "g")
                       if g.get("class") == "migration" and g.get("data-run") == rid)
        if len(marks) != len(e["moves"]) or any(
                abs(m[0] - w[0]) > 1e-6 or m[1:] != w[1:]
                for m, w in zip(marks, sorted(e["moves"]))):
            fail("%s: moves drawn %s, moves sampled %s" % (rid, marks, e["moves"]))
        for m in marks:
            # one vertical line per panel, each at the move's time on that
            # panel's axis and spanning it
            drawn = [ln for g in root.iter(NS + "g")
                     if g.get("class") == "migration" and g.get("data-run") == rid
                     and abs(float(g.get("data-t")) - m[0]) < 1e-9
                     for ln in g.iter(NS + "line")]
            tops = sorted(float(p.get("data-top")) for p in panels.values())
            lines = sorted(drawn, key=lambda ln: float(ln.get("y1")))
            if len(lines) != len(panels) or any(
                    abs(float(ln.get("y1")) - top) > PX or
                    abs(float(ln.get("x1")) - x_of(p, m[0])) > PX or
                    abs(float(ln.get("x2")) - x_of(p, m[0])) > PX
                    for ln, top, p in zip(lines, tops, sorted(
                        panels.values(), key=lambda p: float(p.get("data-top"))))):
                fail("%s: the move at %.2f s is not marked on every panel" % (rid, m[0]))

    # what the model must show
    one, mv = runs["run0"], runs["run1"]
    if sum(one["rdma-q1"]) <= 0 or sum(one["rdma-q0"]) != 0:
        fail("one PF: DMA across sockets q0 %g, q1 %g per s summed; want 0 and > 0"
             % (sum(one["rdma-q0"]), sum(one["rdma-q1"])))
    if one["moves"]:
        fail("one PF: moves drawn")
    q1 = [m for m in mv["moves"] if m[1] == 1]
    if not q1 or q1[-1][2] != 1:
        fail("net_octopus: queue 1 not seen moving to socket 1: %s" % mv["moves"])
    t_move = q1[-1][0]
    before = [v for t, v in zip(mv["t"], mv["rpoll-q1"]) if t < q1[0][0]]
    after = [i for i, t in enumerate(mv["t"]) if t > t_move]
    if not before or max(before) <= 0:
        fail("net_octopus: queue 1 not polled from the other socket before its move")
    if not after:
        fail("net_octopus: no interval sampled after the move")
    if any(mv["rpoll-q1"][i] != 0 for i in after):
        fail("net_octopus: queue 1 still polled from the other socket after its move")
    dma = sum(mv["rdma-q1"][i] for i in after)
    fwd = sum(mv["rate"][i] for i in after)
    if dma > 0.01 * fwd:
        fail("net_octopus: queue 1 DMAs across sockets after its move: %g/s vs %g/s"
             " forwarded" % (dma, fwd))
    print("picture %s: %d and %d intervals drawn as sampled, %d move(s) marked"
          " (queue 1 to socket 1 at %.2f s)" % (svg, len(one["t"]), len(mv["t"]),
                                               len(mv["moves"]), t_move))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
