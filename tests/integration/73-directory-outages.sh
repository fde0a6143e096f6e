# The directory goes away during a login: slapd killed (connection
# refused), slapd stopped with SIGSTOP (a hung server), the NSS daemon
# not running; once through nslcd and once through SSSD, with a cold and a
# warm cache (tests/lib/directory.sh sets the daemons up).
#
# Every case first shows its baseline while slapd answers (the module
# trims, the stack without it keeps every group), then the same logins
# during the outage: through pamtester, and through su and runuser with
# the shipped snippets.  Each outage ends in one of two ways, and the test
# says which one it must be:
#   refused  the module returns PAM_SESSION_ERR, the groups are exactly
#            what they were, one error line names the policy line and the
#            reason, and su refuses to run the command;
#   trimmed  (a warm SSSD cache) the same answer as online.
# Never a session with a restricting group gone.  Each outage login runs
# under `timeout` (OUTAGE_BOUND), so a hung look-up fails the test instead
# of hanging the suite; how long each took is printed ("time:"), with no
# assertion on it.  What bounds the wait is the daemons' own settings
# (nslcd: bind_timelimit, timelimit, reconnect_*; SSSD:
# ldap_network_timeout, ldap_search_timeout, ldap_opt_timeout,
# offline_timeout): the module has no deadline of its own.
#
# nslcd keeps no cache (and the sandbox runs no nscd): each of its cases
# looks everything up successfully first, and the outage right after is
# refused all the same.

. "$TOP/tests/lib/directory.sh"

# Seconds an outage login may take before the test calls it hung.
OUTAGE_BOUND=45

# The policy: ldap-abusers (6003) exists only in the directory,
# games-abusers (2003) only in /etc/group; everything else goes.
outage_policy() {
	policy <<-'EOF'
	version = 1;
	restricting = ( "ldap-abusers", "games-abusers" );
	rules = ( { services = [ "dgtest", "su", "runuser" ]; drop = "*"; } );
	EOF
}

DAVE_START=${DAVE_GROUPS// /,}
DAVE_TRIMMED="5001 6003"
# alice (local) holds the directory's groups too: through nslcd that is
# her initgroups list; pamtester gives it to her through SSSD as well.
ALICE_START=$(echo "$ALICE_NSLCD_GROUPS" | tr ' ' ',')
ALICE_TRIMMED="1001 2003 6003"

# --------------------------------------------------------------- helpers

# elapsed T0 WHAT: print how long since T0 (date +%s%N).
elapsed() {
	echo "  time: $2: $((($(date +%s%N) - $1) / 1000000)) ms"
}

not_hung() {
	[ "$rc" -ne 124 ] && [ "$rc" -ne 137 ] ||
		fail "$1: still running after $OUTAGE_BOUND s (timeout ended it)"
}

# with_groups LIST CMD...: CMD with the supplementary groups LIST (gids,
# commas), without a look-up.  (setpriv --groups, which run_pam uses,
# first asks NSS for a group *named* "6003" before it takes 6003 for a
# number: during an outage that alone costs what the outage costs, 12 s
# with a hung slapd, and it is no part of a login.)  Perl's $) sets the
# egid (0, as before) and the groups with setgroups(2).
with_groups() {
	local list=$1
	shift
	perl -e '$) = "0 " . join(" ", split(/,/, shift)); exec @ARGV or die "exec: $!\n"' \
		"$list" "$@"
}

# pam_login USER EXPECT WHAT: pamtester open_session as USER with their
# starting groups, bounded and timed; as lib.sh's run_pam.  EXPECT: the
# module's PAM code (success, session_err), as in lib.sh's stack; "none":
# the stack without the module.  A wrong start (perl failing to set the
# groups) shows as a mismatch in assert_untouched.
pam_login() {
	local user=$1 expect=$2 what=$3 t0
	case $user in
	dave) START=$DAVE_START ;;
	alice) START=$ALICE_START ;;
	esac
	if [ "$expect" = none ]; then stack none; else stack session "$expect"; fi
	rm -f "$T/groups"
	t0=$(date +%s%N)
	set +e
	with_groups "$START" timeout -k 5 "$OUTAGE_BOUND" \
		pamtester -v "$SERVICE" "$user" open_session > "$T/pamtester.out" 2>&1
	rc=$?
	set -e
	elapsed "$t0" "pamtester $user, $what"
	sed 's/^/  pamtester: /' "$T/pamtester.out"
	not_hung "pamtester $user"
}

