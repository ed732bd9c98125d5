#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 Octopus authors
"""The devargs each driver takes, in three places that must agree:
the key list its parser accepts (the source), the parameter string it
registers (RTE_PMD_REGISTER_PARAM_STRING, read from the built driver), and
the "Runtime configuration" section of its guide (doc/guides/nics).

    check_devargs.py <source root> <nm> <readelf> <octopus .so> <octonic .so>
"""

import re
import subprocess
import sys


def keys_octopus(src):
    """valid_keys[] of octopus_devargs.c, its ARG_* names resolved."""
    drv = src + '/drivers/net/octopus/'
    defines = dict(re.findall(r'#define\s+(ARG_\w+)\s+"([^"]+)"',
                              open(drv + 'octopus_internal.h').read()))
    body = re.search(r'valid_keys\[\]\s*=\s*\{(.*?)\};',
                     open(drv + 'octopus_devargs.c').read(), re.S).group(1)
    return {defines[n] for n in re.findall(r'\b(ARG_\w+)\b', body)}


def keys_octonic(src):
    """The rows of devarg_fields[] in octonic_devargs.c (its words, one tab
    deeper or inside WORDS(), are values, not keys)."""
    body = re.search(r'devarg_fields\[\]\s*=\s*\{(.*?)\n\};',
                     open(src + '/drivers/net/octonic/octonic_devargs.c').read(),
                     re.S).group(1)
    return set(re.findall(r'^\t\{ (?:\.key = )?"([^"]+)"', body, re.M))


def param_string(nm, readelf, lib, driver):
    """The string registered for @driver, read out of the shared object."""
    sym = '__%s_param_string_export' % driver
    addr = size = None
    for line in subprocess.run([nm, '-S', lib], capture_output=True, text=True,
                               check=True).stdout.splitlines():
        f = line.split()
        if len(f) == 4 and f[3] == sym:
            addr, size = int(f[0], 16), int(f[1], 16)
    if addr is None:
        raise SystemExit('FAIL %s: no %s (no RTE_PMD_REGISTER_PARAM_STRING?)'
                         % (lib, sym))
    for line in subprocess.run([readelf, '-SW', lib], capture_output=True,
                               text=True, check=True).stdout.splitlines():
        m = re.match(r'\s*\[\s*\d+\]\s+(\S+)\s+\S+\s+([0-9a-f]+)\s+([0-9a-f]+)'
                     r'\s+([0-9a-f]+)', line)
        if not m:
            continue
        sec, off, sz = int(m.group(2), 16), int(m.group(3), 16), int(m.group(4), 16)
        if sec <= addr < sec + sz:
            with open(lib, 'rb') as f:
                f.seek(off + addr - sec)
                return f.read(size).rstrip(b'\0').decode()
    raise SystemExit('FAIL %s: %s in no section' % (lib, sym))


def keys_of_param_string(s):
    """key=... words, outside <...> and (...) explanations."""
    s = re.sub(r'<[^>]*>', '', s)
    s = re.sub(r'\([^)]*\)', '', s)
    return set(re.findall(r'(?:^|\s)([a-z0-9_]+)=', s))


def keys_of_guide(path):
    """The ``key=...`` bullets of the guide's Runtime configuration section."""
    lines = open(path).read().splitlines()
    keys, inside = set(), False
    for i, line in enumerate(lines):
        title = i + 1 < len(lines) and re.fullmatch(r'([-=~^])\1{3,}', lines[i + 1]) \
            and line.strip() != ''
        if title:
            inside = line.strip() == 'Runtime configuration'
            continue
        m = re.match(r'- ``([a-z0-9_]+)=', line)
        if inside and m:
            keys.add(m.group(1))
    return keys


def main():
    src, nm, readelf, octopus_so, octonic_so = sys.argv[1:6]
    failures = 0
    for driver, lib, source in (('octopus', octopus_so, keys_octopus(src)),
                                ('octonic', octonic_so, keys_octonic(src))):
        registered = keys_of_param_string(param_string(nm, readelf, lib, 'net_' + driver))
        guide = src + '/doc/guides/nics/%s.rst' % driver
        documented = keys_of_guide(guide)
        for what, keys in (('registered (RTE_PMD_REGISTER_PARAM_STRING)', registered),
                           ('documented (%s, Runtime configuration)' % guide, documented)):
            for k in sorted(source - keys):
                print('FAIL net_%s: the parser takes %s=, not %s' % (driver, k, what))
                failures += 1
            for k in sorted(keys - source):
                print('FAIL net_%s: %s= is %s, the parser refuses it' % (driver, k, what))
                failures += 1
        print('net_%s: %d keys taken, registered %d, documented %d'
              % (driver, len(source), len(registered), len(documented)))
    if failures:
        sys.exit(1)
    print('OK: every devarg taken is registered and documented, and no other')


main()
