# The module's semantics through pamtester and real PAM stacks.
# Every test states its start ($START, alice's initgroups list unless set)
# and checks the groups that pam_exec saw after the module.

ssh_policy() {
	policy <<-'EOF'
	version = 1;
	restricting = ( "games-abusers" );
	rules = (
	  { name = "ssh"; services = [ "dgtest" ]; drop = ( "audio", "video", 46 ); }
	);
	EOF
}

test_baseline_without_module_keeps_every_group() {
	ssh_policy
	stack none
	run_pam alice open_session
	assert_rc 0
	assert_untouched
	assert_no_new_privs 0
}

test_open_session_drops_named_groups() {
	ssh_policy
	stack session success
	run_pam alice open_session
	assert_rc 0
	assert_groups 1001 100 2003 3000
	assert_log info 1 'user "alice", rule "ssh": dropped audio\(29\), video\(44\), plugdev\(46\)'
	assert_log err 0
}

test_setcred_establish_drops_named_groups() {
	ssh_policy
	stack setcred success
	run_pam alice "setcred(PAM_ESTABLISH_CRED)" open_session
	assert_rc 0
	assert_groups 1001 100 2003 3000
}

test_setcred_reinitialize_drops_named_groups() {
	ssh_policy
	stack setcred success
	run_pam alice "setcred(PAM_REINITIALIZE_CRED)" open_session
	assert_rc 0
	assert_groups 1001 100 2003 3000
}

test_setcred_refresh_changes_nothing() {
	# (pamtester cannot pass PAM_DELETE_CRED; the code treats it alike)
	ssh_policy
	stack setcred success
	run_pam alice "setcred(PAM_REFRESH_CRED)" open_session
	assert_rc 0
	assert_untouched
	assert_log info 0
}

test_authenticate_is_ignored() {
	ssh_policy
	stack setcred ignore
	run_pam alice authenticate
	assert_rc 0
}

test_close_session_succeeds() {
	ssh_policy
	stack session success
	run_pam alice open_session close_session
	assert_rc 0
}

test_keep_drops_every_other_droppable_group() {
	policy <<-'EOF'
	version = 1;
	restricting = ( "games-abusers" );
	rules = ( { services = "dgtest"; keep = [ "users" ]; } );
	EOF
	stack session success
	run_pam alice open_session
	assert_rc 0
	assert_groups 1001 100 2003
}

test_drop_star_keeps_only_restricting_and_primary() {
	policy <<-'EOF'
	version = 1;
	restricting = ( "games-abusers" );
	rules = ( { services = "dgtest"; drop = "*"; } );
	EOF
	stack session success
	run_pam alice open_session
	assert_rc 0
	assert_groups 1001 2003
}

test_restricting_group_named_in_drop_stays_with_notice() {
	policy <<-'EOF'
	version = 1;
	restricting = ( "games-abusers" );
	rules = ( { name = "oops"; services = "dgtest"; drop = ( "games-abusers", "audio" ); } );
	EOF
	stack session success
	run_pam alice open_session
	assert_rc 0
	assert_groups 1001 100 44 46 2003 3000
	assert_log notice 1 'rule "oops" names restricting group\(s\) games-abusers\(2003\) in drop; they stay'
}

test_alias_of_restricting_group_stays() {
	# "gamers" is another name for gid 2003: restricting is decided by gid.
	policy <<-'EOF'
	version = 1;
	restricting = ( "games-abusers" );
	rules = ( { services = "dgtest"; drop = [ "gamers", "audio" ]; } );
	EOF
	stack session success
	run_pam alice open_session
	assert_rc 0
	assert_groups 1001 100 44 46 2003 3000
}

test_restricting_alias_protects_the_real_name() {
	policy <<-'EOF'
	version = 1;
	restricting = ( "gamers" );
	rules = ( { services = "dgtest"; drop = [ "games-abusers" ]; } );
	EOF
	stack session success
	run_pam alice open_session
	assert_rc 0
	assert_untouched
}

test_restricting_by_gid_number() {
	policy <<-'EOF'
	version = 1;
	restricting = ( 2003 );
	rules = ( { services = "dgtest"; drop = "*"; } );
	EOF
	stack session success
	run_pam alice open_session
	assert_rc 0
	assert_groups 1001 2003
}

