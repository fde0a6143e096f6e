# dropgroups lint, and the ways back in that explain names: on throwaway
# stacks under --pam-dir (one finding each, the output compared whole
# with tests/expected/lint-findings.*), on Debian's own stacks (the
# sandbox's copy of /etc/pam.d, and /usr/lib/pam.d) with and without the
# pam-auth-update profile, and on the shipped snippets.

. "$TOP/tests/lib/profile.sh"

# crafted NAME TEXT: a file of a pam.d made up for the test, $T/crafted
# (not $T/pam.d: the sandbox's copy of Debian's, bound on /etc/pam.d).
crafted() {
	mkdir -p "$T/crafted"
	printf '%b' "$2" > "$T/crafted/$1"
}

test_lint_reports_each_finding_as_file_line_message() {
	policy <<-'EOF'
	version = 1;
	restricting = ( "games-abusers" );
	rules = (
	  { name = "remote"; services = [ "sshd", "login", "sudo", "su", "mine" ];
	    users = "%students"; drop = "*"; no_new_privs = true; },
	  { name = "jobs"; services = [ "cron", "atd" ]; drop = [ "audio" ]; }
	);
	EOF
	crafted common-session 'session required pam_dropgroups.so\n'
	# sshd: the session line trims only the monitor
	crafted sshd 'auth required pam_unix.so\n@include common-session\n'
	crafted login '# a console\n@include common-session\nauth include gone\n'
	crafted sudo 'session required pam_dropgroups.so\n'
	crafted su 'session optional \\\n  pam_dropgroups.so debug\n'
	crafted su-l 'auth include su\nsession include su\n'
	crafted cron 'auth [success=1 default=bad] pam_dropgroups.so colour=red\nauth required pam_unix.so\n'
	crafted atd 'session required pam_dropgroups.so\n'
	cli lint --pam-dir "$T/crafted"
	assert_exit 1
	sed -i "s|$T|T|g" "$T/out" "$T/err"
	assert_output lint-findings
}

# Append each shipped snippet to its program's stack, in a copy of
# Debian's: as docs/integration.md's table says, line for line.
install_snippets() {
	local s
	for s in login sshd su runuser sudo cron; do
		use_snippet "$s"
	done
	use_snippet sudo sudo-i
	if [ -f /usr/lib/pam.d/systemd-user ]; then
		cp /usr/lib/pam.d/systemd-user /etc/pam.d/systemd-user
		use_snippet systemd-user
	fi
}

test_lint_finds_nothing_wrong_with_the_shipped_snippets() {
	policy <<-'EOF'
	version = 1;
	restricting = ( "games-abusers" );
	rules = ( { services = "*"; drop = "*"; no_new_privs = true; } );
	EOF
	cli lint
	# the baseline: Debian's stacks have no line, and a rule for "*"
	# names no service, so each program is a way back in: an error, as
	# the rule sets no_new_privs (its drops are meant to hold)
	assert_exit 1
	assert_in err "^/etc/pam.d/cron: a way back in: a rule matches every service, but this stack has no pam_dropgroups line"
	assert_in err "^/etc/pam.d/login: a way back in"
	install_snippets
	cli lint
	assert_exit 0
	assert_in out '^/etc/pam.d: [0-9]+ stack\(s\) read: 0 error\(s\), 1 warning\(s\)$'
	# no line can trim at jobs: what remains is atd's way back in, a
	# warning, as at.deny closes it and lint does not read that
	assert_in err '^/etc/pam.d/atd: warning: a way back in: .* /etc/at.deny.*lint does not read those files'
}

debian_policy() {
	policy <<-'EOF'
	version = 1;
	restricting = ( "games-abusers" );
	rules = ( { name = "trim"; services = [ "su", "sudo", "sshd" ]; drop = [ "audio", "video", "plugdev" ]; } );
	EOF
}

