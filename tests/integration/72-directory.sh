# Groups from a real directory: slapd in the test's sandbox, read through
# nslcd (libnss-ldapd) and through SSSD (id_provider = ldap), with
# nsswitch "files" first (tests/lib/directory.sh).  Each case runs once per
# NSS daemon, each shows its baseline (the same stack without the module
# keeps every group), and each can fail.  Outages: 73-directory-outages.sh.
#
# The directory: dave (5001) in ldap-abusers 6003 (restricting here),
# ldap-staff 6100, ldap-audio 6101, ldap-video 6102; bigdave (5002) in
# ldap-abusers, ldap-staff and 2,000 groups big7000..big8999.

. "$TOP/tests/lib/directory.sh"

dir_policy() {
	policy <<-'EOF'
	version = 1;
	restricting = ( "ldap-abusers" );
	rules = (
	  { name = "media"; services = [ "dgtest", "su", "su-l" ]; users = "%ldap-staff";
	    drop = [ "ldap-audio", "ldap-video" ]; }
	);
	EOF
}

# start_groups USER: $START is USER's groups as NSS gives them.
start_groups() {
	local ids
	ids=$(id -G "$1") || fail "NSS does not know $1"
	START=$(one_per_line "$ids" | sort -n -u | paste -sd,)
	echo "  $1 starts with $(echo "$START" | tr ',' '\n' | wc -l) groups"
}

# timed NAME CMD...: run CMD, print how long it took (no assertion).
timed() {
	local name=$1 t0 t1
	shift
	t0=$(date +%s%N)
	"$@"
	t1=$(date +%s%N)
	echo "  time: $name: $(((t1 - t0) / 1000000)) ms"
}

# ---------------------------------------------------------------- %group

percent_group_rule() {
	directory_start "$1"
	dir_policy
	start_groups dave
	assert_ids "${START//,/ }" $DAVE_GROUPS
	stack none
	run_pam dave open_session
	assert_rc 0
	assert_untouched
	stack session success
	run_pam dave open_session
	assert_rc 0
	assert_groups 5001 6003 6100
	assert_log info 1 'user "dave", rule "media": dropped ldap-audio\(6101\), ldap-video\(6102\)'
	assert_log err 0
	# The counterpart: dave is not in big7000, so the same rule for
	# "%big7000" does not apply.
	sed -i 's/%ldap-staff/%big7000/' "$POLICY"
	stack session ignore
	run_pam dave open_session
	assert_rc 0
	assert_untouched
}

test_directory_nslcd_percent_group_rule_on_a_directory_group() { percent_group_rule nslcd; }
test_directory_sss_percent_group_rule_on_a_directory_group() { percent_group_rule sss; }

# ------------------------------------------------------ 2,000 groups, keep

keep_2000() {
	directory_start "$1"
	policy <<-'EOF'
	version = 1;
	restricting = ( "ldap-abusers" );
	rules = ( { services = [ "dgtest", "su", "su-l" ]; users = "bigdave"; keep = [ "ldap-staff" ]; } );
	EOF
	# (through SSSD with a cold cache, this first look-up is the slow one)
	timed "id -G bigdave, first look-up" start_groups bigdave
	assert_many_ids "${START//,/ }" $(bigdave_groups)
	stack none
	timed "pamtester without the module" run_pam bigdave open_session
	assert_rc 0
	assert_many_ids "$(groups_seen)" 0 $(bigdave_groups)
	stack session success
	timed "pamtester with the module" run_pam bigdave open_session
	assert_rc 0
	assert_groups 5002 6003 6100
	assert_log err 0
	# and through su, which sets the 2,003 groups itself (initgroups)
	mkdir -m 0755 /home/bigdave
	chown 5002:5002 /home/bigdave
	module_by_name
	timed "su without the module" capture su bigdave -c "$SUPP_GROUPS"
	assert_many_ids "$out" $(bigdave_groups)
	use_snippet su
	timed "su with the module" capture su bigdave -c "$SUPP_GROUPS"
	assert_ids "$out" 5002 6003 6100
}

test_directory_nslcd_keep_with_2000_directory_groups() { keep_2000 nslcd; }
test_directory_sss_keep_with_2000_directory_groups() { keep_2000 sss; }

# -------------------------------------------- a restricting directory group

restricting_drop_star() {
	directory_start "$1"
	policy <<-'EOF'
	version = 1;
	restricting = ( "ldap-abusers" );
	rules = ( { services = "dgtest"; drop = "*"; } );
	EOF
	start_groups dave
	stack none
	run_pam dave open_session
	assert_rc 0
	assert_untouched
	stack session success
	run_pam dave open_session
	assert_rc 0
	assert_groups 5001 6003
	assert_log err 0
	# The counterpart: without the restricting list, the same rule drops
	# the directory group too.
	policy <<-'EOF'
	version = 1;
	restricting = ( );
	rules = ( { services = "dgtest"; drop = "*"; } );
	EOF
	run_pam dave open_session
	assert_rc 0
	assert_groups 5001
}

test_directory_nslcd_restricting_group_kept_by_drop_star() { restricting_drop_star nslcd; }
test_directory_sss_restricting_group_kept_by_drop_star() { restricting_drop_star sss; }

# ------------------------------------------------------ a real login: su

su_directory_user() {
	directory_start "$1"
	dir_policy
	module_by_name
	mkdir -m 0755 /home/dave
	chown 5001:5001 /home/dave
	capture su dave -c "$SUPP_GROUPS"
	assert_ids "$out" $DAVE_GROUPS
	use_snippet su
	capture su dave -c "$SUPP_GROUPS"
	assert_ids "$out" 5001 6003 6100
	capture su -l dave -c "$SUPP_GROUPS"
	assert_ids "$out" 5001 6003 6100
	assert_log err 0
}

test_directory_nslcd_su_trims_a_directory_user() { su_directory_user nslcd; }
test_directory_sss_su_trims_a_directory_user() { su_directory_user sss; }

# Through nslcd a local user's initgroups list takes in the directory
# groups that name her (SSSD answers initgroups only for its own users).
test_directory_nslcd_su_trims_a_local_user_s_directory_groups() {
	directory_start nslcd
	dir_policy
	module_by_name
	capture su alice -c "$SUPP_GROUPS"
	assert_ids "$out" $ALICE_NSLCD_GROUPS
	use_snippet su
	capture su alice -c "$SUPP_GROUPS"
	assert_ids "$out" $ALICE_GROUPS 6003 6100
}
