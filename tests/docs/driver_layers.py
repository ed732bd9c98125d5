#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 Octopus authors
"""Fail when the files of a driver call each other against their layers.

Usage: driver_layers.py NM ARCHIVE [--prefix P] SOURCE...

ARCHIVE is the driver's static library, SOURCE its files in layer order,
top first (as its meson.build lists them; a file of a subfolder is the
object meson names after its path, eswitch/x.c -> eswitch_x.c.o). nm tells which global functions
each file's object defines and which names it uses; a use in file A of a
name that file B defines is a call A -> B. Every call must go down the
list: a call back up (which a cycle needs) is printed with the names that
make it, and the exit status is 1. Objects of the archive that are no
SOURCE (libraries linked in) are left out. With --prefix, every global
the SOURCE files define must begin with P (a sub-library's one prefix).
"""

import os
import re
import subprocess
import sys


# Globals a sanitizer build adds beside the code's own (ASan's ODR
# indicators, __odr_asan.<name>): not the driver's symbols
SANITIZER_GLOBALS = ('__odr_asan', '__asan', '__ubsan', '__sancov')


def source_of(member, sources):
    """the source an archive member was built from, or None"""
    for src in sources:
        if member == src or member.endswith('_' + src):
            return src
    return None


def members(nm, archive, flags, sources):
    """{source: [nm lines]} of the archive's members built from sources"""
    out = subprocess.run([nm, '-g'] + flags + [archive], check=True,
                         capture_output=True, text=True).stdout
    objs, cur = {}, None
    for line in out.splitlines():
        head = re.match(r'^(\S+)\.o(bj)?:$', line)
        if head:
            src = source_of(os.path.basename(head.group(1)), sources)
            cur = objs.setdefault(src, []) if src is not None else None
        elif cur is not None and line.strip():
            cur.append(line.split())
    return objs


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    nm, archive, args = sys.argv[1], sys.argv[2], sys.argv[3:]
    prefix = None
    if len(args) > 1 and args[0] == '--prefix':
        prefix, args = args[1], args[2:]
    order = [os.path.basename(s) for s in args]
    rank = {src: k for k, src in enumerate(order)}
    defined = members(nm, archive, ['--defined-only'], rank)
    owner = {f[2]: src for src, lines in defined.items()
             for f in lines if len(f) == 3 and f[1] in 'TW'}
    missing = [s for s in order if s not in defined]
    if missing:
        print('not in %s: %s' % (archive, ' '.join(missing)))
        return 1
    if prefix is not None:
        bad = sorted('%s: %s' % (src, f[2]) for src, lines in defined.items()
                     for f in lines if len(f) == 3 and
                     not f[2].startswith(prefix) and
                     not f[2].startswith(SANITIZER_GLOBALS))
        for b in bad:
            print('global without the prefix %s: %s' % (prefix, b))
        if bad:
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
