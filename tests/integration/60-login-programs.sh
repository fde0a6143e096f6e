# Real login programs, with the host's own PAM stacks (throwaway copies)
# and the snippets from conf/pam.d appended as shipped.  For each one:
# the unchanged stack keeps every group (the baseline), the snippet trims
# the user's processes, and a broken policy refuses the login.

login_policy() {
	module_by_name
	policy <<-'EOF'
	version = 1;
	restricting = ( "games-abusers" );
	rules = ( { name = "desktop-groups"; services = "*"; drop = [ "audio", "video", "plugdev" ]; } );
	EOF
}

break_policy() {
	echo 'version = 1; restricting = ( ); bogus = 1;' | policy
}

refused() {
	[ "$rc" -ne 0 ] || fail "the login went through (rc 0) with a broken policy: $out"
	[ -z "$(echo "$out" | tr -d '[:space:]')" ] || fail "the command ran: $out"
	assert_log err 1 "$POLICY:1: unknown key \"bogus\""
}

test_su_trims_the_user_s_groups() {
	login_policy
	capture su alice -c "$SUPP_GROUPS"
	assert_ids "$out" $ALL
	use_snippet su
	capture su alice -c "$SUPP_GROUPS"
	assert_ids "$out" $TRIMMED
	break_policy
	capture su alice -c "$SUPP_GROUPS"
	refused
}

test_su_login_shell_trims_the_user_s_groups() {
	login_policy
	capture su -l alice -c "$SUPP_GROUPS"
	assert_ids "$out" $ALL
	use_snippet su
	capture su -l alice -c "$SUPP_GROUPS"
	assert_ids "$out" $TRIMMED
	break_policy
	capture su -l alice -c "$SUPP_GROUPS"
	refused
}

test_runuser_trims_the_user_s_groups() {
	login_policy
	capture runuser -u alice -- sh -c "$SUPP_GROUPS"
	assert_ids "$out" $ALL
	use_snippet runuser
	capture runuser -u alice -- sh -c "$SUPP_GROUPS"
	assert_ids "$out" $TRIMMED
	capture runuser -l alice -c "$SUPP_GROUPS"
	assert_ids "$out" $TRIMMED
	break_policy
	capture runuser -u alice -- sh -c "$SUPP_GROUPS"
	refused
}

test_sudo_trims_the_target_user_s_groups() {
	login_policy
	capture sudo -u alice sh -c "$SUPP_GROUPS"
	assert_ids "$out" $ALL
	use_snippet sudo
	capture sudo -u alice sh -c "$SUPP_GROUPS"
	assert_ids "$out" $TRIMMED
	break_policy
	capture sudo -u alice sh -c "$SUPP_GROUPS"
	refused
}

# login through a pty, as on a console: script(1) gives it one.
login_id() {
	printf 'echo DG:$(sed -n s/^Groups://p /proc/self/status)\nexit\n' |
		script -qec 'login -f alice' /dev/null > "$T/login.out" 2>&1
	rc=$?
	out=$(tr -d '\r' < "$T/login.out" | grep -a -o 'DG:[0-9 ]*$' | sed 's/^DG://' || true)
	echo "  login -f alice -> rc $rc: $out"
}

test_login_trims_the_user_s_groups() {
	login_policy
	login_id
	assert_ids "$out" $ALL
	use_snippet login
	login_id
	assert_ids "$out" $TRIMMED
	set +e
	break_policy
	login_id
	set -e
	[ -z "$out" ] || fail "login ran the shell with a broken policy: $out"
	assert_log err 1 "$POLICY:1: unknown key \"bogus\""
}

