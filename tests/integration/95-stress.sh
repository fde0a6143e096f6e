# Stress: thousands of whole PAM conversations in one process under
# valgrind's memcheck (leaks and memory errors in the module, on the
# success path and on the fail-closed path), and concurrent conversations
# in eight threads under ThreadSanitizer (data races in the module:
# sessions, pam_setcred, and the fail-closed path).
# Each detector also gets a module copy with a planted bug, and must
# catch it: a run that cannot fail proves nothing.
#
# Drivers and module copies, all built by the Makefile:
#   $BUILD/pam_cycles                tests/stress/pam_cycles.c
#   $BUILD/stress/pam_threads        tests/stress/pam_threads.c, with
#                                    clang -fsanitize=thread
#   $BUILD/stress/pam_dropgroups.so  the module, with TSan (TSan needs the
#                                    module instrumented too)
#   $BUILD/stress/leaky.so, racy.so  the module with a planted leak, and
#                                    with a planted race (TSan)
#
# Two things keep 10,000 cycles under valgrind to about half a minute:
# - /etc/pam.d/other is emptied (in the sandbox's copy): libpam reads it
#   on every pam_start, and the host's loads pam_unix, pam_systemd, ...
#   (with libselinux, libcrypt, ...) on each cycle;
# - the module is pinned with LD_PRELOAD, so pam_end's dlclose does not
#   unmap it: otherwise valgrind drops its translations and rereads its
#   debug info on every cycle (60 ms a cycle; 10 minutes per 10,000).
#   test_stress_unpinned_cycles_under_valgrind covers the real
#   load/unload cycle with fewer iterations.
#
# No valgrind suppressions: with the sandbox's files-only NSS, libpam,
# libconfig, libcap and glibc free everything ("All heap blocks were
# freed"), so any leak or error is reported.

STRESS=dgstress
STRESS_DIR=$TOP/tests/stress

# Every test: valgrind and ThreadSanitizer cannot run with the ASan/UBSan
# runtimes that `make check-asan` preloads into every process.
stress_prereqs() {
	if declare -F skip_under_sanitizers > /dev/null; then
		skip_under_sanitizers "valgrind and ThreadSanitizer bring their own runtime"
	fi
	command -v valgrind > /dev/null || fail "valgrind is not installed"
}

# The policy every stress test starts from: restricting groups by name,
# one from a drop-in; a first rule that does not match; the matching rule
# found through a %group entry, with a gid, a restricting group (notice)
# and a missing group (warning) in drop, and no_new_privs; a drop-in that
# adds a rule after it.  alice goes from 7 groups to 5 (audio, video).
stress_policy() {
	stress_prereqs
	policy <<-'EOF'
	version = 1;
	restricting = ( "games-abusers" );
	rules = (
	  { name = "other"; services = [ "sshd", "login" ]; users = "bob"; drop = "*"; },
	  { name = "stress"; services = [ "su", "dgstress" ];
	    users = [ "bob", "%students" ];
	    drop = ( "audio", 44, "games-abusers", "no-such-group" );
	    no_new_privs = true; }
	);
	EOF
	mkdir -m 0755 /etc/security/dropgroups.d
	policy /etc/security/dropgroups.d/10-stress.conf <<-'EOF'
	version = 1;
	restricting = ( "plugdev" );
	rules = ( { name = "later"; services = "*"; keep = [ "users" ]; } );
	EOF
}

# The same, plus a drop-in that breaks the schema: every call fails
# closed after the main file and both drop-ins are read and parsed.
broken_policy() {
	stress_policy
	policy /etc/security/dropgroups.d/20-broken.conf <<-'EOF'
	version = 1;
	rules = ( { services = "*"; drop = "audio"; keep = "users"; colour = "red"; } );
	EOF
}

# stress_stack [SO]: SO (default: the built module) alone in the auth
# (for pam_setcred), account and session stacks of $STRESS, and an empty
# "other" (see the top of the file).
stress_stack() {
	local so=${1:-$MODULE}
	printf '%s required %s config=%s\n' \
		auth "$so" "$POLICY" \
		account "$so" "$POLICY" \
		session "$so" "$POLICY" > "/etc/pam.d/$STRESS"
	echo '# emptied by tests/integration/95-stress.sh' > /etc/pam.d/other
}