test_lint_debian_stacks_without_the_profile() {
	debian_policy
	cli lint
	assert_exit 1
	for s in su sudo sshd; do
		assert_in err "^$POLICY:3: the rule names service \"$s\", but /etc/pam.d/$s has no pam_dropgroups line: the rule never applies$"
	done
	assert_in err "^$POLICY:3: warning: a way back in: the rule does not set no_new_privs"
	assert_in err "^/etc/pam.d/cron: warning: a way back in: cron \(a crontab job\) starts their processes with every group, as no rule for service \"cron\" matches the users of rule \"trim\" \($POLICY:3\)$"
	# su -l is another service than su
	assert_in err "^/etc/pam.d/su-l: warning: a way back in: su -l starts"
}

test_lint_debian_stacks_with_the_pam_auth_update_profile() {
	skip_under_sanitizers "make install builds its own objects"
	enable_dropgroups_profile
	debian_policy
	cli lint
	assert_exit 0
	assert_in out ': [0-9]+ stack\(s\) read: 0 error\(s\), [0-9]+ warning\(s\)$'
	! grep -v ': warning: ' "$T/err" || fail "lint found errors with the profile"
	# the profile puts the module in every stack that includes common-*:
	# cron's job is trimmed once a rule names cron ...
	sed -i 's/"sshd" \]/"sshd", "cron", "login" ]/' "$POLICY"
	cli lint
	assert_exit 0
	! grep -q '/etc/pam.d/cron' "$T/err" || fail "cron is still a way back in"
	# ... but at jobs are not, and runuser's stack includes no common-*
	sed -i 's/"login" \]/"login", "atd", "runuser" ]/' "$POLICY"
	cli lint
	assert_exit 1
	assert_in err '^/etc/pam.d/common-auth:[0-9]+: for atd \(an at or batch job\), no PAM line can trim'
	assert_in err "^$POLICY:3: the rule names service \"runuser\", but /etc/pam.d/runuser has no pam_dropgroups line"
}

test_lint_refuses_a_broken_policy() {
	echo 'version = 1; restricting = ( ); bogus = 1;' | policy
	cli lint
	assert_exit 1
	assert_in err "^$POLICY:1: unknown key \"bogus\"$"
}

test_lint_usage() {
	debian_policy
	cli lint extra
	assert_exit 2
	assert_in err 'lint: unexpected argument "extra"'
	cli lint --pam-dir /a --pam-dir /b
	assert_exit 2
	assert_in err -- '--pam-dir may be given only once'
	cli check --pam-dir /a
	assert_exit 2
	assert_in err -- '--pam-dir is not an option of check'
}

test_explain_names_the_ways_back_that_stay_open() {
	module_by_name
	debian_policy
	use_snippet sshd
	cli explain sshd alice
	assert_exit 0
	assert_in out '^ways back in that stay open:$'
	assert_in out '^  sg, newgrp: the rule does not set no_new_privs'
	assert_in out '^  su: /etc/pam.d/su has no pam_dropgroups line where it trims \(session required pam_dropgroups.so\)$'
	assert_in out '^  cron \(a crontab job\): no rule matches service "cron" and user "alice"$'
	assert_in out '^  atd \(an at or batch job\): no rule matches service "atd"'
	! grep -q '^  sshd' "$T/out" || fail "sshd trims, yet explain calls it open"
	# every rule, no_new_privs, every snippet: only at stays open
	policy <<-'EOF'
	version = 1;
	restricting = ( "games-abusers" );
	rules = ( { services = "*"; drop = [ "audio" ]; no_new_privs = true; } );
	EOF
	install_snippets
	cli explain sshd alice
	assert_exit 0
	assert_in out '^  atd \(an at or batch job\): no PAM line can trim'
	[ "$(sed -n '/^ways back in/,$p' "$T/out" | grep -c '^  ')" -eq 1 ] ||
		fail "explain lists more than atd"
}

