# The module's semantics through pamtester and real PAM stacks, one line
# each.  Every case states what the module is called for, what it must
# return, the policy, and the groups that pam_exec sees after it; alice
# starts with her initgroups list ($START: 1001 100 29 44 46 2003 3000),
# unless the case says otherwise.
#
#   check_case OP RETURN 'RESTRICTING' 'RULES' [start LIST] [as USER] -- GROUPS
#
# OP is the PAM call the stack has the module in: open_session,
# establish, reinitialize or refresh (pam_setcred), authenticate,
# acct_mgmt, or none (the same stacks without the module: the baseline).
# RETURN is the code the module must return (success, ignore, ...): the
# stack succeeds only if it does.  GROUPS is the list after the call, or
# "untouched".  A case may set $START; a test may add checks after it.

check_case() {
	local op=$1 code=$2 restricting=$3 rules=$4 mode ops
	shift 4
	local who=alice
	while [ "$1" != -- ]; do
		case $1 in
		start) START=$2 ;;
		as) who=$2 ;;
		*) fail "check_case: unknown word $1" ;;
		esac
		shift 2
	done
	shift
	printf 'version = 1;\nrestricting = ( %s );\nrules = ( %s );\n' \
		"$restricting" "$rules" | policy
	case $op in
	open_session) mode=session ops=(open_session) ;;
	establish) mode=setcred ops=("setcred(PAM_ESTABLISH_CRED)" open_session) ;;
	reinitialize) mode=setcred ops=("setcred(PAM_REINITIALIZE_CRED)" open_session) ;;
	refresh) mode=setcred ops=("setcred(PAM_REFRESH_CRED)" open_session) ;;
	# PAM_DELETE_CRED is 4: pamtester knows no name for it
	delete) mode=setcred ops=("setcred(4)" open_session) ;;
	authenticate) mode=setcred ops=(authenticate) ;;
	acct_mgmt) mode=account ops=(acct_mgmt open_session) ;;
	none) mode=none ops=(open_session) ;;
	*) fail "check_case: unknown OP $op" ;;
	esac
	stack "$mode" "$code"
	run_pam "$who" "${ops[@]}"
	assert_rc 0
	[ "$op" = authenticate ] && return 0
	if [ "$1" = untouched ]; then assert_untouched; else assert_groups "$@"; fi
}

ABUSERS='"games-abusers"'
SSH='{ name = "ssh"; services = "dgtest"; drop = ( "audio", "video", 46 ); }'

# --- which call trims ---

test_baseline_without_module_keeps_every_group() {
	check_case none success "$ABUSERS" "$SSH" -- untouched
	assert_no_new_privs 0
}

test_open_session_drops_named_groups() {
	check_case open_session success "$ABUSERS" "$SSH" -- 1001 100 2003 3000
	assert_log info 1 'user "alice", rule "ssh": dropped audio\(29\), video\(44\), plugdev\(46\)'
	assert_log err 0
}

test_setcred_establish_drops_named_groups() { check_case establish success "$ABUSERS" "$SSH" -- 1001 100 2003 3000; }
test_setcred_reinitialize_drops_named_groups() { check_case reinitialize success "$ABUSERS" "$SSH" -- 1001 100 2003 3000; }

# A screen locker reinitialises the credentials from the user's own
# process: without CAP_SETGID there is nothing the module could trim.
test_setcred_reinitialize_without_cap_setgid_is_ignored() {
	PRE=(--inh-caps=-all --bounding-set=-setgid)
	check_case reinitialize ignore "$ABUSERS" "$SSH" -- untouched
	assert_log err 0
}

# libpam replays pam_authenticate's results in pam_setcred on the same
# handle, and ignores there a module that said PAM_IGNORE: the module
# answers authenticate as account management does, so that its setcred
# failure counts (login and sshd with a password call both).
test_setcred_failure_counts_after_authenticate() {
	printf 'version = 1;\nrestricting = ( %s );\nrules = ( %s );\n' "$ABUSERS" "$SSH" | policy
	{
		echo "auth required pam_permit.so"
		echo "auth required $MODULE config=$POLICY"
		echo "account required pam_permit.so"
		echo "session required pam_permit.so"
		echo "session optional pam_exec.so quiet $TOP/tests/pam-exec/record-groups.sh $T/groups"
	} > "/etc/pam.d/$SERVICE"
	run_pam alice authenticate "setcred(PAM_ESTABLISH_CRED)" open_session
	assert_rc 0
	assert_groups 1001 100 2003 3000
	# setgroups fails in setcred (no CAP_SETGID): the login must fail
	PRE=(--inh-caps=-all --bounding-set=-setgid)
	run_pam alice authenticate "setcred(PAM_ESTABLISH_CRED)" open_session
	[ "$rc" -ne 0 ] || fail "setcred failed, and the login went through"
	assert_log err 1 'setgroups failed: Operation not permitted'
	log_reset
	# and a broken policy already refuses authentication
	PRE=()
	echo 'version = 1; restricting = ( ); bogus = 1;' | policy
	run_pam alice authenticate
	[ "$rc" -ne 0 ] || fail "authenticate accepted a broken policy"
}