# memcheck [-u] N MODE [EXPECT]: pam_cycles under valgrind's memcheck,
# from alice's starting groups, with $MODULE pinned (-u: not pinned).
# Sets $rc and leaves valgrind's report in $T/memcheck.out; prints the
# summary lines.  memcheck_ok then asserts a clean run.
memcheck() {
	local out=$T/memcheck.out pin=$MODULE t0
	if [ "$1" = -u ]; then
		pin=
		shift
	fi
	[ -x "$BUILD/pam_cycles" ] || fail "$BUILD/pam_cycles is not built"
	t0=$(date +%s)
	set +e
	setpriv --groups "$START" env ${pin:+LD_PRELOAD=$pin} \
		valgrind --leak-check=full \
		--show-leak-kinds=definite,indirect,possible \
		--errors-for-leak-kinds=definite,indirect \
		--error-exitcode=97 --keep-debuginfo=yes --num-callers=40 \
		"$BUILD/pam_cycles" "$STRESS" alice "$@" > "$out" 2>&1
	rc=$?
	set -e
	grep -E '^pam_cycles|ERROR SUMMARY|(definitely|indirectly|possibly) lost:|still reachable:|suppressed:' \
		"$out" | sed 's/^/  /'
	echo "  $* ${pin:+(pinned)}: valgrind exited $rc after $(($(date +%s) - t0)) s"
}

memcheck_ok() {
	if [ "$rc" -ne 0 ]; then
		sed -n '/HEAP SUMMARY/,$p' "$T/memcheck.out" | head -n 200 || true
		grep -B2 -A30 -E '^==[0-9]+== (Invalid|Conditional|Syscall param|Mismatched)' \
			"$T/memcheck.out" | head -n 200 || true
		grep '^pam_cycles:' "$T/memcheck.out" || true
		[ "$rc" -ne 97 ] || fail "valgrind found errors in $1 $2 cycles (exit 97)"
		fail "pam_cycles failed in $1 $2 cycles (exit $rc)"
	fi
	grep -q 'ERROR SUMMARY: 0 errors' "$T/memcheck.out" ||
		fail "valgrind did not report 0 errors"
	grep -q "^pam_cycles: $1 $2 cycles" "$T/memcheck.out" ||
		fail "pam_cycles did not report $1 $2 cycles"
}

# assert_lines PRIORITY COUNT ERE: the module logged exactly COUNT lines
# at PRIORITY, every one matching ERE (without printing thousands).
assert_lines() {
	local n bad
	n=$(module_log "$1" | grep -c . || true)
	bad=$(module_log "$1" | grep -Ev -- "$3" | head -n 5 || true)
	[ "$n" -eq "$2" ] || fail "want $2 $1 line(s), got $n"
	[ -z "$bad" ] || fail "$1 lines not matching /$3/: $bad"
	echo "  $n $1 lines, each matching /$3/"
}

# The copies of the module built for these tests (Makefile, $(B)/stress):
# with ThreadSanitizer, and with a planted leak or race.
stress_build() { # stress_build FILE: the built copy, or fail
	[ -e "$BUILD/stress/$1" ] || fail "$BUILD/stress/$1 is not built (make check builds it)"
	echo "$BUILD/stress/$1"
}

test_stress_session_cycles_under_valgrind() {
	stress_policy
	stress_stack
	memcheck 10000 session
	memcheck_ok 10000 session
	grep -q 'groups 7 -> 5$' "$T/memcheck.out" || fail "not trimmed to 5 groups"
}

test_stress_setcred_cycles_under_valgrind() {
	stress_policy
	stress_stack
	memcheck 10000 setcred
	memcheck_ok 10000 setcred
	grep -q 'groups 7 -> 5$' "$T/memcheck.out" || fail "not trimmed to 5 groups"
}

# The fail-closed path: every pam_acct_mgmt, pam_setcred(ESTABLISH) and
# pam_open_session fails, with the groups untouched.
test_stress_broken_policy_cycles_under_valgrind() {
	broken_policy
	stress_stack
	memcheck 2000 setcred PAM_PERM_DENIED,PAM_CRED_ERR
	memcheck_ok 2000 setcred
	grep -q 'groups 7 -> 7$' "$T/memcheck.out" || fail "groups touched"
	memcheck 1000 session PAM_SESSION_ERR
	memcheck_ok 1000 session
	grep -q 'groups 7 -> 7$' "$T/memcheck.out" || fail "groups touched"
	# one line per failing call: 2000 pam_acct_mgmt, 2000 pam_setcred,
	# 1000 pam_open_session
	assert_lines err 5000 '20-broken\.conf:2: .*; groups left unchanged$'
}