# A way back whose rule NSS cannot decide now (a %group that does not
# resolve: the module refuses that login today) is not called closed:
# once the directory answers, its rule may keep the group.
test_explain_counts_an_undecided_way_back_as_open() {
	module_by_name
	install_snippets
	policy <<-'EOF'
	version = 1;
	restricting = ( "games-abusers" );
	rules = ( { services = [ "sshd" ]; drop = [ "audio" ]; no_new_privs = true; },
	          { services = "*"; users = "%no-such-contractors"; drop = [ "audio" ]; no_new_privs = true; },
	          { services = "*"; drop = [ "audio" ]; no_new_privs = true; } );
	EOF
	cli explain sshd alice
	assert_exit 0
	assert_in out '^  cron \(a crontab job\): which rule applies to user "alice" cannot be told now \(NSS cannot say whether they are in group "no-such-contractors"\), so it is counted as open$'
	# the baseline: with the group known, cron's rule trims, and only
	# at stays open
	echo 'no-such-contractors:x:6300:' >> /etc/group
	cli explain sshd alice
	assert_exit 0
	! grep -q '^  cron' "$T/out" || fail "cron trims, yet explain calls it open"
	[ "$(sed -n '/^ways back in/,$p' "$T/out" | grep -c '^  ')" -eq 1 ] ||
		fail "explain lists more than atd"
}

test_lint_never_prints_what_an_included_file_holds() {
	# libpam follows an absolute @include anywhere; a --pam-dir that
	# someone else writes must not make root's lint show /etc/shadow.
	# The secret is one word per line, as shadow's lines are.
	policy <<-'EOF'
	version = 1;
	restricting = ( );
	rules = ( { services = [ "sshd" ]; drop = [ "audio" ]; } );
	EOF
	printf 'root:$y$j9T$SECRETHASH:19000:0:99999:7:::\n' > "$T/secret"
	crafted sshd "auth required pam_unix.so\n@include $T/secret\n"
	cli lint --pam-dir "$T/crafted"
	assert_in err "$T/secret:1: .*not a module type"
	if grep -q SECRETHASH "$T/out" "$T/err"; then
		fail "lint printed a word of the included file"
	fi
}