# bounded WHAT CMD...: a real login program (or the CLI), bounded and
# timed, through capture.
bounded() {
	local what=$1 t0
	shift
	t0=$(date +%s%N)
	capture timeout -k 5 "$OUTAGE_BOUND" "$@"
	elapsed "$t0" "$what"
	not_hung "$what"
}

# snippets on|off: the shipped su and runuser snippets in the stacks.
snippets() {
	if [ ! -e "$T/su.orig" ]; then
		module_by_name
		cp /etc/pam.d/su "$T/su.orig"
		cp /etc/pam.d/runuser "$T/runuser.orig"
		mkdir -m 0755 /home/dave
		chown 5001:5001 /home/dave
	fi
	cp "$T/su.orig" /etc/pam.d/su
	cp "$T/runuser.orig" /etc/pam.d/runuser
	if [ "$1" = on ]; then
		use_snippet su
		use_snippet runuser
	fi
}

# The session was refused, and the command never ran.
login_refused() {
	[ "$rc" -ne 0 ] || fail "the login went through (rc 0) during the outage: $out"
	[ -z "$(echo "$out" | tr -d '[:space:]')" ] || fail "the command ran: $out"
	assert_in err 'cannot open session'
}

# ----------------------------------------------------------- the phases

# Online: NSS knows dave and alice, the module trims them, the stack
# without it keeps every group.  Through SSSD this fills the cache.
online_baseline() {
	local alice_groups=$ALICE_NSLCD_GROUPS
	[ "$1" = sss ] && alice_groups=$ALICE_GROUPS # (SSSD: its own users only)
	echo "--- online"
	assert_ids "$(id -G dave)" $DAVE_GROUPS
	assert_ids "$(id -G alice)" $alice_groups
	outage_policy
	pam_login dave none "online, without the module"
	assert_rc 0
	assert_untouched
	pam_login dave success "online"
	assert_rc 0
	assert_groups $DAVE_TRIMMED
	pam_login alice success "online"
	assert_rc 0
	assert_groups $ALICE_TRIMMED
	snippets on
	bounded "su dave, online" su dave -c "$SUPP_GROUPS"
	assert_ids "$out" $DAVE_TRIMMED
	bounded "runuser dave, online" runuser -u dave -- sh -c "$SUPP_GROUPS"
	assert_ids "$out" $DAVE_TRIMMED
	bounded "su alice, online" su alice -c "$SUPP_GROUPS"
	assert_ids "$out" $(echo $alice_groups | tr ' ' '\n' | grep -xE '1001|2003|6003')
	assert_log err 0
}

# During the outage, without the module: pamtester keeps every group, and
# su alice (local) runs, with whatever groups NSS still gives her.  What
# happens to dave there is the outage's doing, not the module's.
outage_baseline() {
	echo "--- the outage, without the module"
	snippets off
	pam_login dave none "outage, without the module"
	assert_rc 0
	assert_untouched
	bounded "su alice, outage, without the module" su alice -c "$SUPP_GROUPS"
	assert_exit 0
	assert_ids "$out" $ALICE_GROUPS
	bounded "su dave, outage, without the module" su dave -c "$SUPP_GROUPS"
	log_reset
}

# expect_refused ERE: every login with the module is refused, groups untouched,
# and the one error line matches ERE.
expect_refused() {
	echo "--- the outage, with the module: refused"
	pam_login alice session_err "outage"
	assert_failed_closed "$1"
	log_reset
	pam_login dave session_err "outage"
	assert_failed_closed "$1"
	log_reset
	snippets on
	bounded "su alice, outage" su alice -c "$SUPP_GROUPS"
	login_refused
	assert_log err 1 "$1"
	log_reset
}

# expect_trimmed WHAT: the answer is the online one.
expect_trimmed() {
	echo "--- the outage ($1), with the module: trimmed"
	pam_login dave success "outage, $1"
	assert_rc 0
	assert_groups $DAVE_TRIMMED
	pam_login alice success "outage, $1"
	assert_rc 0
	assert_groups $ALICE_TRIMMED
	snippets on
	bounded "su dave, outage, $1" su dave -c "$SUPP_GROUPS"
	assert_exit 0
	assert_ids "$out" $DAVE_TRIMMED
	bounded "runuser dave, outage, $1" runuser -u dave -- sh -c "$SUPP_GROUPS"
	assert_exit 0
	assert_ids "$out" $DAVE_TRIMMED
	bounded "su alice, outage, $1" su alice -c "$SUPP_GROUPS"
	assert_exit 0
	assert_ids "$out" 1001 2003
	assert_log err 0
}

