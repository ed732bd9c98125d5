#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 Octopus authors
#
# Model-check octopus_order.pml with spin (Debian's `spin`).
#   check.sh [faithful|negative|all] [work dir]
# faithful: every property holds on the model of the C code as it is;
# negative: each bug variant (-DBUG_x) violates the property it breaks, and
# spin finds it. A check that cannot fail is not a test. Exit 0 when every
# run ended as expected; a line per run with its result and time.
# the -D and pan options are word lists, split on purpose
# shellcheck disable=SC2086
set -eu
what=${1:-all}
here=$(cd "$(dirname "$0")" && pwd)
work=${2:-$(mktemp -d)}
mkdir -p "$work"
command -v spin >/dev/null || { echo "check.sh: spin not installed (apt-get install spin)"; exit 77; }
cc=${CC:-cc}
fail=0

# run <expect> <name> <spin -D...> -- <pan cflags> -- <pan args>
# expect: ok (no error), or the pattern spin's first error must match
run() {
	expect=$1 name=$2
	shift 2
	dir="$work/$name"
	mkdir -p "$dir"
	cp "$here/octopus_order.pml" "$dir/"
	sdefs="" cflags="" pargs=""
	while [ "$1" != -- ]; do sdefs="$sdefs $1"; shift; done
	shift
	while [ "$1" != -- ]; do cflags="$cflags $1"; shift; done
	shift
	pargs="$*"
	start=$(date +%s.%N)
	(cd "$dir" && spin $sdefs -a octopus_order.pml >spin.log 2>&1 &&
		$cc -O2 -w $cflags -DCOLLAPSE -DMEMLIM=2048 -o pan pan.c >cc.log 2>&1 &&
		./pan -m200000 $pargs >pan.log 2>&1) || true
	secs=$(echo "$start $(date +%s.%N)" | awk '{printf "%.1f", $2 - $1}')
	log="$dir/pan.log"
	if ! grep -q "errors:" "$log" 2>/dev/null; then
		echo "FAIL $name: pan did not complete (${secs}s)"; tail -5 "$log" "$dir/spin.log" "$dir/cc.log" 2>/dev/null
		fail=1; return
	fi
	if grep -q "reached -DMEMLIM bound\|max search depth too small" "$log"; then
		echo "FAIL $name: search incomplete (${secs}s)"; fail=1; return
	fi
	errs=$(sed -n 's/.*errors: \([0-9]*\).*/\1/p' "$log")
	first=$(grep -m1 "^pan:1:" "$log" || true)
	states=$(sed -n 's/^ *\([0-9.e+]*\) states, stored.*/\1/p' "$log")
	if [ "$expect" = ok ]; then
		if [ "$errs" = 0 ]; then
			echo "ok   $name: no error, $states states (${secs}s)"
		else
			echo "FAIL $name: $first (${secs}s)"
			(cd "$dir" && spin $sdefs -t octopus_order.pml | grep MSC) || true
			fail=1
		fi
	elif echo "$first" | grep -q "$expect"; then
		echo "ok   $name: found: $first (${secs}s)"
	else
		echo "FAIL $name: expected \"$expect\", got \"${first:-no error}\" (${secs}s)"
		fail=1
	fi
}

ORDER='assertion violated (bs\[i\]>=last_seq'
BALANCE='assertion violated (((delivered+missed)+lost)==generated)'
DEADLOCK='invalid end state'
LIVELOCK='non-progress cycle'
SAFE="-DSAFETY --"
LIVE="-DNP -DNFAIR=4 -- -l -f"

if [ "$what" = faithful ] || [ "$what" = all ]; then
	# order, balance (none stranded), deadlock: assertions and end states
	run ok gates -DSCEN=1 -- $SAFE
	run ok migrate -DSCEN=2 -DNFRAMES=2 -- $SAFE
	run ok failover -DSCEN=3 -DNFRAMES=2 -- $SAFE
	run ok removed -DSCEN=4 -- $SAFE
	# livelock: non-progress cycles under weak fairness
	run ok removed-live -DSCEN=4 -DNFRAMES=2 -DNP -- $LIVE
fi
if [ "$what" = negative ] || [ "$what" = all ]; then
	# to the first error: a quick compile (-O0) where the search is short
	# order, with end states not judged (-E): the assertion must fire
	run "$ORDER" bug-short-empty -DSCEN=2 -DBUG_SHORT_EMPTY -- -O0 -DSAFETY -- -E
	run "$ORDER" bug-gate-open -DSCEN=1 -DBUG_GATE_OPEN -- -O0 -DSAFETY -- -E
	run "$ORDER" bug-requested-ack -DSCEN=2 -DBUG_REQUESTED_ACK -- -O0 -DSAFETY -- -E
	run "$BALANCE" bug-loss-uncounted -DSCEN=3 -DNFRAMES=2 -DBUG_LOSS_UNCOUNTED -- $SAFE
	run "$DEADLOCK" bug-no-rearm -DSCEN=1 -DBUG_NO_REARM -- -O0 $SAFE
	run "$LIVELOCK" bug-stub-count -DSCEN=4 -DNFRAMES=2 -DNP -DBUG_STUB_COUNT -- $LIVE
fi
exit $fail