# login with a password calls pam_authenticate, then pam_setcred on the
# same handle: libpam must count the module's setcred there (see
# test_setcred_failure_counts_after_authenticate).  login -f skips
# authentication, so this drives the real password prompt on a pty.
login_with_password() {
	cat > "$T/pwlogin.py" <<-'PY'
	import os, pty, select, signal, sys, time
	pid, fd = pty.fork()
	if pid == 0:
	    os.execvp("login", ["login", "alice"])
	buf = b""
	def wait_for(pattern, seconds):
	    global buf
	    end = time.time() + seconds
	    while time.time() < end:
	        if select.select([fd], [], [], 0.2)[0]:
	            try:
	                data = os.read(fd, 4096)
	            except OSError:
	                return
	            if not data:
	                return
	            buf += data
	            if pattern in buf:
	                return
	wait_for(b"assword:", 20)
	os.write(fd, b"test\n")
	wait_for(b"$ ", 20)
	os.write(fd, b"echo DG:$(sed -n s/^Groups://p /proc/self/status)\nexit\n")
	wait_for(b"\0", 5)
	# a refused login prompts again: end it either way
	try:
	    os.kill(pid, signal.SIGKILL)
	except ProcessLookupError:
	    pass
	os.waitpid(pid, 0)
	sys.stdout.write(buf.decode(errors="replace"))
	PY
	/usr/bin/python3 "$T/pwlogin.py" > "$T/login.out" 2>&1 || true
	out=$(tr -d '\r' < "$T/login.out" | grep -a -o 'DG:[0-9 ]*$' | sed 's/^DG://' || true)
	echo "  login alice (password) -> $out"
	[ -n "$out" ] || tr -d '\r' < "$T/login.out" | tail -n 40 | sed 's/^/    | /'
}

test_login_with_a_password_trims_and_refuses_a_broken_policy() {
	# libasan intercepts crypt(), but libcrypt arrives later with
	# pam_unix's dlopen: the interceptor calls a NULL pointer, baseline
	# included.  The plain build runs this test.
	skip_under_sanitizers "ASan's crypt() interceptor crashes pam_unix"
	login_policy
	login_with_password
	assert_ids "$out" $ALL
	use_snippet login
	login_with_password
	assert_ids "$out" $TRIMMED
	break_policy
	login_with_password
	[ -z "$out" ] || fail "login ran the shell with a broken policy: $out"
	assert_log err 1 "$POLICY:1: unknown key \"bogus\""
}

test_session_line_alone_does_not_trim_login() {
	# Why the login snippet uses the auth stack: login calls initgroups
	# after pam_open_session.  If this ever trims, the docs are wrong.
	login_policy
	echo "session required pam_dropgroups.so" >> /etc/pam.d/login
	login_id
	assert_ids "$out" $ALL
	# the module did run, in login's process before its initgroups (with
	# root's groups then, so nothing of alice's to drop), and logged no
	# login line there: not alice's process yet
	assert_log info 0
	assert_log debug 0
}

test_sudo_ignores_session_err_so_the_snippet_needs_system_err() {
	# Why the sudo snippet says "system_err": without it sudo runs the
	# command, with every group, although the module failed.  If this
	# ever fails, sudo changed, and the docs should follow.
	login_policy
	echo "session required pam_dropgroups.so" >> /etc/pam.d/sudo
	break_policy
	capture sudo -u alice sh -c "$SUPP_GROUPS"
	assert_ids "$out" $ALL
	# the module did run, and failed: sudo went on regardless
	assert_log err 1 "$POLICY:1: unknown key \"bogus\""
}

# Root is never locked out: with a broken policy, su, runuser and sudo
# to root still start root's shell with its groups, while the same
# policy refuses alice.  Root is in audio here, which the rule drops, so
# the baseline shows the rule applying to root too.
test_a_broken_policy_never_locks_root_out() {
	login_policy
	local g
	g=$(grep -v '^audio:' /etc/group)
	{ echo "$g"; echo 'audio:x:29:alice,root'; } > /etc/group
	use_snippet su
	use_snippet runuser
	use_snippet sudo
	capture su root -c "$SUPP_GROUPS"
	assert_ids "$out" 0
	break_policy
	capture su alice -c "$SUPP_GROUPS"
	refused
	log_reset
	capture su root -c "$SUPP_GROUPS"
	assert_exit 0
	assert_ids "$out" 0 29
	assert_log err 1 "$POLICY:1: unknown key \"bogus\"; groups left unchanged, and the session is not refused: the user is uid 0"
	log_reset
	capture runuser -u root -- sh -c "$SUPP_GROUPS"
	assert_exit 0
	assert_ids "$out" 0 29
	assert_log err 1 'the session is not refused: the user is uid 0'
	log_reset
	capture sudo -u root sh -c "$SUPP_GROUPS"
	assert_exit 0
	assert_ids "$out" 0 29
	assert_log err 1 'the session is not refused: the user is uid 0'
	log_reset
	capture sudo -u alice sh -c "$SUPP_GROUPS"
	refused
}