# Not pinned: pam_end unloads the module (and libconfig, libcap) on every
# cycle, as in a real login program, so memory that static data would
# still point to in a pinned module is lost here.
test_stress_unpinned_cycles_under_valgrind() {
	stress_policy
	stress_stack
	memcheck -u 100 session
	memcheck_ok 100 session
	memcheck -u 100 setcred
	memcheck_ok 100 setcred
}

# The planted leak (tests/stress/leak_canary.c: 64 bytes per trim) must
# fail the same check, and valgrind must name the module's caller.
test_stress_valgrind_catches_a_planted_leak() {
	local lost
	stress_policy
	MODULE=$(stress_build leaky.so)
	stress_stack
	memcheck 200 session
	[ "$rc" -eq 97 ] || fail "valgrind exited $rc, want 97 (errors found)"
	grep -q 'ERROR SUMMARY: 0 errors' "$T/memcheck.out" &&
		fail "valgrind reported 0 errors for a leaking module"
	# every planted block lost, in the leak summary: valgrind calls one
	# "possibly" lost when a stale pointer into it survives (one CI run
	# counted 199 definitely and 1 possibly), so both count
	lost=$(awk '/(definitely|possibly) lost: .* bytes in .* blocks/ {
		gsub(",", "", $4); bytes += $4; blocks += $7 }
		END { print bytes "/" blocks }' "$T/memcheck.out")
	[ "$lost" = 12800/200 ] ||
		fail "valgrind did not count the 200 planted blocks (bytes/blocks: $lost)"
	grep -A8 'are definitely lost' "$T/memcheck.out" | grep -c 'get_plan (pam_dropgroups.c' > /dev/null ||
		fail "the leak's stack does not name the module's get_plan()"
	echo "  the planted leak was found"
}

# tsan_threads SO THREADS M: $T/pam_threads (TSan) against SO.  Sets $rc;
# the report is in $T/tsan.out.
tsan_threads() {
	local so=$1
	shift
	stress_stack "$so"
	# not "nm | grep -q": grep quits at the first match, nm then dies of
	# SIGPIPE on its next write, and pipefail fails the test (nm writes
	# 4 KB at a time, and the module's symbols passed 4 KB)
	local syms
	syms=$(nm -D "$so") || fail "nm $so failed"
	grep -q ' U __tsan_' <<<"$syms" || fail "$so is not built with TSan"
	set +e
	setpriv --groups "$START" \
		env TSAN_OPTIONS="suppressions=$STRESS_DIR/tsan.supp print_suppressions=1 history_size=4" \
		"$(stress_build pam_threads)" "$STRESS" alice "$@" > "$T/tsan.out" 2>&1
	rc=$?
	set -e
	grep -E '^pam_threads|ThreadSanitizer: (reported|Matched)|^ *[0-9]+ race:' \
		"$T/tsan.out" | sed 's/^/  /'
	echo "  pam_threads exited $rc"
}

# Eight threads, each 200 conversations on its own handle, against a
# module built with -fsanitize=thread: no race may involve it.
test_stress_threads_under_tsan() {
	stress_policy
	tsan_threads "$(stress_build pam_dropgroups.so)" 8 200
	if grep -q 'WARNING: ThreadSanitizer' "$T/tsan.out" || [ "$rc" -ne 0 ]; then
		grep -v '^$' "$T/tsan.out" | head -n 150 || true
		fail "ThreadSanitizer reported races, or pam_threads failed"
	fi
	grep -q '^pam_threads: 8 threads x 200 cycles: 1600 succeeded$' "$T/tsan.out" ||
		fail "not every conversation succeeded"
	# Every session logs its outcome; the threads share the groups, so
	# a session may find audio and video already gone (and drop none).
	assert_lines info 1600 'user "alice", rule "stress": dropped (audio\(29\), video\(44\)|no groups); no_new_privs set$'
	[ "$(module_log info | grep -c 'dropped audio(29), video(44)')" -gt 0 ] ||
		fail "no session dropped audio and video"
}