# The module's error lines for each kind of answer.
LOOKUP_FAILED="$POLICY:2: looking up group \"ldap-abusers\" in restricting failed: "
NSLCD_DOWN="${LOOKUP_FAILED}No such file or directory"
# (sss's client says EFAULT, "Bad address", when it finds the socket of an
# sssd that was killed a moment before: seen once, in a whole-suite run)
SSSD_GONE="${LOOKUP_FAILED}(Connection refused|No such file or directory|Bad address)"
SSSD_COLD="$POLICY:2: restricting group \"ldap-abusers\" does not exist \\(or the directory that has it cannot say so\\)"

# ----------------------------------------------------------------- nslcd

nslcd_outage() { # BREAK...
	directory_start nslcd
	online_baseline nslcd
	echo "--- outage: $*"
	"$@"
	expect_refused "$NSLCD_DOWN"
	outage_baseline
}

test_outage_nslcd_slapd_killed_refuses_the_session() { nslcd_outage slapd_kill; }
test_outage_nslcd_slapd_hung_refuses_the_session_in_bounded_time() { nslcd_outage slapd_stop; }
test_outage_nslcd_not_running_refuses_the_session() { nslcd_outage nslcd_kill; }

# ------------------------------------------------------------------ SSSD

# A cold cache: nothing cached, then the outage, then SSSD starts.
sssd_cold_outage() { # ERE BREAK...
	local ere=$1
	shift
	directory_start sss
	online_baseline sss
	echo "--- outage, cold cache: $*"
	sssd_cache_wipe
	"$@"
	[ "$1" = sssd_kill ] || sssd_start
	expect_refused "$ere"
	outage_baseline
}

# SSSD offline with a cold cache answers a clean "not found": the
# restricting name looks nonexistent, and restricting names must resolve.
test_outage_sss_cold_cache_slapd_killed_refuses_the_session() {
	sssd_cold_outage "$SSSD_COLD" slapd_kill
}
test_outage_sss_cold_cache_slapd_hung_refuses_the_session() {
	sssd_cold_outage "$SSSD_COLD" slapd_stop
}
test_outage_sss_cold_cache_not_running_refuses_the_session() {
	sssd_cold_outage "$SSSD_GONE" sssd_kill
}

# A warm cache: what the online logins looked up, SSSD answers offline,
# and again once every entry is out of date (sss_cache -E): offline, SSSD
# answers from expired entries rather than not at all.
sssd_warm_outage() { # BREAK
	directory_start sss
	online_baseline sss
	echo "--- outage, warm cache: $1"
	"$1"
	expect_trimmed "warm cache"
	outage_baseline
	sssd_cache_expire
	expect_trimmed "expired cache"
}

test_outage_sss_warm_cache_slapd_killed_trims_as_online() { sssd_warm_outage slapd_kill; }
test_outage_sss_warm_cache_slapd_hung_trims_as_online() { sssd_warm_outage slapd_stop; }

# SSSD not running, warm: the clients read SSSD's memory cache
# (/var/lib/sss/mc) without the daemon, for what the online logins looked
# up.  Killed (a crash), then, once started and warm again, stopped
# cleanly (as systemctl stop does).
test_outage_sss_warm_cache_not_running_trims_as_online() {
	directory_start sss
	online_baseline sss
	echo "--- outage, warm cache: sssd killed"
	sssd_kill
	expect_trimmed "sssd killed, memory cache"
	outage_baseline
	sssd_start
	log_reset
	online_baseline sss
	echo "--- outage, warm cache: sssd stopped"
	sssd_stop
	expect_trimmed "sssd stopped, memory cache"
	outage_baseline
}

# ------------------------------------------- dropgroups check and explain

# The CLI runs the module's own look-ups: during an outage, check and
# explain must say which look-up failed and exit 1, never "valid".
cli_online() {
	bounded "dropgroups check, $1" "$DG" check
	assert_exit 0
	assert_in out "^$POLICY: valid: 1 rule\\(s\\), 2 restricting gid\\(s\\)"
	bounded "dropgroups explain dgtest dave, $1" "$DG" explain dgtest dave
	assert_exit 0
	assert_in out '^  kept +ldap-abusers\(6003\) +restricting$'
	assert_in out '^  dropped +ldap-staff\(6100\) '
	assert_in out '^groups after: 5001 6003$'
}