# The attack on the root pass, through the real sudo: with the login
# policy, sudo -u '#5000' runs as 5000 (the baseline: the setup does
# reach a uid-5000 user), and with the policy broken it is refused like
# alice, where a pass for "root" would let it keep every group.
sudo_to_5000_is_refused() {
	login_policy
	use_snippet sudo
	capture sudo -u '#5000' sh -c 'id -u; id -G'
	assert_exit 0
	[ "$(head -n1 "$T/out")" = 5000 ] || fail "sudo -u #5000 did not run as 5000"
	break_policy
	log_reset
	capture sudo -u '#5000' sh -c 'id -u; id -G'
	refused
}

# userdb_root_record FILE: "passwd: files systemd", and a userdb drop-in
# /run/userdb/FILE (the sandbox's own /run) of uid 5000 named "root".
userdb_root_record() {
	printf 'passwd: files systemd\ngroup: files systemd\nshadow: files\ngshadow: files\n' \
		> /etc/nsswitch.conf
	mkdir -p /run/userdb
	printf '{"userName":"root","uid":5000,"gid":5000,"homeDirectory":"/","shell":"/bin/sh","disposition":"regular"}\n' \
		> "/run/userdb/$1"
}

# The attack that withdrew the first root pass: sudo -u '#5000', where
# the directory calls uid 5000 "root".  sudo hands PAM the name "root",
# whose getpwnam_r answers uid 0 from /etc/passwd; the session runs as
# 5000.  With a broken policy it is refused like alice, while real root
# is let through.
test_sudo_to_a_directory_user_named_root_is_refused() {
	# (the directory first: its overlay of the library directory would
	# hide the module's, below it)
	use_directory 'user root 5000 5000'
	sudo_to_5000_is_refused
	log_reset
	directory 'user bob 5001 5001'
	capture sudo -u root sh -c "$SUPP_GROUPS"
	assert_exit 0
	assert_log err 1 'the session is not refused: the user is uid 0'
}


# The same attack through nss_compat: "passwd: compat" asks
# /etc/passwd, and its "+" line pulls every other user from the
# passwd_compat line's service (NIS, or here the directory).  uid0.c
# asks the compat service for "root", and compat answers from
# /etc/passwd's root line (uid 0) without looking further, while
# getpwuid(5000) reaches the directory's "root" of uid 5000 through the
# "+".  The session runs as 5000 with a broken policy: it must be
# refused.
test_sudo_to_a_compat_directory_user_named_root_is_refused() {
	use_directory 'user root 5000 5000'
	printf 'passwd: compat\npasswd_compat: dgfault\ngroup: files dgfault\nshadow: files\ngshadow: files\n' \
		> /etc/nsswitch.conf
	echo '+' >> /etc/passwd
	sudo_to_5000_is_refused
}

# The same attack through nss-systemd: "passwd: files systemd" (Debian's
# default once libnss-systemd is installed), and a userdb record, here a
# drop-in in /run/userdb (the sandbox's own /run; /etc/userdb
# would be the host's), of uid 5000 named "root".  nss-systemd's
# getpwnam_r("root") answers its own synthesised root (uid 0) before it
# looks at userdb, while getpwuid_r(5000) reaches the record.  The
# session runs as 5000 with a broken policy: it must be refused.
test_sudo_to_a_userdb_user_named_root_is_refused() {
	userdb_root_record root.user
	ln -s root.user /run/userdb/5000.user
	[ "$(getent passwd 5000 | cut -d: -f1)" = root ] || fail "userdb: uid 5000 is not root"
	sudo_to_5000_is_refused
}

# Root locked out where nothing could name another uid "root": the
# passwd line names a service whose library is not installed ("sss"
# left behind after libnss-sss was removed, or a copied nsswitch.conf).
# glibc cannot load it either, skips it, and no getpwuid_r can reach it,
# so it knows no name; uid0.c takes the failed dlopen for a doubt and
# refuses root.  (The baseline, the same line without the service, lets
# root through.)
test_a_passwd_service_that_is_not_installed_does_not_lock_root_out() {
	login_policy
	use_snippet su
	break_policy
	capture su root -c "$SUPP_GROUPS"
	assert_exit 0
	log_reset
	printf 'passwd: files dgnosuch\ngroup: files\nshadow: files\ngshadow: files\n' \
		> /etc/nsswitch.conf
	[ "$(getent passwd 0 | cut -d: -f1)" = root ] || fail "getent: uid 0"
	capture su root -c "$SUPP_GROUPS"
	assert_exit 0
	assert_log err 1 'the session is not refused: the user is uid 0'
}