# Deleting credentials (at logout) is no time to trim.
test_setcred_delete_changes_nothing() {
	check_case delete success "$ABUSERS" "$SSH" -- untouched
	assert_log info 0
}

test_setcred_refresh_changes_nothing() {
	check_case refresh success "$ABUSERS" "$SSH" -- untouched
	assert_log info 0
}

# authenticate authenticates nobody, but answers as account management
# does, so that libpam counts the module's setcred on the same handle.
test_authenticate_answers_as_account_management() {
	check_case authenticate success "$ABUSERS" "$SSH" --
	check_case authenticate ignore "$ABUSERS" '{ services = "sshd"; drop = "*"; }' --
	assert_log err 0
}

test_close_session_succeeds() {
	check_case open_session success "$ABUSERS" "$SSH" -- 1001 100 2003 3000
	run_pam alice open_session close_session
	assert_rc 0
}

test_account_management_checks_but_changes_nothing() {
	check_case acct_mgmt success "$ABUSERS" "$SSH" -- untouched
	assert_log info 0
}

test_account_management_ignores_when_no_rule_matches() { check_case acct_mgmt ignore '' '{ services = "sshd"; drop = "*"; }' -- untouched; }

# --- what a rule drops ---

test_keep_drops_every_other_droppable_group() { check_case open_session success "$ABUSERS" '{ services = "dgtest"; keep = [ "users" ]; }' -- 1001 100 2003; }
test_drop_star_keeps_only_restricting_and_primary() { check_case open_session success "$ABUSERS" '{ services = "dgtest"; drop = "*"; }' -- 1001 2003; }
test_drop_by_gid_and_mixed_list() { check_case open_session success '' '{ services = "dgtest"; drop = ( 29, "video" ); }' -- 1001 100 46 2003 3000; }
# A process that did not have the primary gid does not get it.
test_primary_group_is_never_added() { check_case open_session success '' '{ services = "dgtest"; drop = "audio"; }' start 100,29 -- 100; }
test_keep_never_adds_a_group() { check_case open_session success '' '{ services = "dgtest"; keep = [ "users", "video", "audio" ]; }' start 1001,29 -- 1001 29; }
test_primary_group_is_never_dropped() { check_case open_session success '' '{ services = "dgtest"; drop = [ "alice", "audio" ]; }' -- 1001 100 44 46 2003 3000; }

# The module trims what the process has (getgroups), not what NSS says:
# a group alice is not listed in still stays if not named.
test_user_groups_come_from_the_process_not_nss() { check_case open_session success '' '{ services = "dgtest"; drop = "audio"; }' start 1001,29,65534 -- 1001 65534; }

# Without CAP_SETGID any setgroups call fails, so success proves that
# the module did not call it when the list would not change.
test_nothing_to_drop_calls_no_setgroups() {
	PRE=(--inh-caps=-all --bounding-set=-setgid)
	check_case open_session success '' '{ services = "dgtest"; drop = [ "video" ]; }' start 1001,100 -- 1001 100
}

# --- restricting groups ---

test_restricting_group_named_in_drop_stays_with_notice() {
	check_case open_session success "$ABUSERS" '{ name = "oops"; services = "dgtest"; drop = ( "games-abusers", "audio" ); }' -- 1001 100 44 46 2003 3000
	assert_log notice 1 'rule "oops" names restricting group\(s\) games-abusers\(2003\) in drop; they stay'
}

# "gamers" is another name for gid 2003: restricting is decided by gid.
test_alias_of_restricting_group_stays() { check_case open_session success "$ABUSERS" '{ services = "dgtest"; drop = [ "gamers", "audio" ]; }' -- 1001 100 44 46 2003 3000; }
test_restricting_alias_protects_the_real_name() { check_case open_session success '"gamers"' '{ services = "dgtest"; drop = [ "games-abusers" ]; }' -- untouched; }
test_restricting_by_gid_number() { check_case open_session success 2003 '{ services = "dgtest"; drop = "*"; }' -- 1001 2003; }