cli_refuses() { # ERE WHAT
	local u
	bounded "dropgroups check, $2" "$DG" check
	assert_exit 1
	assert_in err "$1"
	! grep -q valid "$T/out" || fail "check said valid during the outage"
	for u in dave alice; do
		bounded "dropgroups explain dgtest $u, $2" "$DG" explain dgtest "$u"
		assert_exit 1
		assert_in err "$1"
		[ ! -s "$T/out" ] || fail "explain printed a decision during the outage"
	done
}

test_outage_nslcd_check_and_explain_say_the_look_up_failed() {
	directory_start nslcd
	outage_policy
	cli_online "online"
	slapd_kill
	cli_refuses "$NSLCD_DOWN" "slapd killed"
	slapd_run
	sleep 2 # (nslcd tries slapd again after reconnect_retrytime)
	cli_online "slapd back"
	slapd_stop
	cli_refuses "$NSLCD_DOWN" "slapd hung"
	slapd_cont
	nslcd_kill
	cli_refuses "$NSLCD_DOWN" "nslcd not running"
}

# Through SSSD with a warm cache, the cache knows ldap-abusers: check is
# right to call the policy valid, and explain keeps 6003.  Cold, the
# group looks nonexistent, which check refuses just the same.
test_outage_sss_check_and_explain_say_the_look_up_failed() {
	directory_start sss
	outage_policy
	cli_online "online"
	slapd_kill
	cli_online "slapd killed, warm cache"
	sssd_cache_wipe
	sssd_start
	cli_refuses "$SSSD_COLD" "slapd killed, cold cache"
	sssd_kill
	cli_refuses "$SSSD_GONE" "sssd not running, cold cache"
}

# -------------------------------------- restricting directory groups by gid

# A restricting gid needs no look-up: with the directory down, a local
# user's session is still trimmed, the directory group still kept.  The
# same policy with the name refuses (the other tests); a directory user
# cannot log in at all, NSS does not know him.
gid_policy() { # [EXTRA RESTRICTING ENTRY]
	policy <<-EOF
	version = 1;
	restricting = ( 6003, 2003 ${1:+, $1} );
	rules = ( { services = [ "dgtest", "su", "runuser" ]; drop = "*"; } );
	EOF
}

by_gid_survives() { # DAEMON DAVE_ERE
	gid_policy
	pam_login alice success "outage, restricting by gid"
	assert_rc 0
	assert_groups $ALICE_TRIMMED
	assert_log err 0
	snippets on
	bounded "su alice, outage, restricting by gid" su alice -c "$SUPP_GROUPS"
	assert_exit 0
	assert_ids "$out" 1001 2003
	pam_login dave session_err "outage, restricting by gid"
	assert_failed_closed "$2"
	log_reset
	# the baseline: the same groups by name
	outage_policy
	pam_login alice session_err "outage, restricting by name"
	assert_rc 0
	assert_untouched
	log_reset
}

test_outage_nslcd_restricting_gid_needs_no_look_up() {
	directory_start nslcd
	gid_policy
	pam_login alice success "online, restricting by gid"
	assert_groups $ALICE_TRIMMED
	slapd_kill
	by_gid_survives nslcd "looking up user \"dave\" failed: No such file or directory"
	# optional or not, a name whose look-up fails refuses
	gid_policy '{ name = "ldap-abusers"; optional = true; }'
	pam_login alice session_err "outage, optional name"
	assert_failed_closed "$NSLCD_DOWN"
}

# Through SSSD, cold: the gid keeps 6003, and trims the rest.  An
# optional name beside it only warns, but then the module must name each
# gid it would drop (a group of that name is restricting too), and SSSD
# offline names none of the directory's: each gid without a name could be
# the restricting group, so each stays.  With the optional name alone the
# same: 6003 stays, unnamed, and nothing else of the directory's goes.
test_outage_sss_restricting_gid_needs_no_look_up() {
	directory_start sss
	gid_policy
	pam_login alice success "online, restricting by gid"
	assert_groups $ALICE_TRIMMED
	sssd_cache_wipe
	slapd_kill
	sssd_start
	by_gid_survives sss "user \"dave\" does not exist"
	gid_policy '{ name = "ldap-abusers"; optional = true; }'
	pam_login alice success "outage, gid and optional name"
	assert_rc 0
	assert_groups 1001 2003 6003 6100 6101 6102
	assert_log warning 1 'restricting group "ldap-abusers" \(optional\) does not exist'
	log_reset
	policy <<-'EOF'
	version = 1;
	restricting = ( 2003, { name = "ldap-abusers"; optional = true; } );
	rules = ( { services = "dgtest"; drop = "*"; } );
	EOF
	pam_login alice success "outage, optional name alone"
	assert_rc 0
	assert_groups 1001 2003 6003 6100 6101 6102
}

