#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 Octopus authors
#
# Fuzz one target for a bounded time, starting from the committed inputs.
#   run.sh <fuzzer> <seconds> <work dir> <input dir>...
# New inputs go to <work dir>/corpus (never into the source tree), a finding
# to <work dir>/artifacts/; it fails the test and is to be committed under
# tests/fuzz/regressions/<target>/ with its fix.
set -eu
fuzzer=$1
secs=$2
work=$3
shift 3
mkdir -p "$work/corpus" "$work/artifacts"
rc=0
# -timeout: an input taking 10 s is a hang; -rss_limit_mb: EAL's memory
# (--no-huge) counts in the RSS; libFuzzer's exit code for a finding is 77,
# which meson reads as a skip
"$fuzzer" -max_total_time="$secs" -timeout=10 -rss_limit_mb=4096 \
	-error_exitcode=1 -timeout_exitcode=1 \
	-print_final_stats=1 -artifact_prefix="$work/artifacts/" \
	"$work/corpus" "$@" || rc=$?
if [ "$rc" -ne 0 ]; then
	echo "FINDING: input(s) in $work/artifacts/:"
	ls -l "$work/artifacts/"
	echo "commit it under tests/fuzz/regressions/$(basename "$work")/ with the fix"
fi
exit "$rc"
