#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 Octopus authors
"""Draw the NUDMA time series of octopus_fwd runs on the NIC model (SVG).

    nudma_picture.py [--nudma-ns NS] [--nudma-dma flush|wait] [--note TEXT]...
        OUT.svg LABEL=SAMPLES...

Each SAMPLES file is what telemetry_sample.py wrote during one run, in
this order: for a net_octopus port /octopus/migration,<port> (first: a
move it reports is complete before the counters below are read), then
/octonic/latency,<pf> (its "tsc" times the sample) and /ethdev/xstats,<pf>
of every PF of the NIC.  None of these takes a lock the NIC model's
engine holds (/octonic/info does, for its sink counters: under load it
waits for seconds).  Per interval between two samples (timed by the
NIC's TSC, not by the sampler's clock) it derives:
  - packets forwarded per second: what the application sent, as the NIC
    DMA-read it from the Tx queues of its PFs;
  - latency from the generator to the sink, p50 and p99 of the frames that
    reached the sink in the interval (the difference of two histograms;
    each quantile is the middle of its bucket, as the NIC model's own);
  - per queue k, DMA across sockets per second (Rx and Tx, queue k of every
    PF: net_octopus serves its queue k from queue k of its home PF) and
    polls from the other socket per second;
and draws them against time, one colour per run, each point at the middle
of its interval, with every queue move (a rise of a migration counter) as a
vertical line at the middle of the interval it completed in.  The picture
says it is a result of the model and the cost it assumed.  Prints what it
drew, in short.  Standard library only.
"""
import argparse
import html
import json
import math
import sys

COLOURS = ["#d62728", "#1f77b4", "#2ca02c", "#9467bd", "#ff7f0e"]
DASHES = ["", "7,4", "2,3", "9,3,2,3"]
WIDTH, LEFT, PLOT_W, LEGEND_X = 1120, 90, 700, 820
PANEL_H, PANEL_GAP = 170, 62


def load(path):
    """The samples of a run taken once its queues were set up."""
    out = []
    for line in open(path):
        try:
            s = json.loads(line)
        except ValueError:
            continue    # a line cut short by a stop
        r = s.get("replies", {})
        lat = [v for k, v in r.items() if k.startswith("/octonic/latency,")]
        xs = [v for k, v in r.items() if k.startswith("/ethdev/xstats,")]
        if len(lat) != 1 or not isinstance(lat[0], dict) or "tsc" not in lat[0] or \
                not xs or any(not isinstance(v, dict) or
                              "rx_q0_remote_dma_packets" not in v for v in xs):
            continue
        out.append(r)
    return out


def quantile(hist, q):
    """hist: [(low, high, count)] sorted; the middle of the q bucket."""
    n = sum(c for _, _, c in hist)
    if n == 0:
        return None
    want = min(int(q * n), n - 1)
    acc = 0
    for lo, hi, c in hist:
        acc += c
        if acc > want:
            return lo + (hi - lo) // 2
    return None


def hist_of(reply):
    return {(lo, hi): c for lo, hi, c in zip(reply["bucket_low_cycles"],
                                             reply["bucket_high_cycles"],
                                             reply["bucket_count"])}


