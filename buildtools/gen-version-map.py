#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 Octopus authors
"""Write a GNU linker version script from a driver's export markers.

Each exported function carries RTE_EXPORT_SYMBOL(name),
RTE_EXPORT_EXPERIMENTAL_SYMBOL(name, since) or
RTE_EXPORT_INTERNAL_SYMBOL(name) at the start of a line, as DPDK 25.11
marks its own; everything else stays local.

Usage: gen-version-map.py <ABI major> <output> <source>...
"""

import re
import sys

MARKERS = (
    (re.compile(r"^RTE_EXPORT_SYMBOL\((\w+)\)"), "stable"),
    (re.compile(r"^RTE_EXPORT_EXPERIMENTAL_SYMBOL\((\w+), *[0-9.]+\)"),
     "EXPERIMENTAL"),
    (re.compile(r"^RTE_EXPORT_INTERNAL_SYMBOL\((\w+)\)"), "INTERNAL"),
)


def main():
    abi, out, sources = sys.argv[1], sys.argv[2], sys.argv[3:]
    nodes = {"stable": set(), "EXPERIMENTAL": set(), "INTERNAL": set()}
    for src in sources:
        with open(src, encoding="utf-8") as f:
            for line in f:
                for regex, node in MARKERS:
                    m = regex.match(line)
                    if m:
                        nodes[node].add(m.group(1))
    text = "DPDK_%s {\n" % abi
    if nodes["stable"]:
        text += "\tglobal:\n\n"
        text += "".join("\t%s;\n" % s for s in sorted(nodes["stable"]))
        text += "\n"
    text += "\tlocal: *;\n};\n"
    for node in ("EXPERIMENTAL", "INTERNAL"):
        if nodes[node]:
            text += "\n%s {\n\tglobal:\n\n" % node
            text += "".join("\t%s;\n" % s for s in sorted(nodes[node]))
            text += "};\n"
    with open(out, "w", encoding="utf-8") as f:
        f.write(text)


if __name__ == "__main__":
    main()
