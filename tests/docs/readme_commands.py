#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 Octopus authors
#
# Every application command a README shows is run as written, so that docs
# and code cannot drift apart: the indented blocks (4 spaces) of the READMEs
# that start an application (dpdk-testpmd, l3fwd, octopus_fwd, flow-perf;
# one without --no-huge only where hugepages are free). A block is
# run by bash from the source tree, with "build" standing for the build
# directory; an interactive testpmd gets start / stats / stop / quit on its
# standard input, an application that runs until a signal gets SIGINT
# after a few seconds. A block passes when the application started its
# ports, ended without a crash and printed no EAL or probe failure. The one
# thing added: an EAL file prefix of this run's own (its runtime directory
# removed after it), so that two suites can run side by side; EAL's default
# prefix would make the second application refuse to start.
#
#   readme_commands.py <source dir> <build dir> [--list]
import itertools
import os
import re
import shutil
import signal
import subprocess
import sys

READMES = ["README.md", "drivers/net/octonic/README.md",
           "drivers/net/octopus/README.md", "examples/README.md"]
APPS = re.compile(r"\b(dpdk-testpmd|dpdk-l3fwd|octopus_fwd|dpdk-test-flow-perf)\b")
# An application's program word (path and name), its EAL options after it
INVOKE = re.compile(r"((?:^|(?<=\s))(?:\S*/)?"
                    r"(?:dpdk-testpmd|dpdk-l3fwd|octopus_fwd|dpdk-test-flow-perf))(?=\s)")
RUN_DIR = os.path.join(os.environ.get("XDG_RUNTIME_DIR", "/var/run")
                       if os.getuid() else "/var/run", "dpdk")
RUNS = itertools.count()
BAD = re.compile(r"EAL: FATAL|PANIC|Cannot init|failed to initialize|"
                 r"Segmentation fault|Aborted|Fail to start port|"
                 r"Creation of mbuf pool .* failed|No probed ethernet devices")


def blocks(path):
    """(first line number, text) of each 4-space indented block."""
    cur, start = [], 0
    with open(path) as f:
        for n, line in enumerate(f, 1):
            if line.startswith("    ") and line.strip():
                if not cur:
                    start = n
                cur.append(line[4:].rstrip("\n"))
                continue
            if cur:
                yield start, "\n".join(cur)
                cur = []
    if cur:
        yield start, "\n".join(cur)


def run(src, build, text):
    script = text
    # "build" as the README says it: this tree's build directory
    script = re.sub(r"(^|[\s=.])build/", lambda m: m.group(1) + build + "/", script)
    script = re.sub(r"^B=build$", "B=" + build, script, flags=re.M)
    prefix = "readme-%d-%d" % (os.getpid(), next(RUNS))
    script = INVOKE.sub(lambda m: m.group(1) + " --file-prefix " + prefix, script)
    interactive = re.search(r"(^|\s)-i(\s|$)", script) is not None
    env = dict(os.environ)
    # DPDK's programs the README names: those of the DPDK built against
    bindir = env.get("OCTOPUS_DPDK_BINDIR")
    if bindir:
        env["PATH"] = bindir + os.pathsep + env.get("PATH", "")
    p = subprocess.Popen(["bash", "-c", "set -e\n" + script], cwd=src, env=env,
                         stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         stderr=subprocess.STDOUT, text=True,
                         start_new_session=True)
    try:
        if interactive:
            out, _ = p.communicate("start\n" + "show port stats all\n" +
                                   "stop\nquit\n", timeout=60)
        else:
            try:
                out, _ = p.communicate(timeout=8)
            except subprocess.TimeoutExpired:
                # runs until a signal, as the README says: send it
                os.killpg(p.pid, signal.SIGINT)
                out, _ = p.communicate(timeout=30)
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        out, _ = p.communicate()
        return False, out + "\n(timed out)"
    finally:
        shutil.rmtree(os.path.join(RUN_DIR, prefix), ignore_errors=True)
    ok = p.returncode == 0 and not BAD.search(out)
    if interactive:
        ok = ok and re.search(r"^Port \d+: [0-9A-F:]{17}$", out, re.M) is not None
    return ok, out


def hugepages(build):
    """Whether the project's memory decision finds hugepages here."""
    tool = os.path.join(build, "tools", "octopus-eal-mem")
    try:
        out = subprocess.run([tool, "512"], capture_output=True, text=True).stdout
    except OSError:
        return False
    return out.strip() != "--no-huge"


def main():
    src, build = sys.argv[1], sys.argv[2]
    found = failed = 0
    for readme in READMES:
        for line, text in blocks(os.path.join(src, readme)):
            if not APPS.search(text):
                continue
            found += 1
            if "--no-huge" not in text and not hugepages(build):
                print("skip %s:%d (needs hugepages)" % (readme, line))
                continue
            if "--list" in sys.argv:
                print("%s:%d\n%s\n" % (readme, line, text))
                continue
            ok, out = run(src, build, text)
            print("%s %s:%d" % ("ok  " if ok else "FAIL", readme, line))
            if not ok:
                failed += 1
                print("\n".join(out.splitlines()[-40:]))
    print("%d README command(s) run, %d failed" % (found, failed))
    if found == 0:
        print("FAIL: no application command found in the READMEs")
        return 1
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
