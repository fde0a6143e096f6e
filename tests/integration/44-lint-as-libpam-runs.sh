# dropgroups lint against libpam itself: stacks where libpam does not
# run the module line, or cannot read the file at all, next to the same
# stack through pamtester.  Each one first without the trick (the line
# runs, the groups are trimmed, lint finds nothing), then with it (libpam
# keeps every group, or fails; lint reports the line).

. "$TOP/tests/lib/profile.sh"

# dgtest TEXT: /etc/pam.d/dgtest, pam_exec's recorder of the groups first.
dgtest() {
	{
		echo "session optional pam_exec.so quiet $TOP/tests/pam-exec/record-groups.sh $T/groups"
		printf '%b' "$1"
	} > /etc/pam.d/dgtest
}

# Without no_new_privs: the rule asks for no enforcement, so the other
# programs, which no rule covers, are warnings and lint can exit 0.
dgtest_policy() {
	module_by_name
	policy <<-'EOF'
	version = 1;
	restricting = ( "games-abusers" );
	rules = ( { services = [ "dgtest" ]; drop = [ "audio" ]; } );
	EOF
}

# login: pamtester as a login does it; $rc, and the groups in $T/groups.
login() {
	# shellcheck disable=SC2034 # run_pam (lib.sh) reads it
	PRE=(timeout 10)
	run_pam alice authenticate "setcred(PAM_ESTABLISH_CRED)" open_session
}

AUDIO_GONE=(1001 100 44 46 2003 3000)

# lint_finds_nothing: lint's exit 0, and no error for dgtest's stack.
lint_finds_nothing() {
	capture "$DG" lint
	assert_exit 0
	! grep -v ': warning: ' "$T/err" || fail "lint reports an error"
}

# skipped TEXT LINE: with dgtest TEXT, libpam never runs the module, and
# lint says line LINE of /etc/pam.d/dgtest is skipped.
skipped() {
	echo "--- $1"
	dgtest "$1"
	login
	assert_rc 0
	assert_untouched
	capture "$DG" lint
	assert_exit 1
	assert_in err "^/etc/pam.d/dgtest:$2: libpam skips this line whenever the module of "
}

test_lint_reports_a_line_that_libpam_skips() {
	dgtest_policy
	# the baseline: the line runs
	dgtest 'auth required pam_permit.so\nauth required pam_dropgroups.so\nsession required pam_permit.so\n'
	login
	assert_rc 0
	assert_groups "${AUDIO_GONE[@]}"
	lint_finds_nothing
	# a jump over it, and a "sufficient" before it
	skipped 'auth [success=1 default=ignore] pam_permit.so\nauth required pam_dropgroups.so\nauth required pam_permit.so\nsession required pam_permit.so\n' 3
	skipped 'auth sufficient pam_permit.so\nauth required pam_dropgroups.so\nsession required pam_permit.so\n' 3
	# the jump in an included file, "@INCLUDE" written in capitals
	printf 'auth [success=1 default=ignore] pam_permit.so\n' > /etc/pam.d/jumps
	skipped '@INCLUDE jumps\nauth required pam_dropgroups.so\nauth required pam_permit.so\nsession required pam_permit.so\n' 3
	# ... after a NUL byte, past which libpam reads on
	printf 'auth required pam_permit.so\n\0\nauth [success=1 default=ignore] pam_permit.so\n' > /etc/pam.d/jumps
	skipped '@include jumps\nauth required pam_dropgroups.so\nauth required pam_permit.so\nsession required pam_permit.so\n' 3
	# ... at the 1024th byte of a long line, which libpam reads as two
	skipped "auth optional pam_permit.so $(printf '%*s' 1000 '')auth [success=1 default=ignore] pam_permit.so\nauth required pam_dropgroups.so\nauth required pam_permit.so\nsession required pam_permit.so\n" 3
	# a substack is one line to a jump in its parent: this one lands on
	# the module's line, which runs
	printf 'auth required pam_permit.so\nauth required pam_permit.so\n' > /etc/pam.d/sub
	dgtest 'auth [success=1 default=ignore] pam_permit.so\nauth substack sub\nauth required pam_dropgroups.so\nsession required pam_permit.so\n'
	login
	assert_rc 0
	assert_groups "${AUDIO_GONE[@]}"
	lint_finds_nothing
	# "sufficient" in a substack ends the substack alone
	printf 'auth sufficient pam_permit.so\n' > /etc/pam.d/sub
	dgtest 'auth substack sub\nauth required pam_dropgroups.so\nsession required pam_permit.so\n'
	login
	assert_rc 0
	assert_groups "${AUDIO_GONE[@]}"
	lint_finds_nothing
}

