#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 Octopus authors
#
# The C sources as DPDK's devtools/checkpatches.sh wants a patch that adds
# them: that script from the DPDK 25.11 release the project builds against
# (its forbidden tokens, export and attribute rules) driving the kernel's
# checkpatch.pl from Debian's linux-source package, as DPDK's CI does.
# The tree is fed to it as one patch adding every tracked file of drivers/,
# lib/, include/ and examples/.  compat/ is left out: it is the one place
# that keeps what DPDK 22.11 lacks (its own definitions of 25.11's names).
# Two findings are known false positives of checkpatch.pl on DPDK code and
# are dropped, each by its exact message:
# - RTE_ATOMIC(type) read as a cast ("No space is necessary after a
#   cast", "spaces preferred around that '*'") on a line using it;
# - the C99 format macros (PRIu64, ...) read as CamelCase;
# - an iteration macro (*_FOREACH_*) naming its cursor in each clause of
#   its for, as DPDK's RTE_ETH_FOREACH_DEV does ("Macro argument reuse").
# Anything else fails the test.
# Usage: checkpatches.sh <source root> <DPDK tarball or tree> <kernel source
#        tarball, or the folder holding Debian's linux-source-*.tar.xz>
set -eu
top=$1
dpdk=$2
kernel=$3
[ -d "$top/.git" ] || [ -f "$top/.git" ] || { echo "SKIP: $top is not a git checkout"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

if [ -d "$dpdk" ]; then
	devtools=$dpdk/devtools
elif [ -f "$dpdk" ]; then
	tar xJf "$dpdk" -C "$tmp" --wildcards '*/devtools/*' '*/VERSION' ||
		{ echo "FAIL: no devtools in $dpdk"; exit 1; }
	devtools=$(dirname "$(find "$tmp" -name checkpatches.sh | head -n 1)")
else
	echo "SKIP: no DPDK 25.11 source at $dpdk"
	exit 77
fi
if [ -d "$kernel" ]; then
	kernel=$(ls "$kernel"/linux-source-*.tar.xz 2>/dev/null | sort -V | tail -n 1)
fi
if [ ! -f "$kernel" ]; then
	echo "SKIP: no kernel source at $kernel (Debian's linux-source: tools/octopus-setup)"
	exit 77
fi
mkdir "$tmp/k"
xz -dc "$kernel" | tar x -C "$tmp/k" --wildcards --strip-components=1 \
	'*/scripts/checkpatch.pl' '*/scripts/spelling.txt' \
	'*/scripts/const_structs.checkpatch'
# DPDK's awk scripts use gawk's regular expressions (Debian's awk is mawk)
command -v gawk >/dev/null || { echo "FAIL: gawk not installed"; exit 1; }
mkdir "$tmp/bin"
ln -s "$(command -v gawk)" "$tmp/bin/awk"

patch=$tmp/tree.patch
{
	printf 'From: Octopus authors <octopus@localhost>\n'
	printf 'Subject: [PATCH] net/octopus: the whole tree\n\n'
	printf 'Every source file of the drivers, libraries, headers and examples.\n\n'
	printf 'Signed-off-by: Octopus authors <octopus@localhost>\n---\n'
	git -C "$top" diff "$(git -C "$top" hash-object -t tree /dev/null)" \
		-- drivers lib include examples
} >"$patch"

out=$tmp/out.txt
# from the release's top, where its release-notes rule reads VERSION
(cd "$devtools/.." && PATH=$tmp/bin:$PATH \
	DPDK_CHECKPATCH_PATH=$tmp/k/scripts/checkpatch.pl \
	sh devtools/checkpatches.sh "$patch") >"$out" 2>&1 &&
	{ echo "ok: 1/1 valid patch"; exit 0; }

# Findings are blocks separated by blank lines; drop the known false
# positives named above, keep the rest.
python3 - "$out" <<'PY'
import re, sys
text = open(sys.argv[1]).read()
kept = []
for block in text.split("\n\n"):
    head = block.strip().split("\n")[0] if block.strip() else ""
    if not re.match(r"(WARNING|ERROR|CHECK):", head):
        continue
    code = "\n".join(l for l in block.split("\n") if l.startswith("+"))
    if "CHECK:SPACING" in head and "RTE_ATOMIC(" in code and (
            "No space is necessary after a cast" in head or
            "spaces preferred around that '*'" in head):
        continue
    if "CHECK:CAMELCASE" in head and re.search(r"<PRI[diouxX](8|16|32|64|PTR)>", head):
        continue
    if "CHECK:MACRO_ARG_REUSE" in head and re.search(r"#define \w+_FOREACH_\w*\(", code):
        continue
    kept.append(block.strip())
other = []
for block in text.split("\n\n"):
    if re.match(r"\s*(WARNING|ERROR|CHECK):", block):
        continue
    other += [l for l in block.split("\n") if l.strip() and
              not l.startswith(("### [PATCH]", "total:", "NOTE:")) and
              not re.match(r"\d+/\d+ valid patch", l)]
for b in kept:
    print(b + "\n")
for l in other:
    print(l)
print("%d finding(s) of checkpatch.pl, %d other line(s) of checkpatches.sh" % (len(kept), len(other)))
sys.exit(1 if kept or other else 0)
PY
