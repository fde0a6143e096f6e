# The ways back in (docs/ways-back.md), through the
# real programs: a member takes a dropped group back with sg or newgrp
# unless the rule sets no_new_privs; su and sudo to oneself are trimmed
# again only by their own stacks; a cron job only by an auth line in
# cron's stack; an at job by no line at all; the systemd user manager by
# a session line (through pamtester: no systemd runs here).  Groups are
# read from /proc/self/status ("Groups:"), which lists the supplementary
# groups alone (id -G adds the egid).

# The outer session: alice through runuser, with runuser's snippet, so
# that what she starts from there begins trimmed.
ways_policy() {
	module_by_name
	policy <<-EOF
	version = 1;
	restricting = ( "games-abusers" );
	rules = ( { name = "desk"; services = "*"; drop = [ "audio", "video", "plugdev" ]; } );
	EOF
	use_snippet runuser
}

# as_alice SCRIPT: SCRIPT through sh in alice's trimmed runuser session.
as_alice() {
	capture runuser -u alice -- sh -c "cd /home/alice; $1"
}

GROUPS_NOW='grep ^Groups: /proc/self/status'

# groups_line N: the gids of the Nth "Groups:" line of the output.
groups_line() {
	grep '^Groups:' "$T/out" | sed -n "${1}p" | sed 's/^Groups://'
}

# assert_groups_line N GID...: the Nth Groups: line holds exactly GIDs.
assert_groups_line() {
	local n=$1
	shift
	assert_ids "$(groups_line "$n")" "$@"
}

# A sudoers that lets alice run anything as herself.
sudo_to_self() {
	printf 'root ALL=(ALL:ALL) ALL\nalice ALL=(alice) NOPASSWD: ALL\n' > "$T/sudoers"
	chmod 0440 "$T/sudoers"
	mount --bind "$T/sudoers" /etc/sudoers
}

# cron's and at's spool, in memory.
spool() {
	mountpoint -q /var/spool/cron ||
		mount -t tmpfs -o mode=0755 tmpfs /var/spool/cron
}

# Throwaway cron files: no system crontab, no /etc/cron.d jobs, and a
# spool that crontab(1) (set-group-ID crontab) can write.
cron_spool() {
	: > "$T/crontab"
	mkdir -m 0755 "$T/cron.d"
	mount --bind "$T/crontab" /etc/crontab
	mount --bind "$T/cron.d" /etc/cron.d
	spool
	mkdir -m 1730 /var/spool/cron/crontabs
	chgrp "$(stat -c %g /usr/bin/crontab)" /var/spool/cron/crontabs
}

# at(1) is set-user-ID daemon: the sandbox gets that user, a spool in
# memory, and an empty at.deny (Debian's lists system users only).
at_spool() {
	echo 'daemon:x:1:1:daemon:/usr/sbin:/usr/sbin/nologin' >> /etc/passwd
	echo 'daemon:x:1:' >> /etc/group
	echo 'daemon:*:19000:0:99999:7:::' >> /etc/shadow
	spool
	mkdir -m 1770 /var/spool/cron/atjobs /var/spool/cron/atspool
	echo 0 > /var/spool/cron/atjobs/.SEQ
	chmod 0600 /var/spool/cron/atjobs/.SEQ
	chown -R daemon:daemon /var/spool/cron/atjobs /var/spool/cron/atspool
	: > "$T/at.deny"
	mount --bind "$T/at.deny" /etc/at.deny
}

test_sg_and_newgrp_give_a_dropped_group_back_without_no_new_privs() {
	ways_policy
	as_alice "$GROUPS_NOW; sg audio -c '$GROUPS_NOW'; echo '$GROUPS_NOW' | newgrp video"
	assert_exit 0
	assert_groups_line 1 $TRIMMED # the session starts without them
	assert_groups_line 2 $TRIMMED 29
	assert_groups_line 3 $TRIMMED 44
}

# Every set-user-ID (or -group-ID) door from the session: sg, newgrp,
# su and sudo to herself, at and crontab.  First open (the baseline),
# then shut by the rule's no_new_privs.
setuid_doors() {
	as_alice "$GROUPS_NOW; grep ^NoNewPrivs: /proc/self/status
		sg audio -c 'echo sg: ok' 2>&1
		echo true | newgrp video 2>&1 && echo newgrp: ok
		python3 $TOP/tests/lib/pty-password.py test su alice -c 'echo su: ok' 2>&1
		sudo -n -u alice echo sudo: ok 2>&1
		echo true | at now 2>&1 && echo at: ok
		echo '@reboot true' | crontab - 2>&1 && echo crontab: ok"
}