# The counterpart of the tests above: the same rule drops 2003 when the
# policy does not call it restricting, so they can fail.
test_without_restricting_the_group_is_dropped() { check_case open_session success '' '{ services = "dgtest"; drop = "*"; }' -- 1001; }

# --- which rule applies ---

# (and the login still leaves its one line, at info: result=no-rule)
test_no_matching_rule_returns_ignore_and_changes_nothing() {
	check_case open_session ignore '' '{ services = "sshd"; drop = "*"; }' -- untouched
	assert_log info 1 'pam_dropgroups\(dgtest:session\): service=dgtest user=alice uid=1001 rule=- result=no-rule dropped=- kept=-: no rule in '"$POLICY"' matches service "dgtest" and user "alice"; groups left unchanged$'
}

test_first_matching_rule_decides() {
	check_case open_session success '' '{ name = "first"; services = "dgtest"; drop = "audio"; }, { name = "second"; services = "*"; drop = "video"; }' -- 1001 100 44 46 2003 3000
	assert_log info 1 'rule "first"'
}

test_star_service_matches_any_service() { check_case open_session success '' '{ services = [ "sshd", "*" ]; drop = "audio"; }' -- 1001 100 44 46 2003 3000; }

test_user_name_matching() {
	check_case open_session ignore '' '{ services = "dgtest"; users = [ "bob" ]; drop = "*"; }' -- untouched
	check_case open_session success '' '{ services = "dgtest"; users = [ "alice" ]; drop = "*"; }' -- 1001
	# names match as written
	check_case open_session ignore '' '{ services = "dgtest"; users = [ "ALICE", "Alice" ]; drop = "*"; }' -- untouched
}

# An empty list names nobody (check warns about it): not everyone.
test_empty_users_list_matches_nobody() {
	check_case open_session ignore '' '{ services = "dgtest"; users = [ ]; drop = "*"; }' -- untouched
	check_case open_session ignore '' '{ services = "dgtest"; users = ( ); drop = "*"; }' -- untouched
}

# PAM service names are case-sensitive file names: "DGTEST" is not "dgtest".
test_service_names_match_case_sensitively() {
	check_case open_session ignore '' '{ services = [ "DGTEST", "DgTest" ]; drop = "*"; }' -- untouched
	check_case open_session success '' '{ services = [ "DGTEST", "dgtest" ]; drop = "audio"; }' -- 1001 100 44 46 2003 3000
}

test_percent_group_matches_members_only() {
	check_case open_session success '' '{ services = "dgtest"; users = "%students"; drop = "audio"; }' -- 1001 100 44 46 2003 3000
	# bob is not in students: the rule does not match him
	check_case open_session ignore '' '{ services = "dgtest"; users = "%students"; drop = "audio"; }' start 1002,100,29 as bob -- 1002 100 29
}

test_star_user_matches_everyone() { check_case open_session success '' '{ services = "dgtest"; users = [ "nobody-else", "*" ]; drop = "audio"; }' start 1002,29 as bob -- 1002; }

# --- names ---

test_unknown_names_are_warnings_and_ignored() {
	check_case open_session success '{ name = "no-such-restricting"; optional = true; }' '{ services = "dgtest"; users = ( { name = "%no-such-group"; optional = true; }, "alice" ); drop = ( "no-such-group", "audio" ); }' -- 1001 100 44 46 2003 3000
	assert_log warning 3 '(restricting group "no-such-restricting" \(optional\) does not exist; only a group of that name would be kept|group "no-such-group" (in drop|\(optional\) in users of rule "[^"]*") does not exist; it is ignored)$'
}

# A "%group" that does not exist is no answer: the users that reach its
# rule are refused (not handed a later rule), unless it is marked
# optional (above).  A user the rule also names is not refused, nor one a
# rule before it takes.
test_unknown_percent_group_refuses_who_reaches_its_rule() {
	check_case open_session success '' '{ services = "dgtest"; users = [ "%no-such-group", "alice" ]; drop = "audio"; }' -- 1001 100 44 46 2003 3000
	check_case open_session success '' '{ services = "dgtest"; users = "bob"; drop = "video"; }, { services = "dgtest"; users = "%no-such-group"; drop = "audio"; }' as bob -- 1001 100 29 46 2003 3000
	check_case open_session session_err '' '{ services = "dgtest"; users = "%no-such-group"; drop = "audio"; }, { services = "dgtest"; drop = "video"; }' -- untouched
	assert_log err 1 'cannot tell whether user "alice" is in group "no-such-group" of rule "[^"]*": the group does not exist'
}

