#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 Octopus authors
"""The testpmd sessions of the NIC guides (doc/guides/nics/*.rst), run.

In each guide's "Usage with testpmd" section: the literal block that
starts dpdk-testpmd, then the testpmd> lines of the blocks after it, fed
to that testpmd in order (a pause after start, as testpmd's start first
drains the queues). A session passes when testpmd ends by itself, every
flow rule the text calls refused is refused and every other one created,
and every extended statistic the section names is one the port shows.

What the run adds to the command: the plugins (-d), memory of its own
(--no-huge), a file prefix of its own, lcore 1 for the one the text leaves
to the reader, and two emulated sockets (tools/octopus-numa-emu).

    guide_sessions.py <source dir> <testpmd> <octonic .so> <octopus .so>
"""

import os
import re
import subprocess
import sys
import time


def section(path, title):
    lines = open(path).read().splitlines()
    out, inside = [], False
    for i, line in enumerate(lines):
        if i + 1 < len(lines) and re.fullmatch(r'([-=~^])\1{3,}', lines[i + 1]) \
                and line.strip():
            inside = line.strip() == title
            continue
        if inside and not re.fullmatch(r'([-=~^])\1{3,}', line):
            out.append(line)
    return out


def blocks(lines):
    """(paragraph before, literal block text) of each "::" block."""
    paras, cur, i = [], [], 0
    while i < len(lines):
        line = lines[i]
        if line.rstrip().endswith('::'):
            para = ' '.join(cur + [line])
            cur, i = [], i + 1
            block = []
            while i < len(lines) and (lines[i].startswith('   ') or not lines[i].strip()):
                block.append(lines[i][3:])
                i += 1
            paras.append((para, '\n'.join(block).strip('\n')))
            continue
        cur = [] if not line.strip() else cur + [line]
        i += 1
    return paras


def session(src, testpmd, plugins, path):
    text = section(path, 'Usage with testpmd')
    cmd, steps = None, []
    for para, block in blocks(text):
        for line in block.replace('\\\n', ' ').splitlines():
            line = line.strip()
            if 'dpdk-testpmd' in line and cmd is None:
                cmd = line
            elif line.startswith('testpmd> '):
                steps.append((line[len('testpmd> '):], 'refused' in para))
    if cmd is None:
        return ['%s: no dpdk-testpmd command in "Usage with testpmd"' % path]
    prefix = 'docs-guide-%d' % os.getpid()
    cmd = cmd.replace('<lcore of socket 1>', '1')
    cmd = cmd.replace('dpdk-testpmd', '%s --no-huge -m 1024 --file-prefix %s %s'
                      % (testpmd, prefix, ' '.join('-d ' + p for p in plugins)), 1)
    argv = [src + '/tools/octopus-numa-emu', '--nodes', '2', '--', 'sh', '-c', cmd]
    p = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         stderr=subprocess.STDOUT, text=True)
    time.sleep(1)
    for step, _ in steps + [('quit', False)]:
        p.stdin.write(step + '\n')
        p.stdin.flush()
        time.sleep(2 if step == 'start' else 0.3)
    try:
        out, _ = p.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        p.kill()
        out, _ = p.communicate()
        return ['%s: testpmd did not end' % path]
    errors = []
    if p.returncode != 0:
        errors.append('%s: testpmd exited with %d' % (path, p.returncode))
    # testpmd's answers: "created" on stdout, complaints on stderr (their
    # order is lost in the pipe): count each kind
    created = len(re.findall(r'Flow rule #\d+ created', out))
    refused = len(re.findall(r'Caught PMD error', out))
    flows = [r for step, r in steps if step.startswith('flow create')]
    if created != flows.count(False) or refused != flows.count(True):
        errors.append('%s: %d rules created and %d refused, the guide says %d and %d'
                      % (path, created, refused, flows.count(False), flows.count(True)))
    shown = set(re.findall(r'^(\w+): \d+$', out, re.M))
    for name in set(re.findall(r'``(\w+)``', '\n'.join(text))):
        if re.match(r'(rx|tx|member)\w*_(packets|socket|migrations)$', name):
            name = name.replace('qN', 'q0')
            if name not in shown:
                errors.append('%s: the guide names xstat %s, the port has none'
                              % (path, name))
    if errors:
        print(out)
    return errors


def main():
    src, testpmd = sys.argv[1:3]
    plugins = sys.argv[3:5]
    errors = []
    for drv in ('octopus', 'octonic'):
        path = '%s/doc/guides/nics/%s.rst' % (src, drv)
        e = session(src, testpmd, plugins, path)
        print('%s: %s' % (path, 'FAIL' if e else 'ok'))
        errors += e
    for e in errors:
        print('FAIL ' + e)
    sys.exit(1 if errors else 0)


main()