test_no_new_privs_shuts_every_set_user_id_door() {
	ways_policy
	sudo_to_self
	at_spool
	cron_spool
	setuid_doors
	assert_groups_line 1 $TRIMMED
	for door in sg newgrp su sudo at crontab; do
		assert_in out "^$door: ok"
	done
	sed -i 's/drop = /no_new_privs = true; drop = /' "$POLICY"
	setuid_doors
	assert_groups_line 1 $TRIMMED
	assert_in out '^NoNewPrivs:[[:space:]]*1$'
	for door in sg newgrp su sudo at crontab; do
		! grep -q "^$door: ok" "$T/out" || fail "$door worked under no_new_privs"
	done
}

test_su_to_oneself_is_trimmed_again_only_by_su_s_stack() {
	ways_policy
	as_alice "$GROUPS_NOW; python3 $TOP/tests/lib/pty-password.py test su alice -c '$GROUPS_NOW'"
	assert_groups_line 1 $TRIMMED
	assert_groups_line 2 $ALL # su's stack without the line: every group
	use_snippet su
	as_alice "python3 $TOP/tests/lib/pty-password.py test su alice -c '$GROUPS_NOW'"
	assert_groups_line 1 $TRIMMED
}

test_sudo_to_oneself_is_trimmed_again_only_by_sudo_s_stack() {
	ways_policy
	sudo_to_self
	as_alice "$GROUPS_NOW; sudo -n -u alice $GROUPS_NOW"
	assert_groups_line 1 $TRIMMED
	assert_groups_line 2 $ALL
	use_snippet sudo
	as_alice "sudo -n -u alice $GROUPS_NOW"
	assert_groups_line 1 $TRIMMED
}

# sudo runs its session stack only while sudoers leaves pam_session on:
# under "Defaults !pam_session" it opens no PAM session, so the session
# line of /etc/pam.d/sudo never runs, and sudo -u alice gives every group
# back.  lint names the sudoers line (an error: the rule names "*"), and
# explain lists sudo as open.  The baseline: pam_session on, sudo trims
# and lint has nothing to say about sudo.
test_sudo_without_pam_session_is_an_open_way_that_lint_names() {
	ways_policy
	sudo_to_self
	use_snippet sudo
	use_snippet sudo sudo-i
	as_alice "sudo -n -u alice $GROUPS_NOW"
	assert_groups_line 1 $TRIMMED
	capture "$DG" lint
	! grep -q 'pam_session' "$T/err" || fail "lint names pam_session while it is on"
	capture "$DG" explain su alice
	! grep -q '^  sudo' "$T/out" || fail "explain calls sudo open while it trims"
	printf 'Defaults:bob !pam_session\nDefaults\tenv_reset, !pam_session\n' >> "$T/sudoers"
	as_alice "sudo -n -u alice $GROUPS_NOW"
	assert_exit 0
	assert_groups_line 1 $ALL # no session: the line never runs
	capture "$DG" lint
	assert_exit 1
	assert_in err "^/etc/sudoers:4: Defaults !pam_session, so sudo opens no PAM session: the module does not run there, so no rule for service \"sudo\" applies"
	assert_in err "^/etc/sudoers:4: Defaults !pam_session, so sudo opens no PAM session: the module does not run there, so no rule for service \"sudo-i\" applies"
	for who in sudo su; do
		capture "$DG" explain "$who" alice
		assert_exit 0
		assert_in out "^  sudo: Defaults !pam_session, so sudo opens no PAM session, and its logins keep every group \(/etc/sudoers:4\)\$"
	done
	capture "$DG" explain sudo alice
	assert_in out "^the module never runs for service \"sudo\": Defaults !pam_session, so sudo opens no PAM session \(/etc/sudoers:4\)"
	# scoped to bob: alice's sudo trims again, and lint still names the
	# line, for bob's sessions (written in place: /etc/sudoers is a bind
	# mount of the file)
	sed '$d' "$T/sudoers" > "$T/scoped"
	cat "$T/scoped" > /etc/sudoers
	as_alice "sudo -n -u alice $GROUPS_NOW"
	assert_groups_line 1 $TRIMMED
	capture "$DG" lint
	assert_exit 1
	assert_in err "^/etc/sudoers:3: Defaults:bob !pam_session, so sudo opens no PAM session for some users"
	# a sudoers lint may not read (mode 0440, lint run by alice) cannot
	# be told, and is counted as turning it off
	capture setpriv --reuid alice --regid alice --init-groups "$DG" lint
	assert_exit 1
	assert_in err "^/etc/sudoers: whether sudo opens a PAM session cannot be told \(Permission denied\), so it is counted as opening none: the module does not run there, so no rule for service \"sudo\""
}