# ------------------------------------- memberships fail, look-ups answer
#
# A %group rule must not lose a member to the rule after it when only
# the directory's membership search fails (slapd_refuse_membership_search):
# glibc's list for dave is then his primary group alone, while the group's
# entry, asked by gid, still lists him.  Both directions: a %group rule
# that drops less than the next (staff) and one that drops more
# (contractors, where the next rule would leave dave every group).  Each
# shows the baseline twice: the stack without the module keeps every
# group, and the same logins while slapd answers everything.

# membership_policy staff|contractors
membership_policy() {
	case $1 in
	staff) policy <<-'EOF' ;;
	version = 1;
	restricting = ( "ldap-abusers" );
	rules = ( { name = "staff"; services = "dgtest"; users = "%ldap-staff"; drop = [ "ldap-audio", "ldap-video" ]; },
	          { name = "rest"; services = "dgtest"; drop = "*"; } );
	EOF
	contractors) policy <<-'EOF' ;;
	version = 1;
	restricting = ( "ldap-abusers" );
	rules = ( { name = "contractors"; services = "dgtest"; users = "%ldap-staff"; drop = "*"; },
	          { name = "rest"; services = "dgtest"; drop = "ldap-audio"; } );
	EOF
	esac
}

membership_search_fails() { # DAEMON RULE DAVE_KEEPS...
	local daemon=$1 rule=$2
	shift 2
	directory_start "$daemon"
	membership_policy "$rule"
	pam_login dave none "online, no module"
	assert_rc 0
	assert_untouched
	log_reset
	pam_login dave success "online"
	assert_rc 0
	assert_groups "$@"
	assert_log info 1 "user \"dave\", rule \"$rule\""
	slapd_refuse_membership_search
	# (SSSD would answer from what it cached online: start it cold)
	if [ "$daemon" = sss ]; then
		sssd_cache_wipe
		sssd_start
	fi
	[ "$(directory_groups dave)" = 5001 ] ||
		fail "glibc still lists dave's groups: $(directory_groups dave)"
	log_reset
	pam_login dave success "memberships refused"
	assert_rc 0
	assert_groups "$@"
	assert_log info 1 "user \"dave\", rule \"$rule\""
	assert_log err 0
}

test_memberships_fail_nslcd_staff_rule_still_applies() {
	membership_search_fails nslcd staff 5001 6003 6100
}
test_memberships_fail_nslcd_contractors_rule_still_applies() {
	membership_search_fails nslcd contractors 5001 6003
}
test_memberships_fail_sss_staff_rule_still_applies() {
	membership_search_fails sss staff 5001 6003 6100
}
test_memberships_fail_sss_contractors_rule_still_applies() {
	membership_search_fails sss contractors 5001 6003
}

# SSSD offline with a cold cache says a clean "not found" for
# ldap-staff, which exists.  alice (a local user, in ldap-staff by its
# entry) is refused rather than given the rule after it; online, the
# %group rule applies to her; marked optional, the group may be missing
# and the next rule applies.
test_outage_sss_cold_cache_percent_group_refuses_rather_than_the_next_rule() {
	directory_start sss
	policy <<-'EOF'
	version = 1;
	restricting = ( "games-abusers" );
	rules = ( { name = "contractors"; services = "dgtest"; users = "%ldap-staff"; drop = "*"; },
	          { name = "rest"; services = "dgtest"; drop = "audio"; } );
	EOF
	log_reset
	pam_login alice success "online"
	assert_rc 0
	assert_groups 1001 2003
	assert_log info 1 'user "alice", rule "contractors"'
	sssd_cache_wipe
	slapd_kill
	sssd_start
	[ -z "$(getent group ldap-staff)" ] || fail "SSSD still answers for ldap-staff"
	log_reset
	pam_login alice session_err "offline, cold cache"
	assert_failed_closed "$POLICY:3: cannot tell whether user \"alice\" is in group \"ldap-staff\" of rule \"contractors\": the group does not exist"
	sed -i 's/users = "%ldap-staff";/users = ( { name = "%ldap-staff"; optional = true; } );/' "$POLICY"
	log_reset
	pam_login alice success "offline, cold cache, optional"
	assert_rc 0
	assert_groups $(echo "${ALICE_START//,/ }" | tr ' ' '\n' | grep -vx 29)
	assert_log info 1 'user "alice", rule "rest"'
}
