#!/bin/bash
# make mutate: plant one bug at a time in a scratch copy of the tree and
# check that the tests the bug names catch it.
#
#   tests/mutate/run.sh [--apply-only] [ID...]
#
# The mutations are in tests/mutate/mutations (its head says the format).
# For each one the runner applies its edits to the scratch copy (an edit
# whose text is not found exactly once is a failure of the runner: the
# set cannot rot silently as the code changes), rebuilds, runs the unit
# tests and integration tests it names (BUILD pointing at the scratch
# build), and says "caught" or "NOT caught".  It exits non-zero if any
# mutation survives, or if any cannot be applied or built.
#
#   --apply-only    apply and build every mutation, run no test
#   --check-set     only check the set: its stanzas, and that every edit
#                   of every mutation still finds its text exactly once
#                   (no copy, no build: make check runs this, so that the
#                   mutations outside MUTATE_SET=ci cannot rot unseen)
#   MUTATE_SET=ci   only the mutations marked "ci: yes" (the CI subset)
#   MUTATE_DIR=DIR  the scratch copy (default build/mutate; wiped first)
# Integration tests need root, as for `make check`.
set -uo pipefail
TOP=$(cd "$(dirname "$0")/../.." && pwd)
SET=${MUTATE_SET:-all}
LIST=${MUTATE_LIST:-$TOP/tests/mutate/mutations}
W=${MUTATE_DIR:-$TOP/build/mutate}
apply_only=0 check_set=0
if [ "${1:-}" = --apply-only ]; then
	apply_only=1
	shift
elif [ "${1:-}" = --check-set ]; then
	check_set=1
	shift
fi
only=" $* "
# what the named tests need (not the ThreadSanitizer stress builds)
TARGETS="all unit build/logsink build/libnss_dgfault.so.2 build/nssprobe
	build/allocfail build/item_switch build/two_sessions
	build/pam_cycles build/pam_dropgroups-unpinned.so build/liar.so"

case $SET in all | ci) ;; *) echo "MUTATE_SET must be all or ci" >&2; exit 2 ;; esac
if [ $apply_only = 0 ] && [ $check_set = 0 ] && [ "$(id -u)" != 0 ]; then
	echo "make mutate runs integration tests: it needs root" >&2
	exit 2
fi

# Parse the set: one stanza per mutation, "key: value" lines, stanzas
# apart by blank lines, "#" lines are comments.  Stored in arrays by index.
ids=() whats=() files=() edits=() tests=() units=() cmds=() removes=() cis=()
parse() {
	local line key val i=-1 inst=0
	while IFS= read -r line || [ -n "$line" ]; do
		case $line in
		'#'*) continue ;;
		'') inst=0; continue ;;
		esac
		key=${line%%:*}
		val=${line#*:}
		val=${val# }
		if [ $inst = 0 ]; then
			[ "$key" = id ] || { echo "mutations: a stanza must start with id: ($line)" >&2; return 1; }
			i=$((i + 1)) inst=1
			ids[i]=$val whats[i]='' files[i]='' edits[i]='' tests[i]='' units[i]='' cmds[i]='' removes[i]='' cis[i]=no
			continue
		fi
		case $key in
		what) whats[i]=$val ;;
		file) files[i]=$val ;;
		# edits are kept as FROM<US>TO<RS> records
		from) edits[i]+="$val"$'\x1f' ;;
		to) edits[i]+="$val"$'\x1e' ;;
		tests) tests[i]=$val ;;
		unit) units[i]=$val ;;
		cmd) cmds[i]=$val ;;
		remove) removes[i]=$val ;;
		ci) cis[i]=$val ;;
		*) echo "mutations: ${ids[i]}: unknown key $key" >&2; return 1 ;;
		esac
	done < "$LIST"
}
parse || exit 2

