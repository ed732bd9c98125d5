#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 Octopus authors
#
# Ask a running DPDK process telemetry questions, from outside it: this is
# how the app tests observe an application that must stay unmodified.
#
#   telemetry_query.py [--flat] <EAL file-prefix> <command> [<command> ...]
#
# Prints one line per command: the command, a tab, the JSON reply's value.
# --flat: one line per number in the replies instead, "<command>:<key> <n>"
# (nested keys joined with "."), for a shell to read in one pass.
# Exit status 1 when the socket cannot be reached.
import json
import os
import socket
import sys


def flat(path, value):
    """(path, number) for every int in a JSON value."""
    if isinstance(value, dict):
        for k, v in value.items():
            yield from flat("%s.%s" % (path, k), v)
    elif isinstance(value, int) and not isinstance(value, bool):
        yield path, value


def main():
    args = sys.argv[1:]
    as_flat = args[:1] == ["--flat"]
    if as_flat:
        args = args[1:]
    prefix = args[0]
    run = os.environ.get("XDG_RUNTIME_DIR", "/var/run") if os.getuid() else "/var/run"
    path = os.path.join(run, "dpdk", prefix, "dpdk_telemetry.v2")
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
    try:
        sock.connect(path)
    except OSError as e:
        print("telemetry: cannot connect to %s: %s" % (path, e), file=sys.stderr)
        return 1
    # the first message is the process's greeting with the reply size limit
    info = json.loads(sock.recv(1024).decode())
    size = info.get("max_output_len", 16384)
    for cmd in args[1:]:
        sock.send(cmd.encode())
        reply = json.loads(sock.recv(size).decode())
        key = cmd.split(",", 1)[0]
        if as_flat:
            for k, v in flat(cmd, reply.get(key) or {}):
                print("%s %d" % (k.replace(cmd + ".", cmd + ":", 1), v))
        else:
            print("%s\t%s" % (cmd, json.dumps(reply.get(key))))
    sock.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
