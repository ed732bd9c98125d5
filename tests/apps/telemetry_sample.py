#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 Octopus authors
"""Sample a running DPDK process's telemetry at a fixed period.

    telemetry_sample.py [--period S] [--wait S] OUT PREFIX COMMAND...

Connects to the telemetry socket of the process with EAL file-prefix
PREFIX (waiting up to --wait seconds, default 30, for it to appear), then
every --period seconds (default 0.1, on a fixed schedule: a late sample
does not shift the next ones, ticks missed are skipped) asks every COMMAND and appends one JSON line
to OUT: {"t": seconds since the first sample (this process's clock),
"replies": {COMMAND: its reply's value}}.  The counters' own time is in
the replies where the command gives it (net_octonic's "tsc").  One
connection for the whole run: starting a client per sample would cost
more than the sample.  Stops when the process goes away or on
SIGTERM/SIGINT, after the round of questions in progress (the process
would otherwise write a reply to a closed socket, and say so); each line
is written whole.
"""
import argparse
import json
import os
import signal
import socket
import sys
import time


class Stop(Exception):
    pass


# a signal during a round of questions stops after it
state = {"asking": False, "stop": False}


def on_signal(signum, frame):
    state["stop"] = True
    if not state["asking"]:
        raise Stop()


def connect(prefix, wait):
    run = os.environ.get("XDG_RUNTIME_DIR", "/var/run") if os.getuid() else "/var/run"
    path = os.path.join(run, "dpdk", prefix, "dpdk_telemetry.v2")
    deadline = time.monotonic() + wait
    while True:
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        try:
            sock.connect(path)
            return sock
        except OSError as e:
            sock.close()
            if time.monotonic() >= deadline:
                raise SystemExit("telemetry: cannot connect to %s: %s" % (path, e))
        time.sleep(0.1)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--period", type=float, default=0.1)
    ap.add_argument("--wait", type=float, default=30.0)
    ap.add_argument("out")
    ap.add_argument("prefix")
    ap.add_argument("commands", nargs="+")
    a = ap.parse_args()
    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, on_signal)
    n = tick = 0
    try:
        sock = connect(a.prefix, a.wait)
        # the first message is the process's greeting with the reply size limit
        size = json.loads(sock.recv(1024).decode()).get("max_output_len", 16384)
        with open(a.out, "a") as out:
            t0 = time.monotonic()
            while True:
                replies = {}
                state["asking"] = True
                for cmd in a.commands:
                    sock.send(cmd.encode())
                    msg = sock.recv(size)
                    if not msg:
                        raise Stop()
                    replies[cmd] = json.loads(msg.decode()).get(cmd.split(",", 1)[0])
                out.write(json.dumps({"t": round(time.monotonic() - t0, 6),
                                      "replies": replies}) + "\n")
                out.flush()
                n += 1
                state["asking"] = False
                if state["stop"]:
                    raise Stop()
                now = time.monotonic()
                tick = max(tick + 1, int((now - t0) / a.period) + 1)
                time.sleep(max(0.0, t0 + tick * a.period - now))
    except (Stop, OSError):
        pass
    print("telemetry_sample: %d samples of %s" % (n, a.prefix), file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
