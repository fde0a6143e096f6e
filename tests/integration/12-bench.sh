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

# The bench's "need" peer (a pam_permit login plus the system calls that
# the module's promises need, made by the bench itself) is a floor only
# if the module's own login makes every one of those calls: a call that
# need makes and the module does not would raise the floor, and the
# verdict docs/performance.md draws from it.  Both runs set up the same
# sandbox and log in twice (the first login uncounted: for the module it
# fills the cache); the counted login alone is compared, call by call,
# by name and path.
test_bench_need_makes_no_call_the_module_does_not() {
	skip_under_sanitizers "the bench runs the uninstrumented build"
	command -v strace > /dev/null || fail "strace is missing (tests/install-deps.sh)"
	[ -x "$BUILD/pambench" ] || fail "$BUILD/pambench is missing (make helpers)"
	local p
	for p in need dropgroups permit; do
		capture strace -qq -o "$T/trace.$p" "$BUILD/pambench" "$MODULE" 16 1 "$p" fresh
		assert_exit 0
		# the timed login alone, from libpam's reading of its stack
		# (the last one): whole runs would hide a call need makes
		# twice behind the module's two logins
		grep -q '^openat(AT_FDCWD, "/etc/pam.d/bench-' "$T/trace.$p" ||
			fail "no login in the trace of $p"
		awk '/^openat\(AT_FDCWD, "\/etc\/pam.d\/bench-/ { n = 0 }
			{ line[++n] = $0 }
			END { for (i = 1; i <= n; i++) print line[i] }' \
			"$T/trace.$p" > "$T/login.$p"
		# name and first path of each call; libpam's reading of the
		# service's own stack, buffers' bytes and the sandbox's
		# random name are not the module's calls
		sed -E -e 's/^([a-z0-9_]+)\((([^"]*)"([^"]*)")?.*/\1 \4/' \
			-e 's#/tmp/pambench\.[A-Za-z0-9]+#/tmp/pambench#' \
			-e 's/^(sendto|getrandom|read|write) .*/\1/' "$T/login.$p" |
			grep -v -e '^+++' -e ' /etc/pam.d/bench-' | sort | uniq -c |
			awk '{ print $2 "|" $3, $1 }' | sort > "$T/calls.$p"
	done
	# the baseline: need makes the calls (a need that did nothing would
	# pass the comparison below), more of each than a pam_permit login
	# alone in the same sandbox
	local key n_need n_permit
	for key in 'openat|bench-dropgroups.conf' 'openat|/etc/group' \
		'openat|/etc/nsswitch.conf' 'openat|/etc/passwd' \
		'newfstatat|/var/run/nscd/socket' 'readlink|/proc/self/ns/user' \
		'setgroups|' 'sendto|'; do
		n_need=$(awk -v k="$key" '$1 == k { print $2 }' "$T/calls.need")
		n_permit=$(awk -v k="$key" '$1 == k { print $2 }' "$T/calls.permit")
		[ "${n_need:-0}" -gt "${n_permit:-0}" ] ||
			fail "need made no more $key than pam_permit alone (${n_need:-0}, ${n_permit:-0})"
	done
	join -a 1 -e 0 -o 0,1.2,2.2 "$T/calls.need" "$T/calls.dropgroups" |
		awk '$2 > $3' > "$T/more"
	[ ! -s "$T/more" ] || fail "need makes calls the module's login does not (call, need, module): $(cat "$T/more")"
}