def series(samples):
    """Per interval: time (s) and the derived values; moves."""
    first = samples[0]
    lat_cmd = next(k for k in first if k.startswith("/octonic/latency,"))
    mig_cmd = next((k for k in first if k.startswith("/octopus/migration,")), None)
    hz = first[lat_cmd]["tsc_hz"]
    t0 = first[lat_cmd]["tsc"]
    pfs = [k for k in first if k.startswith("/ethdev/xstats,")]
    nq = 0
    while "rx_q%d_remote_dma_packets" % nq in first[pfs[0]]:
        nq += 1
    res = {"t": [], "rate": [], "p50": [], "p99": [],
           "rdma": [[] for _ in range(nq)], "rpoll": [[] for _ in range(nq)],
           "moves": [], "end": 0.0}

    def per_queue(s, field, dirs=("rx", "tx")):
        return [sum(s[pf].get("%s_q%d_%s" % (d, q, field), 0)
                    for pf in pfs for d in dirs) for q in range(nq)]

    for prev, cur in zip(samples, samples[1:]):
        dt = (cur[lat_cmd]["tsc"] - prev[lat_cmd]["tsc"]) / hz
        if dt <= 0:
            continue
        mid = ((prev[lat_cmd]["tsc"] + cur[lat_cmd]["tsc"]) / 2 - t0) / hz
        res["t"].append(mid)
        res["rate"].append((sum(per_queue(cur, "dma_packets", ("tx",))) -
                            sum(per_queue(prev, "dma_packets", ("tx",)))) / dt)
        p50 = p99 = None
        a, b = hist_of(prev[lat_cmd]), hist_of(cur[lat_cmd])
        d = sorted((lo, hi, c - a.get((lo, hi), 0))
                   for (lo, hi), c in b.items() if c > a.get((lo, hi), 0))
        v50, v99 = quantile(d, 0.50), quantile(d, 0.99)
        if v50 is not None:
            p50, p99 = v50 * 1e9 / hz, v99 * 1e9 / hz
        res["p50"].append(p50)
        res["p99"].append(p99)
        for key, field in (("rdma", "remote_dma_packets"), ("rpoll", "remote_polls")):
            for q, (x, y) in enumerate(zip(per_queue(prev, field),
                                           per_queue(cur, field))):
                res[key][q].append((y - x) / dt)
        if mig_cmd and cur.get(mig_cmd) and prev.get(mig_cmd):
            moved = {}
            for q in range(nq):
                for d in ("rx", "tx"):
                    k = "%sq%d" % (d, q)
                    if k in cur[mig_cmd] and k in prev[mig_cmd] and \
                            cur[mig_cmd][k]["migrations"] > prev[mig_cmd][k]["migrations"]:
                        moved.setdefault(q, []).append(
                            (d, cur[mig_cmd][k]["home_socket"]))
            for q, dirs in sorted(moved.items()):
                res["moves"].append({"t": mid, "queue": q,
                                     "dirs": [d for d, _ in dirs],
                                     "socket": dirs[-1][1]})
        res["end"] = (cur[lat_cmd]["tsc"] - t0) / hz
    return res


def nice_step(span, n=5):
    raw = span / n
    mag = 10 ** math.floor(math.log10(raw))
    for m in (1, 2, 2.5, 5, 10):
        if m * mag >= raw:
            return m * mag
    return 10 * mag


def fmt(v):
    return "%d" % v if v >= 1 and v == int(v) else "%.3g" % v