# pam_group adds groups in pam_setcred, after the lines before it: in
# Debian's login stack its line comes after common-auth, so with the
# module there (as the pam-auth-update profile puts it) what
# /etc/security/group.conf grants stays, dropped or not.  lint and
# explain name that way back in; with the module's line after pam_group,
# the group goes, and neither does.
test_lint_and_explain_see_pam_group_add_groups_after_the_module() {
	module_by_name
	policy <<-'EOF'
	version = 1;
	restricting = ( "games-abusers" );
	rules = ( { name = "desk"; services = "*"; drop = [ "audio", "video", "plugdev" ]; no_new_privs = true; } );
	EOF
	echo 'auth required pam_dropgroups.so' >> /etc/pam.d/common-auth
	echo 'account required pam_dropgroups.so' >> /etc/pam.d/common-account
	local line
	line=$(grep -n '^auth.*pam_group.so' /etc/pam.d/login | cut -d: -f1)
	[ -n "$line" ] || skip "this host's login stack has no pam_group line"
	grep -n '^@include common-auth' /etc/pam.d/login | cut -d: -f1 |
		{ read -r inc; [ "$inc" -lt "$line" ]; } ||
		skip "this host's login stack runs pam_group before common-auth"
	# the baseline: a group.conf that grants nothing (Debian's)
	cli lint
	! grep -q 'pam_group' "$T/err" || fail "lint names pam_group, which adds nothing"
	cli explain login alice
	assert_exit 0
	! grep -q '^  login' "$T/out" || fail "explain calls login open"
	# what the real stack does: login's auth part, with a line for it
	printf 'login;*;alice;Al0000-2400;audio\ndgtest;*;alice;Al0000-2400;audio\n' \
		>> /etc/security/group.conf
	{
		echo "@include common-auth"
		echo "auth optional pam_group.so"
		echo "session optional pam_exec.so quiet $TOP/tests/pam-exec/record-groups.sh $T/groups"
	} > /etc/pam.d/dgtest
	run_pam_tty() {
		rm -f "$T/groups"
		setpriv --groups "$START" pamtester -v -I tty=tty1 dgtest alice \
			"setcred(PAM_ESTABLISH_CRED)" open_session > "$T/pamtester.out" 2>&1 ||
			fail "pamtester failed: $(cat "$T/pamtester.out")"
	}
	run_pam_tty
	assert_groups 1001 100 29 2003 3000
	cli lint
	assert_exit 1
	assert_in err "^/etc/pam.d/login:$line: a way back in: for login \(a console\), pam_group runs in pam_setcred after every pam_dropgroups line that trims, so the groups /etc/security/group.conf grants stay, those a rule drops too; put the pam_dropgroups auth line after this one; a rule that sets no_new_privs means its drops to hold$"
	cli explain login alice
	assert_exit 0
	assert_in out "^  login \(a console\): pam_group \(/etc/pam.d/login:$line\) runs after every pam_dropgroups line that trims, so the groups /etc/security/group.conf grants stay$"
	cli explain --json login alice
	assert_exit 0
	assert_in out '"program": "login \(a console\)", "verdict": "pam_group", "groups": null'
	# the module's line after pam_group's trims what it adds
	echo 'auth required pam_dropgroups.so' >> /etc/pam.d/login
	sed -i 's/^auth optional pam_group.so$/&\nauth required pam_dropgroups.so/' /etc/pam.d/dgtest
	run_pam_tty
	assert_groups 1001 100 2003 3000
	cli lint
	! grep -q 'pam_group' "$T/err" || fail "lint names pam_group, which runs before a line that trims"
	cli explain login alice
	assert_exit 0
	! grep -q '^  login' "$T/out" || fail "explain calls login open"
}

# The module reads the policy its line's config= names: a program whose
# lines read another policy applies that one's rules, which explain has
# not read.  A cron line reading a policy without a rule for cron keeps
# every group; explain must not call cron closed.
test_explain_counts_a_line_that_reads_another_policy_as_open() {
	module_by_name
	policy <<-'EOF'
	version = 1;
	restricting = ( "games-abusers" );
	rules = ( { name = "desk"; services = "*"; drop = [ "audio" ]; no_new_privs = true; } );
	EOF
	install_snippets
	# the baseline: every line reads this policy, and cron trims
	cli explain sshd alice
	assert_exit 0
	! grep -q '^  cron' "$T/out" || fail "cron trims, yet explain calls it open"
	# the same policy, named another way, is the same policy
	(cd "$(dirname "$POLICY")" && cli explain -c "./$(basename "$POLICY")" sshd alice)
	assert_exit 0
	! grep -q '^  cron' "$T/out" || fail "explain -c with a relative path calls cron open"
	echo 'version = 1; restricting = ( "games-abusers" );' |
		policy /etc/security/other.conf
	sed -i 's|^auth \{1,\}required \{1,\}pam_dropgroups.so$|& config=/etc/security/other.conf|' \
		/etc/pam.d/cron
	local line
	line=$(grep -n 'config=/etc/security/other.conf' /etc/pam.d/cron | cut -d: -f1)
	[ -n "$line" ] || fail "cron's line was not changed"
	# what such a line does: no rule there, every group stays
	{
		echo "auth required pam_permit.so"
		sed -n "${line}p" /etc/pam.d/cron
		echo "session optional pam_exec.so quiet $TOP/tests/pam-exec/record-groups.sh $T/groups"
	} > /etc/pam.d/dgtest
	run_pam alice "setcred(PAM_ESTABLISH_CRED)" open_session
	assert_rc 0
	assert_groups $ALICE_GROUPS
	cli explain sshd alice
	assert_exit 0
	assert_in out "^  cron \(a crontab job\): /etc/pam.d/cron:$line reads the policy /etc/security/other.conf, not $POLICY, so which groups it keeps cannot be told here \(explain with -c /etc/security/other.conf\), and it is counted as open$"
	cli explain --json sshd alice
	assert_exit 0
	assert_in out '"program": "cron \(a crontab job\)", "verdict": "other_policy", "groups": null'
}