# check the set itself: unique ids, every field there, every named test exists
bad=0
all_tests=$(sed -n 's/^\(test_[A-Za-z0-9_]*\)[[:space:]]*()[[:space:]]*{.*$/\1/p' "$TOP"/tests/integration/*.sh)
dup=$(printf '%s\n' "${ids[@]}" | sort | uniq -d | xargs)
[ -z "$dup" ] || { echo "mutations: ids used twice: $dup"; bad=1; }
for i in "${!ids[@]}"; do
	id=${ids[i]}
	[ -n "${whats[i]}" ] && [ -n "${files[i]}" ] && [ -n "${edits[i]}" ] ||
		{ echo "mutations: $id: needs what:, file: and from:/to:"; bad=1; }
	[ -n "${tests[i]}${units[i]}${cmds[i]}" ] || { echo "mutations: $id: names no test"; bad=1; }
	[ -f "$TOP/${files[i]}" ] || { echo "mutations: $id: no file ${files[i]}"; bad=1; }
	for t in ${tests[i]}; do
		grep -Eq -- "$t" <<< "$all_tests" ||
			{ echo "mutations: $id: no integration test matches $t"; bad=1; }
	done
	for u in ${units[i]}; do
		[ -f "$TOP/tests/unit/$u.c" ] || { echo "mutations: $id: no unit test $u"; bad=1; }
	done
done
[ $bad = 0 ] || exit 2

# apply_edits FILE EDITS: each FROM must occur exactly once; replaced by TO.
# "\n" and "\t" in FROM and TO stand for a newline and a tab, "\\" for
# a backslash.
apply_edits() {
	EDITS=$2 perl -e '
		my $f = shift; local $/; open(my $h, "<", $f) or die "$f: $!\n";
		my $s = <$h>; close $h; my $orig = $s;
		for my $rec (split /\x1e/, $ENV{EDITS}) {
			my ($from, $to) = split /\x1f/, $rec, -1;
			die "an edit without to:\n" unless defined $to;
			for ($from, $to) {
				s/\\\\/\x00/g; s/\\n/\n/g; s/\\t/\t/g; s/\x00/\\/g;
			}
			my $n = () = $s =~ /\Q$from\E/g;
			die "edit not found exactly once ($n times): $from\n" if $n != 1;
			my $at = index($s, $from);
			substr($s, $at, length($from)) = $to;
		}
		die "the edits left the file unchanged\n" if $s eq $orig;
		open($h, ">", $f) or die "$f: $!\n"; print $h $s; close $h;
	' "$1"
}

if [ $check_set = 1 ]; then
	tmpf=$(mktemp) || exit 2
	trap 'rm -f "$tmpf"' EXIT
	for i in "${!ids[@]}"; do
		[ -z "${only// /}" ] || [[ $only == *" ${ids[i]} "* ]] || continue
		cp "$TOP/${files[i]}" "$tmpf" && apply_edits "$tmpf" "${edits[i]}" 2> "$tmpf.err" ||
			{ echo "mutations: ${ids[i]}: $(cat "$tmpf.err")"; bad=1; }
		rm -f "$tmpf.err"
	done
	[ $bad = 0 ] || exit 2
	echo "mutations: ${#ids[@]} stanzas, every edit applies"
	exit 0
fi

# A fresh scratch copy of the tree (no builds, no .git), built once.
rm -rf "$W"
mkdir -p "$W/src"
(cd "$TOP" && tar --exclude=./build --exclude=./build-asan --exclude=./.git -cf - .) |
	(cd "$W/src" && tar -xf -)
S=$W/src
echo "== building the scratch copy in $S"
if ! make -C "$S" -s -j2 $TARGETS > "$W/build.log" 2>&1; then
	tail -n 30 "$W/build.log"
	echo "the unmutated scratch copy does not build"
	exit 2
fi

caught=0 survived=0 broken=0 n=0
declare -a report
start_all=$SECONDS
for i in "${!ids[@]}"; do
	id=${ids[i]}
	[ "$only" = "  " ] || [[ $only == *" $id "* ]] || continue
	[ "$SET" = all ] || [ "${cis[i]}" = yes ] || continue
	n=$((n + 1))
	t0=$SECONDS
	f=$S/${files[i]}
	cp "$f" "$W/pristine"
	log=$W/$id.log
	: > "$log"
	# outputs a mutation of the build itself (the Makefile) must remake:
	# gone before the build, and again after, so no later one uses them
	for r in ${removes[i]}; do rm -f "$S/$r"; done
	if ! apply_edits "$f" "${edits[i]}" >> "$log" 2>&1; then
		verdict="DOES NOT APPLY"
	elif ! make -C "$S" -s -j2 $TARGETS >> "$log" 2>&1; then
		verdict="DOES NOT BUILD"
	elif [ $apply_only = 1 ]; then
		verdict="applies and builds"
	else
		verdict="NOT caught"
		for u in ${units[i]}; do
			echo "== unit $u" >> "$log"
			"$S/build/$u" >> "$log" 2>&1 || verdict=caught
		done
		if [ -n "${cmds[i]}" ]; then
			echo "== cmd ${cmds[i]}" >> "$log"
			(cd "$S" && env -u LD_PRELOAD bash -c "${cmds[i]}") >> "$log" 2>&1 || verdict=caught
		fi
		if [ -n "${tests[i]}" ]; then
			pat=$(tr -s ' ' '|' <<< "${tests[i]}")
			echo "== integration ($pat)" >> "$log"
			BUILD=$S/build DG_TEST_LOGDIR=$W/logs-$id DG_TEST_TIMEOUT=${MUTATE_TIMEOUT:-120} \
				"$S/tests/run-integration.sh" "$pat" >> "$log" 2>&1 || verdict=caught
		fi
	fi
	# put the file back (a new mtime: make rebuilds it for the next one)
	cp "$W/pristine" "$f"
	for r in ${removes[i]}; do rm -f "$S/$r"; done
	case $verdict in
	caught) caught=$((caught + 1)) ;;
	"NOT caught") survived=$((survived + 1)) ;;
	"applies and builds") ;;
	*) broken=$((broken + 1)) ;;
	esac
	line=$(printf '%-36s %-18s %4ss  %s' "$id" "$verdict" $((SECONDS - t0)) "${whats[i]}")
	echo "$line"
	report+=("$line")
	case $verdict in caught | "applies and builds") ;; *) sed 's/^/#   /' "$log" | tail -n 15 ;; esac
done
echo "mutate ($SET): $n mutations, $caught caught, $survived NOT caught, $broken broken, $((SECONDS - start_all))s"
[ $survived -eq 0 ] && [ $broken -eq 0 ] && [ $n -gt 0 ]
