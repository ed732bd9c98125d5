#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 Octopus authors
#
# Print the directory holding DPDK's driver-SDK headers (ethdev_driver.h,
# ethdev_vdev.h, bus_vdev_driver.h, dev_driver.h, bus_driver.h).
#
#   driver-sdk.sh <dpdk include dir> <dpdk version> <output dir>
#
# A DPDK built with enable_driver_sdk=true installs them: then the installed
# include dir is printed.  Debian's libdpdk-dev does not: then the headers are
# taken from the Debian source package of exactly the installed version,
# downloaded into <output dir> (apt-get source --download-only, which needs a
# deb-src entry: tools/octopus-setup adds one), and extracted there.  They are
# build products: never commit them.
set -eu

incdir=$1
version=$2
out=$3
headers="ethdev_driver.h ethdev_vdev.h bus_vdev_driver.h dev_driver.h bus_driver.h"

have_all() {
	for h in $headers; do
		[ -f "$1/$h" ] || return 1
	done
	return 0
}

if have_all "$incdir"; then
	echo "$incdir"
	exit 0
fi
if have_all "$out/include"; then
	echo "$out/include"
	exit 0
fi

fail() {
	echo "driver-sdk: $*" >&2
	echo "driver-sdk: the installed DPDK ($version, $incdir) lacks the driver-SDK headers;" >&2
	echo "driver-sdk: run tools/octopus-setup as root (it adds a deb-src entry), or build" >&2
	echo "driver-sdk: against a DPDK configured with -Denable_driver_sdk=true." >&2
	exit 1
}

command -v dpkg-query >/dev/null 2>&1 || fail "not a Debian system and no SDK headers installed"
pkgver=$(dpkg-query -W -f '${Version}' libdpdk-dev 2>/dev/null) || fail "libdpdk-dev is not installed"
case "$pkgver" in
"$version"*) ;;
*) fail "libdpdk-dev $pkgver does not match the DPDK that pkg-config reports ($version)" ;;
esac

mkdir -p "$out/src"
cd "$out/src"
if ! ls dpdk_*.orig.tar.* >/dev/null 2>&1; then
	apt-get source --download-only "dpdk=$pkgver" >apt-source.log 2>&1 ||
		fail "apt-get source --download-only dpdk=$pkgver failed (see $out/src/apt-source.log)"
fi
tarball=$(ls dpdk_*.orig.tar.* | head -n 1)
top=$(tar tf "$tarball" | head -n 1 | cut -d/ -f1)
members="lib/ethdev/ethdev_driver.h lib/ethdev/ethdev_vdev.h drivers/bus/vdev/bus_vdev_driver.h
	lib/eal/include/dev_driver.h lib/eal/include/bus_driver.h"
paths=""
for m in $members; do
	paths="$paths $top/$m"
done
# shellcheck disable=SC2086
tar xf "$tarball" $paths || fail "cannot extract the SDK headers from $tarball"
# Debian's own patches: apply any that touch these headers, so they are
# exactly those of the installed package.
debtar=$(ls dpdk_*.debian.tar.* 2>/dev/null | head -n 1 || true)
if [ -n "$debtar" ]; then
	tar xf "$debtar" debian/patches 2>/dev/null || true
	if [ -f debian/patches/series ]; then
		for p in $(grep -v '^#' debian/patches/series); do
			if grep -qE '^\+\+\+ .*/(ethdev_driver|ethdev_vdev|bus_vdev_driver|dev_driver|bus_driver)\.h' "debian/patches/$p"; then
				(cd "$top" && patch -p1 -s <"../debian/patches/$p") ||
					fail "cannot apply Debian patch $p"
			fi
		done
	fi
fi
mkdir -p "$out/include"
for m in $members; do
	cp "$top/$m" "$out/include/"
done
have_all "$out/include" || fail "extraction incomplete"
echo "$out/include"