# The module reads the drop-ins of the path its line names (NAME.d next
# to it, or include_dir relative to its directory): a hard link to the
# policy explain reads, under another name, is the same main file with
# other drop-ins.  Here cron's rule is a drop-in of explain's policy; a
# line reading the link has none, keeps every group, and is open.
test_explain_counts_a_link_with_other_drop_ins_as_another_policy() {
	module_by_name
	policy <<-'EOF'
	version = 1;
	restricting = ( "games-abusers" );
	rules = ( { name = "ssh"; services = "sshd"; drop = [ "audio" ]; no_new_privs = true; } );
	EOF
	mkdir -p /etc/security/dropgroups.d
	policy /etc/security/dropgroups.d/cron.conf <<-'EOF'
	version = 1;
	rules = ( { name = "cron"; services = "cron"; drop = [ "audio" ]; no_new_privs = true; } );
	EOF
	install_snippets
	# the baseline: every line reads this policy, and cron trims
	cli explain sshd alice
	assert_exit 0
	! grep -q '^  cron' "$T/out" || fail "cron trims, yet explain calls it open"
	ln "$POLICY" /etc/security/linked.conf
	sed -i 's|^auth \{1,\}required \{1,\}pam_dropgroups.so$|& config=/etc/security/linked.conf|' \
		/etc/pam.d/cron
	local line
	line=$(grep -n 'config=/etc/security/linked.conf' /etc/pam.d/cron | cut -d: -f1)
	[ -n "$line" ] || fail "cron's line was not changed"
	# what such a line does: no rule for cron there, every group stays
	{
		echo "auth required pam_permit.so"
		sed -n "${line}p" /etc/pam.d/cron
		echo "session optional pam_exec.so quiet $TOP/tests/pam-exec/record-groups.sh $T/groups"
	} > /etc/pam.d/dgtest
	sed -i 's/services = "cron"/services = [ "cron", "dgtest" ]/' \
		/etc/security/dropgroups.d/cron.conf
	run_pam alice "setcred(PAM_ESTABLISH_CRED)" open_session
	assert_rc 0
	assert_groups $ALICE_GROUPS
	cli explain sshd alice
	assert_exit 0
	assert_in out "^  cron \(a crontab job\): /etc/pam.d/cron:$line reads the policy /etc/security/linked.conf, not $POLICY, so which groups it keeps cannot be told here \(explain with -c /etc/security/linked.conf\), and it is counted as open$"
}

# A report_only line enforces nothing: lint calls it an error where a rule
# means the service to trim, and explain lists its program as open.
test_lint_and_explain_say_report_only_enforces_nothing() {
	module_by_name
	debian_policy
	use_snippet sshd
	use_snippet su
	cli lint
	! grep -q '/etc/pam.d/su:' "$T/err" || fail "lint faults su's shipped line"
	cli explain sshd alice
	assert_exit 0
	! grep -q '^  su:' "$T/out" || fail "su trims, yet explain calls it open"
	sed -i 's/pam_dropgroups.so$/pam_dropgroups.so report_only/' /etc/pam.d/su
	local line
	line=$(grep -n 'pam_dropgroups.so report_only' /etc/pam.d/su | cut -d: -f1)
	cli lint
	assert_exit 1
	assert_in err "^/etc/pam.d/su:$line: for su, the line says report_only: the module only logs what it would drop, and enforces nothing \(no group dropped, no login refused\); remove report_only to trim$"
	cli explain sshd alice
	assert_exit 0
	assert_in out "^  su: /etc/pam.d/su:$line says report_only: enforces nothing$"
}
