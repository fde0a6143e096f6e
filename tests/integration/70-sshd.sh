# A real OpenSSH sshd on 127.0.0.1 in the test's own network namespace,
# the real ssh client, public-key login, and the host's own sshd PAM
# stack (a throwaway copy) with conf/pam.d/sshd appended as shipped.
# sshd_start and ssh_alice are in tests/lib/sshd.sh.

. "$TOP/tests/lib/sshd.sh"


test_sshd_exec_path_trims_the_remote_command_s_groups() {
	sshd_start
	ssh_alice -- "$SUPP_GROUPS"
	assert_ids "$out" $ALL
	use_snippet sshd
	ssh_alice -- "$SUPP_GROUPS"
	assert_ids "$out" $TRIMMED
	# one line for the login: the monitor's own pam_setcred, in a process
	# with none of alice's groups, logs nothing
	assert_log info 1 'pam_dropgroups\(sshd:setcred\): service=sshd user=alice uid=1001 rule=ssh result=dropped dropped=audio\(29\),video\(44\),plugdev\(46\) kept=4: user "alice", rule "ssh": dropped audio\(29\), video\(44\), plugdev\(46\)$'
}

test_sshd_pty_path_trims_the_remote_shell_s_groups() {
	sshd_start
	ssh_alice -tt -- "$SUPP_GROUPS"
	assert_ids "$out" $ALL
	use_snippet sshd
	ssh_alice -tt -- "$SUPP_GROUPS"
	assert_ids "$out" $TRIMMED
	# and a process started from the login keeps the trimmed list
	ssh_alice -tt -- sh -c "'sleep 0 & wait; cat /proc/self/status'"
	echo "$out" | grep -q "^Groups:[[:space:]]*100 1001 2003 3000[[:space:]]*$" ||
		fail "a child of the session has other groups"
}

test_sshd_broken_policy_refuses_the_login() {
	sshd_start
	use_snippet sshd
	echo 'version = 1; restricting = ( ); bogus = 1;' | policy
	ssh_alice -- "$SUPP_GROUPS"
	[ "$rc" -ne 0 ] || { show_sshd_log; fail "ssh logged in with a broken policy"; }
	[ -z "$out" ] || fail "the remote command ran: $out"
	log_flush
	grep -F "pam_dropgroups(sshd:account)" "$LOG" | grep -cF "$POLICY:1: unknown key \"bogus\"" > /dev/null ||
		fail "no account error line from the module"
	show_sshd_log
}

# What fails only when the module applies the policy (here: naming a gid
# the rule would drop, in a directory that fails) would reach sshd's
# session child, which only logs a failing pam_setcred after a public-key
# login.  The account line names those gids ahead, so the login is
# refused there, in the monitor.
test_sshd_a_look_up_that_fails_refuses_the_login_at_the_account_step() {
	use_directory 'group ldap-docker 6300 alice'
	sshd_start
	policy <<-'EOF'
	version = 1;
	restricting = ( "games-abusers" );
	rules = ( { name = "ssh"; services = "sshd"; drop = [ "audio", "ldap-docker" ]; } );
	EOF
	use_snippet sshd
	ssh_alice -- "$SUPP_GROUPS"
	assert_ids "$out" 1001 100 44 46 2003 3000
	directory 'group ldap-docker 6300 alice' 'fail getgrgid 6300 unavail EIO'
	ssh_alice -- "$SUPP_GROUPS"
	[ "$rc" -ne 0 ] || { show_sshd_log; fail "sshd ran the session with [$out]"; }
	[ -z "$out" ] || fail "the remote command ran: $out"
	log_flush
	grep -F "pam_dropgroups(sshd:account)" "$LOG" |
		grep -qF 'looking up the name of gid 6300 failed: Input/output error' ||
		fail "no account error line names the failed look-up"
}

test_sshd_without_the_account_line_lets_a_broken_policy_through() {
	# Why the sshd snippet has an account line: after a public-key login
	# sshd only logs a failing pam_setcred.  If this ever fails, sshd
	# changed and the docs should follow.
	sshd_start
	echo "auth required pam_dropgroups.so" >> /etc/pam.d/sshd
	echo 'version = 1; restricting = ( ); bogus = 1;' | policy
	ssh_alice -- "$SUPP_GROUPS"
	assert_ids "$out" $ALL
	# the module did run in setcred, and failed: sshd went on regardless
	local lines
	lines=$(module_log err)
	echo "$lines" | grep -q "$POLICY:1: unknown key \"bogus\"" ||
		fail "the module logged no failure: $lines"
}

