#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 Octopus authors
#
# Every meson file as DPDK's devtools/check-meson.py wants it (four-space
# indents, lists indented twice, no tabs), checked by that script from the
# DPDK 25.11 release the project builds against: its rules, not a copy.
# Usage: meson_style.sh <source root> <DPDK release tarball or tree>
set -eu
top=$1
src=$2
if [ -d "$src" ]; then
	checker=$src/devtools/check-meson.py
elif [ -f "$src" ]; then
	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' EXIT
	tar xJf "$src" -C "$tmp" --wildcards '*/devtools/check-meson.py' ||
		{ echo "FAIL: no devtools/check-meson.py in $src"; exit 1; }
	checker=$(find "$tmp" -name check-meson.py | head -n 1)
else
	echo "SKIP: no DPDK 25.11 source at $src"
	exit 77
fi
out=$(python3 "$checker" -d "$top" 2>&1) || true
if [ -n "$out" ]; then
	printf '%s\n' "$out" | head -n 20
	echo "FAIL: $(printf '%s\n' "$out" | wc -l) complaint(s) of check-meson.py"
	exit 1
fi
echo "ok: every meson file passes $(basename "$checker")"