test_lint_reports_lines_libpam_cannot_read() {
	dgtest_policy
	dgtest 'auth required pam_permit.so\nsession required pam_permit.so\nauth required pam_dropgroups.so\n'
	login
	assert_rc 0
	assert_groups "${AUDIO_GONE[@]}"
	lint_finds_nothing
	# a backslash at the end of the file: libpam refuses the service
	dgtest 'auth required pam_permit.so\nsession required pam_permit.so\nauth required pam_dropgroups.so \\\n'
	login
	if [ "$rc" -eq 0 ] || [ "$rc" -eq 124 ]; then
		fail "pamtester exited $rc"
	fi
	grep -q 'Initialization failure' "$T/pamtester.out" || fail "pam_start did not fail"
	capture "$DG" lint
	assert_exit 1
	assert_in err '^/etc/pam.d/dgtest:4: libpam 1.5.2 cannot read this line \(it is continued past the end of the file\)'
	# a backslash as the 1023rd byte of libpam's buffer: it reads on for
	# ever, and the program hangs
	dgtest "auth required pam_permit.so\nauth required pam_x.so $(printf "%0999d" 0)\\\\more\nauth required pam_dropgroups.so\nsession required pam_permit.so\n"
	login
	[ "$rc" -eq 124 ] || fail "pamtester exited $rc, not killed by timeout"
	capture "$DG" lint
	assert_exit 1
	assert_in err '^/etc/pam.d/dgtest:3: libpam 1.5.2 never finishes reading this line'
}

# runs TEXT: with dgtest TEXT, libpam runs the module (the groups are
# trimmed), and lint finds nothing.
runs() {
	echo "--- $1"
	dgtest "$1"
	login
	assert_rc 0
	assert_groups "${AUDIO_GONE[@]}"
	lint_finds_nothing
}

# "done" and jumps across files, as libpam 1.5.2 runs them (an attack
# pass on lint's verdicts, issue 21): "done" in an included file ends
# the whole stack, in a substack only the substack; a jump in the main
# file counts the lines an include brings; a "-" line whose module is
# there jumps as any other.
test_lint_follows_done_and_jumps_across_files() {
	dgtest_policy
	printf 'auth [success=done default=ignore] pam_permit.so\n' > /etc/pam.d/ends
	skipped '@include ends\nauth required pam_dropgroups.so\nsession required pam_permit.so\n' 3
	skipped 'auth include ends\nauth required pam_dropgroups.so\nsession required pam_permit.so\n' 3
	runs 'auth substack ends\nauth required pam_dropgroups.so\nsession required pam_permit.so\n'
	# the jump lands past the included line and on the module's
	printf 'auth required pam_permit.so\n' > /etc/pam.d/one
	runs 'auth [success=2 default=ignore] pam_permit.so\n@include one\nauth required pam_permit.so\nauth required pam_dropgroups.so\nsession required pam_permit.so\n'
	skipped 'auth [success=2 default=ignore] pam_permit.so\n@include one\nauth required pam_dropgroups.so\nauth required pam_permit.so\nsession required pam_permit.so\n' 4
	# a "-" line jumps as any other when its module is there
	skipped '-auth [success=1 default=ignore] pam_permit.so\nauth required pam_dropgroups.so\nauth required pam_permit.so\nsession required pam_permit.so\n' 3
}