# run_cron: Debian's cron in the foreground (-f), logging each job's
# start and end (-L 15) to the test's syslog, until alice's job has
# ended or cron refused it.  Her crontab has an @reboot job: cron runs
# it at start-up through the same job path as any minute's job
# (job_add, then job_runqueue), so the test waits for no minute
# boundary.  cron runs @reboot jobs only when /run/crond.reboot is
# missing: it goes before each run.
run_cron() {
	local pid
	rm -f /run/crond.reboot /home/alice/cron-groups
	log_reset
	cron -f -L 15 &
	pid=$!
	for _ in $(seq 200); do
		grep -Eq '\(alice\) END|Failure setting user credentials' "$LOG" && break
		sleep 0.1
	done
	kill "$pid"
	wait "$pid" || true
	grep -E 'CRON|cron' "$LOG" | sed 's/^/  cron: /'
	out=$(sed 's/^Groups://' /home/alice/cron-groups 2>/dev/null || true)
	echo "  cron job: ${out:-(did not run)}"
}

test_cron_job_is_trimmed_by_an_auth_line_and_not_by_a_session_line() {
	ways_policy
	cron_spool
	echo "@reboot $GROUPS_NOW > /home/alice/cron-groups" |
		setpriv --reuid alice --regid alice --init-groups crontab - ||
		fail "crontab refused alice's crontab"
	cp /etc/pam.d/cron "$T/cron.stack"
	run_cron
	assert_ids "$out" $ALL # the baseline: a job gets every group
	echo "session required pam_dropgroups.so" >> /etc/pam.d/cron
	run_cron
	assert_ids "$out" $ALL # the session is opened in the waiting process
	# (which holds none of alice's groups: no login line there)
	assert_log info 0
	cp "$T/cron.stack" /etc/pam.d/cron
	use_snippet cron
	run_cron
	assert_ids "$out" $TRIMMED
	echo 'version = 1; restricting = ( ); bogus = 1;' | policy
	run_cron
	[ -z "$out" ] || fail "cron ran the job with a broken policy: $out"
	grep -q 'Failure setting user credentials' "$LOG" || fail "cron did not refuse the job"
	assert_log err 1 "$POLICY:1: unknown key \"bogus\""
}

# A rule for cron that applies to alice and keeps what su's rule drops:
# every job runs with audio, and explain and lint say so, naming cron,
# the rule and the group; with cron's rule dropping audio too, neither
# names cron.  Before, any rule that matched counted as closing the way.
test_a_way_back_is_judged_by_the_rule_that_applies_there() {
	module_by_name
	policy <<-'EOF'
	version = 1;
	restricting = ( "games-abusers" );
	rules = ( { name = "desk"; services = [ "su", "su-l" ]; drop = [ "audio" ]; no_new_privs = true; },
	          { name = "jobs"; services = "cron"; users = "alice"; drop = [ "video" ]; } );
	EOF
	use_snippet cron
	cron_spool
	echo "@reboot $GROUPS_NOW > /home/alice/cron-groups" |
		setpriv --reuid alice --regid alice --init-groups crontab - ||
		fail "crontab refused alice's crontab"
	run_cron
	assert_ids "$out" 1001 100 29 46 2003 3000 # audio stays, video goes
	capture "$DG" explain su alice
	assert_exit 0
	assert_in out "^  dropped  audio\(29\) "
	assert_in out "^  cron \(a crontab job\): rule \"jobs\" \($POLICY:4\) applies there, and keeps audio\(29\)\$"
	capture "$DG" lint
	assert_exit 1
	assert_in err "^$POLICY:4: a way back in: cron \(a crontab job\) applies this rule to the users of rule \"desk\" \($POLICY:3\), and this rule keeps \"audio\", which that rule drops"
	# the baseline: cron's rule drops audio too (under no_new_privs, or
	# sg would give it back there), and the way is shut
	sed -i 's/drop = \[ "video" \]/drop = [ "video", "audio" ]; no_new_privs = true/' "$POLICY"
	run_cron
	assert_ids "$out" 1001 100 46 2003 3000
	capture "$DG" explain su alice
	assert_exit 0
	! grep -q '^  cron' "$T/out" || fail "cron drops audio, yet explain calls it open"
	capture "$DG" lint
	! grep -q 'cron (a crontab job) applies this rule' "$T/err" ||
		fail "lint still calls cron's rule a way back"
}

