#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 Octopus authors
#
# copy-plugins.sh DIR ENV_FILE PLUGIN...: copy the plugins into DIR (see
# plugin-dir.sh), not writable by others, and write their paths into
# ENV_FILE as shell assignments (OCTONIC_PLUGIN=..., OCTOPUS_PLUGIN=...)
# for the demo and the scripts run by hand.
set -eu
dir=$1 env=$2
shift 2
mkdir -p "$dir"
chmod 755 "$dir"
: >"$env.tmp"
for so in "$@"; do
	name=$(basename "$so")
	# a new file, then rename: a process that has the old one mapped keeps it
	install -m 755 "$so" "$dir/.$name.new"
	mv -f "$dir/.$name.new" "$dir/$name"
	case "$name" in
	librte_net_octonic.so) echo "OCTONIC_PLUGIN='$dir/$name'" >>"$env.tmp" ;;
	librte_net_octopus.so) echo "OCTOPUS_PLUGIN='$dir/$name'" >>"$env.tmp" ;;
	esac
done
mv -f "$env.tmp" "$env"
