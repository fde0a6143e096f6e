#!/bin/bash
# The bench's cases (tests/bench/pambench.c) in instructions: one fresh
# login (pam_start .. pam_setcred .. pam_end) as callgrind counts it
# (--toggle-collect=bench_login: the driver's setup, and every peer's
# first login, which for pam_dropgroups fills its cache, are not
# counted), and for pam_dropgroups the cold login too (its cache empty:
# the first login after an edit).  Deterministic where wall-clock time
# on a shared machine is not.
#
#   callgrind.sh                 every case, pam_permit, pam_group and
#                                pam_dropgroups (make bench-callgrind)
#   callgrind.sh --check [FILE]  pam_dropgroups in the gate's cases only,
#                                against FILE (tests/bench/callgrind-
#                                baseline.txt): fails when one grew by
#                                more than CG_TOLERANCE percent (20)
#   callgrind.sh --baseline      print a new baseline file
#
# As root (the driver builds a mount namespace).  CG_CASES="G:R ..."
# overrides the cases.
set -uo pipefail
TOP=$(cd "$(dirname "$0")/../.." && pwd)
B=${BUILD:-$TOP/build}
BASELINE_DEFAULT=$TOP/tests/bench/callgrind-baseline.txt
# G+E: G groups and E more lines in /etc/group (pambench.c)
ALL_CASES="16:1 16:10 16+2000:1 16+2000:10 1024:1 65536:1 16:100 1024:100 \
65536:100 16:10000 1024:10000"
# The gate's cases, G:R for a login from the cache and G:R:cold for one
# that parses: small enough for make check (about 15 s in all, idle).
GATE_CASES="16:1 16:10 16+2000:1 16+2000:10 16:100 1024:1 1024:100 16:2000
16:100:cold 16:2000:cold"
TOLERANCE=${CG_TOLERANCE:-20}

mode=table
case ${1:-} in
--check) mode=check; baseline=${2:-$BASELINE_DEFAULT} ;;
--baseline) mode=baseline ;;
"") ;;
*) echo "usage: $0 [--check [FILE] | --baseline]" >&2; exit 2 ;;
esac

command -v valgrind > /dev/null || { echo "valgrind is missing" >&2; exit 77; }
for f in "$B/pambench" "$B/pam_dropgroups.so"; do
	[ -e "$f" ] || { echo "$f is missing: make all $B/pambench" >&2; exit 2; }
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# count G R PEER: the instructions of one fresh login.
count() {
	local out=$tmp/cg.out log=$tmp/cg.log
	if ! valgrind --tool=callgrind --toggle-collect=bench_login \
		--callgrind-out-file="$out" "$B/pambench" "$B/pam_dropgroups.so" \
		"$1" "$2" "$3" fresh > "$log" 2>&1; then
		echo "pambench $1 $2 $3 failed under valgrind:" >&2
		sed 's/^/#   /' "$log" >&2
		return 1
	fi
	sed -n 's/^==[0-9]*== Collected : \([0-9]*\)$/\1/p' "$log"
}

case $mode in
table)
	cases=${CG_CASES:-$ALL_CASES}
	printf '# instructions per fresh login (callgrind, bench_login only)\n'
	printf '%-7s %-6s %14s %14s %14s %9s %14s\n' groups rules permit group \
		dropgroups dg/group cold
	for c in $cases; do
		g=${c%:*} r=${c#*:}
		p=$(count "$g" "$r" permit) || exit 1
		q=$(count "$g" "$r" group) || exit 1
		d=$(count "$g" "$r" dropgroups) || exit 1
		k=$(count "$g" "$r" cold) || exit 1
		printf '%-7s %-6s %14s %14s %14s %9s %14s\n' "$g" "$r" "$p" "$q" "$d" \
			"$(awk -v d="$d" -v q="$q" 'BEGIN { printf "%.2f", d / q }')" "$k"
	done
	;;
baseline)
	echo "# tests/bench/callgrind.sh --baseline: instructions of one fresh"
	echo "# pam_dropgroups login per case (groups rules peer Ir; peer cold:"
	echo "# its cache empty, the first login after an edit).  The gate"
	echo "# (tests/integration/12-bench.sh, make check) fails when a case"
	echo "# grows by more than ${TOLERANCE}%.  Regenerate after a change that"
	echo "# is meant to cost more, and say why in its commit."
	for c in ${CG_CASES:-$GATE_CASES}; do
		IFS=: read -r g r peer <<< "$c"
		peer=${peer:-dropgroups}
		d=$(count "$g" "$r" "$peer") || exit 1
		echo "$g $r $peer $d"
	done
	;;
check)
	[ -r "$baseline" ] || { echo "no baseline $baseline" >&2; exit 2; }
	bad=0
	for c in ${CG_CASES:-$GATE_CASES}; do
		IFS=: read -r g r peer <<< "$c"
		peer=${peer:-dropgroups}
		base=$(awk -v g="$g" -v r="$r" -v p="$peer" '$1 == g && $2 == r && $3 == p { print $4 }' "$baseline")
		[ -n "$base" ] || { echo "case $g:$r ($peer) is not in $baseline" >&2; bad=1; continue; }
		d=$(count "$g" "$r" "$peer") || { bad=1; continue; }
		verdict=ok
		if [ "$d" -gt $((base + base * TOLERANCE / 100)) ]; then
			verdict="GREW more than ${TOLERANCE}%"
			bad=1
		fi
		printf '%s groups, %s rules, %s: %s instructions, baseline %s (%s%%): %s\n' \
			"$g" "$r" "$peer" "$d" "$base" \
			"$(awk -v d="$d" -v b="$base" 'BEGIN { printf "%+.1f", (d - b) * 100 / b }')" \
			"$verdict"
	done
	exit $bad
	;;
esac