test_without_restricting_the_group_is_dropped() {
	# The counterpart of the tests above: the same rule drops 2003 when
	# the policy does not call it restricting, so they can fail.
	policy <<-'EOF'
	version = 1;
	restricting = ( );
	rules = ( { services = "dgtest"; drop = "*"; } );
	EOF
	stack session success
	run_pam alice open_session
	assert_rc 0
	assert_groups 1001
}

test_primary_group_is_never_dropped() {
	policy <<-'EOF'
	version = 1;
	restricting = ( );
	rules = ( { services = "dgtest"; drop = [ "alice", "audio" ]; } );
	EOF
	stack session success
	run_pam alice open_session
	assert_rc 0
	assert_groups 1001 100 44 46 2003 3000
}

test_keep_never_adds_a_group() {
	START=1001,29
	policy <<-'EOF'
	version = 1;
	restricting = ( );
	rules = ( { services = "dgtest"; keep = [ "users", "video", "audio" ]; } );
	EOF
	stack session success
	run_pam alice open_session
	assert_rc 0
	assert_groups 1001 29
}

test_drop_by_gid_and_mixed_list() {
	policy <<-'EOF'
	version = 1;
	restricting = ( );
	rules = ( { services = "dgtest"; drop = ( 29, "video" ); } );
	EOF
	stack session success
	run_pam alice open_session
	assert_rc 0
	assert_groups 1001 100 46 2003 3000
}

test_no_matching_rule_returns_ignore_and_changes_nothing() {
	policy <<-'EOF'
	version = 1;
	restricting = ( );
	rules = ( { services = "sshd"; drop = "*"; } );
	EOF
	stack session ignore
	run_pam alice open_session
	assert_rc 0
	assert_untouched
	assert_log info 0
}

test_first_matching_rule_decides() {
	policy <<-'EOF'
	version = 1;
	restricting = ( );
	rules = (
	  { name = "first"; services = "dgtest"; drop = "audio"; },
	  { name = "second"; services = "*"; drop = "video"; }
	);
	EOF
	stack session success
	run_pam alice open_session
	assert_rc 0
	assert_groups 1001 100 44 46 2003 3000
	assert_log info 1 'rule "first"'
}

test_star_service_matches_any_service() {
	policy <<-'EOF'
	version = 1;
	restricting = ( );
	rules = ( { services = [ "sshd", "*" ]; drop = "audio"; } );
	EOF
	stack session success
	run_pam alice open_session
	assert_rc 0
	assert_groups 1001 100 44 46 2003 3000
}

test_user_name_matching() {
	policy <<-'EOF'
	version = 1;
	restricting = ( );
	rules = ( { services = "dgtest"; users = [ "bob" ]; drop = "*"; } );
	EOF
	stack session ignore
	run_pam alice open_session
	assert_rc 0
	assert_untouched
	sed -i 's/"bob"/"alice"/' "$POLICY"
	stack session success
	run_pam alice open_session
	assert_rc 0
	assert_groups 1001
}

test_percent_group_matches_members_only() {
	policy <<-'EOF'
	version = 1;
	restricting = ( );
	rules = ( { services = "dgtest"; users = "%students"; drop = "audio"; } );
	EOF
	stack session success
	run_pam alice open_session
	assert_rc 0
	assert_groups 1001 100 44 46 2003 3000
	# bob is not in students: the rule does not match him
	START=1002,100,29
	stack session ignore
	run_pam bob open_session
	assert_rc 0
	assert_groups 1002 100 29
}

test_star_user_matches_everyone() {
	policy <<-'EOF'
	version = 1;
	restricting = ( );
	rules = ( { services = "dgtest"; users = [ "nobody-else", "*" ]; drop = "audio"; } );
	EOF
	stack session success
	START=1002,29
	run_pam bob open_session
	assert_rc 0
	assert_groups 1002
}

