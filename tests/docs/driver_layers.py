#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 Octopus authors
"""Fail when the files of a driver call each other against their layers.

Usage: driver_layers.py NM ARCHIVE SOURCE...

ARCHIVE is the driver's static library, SOURCE its files in layer order,
top first (as its meson.build lists them). nm tells which global functions
each file's object defines and which names it uses; a use in file A of a
name that file B defines is a call A -> B. Every call must go down the
list: a call back up (which a cycle needs) is printed with the names that
make it, and the exit status is 1. Objects of the archive that are no
SOURCE (libraries linked in) are left out.
"""

import os
import re
import subprocess
import sys


def members(nm, archive, flags, sources):
    """{source: [nm lines]} of the archive's members built from sources"""
    out = subprocess.run([nm, '-g'] + flags + [archive], check=True,
                         capture_output=True, text=True).stdout
    objs, cur = {}, None
    for line in out.splitlines():
        head = re.match(r'^(\S+)\.o(bj)?:$', line)
        if head:
            src = os.path.basename(head.group(1))
            cur = objs.setdefault(src, []) if src in sources else None
        elif cur is not None and line.strip():
            cur.append(line.split())
    return objs


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    nm, archive = sys.argv[1], sys.argv[2]
    order = [os.path.basename(s) for s in sys.argv[3:]]
    rank = {src: k for k, src in enumerate(order)}
    defined = members(nm, archive, ['--defined-only'], rank)
    owner = {f[2]: src for src, lines in defined.items()
             for f in lines if len(f) == 3 and f[1] in 'TW'}
    missing = [s for s in order if s not in defined]
    if missing:
        print('not in %s: %s' % (archive, ' '.join(missing)))
        return 1
    calls = {}
    for src, lines in members(nm, archive, ['--undefined-only'], rank).items():
        for f in lines:
            callee = owner.get(f[-1])
            if callee is not None and callee != src:
                calls.setdefault((src, callee), []).append(f[-1])
    up = {k: v for k, v in calls.items() if rank[k[1]] < rank[k[0]]}
    for (a, b), names in sorted(up.items(), key=lambda kv: rank[kv[0][0]]):
        print('%s calls up into %s: %s' % (a, b, ' '.join(sorted(names))))
    if up:
        print('%d call(s) against the layer order; move the names to the '
              'layer that serves every caller' % len(up))
        return 1
    for src in order:
        callees = sorted({b for (a, b) in calls if a == src}, key=rank.get)
        print('%s -> %s' % (src, ' '.join(callees) or '-'))
    return 0


if __name__ == '__main__':
    sys.exit(main())
