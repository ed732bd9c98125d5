#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 Octopus authors
"""No path of a development or CI machine in the source tree.

A path such as /home/<user>/... or a CI runner's work directory means
nothing on another machine: documentation and comments name files
relative to the tree, and commands a user runs use their own directories.
Every file tracked in the tree is read (the build directories and .git
are not part of it); /tmp in a command a user runs is fine.

    machine_paths.py <source root>
"""

import os
import re
import subprocess
import sys

MACHINE = re.compile(r'(?<![\w.~-])/(?:work|home|root|Users|scratch)/[\w.-]+'
                     r'|/tmp/ci\b|/var/tmp/[\w.-]+')
SKIP_DIRS = {'.git', 'subprojects'}


def files(root):
    """The tree's files: those git tracks, or, outside a checkout, every
    file but build directories."""
    try:
        out = subprocess.run(['git', '-C', root, 'ls-files', '-z'],
                             capture_output=True, check=True).stdout
        for name in out.decode().split('\0'):
            if name:
                yield os.path.join(root, name)
        return
    except (OSError, subprocess.CalledProcessError):
        pass
    for top, dirs, names in os.walk(root):
        dirs[:] = [d for d in dirs if d not in SKIP_DIRS and
                   not os.path.exists(os.path.join(top, d, 'meson-private'))]
        for n in names:
            if n != '.git':
                yield os.path.join(top, n)


def main():
    root = os.path.abspath(sys.argv[1])
    found = 0
    for path in files(root):
        if os.path.abspath(path) == os.path.abspath(__file__):
            continue
        try:
            with open(path, encoding='utf-8') as f:
                text = f.read()
        except (UnicodeDecodeError, OSError):
            continue
        for n, line in enumerate(text.splitlines(), 1):
            m = MACHINE.search(line)
            if m:
                print('FAIL %s:%d: machine path %s'
                      % (os.path.relpath(path, root), n, m.group(0)))
                found += 1
    if found:
        sys.exit(1)
    print('OK: no machine path in the tree')


main()
