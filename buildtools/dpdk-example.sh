#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 Octopus authors
#
# Build one of DPDK's own sample applications, unmodified, against the
# installed libdpdk.
#
#   dpdk-example.sh <source dir> <work dir> <example> <output binary> [<app>]
#
# <source dir> holds the Debian source package of the installed DPDK
# (dpdk_*.orig.tar.*, downloaded there at configure time by driver-sdk.sh).
# Only examples/<example> and examples/common (the headers the samples'
# Makefiles add with -I../common) are extracted into <work dir>, Debian's
# patches touching them are applied, and the sample's own Makefile builds it
# with pkg-config.  The result (build/<app>-shared; <app>, the Makefile's
# APP, defaults to <example>) is copied to <output binary>.  Nothing of it
# belongs in the repository: it is a build product.
set -eu

src=$1
work=$2
name=$3
output=$4
app=${5:-$3}

fail() {
	echo "dpdk-example: $*" >&2
	exit 1
}

tarball=$(ls "$src"/dpdk_*.orig.tar.* 2>/dev/null | head -n 1 || true)
[ -n "$tarball" ] || fail "no dpdk_*.orig.tar.* in $src (see buildtools/driver-sdk.sh)"
top=$(tar tf "$tarball" | head -n 1 | cut -d/ -f1)
[ -n "$top" ] || fail "cannot list $tarball"

# Fresh extraction each time: a half-built or patched tree never lingers.
rm -rf "${work:?}/${top:?}"
mkdir -p "$work"
tar xf "$tarball" -C "$work" "$top/examples/$name" "$top/examples/common" ||
	fail "cannot extract examples/$name from $tarball"

debtar=$(ls "$src"/dpdk_*.debian.tar.* 2>/dev/null | head -n 1 || true)
if [ -n "$debtar" ]; then
	rm -rf "$work/debian"
	tar xf "$debtar" -C "$work" debian/patches 2>/dev/null || true
	if [ -f "$work/debian/patches/series" ]; then
		for p in $(grep -v '^#' "$work/debian/patches/series"); do
			if grep -qE "^\+\+\+ [^/]*/examples/($name|common)/" "$work/debian/patches/$p"; then
				(cd "$work/$top" && patch -p1 -s <"../debian/patches/$p") ||
					fail "cannot apply Debian patch $p"
			fi
		done
	fi
fi

make -s -C "$work/$top/examples/$name" shared >"$work/$name-make.log" 2>&1 || {
	cat "$work/$name-make.log" >&2
	fail "make of examples/$name failed"
}
cp "$work/$top/examples/$name/build/$app-shared" "$output"
