# The process the module runs in: a user namespace that cannot show some
# of its gids, a login program that changes its service or its user, and
# two threads that open sessions at once.

edge_policy() {
	policy <<-'EOF'
	version = 1;
	restricting = ( "games-abusers" );
	rules = ( { name = "all"; services = "*"; drop = "*"; } );
	EOF
}

# in_user_namespace GID_MAP CMD...: run CMD with alice's starting groups
# as root of a new user namespace whose gid map is GID_MAP (lines
# "INSIDE OUTSIDE COUNT"), written by the sandbox's root so that
# setgroups stays allowed in it.
in_user_namespace() {
	local map=$1 pid
	shift
	rm -f "$T/ns.pid"
	setpriv --groups "$START" unshare --user \
		sh -c "echo \$\$ > $T/ns.pid; exec sleep 60" &
	for _ in $(seq 100); do
		[ -s "$T/ns.pid" ] && break
		sleep 0.05
	done
	pid=$(cat "$T/ns.pid")
	# each map must arrive in one write(2): cat, not the printf builtin
	printf '0 0 1\n' > "$T/uid_map"
	printf '%s\n' "$map" > "$T/gid_map"
	cat "$T/uid_map" > "/proc/$pid/uid_map"
	cat "$T/gid_map" > "/proc/$pid/gid_map"
	set +e
	setpriv --groups "$START" nsenter --user --target "$pid" \
		--preserve-credentials "$@" > "$T/pamtester.out" 2>&1
	rc=$?
	set -e
	kill "$pid"
	sed 's/^/  in the namespace: /' "$T/pamtester.out"
}

# Inside a user namespace, getgroups(2) shows a gid the namespace does
# not map as the overflow gid 65534.  Handing that list to setgroups(2)
# would remove the real gid (a restricting one here) and add 65534 (if
# mapped).  The module refuses instead.
test_user_namespace_that_hides_a_gid_fails_closed() {
	edge_policy
	stack session session_err
	# 29, 44, 46, 2003 and 3000 are not mapped: they show as 65534
	in_user_namespace "$(printf '0 0 1\n100 100 1\n1001 1001 1\n65534 65534 1')" \
		pamtester -v "$SERVICE" alice open_session
	assert_rc 0
	[ "$(groups_seen | xargs -n1 | sort -nu | xargs)" = "0 100 1001 65534" ] ||
		fail "the namespace did not show what this test expects: $(groups_seen)"
	assert_log err 1 'the group list holds gid 65534, which this user namespace cannot show as it is'
	# the baseline: with every gid mapped, the same stack trims
	log_reset
	stack session success
	in_user_namespace "$(printf '0 0 1\n29 29 18\n100 100 1\n1001 1001 1\n2003 2003 1\n3000 3000 1\n65534 65534 1')" \
		pamtester -v "$SERVICE" alice open_session
	assert_rc 0
	assert_groups 1001 2003
}

# libpam unloads a service's modules when the application changes
# PAM_SERVICE.  The plan the module kept with pam_set_data must still be
# safe to clean up in pam_end: the module is linked with -z nodelete.
test_pam_end_after_a_service_change_does_not_crash() {
	edge_policy
	printf 'account required %s\nsession required pam_permit.so\n' "$MODULE" \
		> "/etc/pam.d/$SERVICE"
	printf 'account required pam_permit.so\nsession required pam_permit.so\n' \
		> /etc/pam.d/dgother
	capture "$BUILD/item_switch" "$SERVICE" alice service dgother
	[ "$rc" -eq 0 ] || fail "the driver exited $rc"
	grep -qx 'pam_acct_mgmt: 0' <<< "$out" || fail "the module did not run"
	echo "$out" | grep -q '^pam_end returned 0$' || fail "pam_end did not return"
	grep -qx 'module mapped before pam_end: yes' <<< "$out" ||
		fail "the module was unmapped before pam_end ran its cleanup"
	# grep -c reads to the end: with -q, readelf could die of SIGPIPE
	[ "$(readelf -d "$MODULE" | grep -c 'Flags:.*NODELETE')" -gt 0 ] ||
		fail "the module is not -z nodelete"
	# the baseline: the same module linked without it crashes the driver
	printf 'account required %s\nsession required pam_permit.so\n' \
		"$BUILD/pam_dropgroups-unpinned.so" > "/etc/pam.d/$SERVICE"
	capture "$BUILD/item_switch" "$SERVICE" alice service dgother
	# A module that libpam could not load (28, PAM_MODULE_UNKNOWN) is
	# never mapped either, and kept nothing to clean up: it must have
	# run and kept its plan, or "no" below proves nothing.
	grep -qx 'pam_acct_mgmt: 0' <<< "$out" ||
		fail "the unpinned module did not run: the test proves nothing"
	# libpam unloaded it before pam_end, which would then call the
	# cleanup it kept.  Whether that call crashes depends on what was
	# mapped at the old address since (the next stack's modules may land
	# there, and a CI run once saw it return), so the baseline is the
	# unmapping itself, and the driver stops before pam_end (exit 3).
	grep -qx 'module mapped before pam_end: no' <<< "$out" ||
		fail "the unpinned module stayed mapped: the test proves nothing"
	[ "$rc" -eq 3 ] || fail "the driver exited $rc, not 3"
}