# A restricting group that cannot be found protects nothing, and an
# offline directory can say "not found" for one that exists: refused,
# unless marked optional (the test above).
test_unknown_restricting_name_fails_closed() {
	check_case open_session session_err '"no-such-restricting"' '{ services = "dgtest"; drop = "*"; }' -- untouched
	assert_log err 1 "$POLICY:2: restricting group \"no-such-restricting\" does not exist"
}

# --- no_new_privs ---

test_no_new_privs_is_set_when_the_rule_asks() {
	check_case open_session success '' '{ services = "dgtest"; drop = "audio"; no_new_privs = true; }' -- 1001 100 44 46 2003 3000
	assert_no_new_privs 1
	check_case open_session success '' '{ services = "dgtest"; drop = "audio"; no_new_privs = false; }' -- 1001 100 44 46 2003 3000
	assert_no_new_privs 0
}

# --- account management ---

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
	printf 'version = 1;\nrestricting = ( %s );\nrules = ( %s );\n' "$ABUSERS" "$SSH" | policy
	{
		echo "auth required pam_permit.so"
		echo "account required $MODULE config=$POLICY"
		echo "account optional pam_exec.so quiet $TOP/tests/pam-exec/break-policy.sh $POLICY"
		echo "session required $MODULE config=$POLICY"
		echo "session optional pam_exec.so quiet $TOP/tests/pam-exec/record-groups.sh $T/groups"
	} > "/etc/pam.d/$SERVICE"
	run_pam alice acct_mgmt open_session
	assert_rc 0
	assert_groups 1001 100 2003 3000
	# baseline: the same broken file without the account step fails
	run_pam alice open_session
	[ "$rc" -ne 0 ] || fail "the broken policy was accepted"
	assert_untouched
}

# --- report_only ---

# report_only decides as the module would, logs it as "would drop", and
# changes nothing: neither the groups nor no_new_privs; it answers
# PAM_IGNORE, so the stack goes on as without it.
test_report_only_logs_what_it_would_drop_and_changes_nothing() {
	local nnp='{ name = "ssh"; services = "dgtest"; drop = ( "audio", "video", 46 ); no_new_privs = true; }'
	local would='user "alice", rule "ssh": would drop audio\(29\), video\(44\), plugdev\(46\); would set no_new_privs; report_only: nothing changed$'
	# the baseline: enforced, the same rule drops them
	check_case open_session success "$ABUSERS" "$nnp" -- 1001 100 2003 3000
	assert_no_new_privs 1
	assert_log info 1 'dropped audio\(29\), video\(44\), plugdev\(46\); no_new_privs set$'
	log_reset
	stack session ignore "config=$POLICY" report_only
	run_pam alice open_session
	assert_rc 0
	assert_untouched
	assert_no_new_privs 0
	assert_log info 1 "$would"
	log_reset
	stack setcred ignore "config=$POLICY" report_only
	run_pam alice "setcred(PAM_ESTABLISH_CRED)" open_session
	assert_rc 0
	assert_untouched
	assert_no_new_privs 0
	assert_log info 1 "$would"
	# account management only checks: nothing to log, nothing refused
	log_reset
	stack account ignore "config=$POLICY" report_only
	run_pam alice acct_mgmt open_session
	assert_rc 0
	assert_untouched
	assert_log info 0
	assert_log err 0
}

# A trial line and an enforcing one on the same handle (sshd's auth line
# with report_only while the profile's common-session line enforces): the
# trial's "nothing changed" must not stand for the login, whose groups
# the enforcing line did change; each says what it did, once.
test_report_only_line_does_not_hide_the_enforcing_line_s_drop() {
	policy <<-'EOF'
	version = 1;
	restricting = ( "games-abusers" );
	rules = ( { name = "ssh"; services = "dgtest"; drop = ( "audio" ); } );
	EOF
	{
		echo "auth required pam_permit.so"
		echo "auth optional $MODULE config=$POLICY report_only"
		echo "session required $MODULE config=$POLICY"
		echo "session optional pam_exec.so quiet $TOP/tests/pam-exec/record-groups.sh $T/groups"
	} > "/etc/pam.d/$SERVICE"
	run_pam alice authenticate "setcred(PAM_ESTABLISH_CRED)" open_session
	assert_rc 0
	assert_groups 1001 100 44 46 2003 3000
	assert_log err 0
	assert_log info 2 'rule "ssh": (would drop audio\(29\); report_only: nothing changed|dropped audio\(29\))$'
	module_log info | grep -q 'dropped audio(29)$' ||
		fail "the enforcing line's drop is not logged"
	# the other order: the trial after the drop says nothing more at info
	sed -i -e 's/^auth optional \(.*\) report_only$/auth required \1/' \
		-e 's/^session required \(.*pam_dropgroups.so.*\)$/session optional \1 report_only/' \
		"/etc/pam.d/$SERVICE"
	cat "/etc/pam.d/$SERVICE"
	log_reset
	run_pam alice authenticate "setcred(PAM_ESTABLISH_CRED)" open_session
	assert_rc 0
	assert_groups 1001 100 44 46 2003 3000
	assert_log info 1 'rule "ssh": dropped audio\(29\)$'
}