# cron_job CMD: alice's crontab runs CMD at start-up; run_cron runs it.
cron_job() {
	cron_spool
	echo "@reboot $1 > /home/alice/cron-groups" |
		setpriv --reuid alice --regid alice --init-groups crontab - ||
		fail "crontab refused alice's crontab"
}

# A rule names cron, for bob alone: alice, whose su drops audio under
# no_new_privs, reaches no rule there.  Before, lint looked for users no
# rule matches only at programs that no rule names.
test_lint_counts_the_users_no_rule_for_a_named_program_matches() {
	module_by_name
	policy <<-'EOF'
	version = 1;
	restricting = ( "games-abusers" );
	rules = ( { name = "desk"; services = [ "su", "su-l" ]; users = "alice"; drop = [ "audio" ]; no_new_privs = true; },
	          { name = "jobs"; services = "cron"; users = "bob"; drop = [ "audio" ]; no_new_privs = true; } );
	EOF
	use_snippet cron
	cron_job "$GROUPS_NOW"
	run_cron
	assert_ids "$out" $ALL
	capture "$DG" explain su alice
	assert_in out '^  cron \(a crontab job\): no rule matches service "cron" and user "alice"$'
	capture "$DG" lint
	assert_exit 1
	assert_in err "^/etc/pam.d/cron: a way back in: cron \(a crontab job\) starts their processes with every group, as no rule for service \"cron\" matches the users of rule \"desk\""
	# the baseline: jobs covers alice too, and drops what desk drops
	sed -i 's/users = "bob"/users = [ "bob", "alice" ]/' "$POLICY"
	run_cron
	assert_ids "$out" 1001 100 44 46 2003 3000
	capture "$DG" lint
	! grep -q '^/etc/pam.d/cron: ' "$T/err" || fail "lint still names cron"
}

# su drops audio under no_new_privs; cron's rule drops it too, without
# no_new_privs: a job starts without audio, and sg gives it back.  That
# rule's sessions are a way back, for the groups no_new_privs was to hold.
test_a_way_back_through_a_rule_without_no_new_privs() {
	module_by_name
	policy <<-'EOF'
	version = 1;
	restricting = ( "games-abusers" );
	rules = ( { name = "desk"; services = [ "su", "su-l" ]; drop = [ "audio" ]; no_new_privs = true; },
	          { name = "rest"; services = "*"; drop = [ "audio" ]; } );
	EOF
	use_snippet cron
	cron_job "($GROUPS_NOW; sg audio -c '$GROUPS_NOW') 2>&1"
	run_cron
	cat /home/alice/cron-groups
	assert_ids "$(sed -n '1s/^Groups://p' /home/alice/cron-groups)" 1001 100 44 46 2003 3000
	assert_ids "$(sed -n '2s/^Groups://p' /home/alice/cron-groups)" 1001 100 29 44 46 2003 3000
	capture "$DG" explain su alice
	assert_in out '^  cron \(a crontab job\): rule "rest" \(.*\) applies there, without no_new_privs: from there sg and newgrp give back what this rule drops$'
	capture "$DG" lint
	assert_exit 1
	assert_in err 'cron \(a crontab job\) applies this rule to the users of rule "desk" .*, and this rule does not set no_new_privs: from there sg and newgrp give back'
	# the baseline: no_new_privs there too, and sg gets nothing
	sed -i 's/drop = \[ "audio" \]; }/drop = [ "audio" ]; no_new_privs = true; }/' "$POLICY"
	run_cron
	cat /home/alice/cron-groups
	assert_ids "$(sed -n '1s/^Groups://p' /home/alice/cron-groups)" 1001 100 44 46 2003 3000
	! sed -n '2p' /home/alice/cron-groups | grep -q '^Groups:.*\b29\b' ||
		fail "sg gave audio back under no_new_privs"
	capture "$DG" explain su alice
	! grep -q '^  cron' "$T/out" || fail "explain still names cron"
}

