# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 Octopus authors
#
# Sourced (bash) by the test scripts: one fail() and one cleanup trap.
#
#   fail MESSAGE       print the logs in octo_logs (their last OCTO_FAIL_TAIL
#                      lines, 60), then "FAIL: MESSAGE", exit 1
#   octo_prefix NAME   sets tp_prefix, an EAL file prefix for this run,
#                      whose runtime directory the cleanup removes
#   octo_app_begin NAME    octo_prefix NAME for a script that runs a DPDK
#                      application over the octopus port: prefix (its
#                      tp_prefix) and work ($octo_work), the app's log
#                      $out (its last 1000 lines shown on a failure),
#                      port the octopus port's number
#   tq COMMAND...      telemetry replies of the process of prefix tp_prefix
#                      (octo_tel COMMAND KEY: one number of a reply)
#   octo_until WHAT CMD...   run CMD until it succeeds, at most
#                      OCTO_DEADLINE seconds (30), and while the testpmd
#                      of testpmd.sh (tp_pid) runs; WHAT names it in errors
#   octo_dialect       ",<devargs>" of the NIC model's dialect of the run
#                      (OCTONIC_DIALECT, set by meson for the -mlx5_hws
#                      variants; empty: generic), for the devargs of every
#                      net_octonic a script makes
# The trap kills the processes in octo_pids (and tp_pid), runs
# octo_cleanup_more if the script defines it, then removes $octo_work (a
# temporary directory), the runtime directories and hugepage files of the
# prefixes.

octo_work=$(mktemp -d)
octo_logs=()
octo_prefixes=()
octo_pids=()
tp_pid=
octo_lib=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
: "${OCTO_DEADLINE:=30}"
octo_dialect=${OCTONIC_DIALECT:+,$OCTONIC_DIALECT}

fail() {
	local f
	for f in "${octo_logs[@]}"; do
		[ -f "$f" ] || continue
		echo "== $f"
		tail -n "${OCTO_FAIL_TAIL:-60}" "$f"
	done
	echo "FAIL: $*"
	exit 1
}

# the cleanup trap: processes still running, the FIFO's writer, temporary
# files, and the runtime directories EAL leaves behind (one per prefix)
octo_cleanup() {
	local p
	for p in "$tp_pid" "${octo_pids[@]}"; do
		[ -n "$p" ] || continue
		kill -KILL "$p" 2>/dev/null || true
		wait "$p" 2>/dev/null || true
	done
	exec 3>&- 2>/dev/null || true
	# a hook for what a script stops or leaves elsewhere (daemons whose pid
	# files are in $octo_work, hugepage files)
	if declare -F octo_cleanup_more >/dev/null; then octo_cleanup_more; fi
	rm -rf "${octo_work:?}"
	for p in "${octo_prefixes[@]}"; do
		rm -rf "/var/run/dpdk/${p:?}"
		# a primary's kept hugepage files (testpmd.sh, tp_shared_mem)
		rm -f /dev/hugepages/"${p:?}"map_*
	done
}
trap octo_cleanup EXIT

octo_prefix() {
	tp_prefix="octopus-$1-$$"
	octo_prefixes+=("$tp_prefix")
}

octo_app_begin() {
	octo_prefix "$1"
	prefix=$tp_prefix
	work=$octo_work
	out="$work/out"
	octo_logs=("$out")
	OCTO_FAIL_TAIL=1000
	port=2	# net_octonic0_pf0 = 0, _pf1 = 1, the octopus port after them
}

# the telemetry of the process with EAL prefix $tp_prefix: replies to
# commands, a line each; number $2 of command $1's reply (nested keys
# joined with "."), empty when there is none
tq() { "$octo_lib/apps/telemetry_query.py" "${tp_prefix:?}" "$@"; }
octo_tel() {
	"$octo_lib/apps/telemetry_query.py" --flat "${tp_prefix:?}" "$1" |
		awk -v k="$1:$2" '$1 == k { print $2 }'
}

octo_until() {
	local what=$1 end=$((SECONDS + OCTO_DEADLINE))
	shift
	until "$@"; do
		[ -z "$tp_pid" ] || kill -0 "$tp_pid" 2>/dev/null ||
			fail "testpmd exited waiting for $what"
		[ "$SECONDS" -lt "$end" ] || fail "no $what within $OCTO_DEADLINE s"
		sleep 0.05
	done
}