# report_only is a trial of the enforcing line: where that line would
# refuse the session because setgroups cannot work here (no CAP_SETGID,
# on a kernel without the unprivileged drop), the trial must say so, not
# "would drop", which promises a trim the enforcing line never makes.
test_report_only_says_when_enforcing_would_fail_closed() {
	local rule='{ name = "ssh"; services = "dgtest"; drop = ( "audio" ); }'
	[ ! -e /proc/sys/kernel/setgroups_unprivileged_drop ] ||
		skip "this kernel may let the drop through without CAP_SETGID"
	PRE=(--inh-caps=-all --bounding-set=-setgid)
	# the baseline: enforced, the line refuses the session
	check_case open_session session_err "$ABUSERS" "$rule" -- untouched
	assert_log err 1 'setgroups failed: Operation not permitted; the process lacks CAP_SETGID'
	assert_log info 0
	log_reset
	# report_only: nothing refused, nothing changed, and the line says
	# that enforcing would have refused, and why
	stack session ignore "config=$POLICY" report_only
	run_pam alice open_session
	assert_rc 0
	assert_untouched
	assert_log info 0
	assert_log err 1 'user=alice uid=1001 rule=ssh result=not-refused dropped=- kept=-: setgroups would fail: Operation not permitted; the process lacks CAP_SETGID, and dropping groups without it needs a kernel with subset-setgroups \(the unprivileged-drop patch\); groups left unchanged, and the session is not refused: report_only enforces nothing$'
	log_reset
	# with CAP_SETGID the same trial says "would drop", as before
	PRE=()
	run_pam alice open_session
	assert_rc 0
	assert_untouched
	assert_log err 0
	assert_log info 1 'would drop audio\(29\); report_only: nothing changed$'
}

# The same trial in a user namespace whose setgroups is "deny" (what
# `unshare --map-root-user` and unprivileged containers set up): the
# process has CAP_SETGID there and every gid is mapped, yet the kernel
# refuses every setgroups, so the enforcing line refuses the session and
# the trial must say "would fail", not "would drop".
test_report_only_says_would_fail_where_setgroups_is_denied() {
	local rule='{ name = "ssh"; services = "dgtest"; drop = ( "audio" ); }'
	# the namespace is made here, its maps written from outside: as
	# root, every id 0-65535 mapped to itself, and setgroups denied
	cat > "$T/denyns" <<-'EOF'
	#!/bin/sh
	unshare --user sh -c 'kill -STOP $$; exec "$@"' denyns "$@" &
	pid=$!
	# stopped: ready for its maps; gone or a zombie: unshare failed
	while :; do
		state=$(sed -n 's/^State:[[:space:]]*\([A-Z]\).*/\1/p' \
			"/proc/$pid/status" 2> /dev/null)
		case $state in
		T) break ;;
		'' | Z | X) wait "$pid"; exit 125 ;;
		esac
		sleep 0.01
	done
	echo deny > "/proc/$pid/setgroups" &&
		echo '0 0 65536' > "/proc/$pid/uid_map" &&
		echo '0 0 65536' > "/proc/$pid/gid_map" || { kill -9 "$pid"; exit 125; }
	kill -CONT "$pid"
	wait "$pid"
	EOF
	chmod +x "$T/denyns"
	"$T/denyns" grep -qx deny /proc/self/setgroups ||
		skip "no user namespace with setgroups denied here"
	PRE=("$T/denyns")
	# the baseline: enforced, the line refuses the session
	check_case open_session session_err "$ABUSERS" "$rule" -- untouched
	assert_log err 1 'setgroups failed: Operation not permitted'
	assert_log info 0
	log_reset
	stack session ignore "config=$POLICY" report_only
	run_pam alice open_session
	assert_rc 0
	assert_untouched
	assert_log info 0
	assert_log err 1 'user=alice uid=1001 rule=ssh result=not-refused dropped=- kept=-: setgroups would fail: Operation not permitted'
}