class Panel:
    def __init__(self, pid, title, unit, scale, top, values, x1, log=False):
        self.pid, self.title, self.unit, self.scale = pid, title, unit, scale
        self.top, self.log, self.x0, self.x1 = top, log, 0.0, x1
        vals = [v / scale for v in values if v is not None and (v > 0 or not log)]
        if log:
            lo = min(vals) if vals else 1.0
            hi = max(vals) if vals else 10.0
            self.y0 = 10 ** math.floor(math.log10(lo))
            self.y1 = 10 ** math.ceil(math.log10(hi))
            if self.y1 <= self.y0:
                self.y1 = self.y0 * 10
        else:
            hi = max(vals) if vals else 0.0
            self.y0 = 0.0
            step = nice_step(hi * 1.05 if hi > 0 else 1.0)
            self.y1 = step * math.ceil(hi * 1.05 / step) if hi > 0 else step * 5
        self.legend = []

    def x(self, t):
        return LEFT + (t - self.x0) / (self.x1 - self.x0) * PLOT_W

    def y(self, v):
        v /= self.scale
        if self.log:
            v = max(v, self.y0)
            f = (math.log10(v) - math.log10(self.y0)) / \
                (math.log10(self.y1) - math.log10(self.y0))
        else:
            f = (v - self.y0) / (self.y1 - self.y0)
        return self.top + PANEL_H - f * PANEL_H

    def head(self):
        a = ('<g class="panel" id="panel-%s" data-x0="%r" data-x1="%r" data-y0="%r"'
             ' data-y1="%r" data-log="%d" data-scale="%r" data-left="%d"'
             ' data-top="%d" data-width="%d" data-height="%d">'
             % (self.pid, self.x0, self.x1, self.y0, self.y1, self.log,
                self.scale, LEFT, self.top, PLOT_W, PANEL_H))
        out = [a, '<text x="%d" y="%d" font-weight="bold">%s</text>'
               % (LEFT, self.top - 10, html.escape(self.title)),
               '<rect x="%d" y="%d" width="%d" height="%d" fill="none" stroke="#444"/>'
               % (LEFT, self.top, PLOT_W, PANEL_H)]
        # y grid and ticks
        if self.log:
            ticks, e = [], math.log10(self.y0)
            while 10 ** e <= self.y1 * 1.0001:
                for m in ((1, 2, 5) if self.y1 / self.y0 <= 100 else (1,)):
                    if self.y0 <= m * 10 ** e <= self.y1 * 1.0001:
                        ticks.append(m * 10 ** e)
                e += 1
        else:
            step = nice_step(self.y1 - self.y0)
            ticks = [self.y0 + i * step for i in
                     range(int(round((self.y1 - self.y0) / step)) + 1)]
        for v in ticks:
            yy = self.y(v * self.scale)
            out.append('<line x1="%d" y1="%.2f" x2="%d" y2="%.2f" stroke="#ddd"/>'
                       % (LEFT, yy, LEFT + PLOT_W, yy))
            out.append('<text x="%d" y="%.2f" text-anchor="end" font-size="11">%s</text>'
                       % (LEFT - 6, yy + 4, fmt(v)))
        out.append('<text transform="translate(%d,%d) rotate(-90)" text-anchor="middle"'
                   ' font-size="11">%s</text>'
                   % (LEFT - 52, self.top + PANEL_H // 2, html.escape(self.unit)))
        step = nice_step(self.x1 - self.x0, 8)
        t = 0.0
        while t <= self.x1 + 1e-9:
            xx = self.x(t)
            out.append('<line x1="%.2f" y1="%d" x2="%.2f" y2="%d" stroke="#eee"/>'
                       % (xx, self.top, xx, self.top + PANEL_H))
            out.append('<text x="%.2f" y="%d" text-anchor="middle" font-size="11">%s</text>'
                       % (xx, self.top + PANEL_H + 14, fmt(t)))
            t += step
        return out

    def line(self, run, name, label, colour, dash, ts, vs):
        pts = ["%.2f,%.2f" % (self.x(t), self.y(v)) for t, v in zip(ts, vs)
               if v is not None]
        self.legend.append((label, colour, dash))
        return ['<polyline class="series" data-run="%s" data-series="%s" fill="none"'
                ' stroke="%s" stroke-width="1.6"%s points="%s"><title>%s</title></polyline>'
                % (run, name, colour,
                   ' stroke-dasharray="%s"' % dash if dash else "",
                   " ".join(pts), html.escape(label))]

    def legend_svg(self):
        out = []
        for i, (label, colour, dash) in enumerate(self.legend):
            y = self.top + 8 + i * 16
            out.append('<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="%s" stroke-width="2"%s/>'
                       % (LEGEND_X, y, LEGEND_X + 28, y, colour,
                          ' stroke-dasharray="%s"' % dash if dash else ""))
            out.append('<text x="%d" y="%d" font-size="11">%s</text>'
                       % (LEGEND_X + 34, y + 4, html.escape(label)))
        return out


def median(v):
    v = sorted(x for x in v if x is not None)
    return v[len(v) // 2] if v else float("nan")


def main(argv):
    ap = argparse.ArgumentParser()
    ap.add_argument("--nudma-ns", type=int, required=True)
    ap.add_argument("--poll-ns", type=int)
    ap.add_argument("--nudma-dma", choices=("flush", "wait"), default="wait")
    ap.add_argument("--note", action="append", default=[])
    ap.add_argument("out")
    ap.add_argument("runs", nargs="+", metavar="LABEL=SAMPLES")
    a = ap.parse_args(argv)
    poll_ns = a.nudma_ns if a.poll_ns is None else a.poll_ns
    runs = []
    for i, arg in enumerate(a.runs):
        label, path = arg.rsplit("=", 1)
        s = load(path)
        if len(s) < 2:
            raise SystemExit("%s: fewer than 2 samples while forwarding" % path)
        runs.append(("run%d" % i, label, series(s)))
    nq = max(len(r["rdma"]) for _, _, r in runs)
    x1 = max(r["end"] for _, _, r in runs)
    x1 = nice_step(x1, 8) * math.ceil(x1 / nice_step(x1, 8))
    top0 = 96 + 15 * len(a.note)
    tops = [top0 + i * (PANEL_H + PANEL_GAP) for i in range(4)]
    every = lambda key: [v for _, _, r in runs for v in r[key]]
    every_q = lambda key: [v for _, _, r in runs for q in r[key] for v in q]
    panels = [
        Panel("rate", "Packets forwarded per second (the NIC's Tx DMA, every queue)",
              "Mpps", 1e6, tops[0], every("rate"), x1),
        Panel("latency", "Latency, generator to sink, of the packets of each interval"
              " (log scale)", "us", 1e3, tops[1], every("p50") + every("p99"), x1,
              log=True),
        Panel("rdma", "DMA across sockets per second, per queue (Rx + Tx)",
              "million per s", 1e6, tops[2], every_q("rdma"), x1),
        Panel("rpoll", "Polls from the other socket per second, per queue",
              "million per s", 1e6, tops[3], every_q("rpoll"), x1),
    ]
    height = tops[3] + PANEL_H + 60
    body = []
    for p in panels:
        body += p.head()
    for i, (rid, label, r) in enumerate(runs):
        c = COLOURS[i % len(COLOURS)]
        body += panels[0].line(rid, "rate", label, c, "", r["t"], r["rate"])
        body += panels[1].line(rid, "p50", label + ": p50", c, "", r["t"], r["p50"])
        body += panels[1].line(rid, "p99", label + ": p99", c, DASHES[1], r["t"], r["p99"])
        for q in range(len(r["rdma"])):
            body += panels[2].line(rid, "rdma-q%d" % q, "%s: queue %d" % (label, q), c,
                                   DASHES[q % len(DASHES)], r["t"], r["rdma"][q])
            body += panels[3].line(rid, "rpoll-q%d" % q, "%s: queue %d" % (label, q), c,
                                   DASHES[q % len(DASHES)], r["t"], r["rpoll"][q])
    for p in panels:
        body.append("</g>")
    marks = []
    for i, (rid, label, r) in enumerate(runs):
        c = COLOURS[i % len(COLOURS)]
        for m in r["moves"]:
            xx = panels[0].x(m["t"])
            text = "queue %d (%s) moved to socket %d" % (
                m["queue"], ", ".join(m["dirs"]), m["socket"])
            marks.append('<g class="migration" data-run="%s" data-queue="%d" data-t="%r"'
                         ' data-socket="%d"><title>%s: %s</title>'
                         % (rid, m["queue"], m["t"], m["socket"], html.escape(label),
                            html.escape(text)))
            for p in panels:
                marks.append('<line x1="%.2f" y1="%d" x2="%.2f" y2="%d" stroke="%s"'
                             ' stroke-width="1.5" stroke-dasharray="3,3"/>'
                             % (xx, p.top, xx, p.top + PANEL_H, c))
            marks.append('<text x="%.2f" y="%d" font-size="11" fill="%s">%s</text></g>'
                         % (xx + 4, panels[0].top + 14, c, html.escape(text)))
    legend = [x for p in panels for x in p.legend_svg()]
    dma = ("nudma_dma=flush" if a.nudma_dma == "flush"
           else "nudma_dma_ns=%d" % a.nudma_ns)
    title = ("NUDMA over time: a model result (net_octonic), cost assumed"
             " %s, nudma_poll_ns=%d" % (dma, poll_ns))
    head = ['<?xml version="1.0" encoding="UTF-8"?>',
            '<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d"'
            ' viewBox="0 0 %d %d" font-family="sans-serif" font-size="12">'
            % (WIDTH, height, WIDTH, height),
            '<desc>%s</desc>' % html.escape(title),
            '<rect width="100%" height="100%" fill="white"/>',
            '<text x="%d" y="30" font-size="16" font-weight="bold">%s</text>'
            % (LEFT, html.escape(title)),
            '<text x="%d" y="50">The NUDMA cost is assumed: every DMA across sockets and'
            ' every poll from the other socket makes the polling lcore busy-wait that'
            ' long.</text>' % LEFT,
            '<text x="%d" y="66">Everything drawn was measured in these runs. Vertical'
            ' dashed lines: queue moves (net_octopus migration), at the middle of the'
            ' sampling interval they completed in.</text>' % LEFT]
    for i, n in enumerate(a.note):
        head.append('<text x="%d" y="%d">%s</text>' % (LEFT, 82 + 15 * i, html.escape(n)))
    foot = ['<text x="%d" y="%d" text-anchor="middle">time since the first sample'
            ' with the queues set up, about when forwarding starts (s)</text>'
            % (LEFT + PLOT_W // 2, tops[3] + PANEL_H + 36), "</svg>"]
    with open(a.out, "w") as f:
        f.write("\n".join(head + body + marks + legend + foot) + "\n")

    for rid, label, r in runs:
        moves = "; ".join("queue %d (%s) to socket %d at %.2f s" % (
            m["queue"], ", ".join(m["dirs"]), m["socket"], m["t"]) for m in r["moves"])
        print("  %s: %d intervals over %.1f s; medians per interval: %.2f Mpps,"
              " latency p50 %.1f us, p99 %.1f us; remote DMA per s %s; polls from"
              " the other socket per s %s%s" % (
                  label, len(r["t"]), r["end"], median(r["rate"]) / 1e6,
                  median(r["p50"]) / 1e3, median(r["p99"]) / 1e3,
                  ", ".join("q%d %.0f" % (q, median(v)) for q, v in enumerate(r["rdma"])),
                  ", ".join("q%d %.0f" % (q, median(v)) for q, v in enumerate(r["rpoll"])),
                  "; moves: " + moves if moves else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
