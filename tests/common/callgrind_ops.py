#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 Octopus authors
"""Instructions per operation, counted by callgrind, and bounds on their ratios.

  callgrind_ops.py [--bound 'A/B<=X' ...] [--out FILE] -- COMMAND...

COMMAND (a bench program in its "ir" mode) runs under valgrind
--tool=callgrind and prints one line per measured function:

  ir-op FUNCTION COUNT

FUNCTION is a function of its own (noinline) doing COUNT operations (rules
made, packets forwarded). Only those functions are counted (callgrind's
--toggle-collect), so EAL's start and the ports' set-up are not. Printed:
each function's instructions per operation, each bound's ratio. A bound
A/B<=X (or >=X) fails the run (exit 1) when the ratio of A's
instructions per operation to B's is above (below) X; A-B<=X bounds the
difference (instructions per operation). Instruction counts are what a
loaded host cannot change: the same binary and inputs give the same
count, however slow the CPU of the moment (bounds on times would not).
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

BOUND = re.compile(r"^(\w+)([/-])(\w+)(<=|>=)([0-9.]+)$")


def parse_bounds(texts):
    bounds = []
    for t in texts:
        m = BOUND.match(t.replace(" ", ""))
        if m is None:
            sys.exit(f"callgrind_ops: bad bound {t!r} (A/B<=X, A/B>=X, A-B<=X)")
        bounds.append((m.group(1), m.group(2), m.group(3), m.group(4),
                       float(m.group(5))))
    return bounds


def inclusive_counts(out_file, functions):
    """Inclusive Ir of each function, read from callgrind_annotate."""
    text = subprocess.run(["callgrind_annotate", "--inclusive=yes",
                           "--threshold=100", "--auto=no", out_file],
                          check=True, capture_output=True, text=True).stdout
    counts = {}
    line_re = re.compile(r"^\s*([\d,]+)\s+(?:\(\s*[\d.]+%\)\s+)?\S*:(\w+)\b")
    for line in text.splitlines():
        m = line_re.match(line)
        if m is not None and m.group(2) in functions and m.group(2) not in counts:
            counts[m.group(2)] = int(m.group(1).replace(",", ""))
    return counts


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bound", action="append", default=[])
    ap.add_argument("--out", help="keep callgrind's output file here")
    ap.add_argument("--skip-if-refused", action="store_true",
                    help="exit 77 when valgrind cannot run the DPDK (a build "
                    "against a DPDK made for the host's instruction set)")
    ap.add_argument("--toggle", action="append", default=[],
                    help="functions counted (callgrind's --toggle-collect); "
                    "ir_* by default")
    ap.add_argument("command", nargs=argparse.REMAINDER)
    args = ap.parse_args()
    cmd = args.command[1:] if args.command[:1] == ["--"] else args.command
    if not cmd:
        ap.error("no command")
    bounds = parse_bounds(args.bound)
    # callgrind's file goes with the run unless --out keeps it
    with tempfile.TemporaryDirectory(prefix="callgrind-ops.") as tmp:
        return measure(args, cmd, bounds,
                       args.out or os.path.join(tmp, "callgrind.out"))


def measure(args, cmd, bounds, out):
    # the functions are named by the program, but only after the run (its
    # ir-op lines): every one it may name is counted, ir_* by convention
    vg = ["valgrind", "--tool=callgrind", "--collect-atstart=no",
          "--callgrind-out-file=" + out]
    vg += ["--toggle-collect=" + t for t in args.toggle or ["ir_*"]]
    print("+", " ".join(vg + cmd), flush=True)
    run = subprocess.run(vg + cmd, capture_output=True, text=True)
    sys.stdout.write(run.stdout)
    # A DPDK built for this CPU (cpu_instruction_set=native, as
    # tools/octopus-dpdk builds 25.11) uses instructions valgrind's CPU
    # lacks (VPCLMULQDQ, AVX-512): EAL refuses to start under it where it
    # checks them, and valgrind stops at the first one (SIGILL) where its
    # constructors run them first.
    refused = ("EAL: unsupported cpu type" in run.stdout + run.stderr or
               "vex amd64->IR: unhandled instruction bytes" in run.stderr)
    if run.returncode != 0 and refused and args.skip_if_refused:
        sys.stderr.write(run.stderr[-2000:])
        print("SKIP: valgrind cannot run this DPDK (built for the host's "
              "instruction set); the counts are taken on a build valgrind can run")
        return 77
    if run.returncode != 0:
        sys.stderr.write(run.stderr[-4000:])
        print(f"FAILED: the command exited {run.returncode}")
        return 1
    ops = {}
    for line in run.stdout.splitlines():
        f = line.split()
        if len(f) == 3 and f[0] == "ir-op":
            ops[f[1]] = int(f[2])
    if not ops:
        print("FAILED: the command printed no 'ir-op FUNCTION COUNT' line")
        return 1
    counts = inclusive_counts(out, ops)
    per = {}
    for fn, n in ops.items():
        if fn not in counts or n == 0:
            print(f"FAILED: no count for {fn} ({n} operations)")
            return 1
        per[fn] = counts[fn] / n
        print(f"ir {fn:24s} {per[fn]:10.1f} instructions/op ({n} ops)")
    bad = 0
    for a, kind, b, cmp, x in bounds:
        if a not in per or b not in per:
            print(f"FAILED: bound {a}{kind}{b}: {a if a not in per else b} not measured")
            bad += 1
            continue
        v = per[a] / per[b] if kind == "/" else per[a] - per[b]
        ok = v <= x if cmp == "<=" else v >= x
        print(f"{'ok' if ok else 'FAILED'}: {a} {kind} {b} = {v:.3f} "
              f"(bound {cmp} {x})")
        bad += not ok
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