# su -l without a stack of its own: libpam runs "other" for it, whose
# common stacks have no line, so su -l gives every group back.  Before,
# a program without its own file counted as not installed.
test_su_l_through_the_other_stack_is_a_way_back() {
	ways_policy
	use_snippet su
	as_alice "python3 $TOP/tests/lib/pty-password.py test su -l alice -c '$GROUPS_NOW'"
	assert_groups_line 1 $TRIMMED # su-l includes su's stack
	capture "$DG" explain runuser alice
	! grep -q '^  su -l' "$T/out" || fail "explain names su -l, which trims"
	rm /etc/pam.d/su-l
	as_alice "python3 $TOP/tests/lib/pty-password.py test su -l alice -c '$GROUPS_NOW'"
	assert_groups_line 1 $ALL
	capture "$DG" explain runuser alice
	assert_in out '^  su -l: /etc/pam.d/other has no pam_dropgroups line where it trims'
	capture "$DG" lint
	assert_in err '^/etc/pam.d/other: warning: a way back in: a rule matches every service, but this stack has no pam_dropgroups line, so su -l starts'
}

# run_at: queue a job as alice, then run atd in the foreground until the
# job's PAM session has closed.
run_at() {
	local pid
	rm -f /home/alice/at-groups
	log_reset
	echo "$GROUPS_NOW > /home/alice/at-groups" |
		setpriv --reuid alice --regid alice --init-groups at now 2>&1 ||
		fail "at refused alice's job"
	atd -f &
	pid=$!
	for _ in $(seq 200); do
		grep -q 'atd:session): session closed for user alice' "$LOG" && break
		sleep 0.1
	done
	kill "$pid"
	wait "$pid" || true
	out=$(sed 's/^Groups://' /home/alice/at-groups 2>/dev/null || true)
	echo "  at job: ${out:-(did not run)}"
}

test_at_job_keeps_every_group_whatever_the_line_and_at_deny_shuts_it() {
	ways_policy
	at_spool
	cd /home/alice
	run_at
	assert_ids "$out" $ALL
	# atd makes every PAM call in its own process and forks the job,
	# which calls initgroups: neither facility trims the job
	printf 'auth required pam_dropgroups.so\nsession required pam_dropgroups.so\n' >> /etc/pam.d/atd
	run_at
	assert_ids "$out" $ALL
	assert_log info 0 # (atd's own process holds none of alice's groups)
	# what shuts it: at.deny
	echo alice > /etc/at.deny
	capture setpriv --reuid alice --regid alice --init-groups at now < /dev/null
	[ "$rc" -ne 0 ] || fail "at accepted a job from a user in at.deny"
	assert_in err 'permission to use at'
}

# The systemd user manager's stack through pamtester, as systemd calls
# it: initgroups first (setpriv --groups), then pam_open_session in the
# same process.  pam_exec records the groups after the module.
systemd_user_session() {
	rm -f "$T/groups"
	set +e
	setpriv --groups "$START" pamtester -v systemd-user alice open_session \
		> "$T/pamtester.out" 2>&1
	rc=$?
	set -e
	sed 's/^/  pamtester: /' "$T/pamtester.out"
}

systemd_user_stack() {
	cp /usr/lib/pam.d/systemd-user /etc/pam.d/systemd-user
	[ -z "${1:-}" ] || cat "$TOP/conf/pam.d/$1" >> /etc/pam.d/systemd-user
	echo "session optional pam_exec.so quiet $TOP/tests/pam-exec/record-groups.sh $T/groups" \
		>> /etc/pam.d/systemd-user
}

test_systemd_user_stack_is_trimmed_by_its_session_line_through_pamtester() {
	[ -f /usr/lib/pam.d/systemd-user ] || skip "systemd is not installed"
	ways_policy
	systemd_user_stack
	systemd_user_session
	assert_rc 0
	assert_groups $ALL
	systemd_user_stack systemd-user
	systemd_user_session
	assert_rc 0
	assert_groups $TRIMMED
	log_reset
	echo 'version = 1; restricting = ( ); bogus = 1;' | policy
	systemd_user_session
	[ "$rc" -ne 0 ] || fail "the user manager's session opened with a broken policy"
	assert_log err 1 "$POLICY:1: unknown key \"bogus\""
}

. "$TOP/tests/lib/profile.sh"

test_systemd_user_stack_is_trimmed_by_the_pam_auth_update_profile() {
	skip_under_sanitizers "make install builds its own objects"
	[ -f /usr/lib/pam.d/systemd-user ] || skip "systemd is not installed"
	enable_dropgroups_profile
	ways_policy
	# the vendor stack's "@include common-session-noninteractive" reads
	# the profile's line from /etc/pam.d
	systemd_user_stack
	systemd_user_session
	assert_rc 0
	assert_groups $TRIMMED
}