# The same record, but only under its uid: systemd's userdb reads a
# getpwuid_r(5000) from 5000.user (dropin_user_record_by_uid), and a
# record there may carry any userName.  No root.user exists, so a check
# that looks for NAME.user alone finds nothing and lets it through.
test_sudo_to_a_userdb_uid_record_named_root_is_refused() {
	userdb_root_record 5000.user
	[ "$(getent passwd 5000 | cut -d: -f1)" = root ] || fail "userdb: uid 5000 is not root"
	sudo_to_5000_is_refused
}

# nscd keeps getpwuid_r(5000)'s "root" after the directory renamed the
# entry: sudo -u '#5000' is still told "root", while every service asked
# on its own no longer knows a second root.
test_sudo_to_a_root_that_nscd_remembers_is_refused() {
	command -v nscd > /dev/null || skip "nscd is not installed"
	local pid
	use_directory 'user root 5000 5000'
	login_policy
	use_snippet sudo
	touch "$T/etc/nscd.conf"
	mount --bind "$T/etc/nscd.conf" /etc/nscd.conf
	cat > /etc/nscd.conf <<-EOF2
	enable-cache passwd yes
	check-files passwd no
	persistent passwd no
	shared passwd no
	positive-time-to-live passwd 600
	enable-cache group no
	enable-cache hosts no
	enable-cache services no
	enable-cache netgroup no
	EOF2
	mkdir -p /var/run/nscd
	env -u LD_PRELOAD nscd || fail "nscd did not start"
	for _ in $(seq 100); do [ -S /var/run/nscd/socket ] && break; sleep 0.1; done
	getent passwd root > /dev/null
	[ "$(getent passwd 5000 | cut -d: -f1)" = root ] || fail "uid 5000 is not root"
	directory 'user bob 5001 5001'
	[ "$(getent passwd 5000 | cut -d: -f1)" = root ] || fail "nscd forgot uid 5000"
	echo "  nscd: root is uid $(getent passwd root | cut -d: -f3)"
	# the baseline: sudo is still told 5000 is "root", and runs as 5000
	capture sudo -u '#5000' sh -c 'id -u; id -G'
	assert_exit 0
	[ "$(head -n1 "$T/out")" = 5000 ] || fail "sudo -u #5000 did not run as 5000"
	break_policy
	log_reset
	capture sudo -u '#5000' sh -c 'id -u; id -G'
	pid=$(cat /var/run/nscd/nscd.pid) && kill "$pid"
	refused
}

# One line per login (pam_dropgroups(8), LOGGING), where the process that
# trims holds the session's groups but not the user's primary one:
# runuser -g users starts alice with users(100) alone.
test_runuser_with_another_group_leaves_one_line() {
	login_policy
	use_snippet runuser
	log_reset
	capture runuser -u alice -g users -- sh -c "$SUPP_GROUPS"
	assert_exit 0
	assert_ids "$out" 100
	assert_log info 1 'service=runuser user=alice uid=1001 rule=desktop-groups result=dropped dropped=- kept=1: '
}

# And a broken policy for root through the profile's three lines: every
# facility lets root through, and the login still leaves one err line.
test_root_let_through_by_every_facility_leaves_one_line() {
	login_policy
	echo 'auth required pam_dropgroups.so' >> /etc/pam.d/common-auth
	echo 'account required pam_dropgroups.so' >> /etc/pam.d/common-account
	echo 'session required pam_dropgroups.so system_err' >> /etc/pam.d/common-session
	break_policy
	log_reset
	capture sudo -u root sh -c "$SUPP_GROUPS"
	assert_exit 0
	assert_log err 1 'service=sudo user=root uid=- rule=- result=not-refused dropped=- kept=-: '"$POLICY"':1: unknown key "bogus"; groups left unchanged, and the session is not refused: the user is uid 0'
}

