#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 Octopus authors
#
# plugin-dir.sh BUILD_DIR: the directory tests and the demo load the PMD
# plugins from (EAL's -d).  EAL refuses a plugin when its directory or any
# parent is world-writable (a clone under /tmp): the plugins are then
# copied to a directory of this build's own outside that path, under
# /var/lib/octopus/plugins (root) or ~/.local/share/octopus/plugins, named
# after the build directory.  Otherwise they stay in BUILD_DIR/plugins.
set -eu
build=$(realpath "$1")

# 0 when PATH and every parent of it are not world-writable
safe() {
	p=$1
	while :; do
		[ -z "$(find "$p" -maxdepth 0 -perm -0002 2>/dev/null)" ] || return 1
		[ "$p" = / ] && return 0
		p=$(dirname "$p")
	done
}

if safe "$build"; then
	echo "$build/plugins"
	exit 0
fi
if [ "$(id -u)" = 0 ]; then
	base=/var/lib/octopus/plugins
else
	base=${XDG_DATA_HOME:-$HOME/.local/share}/octopus/plugins
fi
mkdir -p "$base"
base=$(realpath "$base")
safe "$base" || {
	echo "plugin-dir.sh: $build and $base both have a world-writable parent: EAL will refuse the plugins" >&2
	exit 1
}
echo "$base/$(echo "$build" | tr / _)"