# The plan account management kept (pam_set_data) is for one service and
# user.  When PAM_USER is set again before the session (a later module
# canonicalising the name) or the program changes PAM_SERVICE, the
# session must apply the rule of the user and service it now has, not
# the kept one.  Alice's rule drops video (44); bob's and dgother's,
# audio (29).
switch_policy() {
	policy <<-'EOF'
	version = 1;
	restricting = ( );
	rules = ( { name = "alice"; services = "dgtest"; users = "alice"; drop = "video"; },
	          { name = "bob"; services = "dgtest"; users = "bob"; drop = "audio"; },
	          { name = "other"; services = "dgother"; drop = "audio"; } );
	EOF
	for s in "$SERVICE" dgother; do
		printf 'account required %s\nsession required %s\n' \
			"$MODULE" "$MODULE" > "/etc/pam.d/$s"
	done
}

# item_switch_drops WHICH OTHER GID: the session after the switch ran
# and left the starting groups without GID alone.
item_switch_drops() {
	local want
	capture setpriv --groups "$START" "$BUILD/item_switch" "$SERVICE" alice "$1" "$2"
	[ "$rc" -eq 0 ] || fail "the driver exited $rc"
	grep -qx 'pam_open_session: 0' <<< "$out" || fail "the session failed"
	want=$(tr ',' '\n' <<< "$START" | grep -vx "$3" | sort -n | tr '\n' ' ')
	[ "$(grep '^groups:' <<< "$out" | tr ' ' '\n' | grep -v : | sort -n | tr '\n' ' ')" = "$want" ] ||
		fail "want groups $want after the switch to $1 $2"
}

test_a_user_set_again_before_the_session_gets_its_own_rule() {
	switch_policy
	# the baseline: the same user again, and the kept plan applies
	item_switch_drops user alice 44
	assert_log info 1 'user "alice", rule "alice": dropped video\(44\)$'
	log_reset
	item_switch_drops user bob 29
	assert_log info 1 'user "bob", rule "bob": dropped audio\(29\)$'
}

test_a_service_changed_before_the_session_gets_its_own_rule() {
	switch_policy
	item_switch_drops service "$SERVICE" 44
	assert_log info 1 'rule "alice": dropped video\(44\)$'
	log_reset
	item_switch_drops service dgother 29
	assert_log info 1 'pam_dropgroups\(dgother:session\): .*rule "other": dropped audio\(29\)$'
}

# Two threads of one process open sessions at once.  The groups are the
# process's: without the module's own lock around getgroups, decide and
# setgroups, the slower session would put back what the faster dropped.
# Session A is made slow inside that window: naming the gid it drops
# takes 600 ms (the directory's "slow"), and B starts 200 ms after A.
test_two_threads_opening_sessions_keep_both_drops() {
	use_directory 'group ldap-audio 6101 alice' 'group ldap-video 6102 alice' \
		'slow getgrgid 6101 600'
	START=$START,6101,6102
	policy <<-'EOF'
	version = 1;
	restricting = ( "games-abusers" );
	rules = ( { name = "a"; services = "dgtest-a"; drop = "ldap-audio"; },
	          { name = "b"; services = "dgtest-b"; drop = "ldap-video"; } );
	EOF
	for s in dgtest-a dgtest-b; do
		printf 'session required %s\n' "$MODULE" > "/etc/pam.d/$s"
	done
	capture setpriv --groups "$START" "$BUILD/two_sessions" dgtest-a dgtest-b alice 200
	[ "$rc" -eq 0 ] || fail "a session failed (rc $rc)"
	[ "$out" = "29 44 46 100 1001 2003 3000" ] ||
		fail "want both drops to hold (29 44 46 100 1001 2003 3000), got: $out"
	# each alone drops only its own gid
	capture setpriv --groups "$START" "$BUILD/two_sessions" dgtest-a dgtest-a alice 0
	[ "$out" = "29 44 46 100 1001 2003 3000 6102" ] || fail "session a alone: $out"
}