test_unknown_names_are_warnings_and_ignored() {
	policy <<-'EOF'
	version = 1;
	restricting = ( { name = "no-such-restricting"; optional = true; } );
	rules = ( { services = "dgtest"; users = [ "%no-such-group", "alice" ];
	            drop = ( "no-such-group", "audio" ); } );
	EOF
	stack session success
	run_pam alice open_session
	assert_rc 0
	assert_groups 1001 100 44 46 2003 3000
	assert_log warning 3 'group "no-such-group" in drop does not exist; it is ignored'
}

# A restricting group that cannot be found protects nothing, and an
# offline directory can say "not found" for one that exists: refused,
# unless marked optional (the test above).
test_unknown_restricting_name_fails_closed() {
	policy <<-'EOF'
	version = 1;
	restricting = ( "no-such-restricting" );
	rules = ( { services = "dgtest"; drop = "*"; } );
	EOF
	stack session session_err
	run_pam alice open_session
	assert_failed_closed "$POLICY:2: restricting group \"no-such-restricting\" does not exist"
}

test_nothing_to_drop_calls_no_setgroups() {
	# Without CAP_SETGID any setgroups call fails, so success here proves
	# the module did not call it when the list would not change.
	policy <<-'EOF'
	version = 1;
	restricting = ( );
	rules = ( { services = "dgtest"; drop = [ "video" ]; } );
	EOF
	START=1001,100
	PRE=(--inh-caps=-all --bounding-set=-setgid)
	stack session success
	run_pam alice open_session
	assert_rc 0
	assert_groups 1001 100
}

test_no_new_privs_is_set_when_the_rule_asks() {
	policy <<-'EOF'
	version = 1;
	restricting = ( );
	rules = ( { services = "dgtest"; drop = "audio"; no_new_privs = true; } );
	EOF
	stack session success
	run_pam alice open_session
	assert_rc 0
	assert_no_new_privs 1
	assert_groups 1001 100 44 46 2003 3000
	# and not otherwise
	sed -i 's/no_new_privs = true/no_new_privs = false/' "$POLICY"
	run_pam alice open_session
	assert_rc 0
	assert_no_new_privs 0
}

test_user_groups_come_from_the_process_not_nss() {
	# The module trims what the process has (getgroups), not what NSS
	# says: a group alice is not listed in still stays if not named.
	START=1001,29,65534
	policy <<-'EOF'
	version = 1;
	restricting = ( );
	rules = ( { services = "dgtest"; drop = "audio"; } );
	EOF
	stack session success
	run_pam alice open_session
	assert_rc 0
	assert_groups 1001 65534
}

test_account_management_checks_but_changes_nothing() {
	ssh_policy
	stack account success
	run_pam alice acct_mgmt open_session
	assert_rc 0
	assert_untouched
	assert_log info 0
}

test_account_management_ignores_when_no_rule_matches() {
	policy <<-'EOF'
	version = 1;
	restricting = ( );
	rules = ( { services = "sshd"; drop = "*"; } );
	EOF
	stack account ignore
	run_pam alice acct_mgmt open_session
	assert_rc 0
	assert_untouched
}

test_account_management_refuses_a_broken_policy() {
	echo 'version = 1; restricting = ( ); colour = 1;' | policy
	stack account perm_denied
	run_pam alice acct_mgmt open_session
	assert_failed_closed "$POLICY:1: unknown key \"colour\""
}

# The policy read by account management is the one the session applies:
# sshd checks in one process and sets credentials in another, and must
# not apply a policy it never checked.
test_session_applies_the_policy_that_account_management_checked() {
	ssh_policy
	{
		echo "auth required pam_permit.so"
		echo "account required $MODULE config=$POLICY"
		echo "account optional pam_exec.so quiet $TOP/tests/break-policy.sh $POLICY"
		echo "session required $MODULE config=$POLICY"
		echo "session optional pam_exec.so quiet $TOP/tests/record-groups.sh $T/groups"
	} > "/etc/pam.d/$SERVICE"
	run_pam alice acct_mgmt open_session
	assert_rc 0
	assert_groups 1001 100 2003 3000
	# baseline: the same broken file without the account step fails
	run_pam alice open_session
	[ "$rc" -ne 0 ] || fail "the broken policy was accepted"
	assert_untouched
}