# sshd_as_installed [CONFIG-LINE...]: restart the test's sshd as Debian
# runs it, without -f: its config becomes /etc/ssh/sshd_config (in the
# throwaway /etc/ssh), which includes sshd_config.d/*.conf first, as
# Debian's does; that directory holds the lines given, in 10-pam.conf.
# lint and explain read the same files with no option.
sshd_as_installed() {
	local pid
	pid=$(cat /run/sshd.dgtest.pid)
	kill "$pid"
	for _ in $(seq 100); do
		kill -0 "$pid" 2> /dev/null || break
		sleep 0.05
	done
	rm -f /run/sshd.dgtest.pid /etc/ssh/sshd_config.d/*
	printf '%s\n' "$@" > /etc/ssh/sshd_config.d/10-pam.conf
	{ echo 'Include /etc/ssh/sshd_config.d/*.conf'
	  grep -v '^UsePAM' "$T/sshd_config"; } > /etc/ssh/sshd_config
	/usr/sbin/sshd -t || fail "sshd rejects the installed config"
	echo "  sshd -T: $(/usr/sbin/sshd -T | grep '^usepam')"
	/usr/sbin/sshd -E "$T/sshd.log" || fail "sshd did not start"
	for _ in $(seq 100); do
		[ -s /run/sshd.dgtest.pid ] && return 0
		sleep 0.05
	done
	fail "sshd wrote no pid file"
}

# The verdict of lint and explain is what a real ssh login gets: with
# UsePAM no (or no UsePAM line: sshd's default is no) sshd runs no PAM
# stack, the module never runs, and the login keeps every group, so
# lint fails naming the line (or the file) and explain lists sshd as
# open.  The baseline: the same files with UsePAM yes trim the login,
# and lint and explain say nothing of sshd.
test_sshd_without_pam_keeps_every_group_and_lint_and_explain_say_so() {
	sshd_start
	use_snippet sshd
	sshd_as_installed 'UsePAM yes'
	ssh_alice -- "$SUPP_GROUPS"
	assert_ids "$out" $TRIMMED
	capture "$DG" lint
	assert_exit 0
	! grep -q 'sshd_config' "$T/err" || fail "lint blames sshd_config"
	capture "$DG" explain sshd alice
	assert_exit 0
	! grep -Eq '^  sshd|never runs' "$T/out" || fail "explain calls sshd open"

	sshd_as_installed 'Port 22' 'UsePAM no' 'UsePAM yes'
	ssh_alice -- "$SUPP_GROUPS"
	assert_ids "$out" $ALL
	capture "$DG" lint
	assert_exit 1
	assert_in err '^/etc/ssh/sshd_config.d/10-pam.conf:2: UsePAM is "no", so sshd runs no PAM stack: the module does not run there, so no rule for service "sshd" applies, and those logins keep every group$'
	capture "$DG" explain sshd alice
	assert_exit 0
	assert_in out '^the module never runs for service "sshd": UsePAM is "no", so sshd runs no PAM stack \(/etc/ssh/sshd_config.d/10-pam.conf:2\)'
	assert_in out '^  sshd \(ssh to this host\): UsePAM is "no", so sshd runs no PAM stack, and its logins keep every group \(/etc/ssh/sshd_config.d/10-pam.conf:2\)$'

	sshd_as_installed '# no UsePAM line'
	ssh_alice -- "$SUPP_GROUPS"
	assert_ids "$out" $ALL
	capture "$DG" lint
	assert_exit 1
	assert_in err '^/etc/ssh/sshd_config: no line sets UsePAM, whose default is "no", so sshd runs no PAM stack'
	capture "$DG" explain sshd alice
	assert_in out '^  sshd \(ssh to this host\): no line sets UsePAM'
}

# One login, one line (pam_dropgroups(8), LOGGING): sshd's privileged
# monitor makes PAM calls too (account, pam_setcred, and with the
# profile pam_open_session), but its groups are not the ones alice's
# commands inherit.  The login's one line is written by the session
# child whose groups they do inherit: the kernel's sender pid of the
# line (logsink's SCM_CREDENTIALS) is the remote shell's parent, the
# process that forked it.  Both ways README.md enables sshd: the
# snippet alone, and the pam-auth-update profile's three lines alone.
test_an_sshd_login_leaves_one_line_from_its_own_process() {
	local how pid lines
	sshd_start
	cp -a /etc/pam.d "$T/pam.d.orig"
	for how in snippet profile; do
		rm -rf /etc/pam.d/* && cp -a "$T/pam.d.orig/." /etc/pam.d/
		case $how in
		snippet) use_snippet sshd ;;
		profile)
			echo 'auth required pam_dropgroups.so' >> /etc/pam.d/common-auth
			echo 'account required pam_dropgroups.so' >> /etc/pam.d/common-account
			echo 'session required pam_dropgroups.so system_err' >> /etc/pam.d/common-session
			;;
		esac
		log_reset
		: > "$LOG.pids"
		ssh_alice -- 'echo $PPID; id -G'
		pid=$(head -n1 <<< "$out")
		assert_ids "$(sed -n 2p <<< "$out")" $TRIMMED
		log_flush
		lines=$(grep -F 'pam_dropgroups(' "$LOG.pids" || true)
		echo "  $how: the shell's parent is pid $pid; the module's lines:"
		sed 's/^/    /' <<< "$lines"
		[ "$(grep -c . <<< "$lines")" -eq 1 ] ||
			fail "$how: want one pam_dropgroups line for the login"
		[ "${lines%% *}" = "$pid" ] ||
			fail "$how: the line is not from the shell's parent ($pid)"
		grep -q ' service=sshd user=alice uid=1001 rule=ssh result=dropped dropped=audio(29),video(44),plugdev(46) kept=4: ' <<< "$lines" ||
			fail "$how: the line lacks its fields"
	done
}
