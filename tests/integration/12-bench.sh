# The cost of a login in instructions (make bench-callgrind): a change
# that makes one of the gate's cases more than 20% dearer than
# tests/bench/callgrind-baseline.txt fails here.  Regenerate the baseline
# (tests/bench/callgrind.sh --baseline) only for a cost that is meant.

test_callgrind_instructions_within_baseline() {
	skip_under_sanitizers "callgrind counts the uninstrumented build"
	command -v valgrind > /dev/null || fail "valgrind is missing (tests/install-deps.sh)"
	[ -x "$BUILD/pambench" ] || fail "$BUILD/pambench is missing (make helpers)"
	"$TOP/tests/bench/callgrind.sh" --check || fail "a case grew past its baseline"
}

# The gate can fail: a baseline a third lower than today's counts is
# exceeded.
test_callgrind_gate_catches_growth() {
	skip_under_sanitizers "callgrind counts the uninstrumented build"
	command -v valgrind > /dev/null || fail "valgrind is missing (tests/install-deps.sh)"
	[ -x "$BUILD/pambench" ] || fail "$BUILD/pambench is missing (make helpers)"
	awk '/^#/ { print; next } { printf "%s %s %s %d\n", $1, $2, $3, $4 * 2 / 3 }' \
		"$TOP/tests/bench/callgrind-baseline.txt" > "$T/lowered.txt"
	if CG_CASES="16:100" "$TOP/tests/bench/callgrind.sh" --check "$T/lowered.txt" > "$T/out" 2>&1; then
		cat "$T/out"
		fail "the gate passed against a baseline a third lower"
	fi
	grep -q 'GREW more than 20%' "$T/out" || { cat "$T/out"; fail "no GREW verdict"; }
}

# A login that logs more lines than the log socket's queue holds
# (net.unix.max_dgram_qlen, 10 on Debian): one group, so that every other
# rule names a group the file lacks, and each of the 99 logs a warning.
# glibc's syslog sends on a blocking socket: with the lines read back only
# between logins, the 12th blocks the bench itself, for good.
test_bench_survives_a_login_that_logs_many_lines() {
	skip_under_sanitizers "the bench runs the uninstrumented build"
	[ -x "$BUILD/pambench" ] || fail "$BUILD/pambench is missing (make helpers)"
	capture timeout 30 "$BUILD/pambench" "$MODULE" 1 100 dropgroups fresh
	[ "$rc" -ne 124 ] || fail "the bench hung on its own log socket"
	assert_exit 0
}