# The planted race (tests/stress/race_canary.c: a static counter bumped
# from every session) must be reported, in the module's code.
test_stress_tsan_catches_a_planted_race() {
	stress_policy
	tsan_threads "$(stress_build racy.so)" 8 200
	grep -q 'WARNING: ThreadSanitizer: data race' "$T/tsan.out" ||
		fail "ThreadSanitizer missed the planted race"
	grep -A12 'WARNING: ThreadSanitizer: data race' "$T/tsan.out" |
		grep -q '__wrap_dg_plan_prepare .*race_canary.c' ||
		fail "the report does not point at the planted counter"
	[ "$rc" -ne 0 ] || fail "pam_threads exited 0 despite the race"
	# and through pam_setcred, and on the fail-closed path
	tsan_threads "$(stress_build racy.so)" 8 50 setcred
	grep -q 'WARNING: ThreadSanitizer: data race' "$T/tsan.out" ||
		fail "ThreadSanitizer missed the planted race in pam_setcred"
	policy /etc/security/dropgroups.d/20-broken.conf <<-'EOF'
	version = 1;
	rules = ( { services = "*"; drop = "audio"; keep = "users"; colour = "red"; } );
	EOF
	tsan_threads "$(stress_build racy.so)" 8 50 session fail
	grep -q 'WARNING: ThreadSanitizer: data race' "$T/tsan.out" ||
		fail "ThreadSanitizer missed the planted race on the fail-closed path"
	grep -q '^pam_threads: 8 threads x 50 cycles: 400 failed closed$' "$T/tsan.out" ||
		fail "not every session failed closed"
	echo "  the planted race was found"
}

# pam_setcred, as login programs that call it trim there: eight threads,
# each 100 conversations through pam_acct_mgmt and
# pam_setcred(ESTABLISH, then DELETE).
test_stress_setcred_threads_under_tsan() {
	stress_policy
	tsan_threads "$(stress_build pam_dropgroups.so)" 8 100 setcred
	if grep -q 'WARNING: ThreadSanitizer' "$T/tsan.out" || [ "$rc" -ne 0 ]; then
		grep -v '^$' "$T/tsan.out" | head -n 150 || true
		fail "ThreadSanitizer reported races, or pam_threads failed"
	fi
	grep -q '^pam_threads: 8 threads x 100 cycles: 800 succeeded$' "$T/tsan.out" ||
		fail "not every conversation succeeded"
	[ "$(module_log info | grep -c 'dropped audio(29), video(44)')" -gt 0 ] ||
		fail "no pam_setcred dropped audio and video"
}

# The fail-closed path in every thread at once: a broken drop-in makes
# every pam_acct_mgmt, pam_open_session and pam_setcred(ESTABLISH) fail,
# each with its one error line.
test_stress_broken_policy_threads_under_tsan() {
	local so
	broken_policy
	so=$(stress_build pam_dropgroups.so)
	tsan_threads "$so" 8 50 session fail
	if grep -q 'WARNING: ThreadSanitizer' "$T/tsan.out" || [ "$rc" -ne 0 ]; then
		grep -v '^$' "$T/tsan.out" | head -n 150 || true
		fail "ThreadSanitizer reported races, or a call did not fail closed"
	fi
	grep -q '^pam_threads: 8 threads x 50 cycles: 400 failed closed$' "$T/tsan.out" ||
		fail "not every session failed closed"
	tsan_threads "$so" 8 25 setcred fail
	if grep -q 'WARNING: ThreadSanitizer' "$T/tsan.out" || [ "$rc" -ne 0 ]; then
		grep -v '^$' "$T/tsan.out" | head -n 150 || true
		fail "ThreadSanitizer reported races, or a call did not fail closed"
	fi
	grep -q '^pam_threads: 8 threads x 25 cycles: 200 failed closed$' "$T/tsan.out" ||
		fail "not every pam_setcred failed closed"
	# 400 x (pam_acct_mgmt + pam_open_session), 200 x (pam_acct_mgmt +
	# pam_setcred)
	assert_lines err 1200 '20-broken\.conf:2: .*; groups left unchanged$'
}
