#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 Octopus authors
#
# Ask a running DPDK process telemetry questions, from outside it: this is
# how the app tests observe an application that must stay unmodified.
#
#   telemetry_query.py <EAL file-prefix> <command> [<command> ...]
#
# Prints one line per command: the command, a tab, the JSON reply's value.
# Exit status 1 when the socket cannot be reached.
import json
import os
import socket
import sys


def main():
    prefix = sys.argv[1]
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
    for cmd in sys.argv[2:]:
        sock.send(cmd.encode())
        reply = json.loads(sock.recv(size).decode())
        key = cmd.split(",", 1)[0]
        print("%s\t%s" % (cmd, json.dumps(reply.get(key))))
    sock.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
