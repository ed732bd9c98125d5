#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 Octopus authors
"""Host cost per packet of octopus_fwd runs on the NIC model.

    nudma_figures.py [--goals] TITLE=OUTPUT ...

Each OUTPUT is what examples/octopus_fwd printed when it stopped, run with
"-x _cycles,wire_latency,nudma_flushed": per queue what it forwarded, per
forwarding lcore the TSC cycles of its loop and the CPU time it had, per PF
queue the model's emulation_cycles, nudma_stall_cycles and
nudma_flushed_lines (the lines a remote DMA flushed under nudma_dma=flush,
whose misses the host cycles hold), and the NIC's latency from its
generator to its sink, p50 and p99 (xstats of net_octonic).

Host cycles of an lcore are the CPU cycles it had minus the share of them
spent emulating the NIC (generator, e-switch, RSS, ring moves, DMA copies,
sink), which a real NIC does in hardware; the NUDMA stall the model charges
stays in.  The emulation and stall counters are TSC (wall) cycles, so on a
CPU the lcore shares they include time it was preempted; each is scaled by
the CPU time the lcore had over its loop's wall time (preemption assumed to
fall evenly).  The PF queue k is counted to the lcore of queue k
(octopus_fwd's lcore k polls queue k; net_octopus serves queue k from queue
k of its home PF).

With --goals, the first two outputs are compared as "one PF" and
"net_octopus" against the goals of the NUDMA benchmark: host cycles per
packet with Octopus at most 2/3 of one PF's, and at least 1.2x the packets
forwarded in the same time (packets per second of the forwarding loops).  Prints what was measured; exits 0 either way.
"""
import re
import sys

XSTAT = re.compile(r"^(rx|tx)_q(\d+)_(emulation_cycles|nudma_stall_cycles|nudma_flushed_lines)$")


def parse(path):
    lcores = {}     # queue -> dict
    fwd = 0
    hz = 0
    by_lcore = {}
    lat = {}
    for line in open(path):
        words = line.split()
        if not words:
            continue
        kind = words[0]
        f = dict(w.split("=", 1) for w in words[1:] if "=" in w)
        if kind == "queue":
            fwd += int(f["tx"])
            q = int(f["queue"])
            lc = lcores.setdefault(q, {"emu": 0, "stall": 0, "flushed": 0,
                                       "pkts": 0})
            lc["pkts"] += int(f["tx"])
            lc["lcore"] = int(f["lcore"])
            lc["socket"] = int(f["socket"])
        elif kind == "lcore":
            by_lcore[int(f["lcore"])] = (int(f["loop_cycles"]),
                                         int(f["cpu_ns"]))
            hz = int(f["tsc_hz"])
        elif kind == "xstat":
            if f["name"] in ("wire_latency_p50_ns", "wire_latency_p99_ns"):
                lat[f["name"][13:16]] = int(f["value"])    # NIC-wide
                continue
            m = XSTAT.match(f["name"])
            if m is None:
                continue
            lc = lcores.setdefault(int(m.group(2)),
                                   {"emu": 0, "stall": 0, "flushed": 0,
                                    "pkts": 0})
            key = {"emulation_cycles": "emu", "nudma_stall_cycles": "stall",
                   "nudma_flushed_lines": "flushed"}[m.group(3)]
            lc[key] += int(f["value"])
    if hz == 0:
        raise SystemExit(f"{path}: no 'lcore' lines (octopus_fwd too old?)")
    tot = {"pkts": fwd, "cpu": 0.0, "host": 0.0, "emu": 0.0, "stall": 0.0,
           "wall": 0.0, "lcores": [], "lat": lat}
    for q, lc in sorted(lcores.items()):
        if "lcore" not in lc or lc["lcore"] not in by_lcore:
            continue
        wall, cpu_ns = by_lcore[lc["lcore"]]
        cpu = cpu_ns * hz / 1e9
        share = cpu / wall if wall else 0.0
        emu = lc["emu"] * share
        stall = lc["stall"] * share
        host = max(cpu - emu, 0.0)
        tot["cpu"] += cpu
        tot["host"] += host
        tot["emu"] += emu
        tot["stall"] += stall
        tot["wall"] = max(tot["wall"], wall / hz)
        tot["lcores"].append((lc["lcore"], lc["socket"], q, lc["pkts"], cpu,
                              host, emu, stall, share, lc["flushed"]))
    return tot


def per(x, n):
    return x / n if n else float("nan")


def show(title, t):
    n = t["pkts"]
    print(f"  {title}: forwarded {n} packets in {t['wall']:.1f} s"
          f" ({per(n, t['wall']) / 1e6:.2f} Mpps)")
    print(f"      host cycles per packet: {per(t['host'], n):.0f}"
          f" (NUDMA stall {per(t['stall'], n):.0f},"
          f" the rest: application and PMDs {per(t['host'] - t['stall'], n):.0f});"
          f" NIC emulation left out: {per(t['emu'], n):.0f}")
    if t["lat"]:
        print(f"      latency, generator to sink: p50 {t['lat'].get('p50', 0) / 1e3:.1f} us,"
              f" p99 {t['lat'].get('p99', 0) / 1e3:.1f} us")
    for lcore, sock, q, pkts, cpu, host, emu, stall, share, fl in t["lcores"]:
        # lines a remote DMA flushed (nudma_dma=flush): their misses are
        # in the host cycles, where the poller paid them
        flushed = f", {per(fl, pkts):.1f} lines flushed" if fl else ""
        print(f"        lcore {lcore} (socket {sock}, queue {q}): {pkts} packets,"
              f" had the CPU {100 * share:.0f}% of the time;"
              f" per packet host {per(host, pkts):.0f}"
              f" (stall {per(stall, pkts):.0f}{flushed}), emulation {per(emu, pkts):.0f}")


def main(argv):
    goals = "--goals" in argv
    runs = [a.split("=", 1) for a in argv if a != "--goals"]
    res = []
    for title, path in runs:
        t = parse(path)
        show(title, t)
        res.append(t)
    if goals and len(res) >= 2:
        one, octo = res[0], res[1]
        c1, c2 = per(one["host"], one["pkts"]), per(octo["host"], octo["pkts"])
        r_cyc = c2 / c1 if c1 else float("nan")
        # the same time: runs may differ by the time a stop takes
        r_fwd = per(per(octo["pkts"], octo["wall"]), per(one["pkts"], one["wall"]))
        # per CPU-second the lcores had: what the rate would be with the
        # CPUs to themselves (this machine may be shared)
        r_cpu = per(per(octo["pkts"], octo["cpu"]), per(one["pkts"], one["cpu"]))
        print(f"  Octopus / one PF: host cycles per packet {r_cyc:.2f}"
              f" (goal <= 0.67: {'met' if r_cyc <= 2 / 3 else 'NOT met'}),"
              f" packets forwarded per second {r_fwd:.2f}x"
              f" (goal >= 1.2x: {'met' if r_fwd >= 1.2 else 'NOT met'});"
              f" per second of CPU time the lcores had: {r_cpu:.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
