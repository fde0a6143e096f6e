# Fail closed: for every broken or insecure policy, NSS error and failed
# setgroups, the module returns PAM_SESSION_ERR (or PAM_CRED_ERR), the
# groups stay exactly as they were, and one LOG_ERR line names the file,
# the line and the reason.  The stacks succeed only if the module returned
# that code (see stack() in lib.sh).

good_policy() {
	policy "${1:-$POLICY}" <<-'EOF'
	version = 1;
	restricting = ( "games-abusers" );
	rules = ( { name = "all"; services = "*"; drop = "*"; } );
	EOF
}

# Each broken policy below differs from good_policy in one thing; this
# proves the good one trims, so the failures are the module's doing.
test_control_good_policy_trims() {
	good_policy
	stack session success
	run_pam alice open_session
	assert_rc 0
	assert_groups 1001 2003
}

expect_session_failure() {
	stack session session_err
	run_pam alice open_session
	assert_failed_closed "$1"
}

test_missing_policy_file() {
	stack session session_err config=/etc/security/nope.conf
	run_pam alice open_session
	assert_failed_closed '/etc/security/nope.conf: cannot open: No such file or directory'
}

test_missing_policy_file_fails_setcred_with_cred_err() {
	stack setcred cred_err config=/etc/security/nope.conf
	run_pam alice "setcred(PAM_ESTABLISH_CRED)" open_session
	assert_failed_closed '/etc/security/nope.conf: cannot open'
}

test_policy_that_is_not_a_regular_file() {
	mkfifo -m 0644 "$POLICY"
	expect_session_failure "$POLICY: not a regular file"
}

test_syntax_error_names_file_and_line() {
	policy <<-'EOF'
	version = 1;
	restricting = ( "games-abusers" )
	rules = ( { services = "*"; drop = "*"; } ;
	EOF
	expect_session_failure "$POLICY:3: syntax error"
}

test_unknown_top_level_key() {
	policy <<-'EOF'
	version = 1;
	restricting = ( );
	colour = "red";
	EOF
	expect_session_failure "$POLICY:3: unknown key \"colour\""
}

test_unknown_rule_key() {
	policy <<-'EOF'
	version = 1;
	restricting = ( );
	rules = ( { name = "ssh"; services = "*";
	            drop = "*"; dorp = "audio"; } );
	EOF
	# the module's one line names the key meant, as check does
	expect_session_failure "$POLICY:4: unknown key \"dorp\" in rule \"ssh\"; did you mean \"drop\"\?; groups left unchanged$"
}

test_wrong_type() {
	policy <<-'EOF'
	version = 1;
	restricting = ( );
	rules = ( { services = "*"; drop = "*"; no_new_privs = "yes"; } );
	EOF
	expect_session_failure "$POLICY:3: no_new_privs must be a boolean"
}

test_version_other_than_1() {
	policy <<-'EOF'
	version = 2;
	restricting = ( );
	EOF
	expect_session_failure "$POLICY:1: version 2 is not supported"
}

test_restricting_missing_from_main_file() {
	policy <<-'EOF'
	version = 1;
	rules = ( { services = "*"; drop = "*"; } );
	EOF
	expect_session_failure "$POLICY: required setting \"restricting\" is missing"
}

# "*" would protect every group and so drop nothing: the man page calls
# it an error, and the module refuses the policy.
test_star_in_restricting_is_refused() {
	policy <<-'EOF'
	version = 1;
	restricting = ( "games-abusers", "*" );
	rules = ( { services = "dgtest"; drop = "audio"; } );
	EOF
	expect_session_failure "$POLICY:2: \"\*\" is not allowed in restricting"
}

test_rule_with_both_drop_and_keep() {
	policy <<-'EOF'
	version = 1;
	restricting = ( );
	rules = ( { name = "x"; services = "*"; drop = "*"; keep = "users"; } );
	EOF
	expect_session_failure "$POLICY:3: rule \"x\" has both \"drop\" and \"keep\""
}

test_rule_with_neither_drop_nor_keep() {
	policy <<-'EOF'
	version = 1;
	restricting = ( );
	rules = ( { name = "x"; services = "*"; } );
	EOF
	expect_session_failure "$POLICY:3: rule \"x\" has neither"
}

test_rule_without_services() {
	policy <<-'EOF'
	version = 1;
	restricting = ( );
	rules = ( { name = "x"; drop = "*"; } );
	EOF
	expect_session_failure "$POLICY:3: rule \"x\" has no \"services\""
}

test_at_include_is_refused() {
	good_policy "$T/other.conf"
	good_policy
	echo "@include \"$T/other.conf\"" >> "$POLICY"
	expect_session_failure "$POLICY:4: @include is not allowed"
}

test_policy_not_owned_by_root() {
	good_policy
	chown 65534 "$POLICY"
	expect_session_failure "$POLICY: the file is not owned by root \(owner uid 65534\)"
}

test_policy_writable_by_group() {
	good_policy
	chmod 0664 "$POLICY"
	expect_session_failure "$POLICY: the file is writable by group or others"
}

test_policy_writable_by_others() {
	good_policy
	chmod 0646 "$POLICY"
	expect_session_failure "$POLICY: the file is writable by group or others"
}

# o+w only (no g+w), and g+w only: each bit is refused on its own.
test_policy_directory_writable_by_others() {
	good_policy
	chmod 0757 /etc/security
	expect_session_failure "$POLICY: directory /etc/security is writable by group or others"
}

test_policy_directory_writable_by_group() {
	good_policy
	chmod 0775 /etc/security
	expect_session_failure "$POLICY: directory /etc/security is writable by group or others"
}

test_policy_directory_not_owned_by_root() {
	good_policy
	chown 65534 /etc/security
	expect_session_failure "$POLICY: directory /etc/security is not owned by root"
}

test_policy_symlink_is_never_followed() {
	good_policy /etc/security/real.conf
	ln -s real.conf "$POLICY"
	expect_session_failure "$POLICY: cannot open: it is a symbolic link"
}

test_include_dir_writable_by_others() {
	good_policy
	mkdir -m 0703 /etc/security/dropgroups.d
	expect_session_failure "$POLICY: directory /etc/security/dropgroups.d is writable by group or others"
}

test_include_dir_writable_by_group() {
	good_policy
	mkdir -m 0770 /etc/security/dropgroups.d
	expect_session_failure "$POLICY: directory /etc/security/dropgroups.d is writable by group or others"
}

test_include_dir_not_owned_by_root() {
	good_policy
	mkdir -m 0755 /etc/security/dropgroups.d
	chown 65534 /etc/security/dropgroups.d
	expect_session_failure "$POLICY: directory /etc/security/dropgroups.d is not owned by root"
}

test_include_dir_symlink_is_refused() {
	good_policy
	mkdir -m 0755 /etc/security/elsewhere
	ln -s elsewhere /etc/security/dropgroups.d
	expect_session_failure "directory /etc/security/dropgroups.d: it is a symbolic link"
}

# However include_dir spells the path, no component of it is followed
# through a symbolic link, the last one included.
test_include_dir_symlink_is_refused_however_spelled() {
	local spelling
	mkdir -m 0755 /etc/security/elsewhere /etc/security/real
	ln -s elsewhere /etc/security/link.d
	ln -s real /etc/security/lnk
	mkdir -m 0755 /etc/security/real/inc.d
	for spelling in /etc/security/link.d/ /etc/security/link.d/. \
		/etc/security//link.d// link.d/ ./link.d/./ \
		/etc/security/lnk/inc.d lnk/inc.d; do
		echo "-- include_dir = \"$spelling\""
		policy <<-EOF
		version = 1;
		restricting = ( "games-abusers" );
		include_dir = "$spelling";
		rules = ( { name = "all"; services = "*"; drop = "*"; } );
		EOF
		stack session session_err
		run_pam alice open_session
		assert_rc 0
		assert_untouched
	done
	assert_log err 7 'it is a symbolic link, which is never followed; groups left unchanged$'
	# the baseline: the same directories, reached without a link
	sed -i 's|include_dir = .*|include_dir = "real/inc.d/.";|' "$POLICY"
	stack session success
	run_pam alice open_session
	assert_rc 0
	assert_groups 1001 2003
}

test_include_dir_with_dot_dot_is_refused() {
	good_policy
	sed -i '2a include_dir = "/etc/security/x/../dropgroups.d";' "$POLICY"
	expect_session_failure 'include_dir /etc/security/x/../dropgroups.d has a ".." component'
}

# A missing comma between two names: libconfig joins "audio" "video"
# into "audiovideo", a group that does not exist, so the rule would drop
# neither, with only a warning.  Refused, naming the line; with the comma
# the same rule trims (the baseline).
test_two_names_without_a_comma_fail_closed() {
	policy <<-'EOF'
	version = 1;
	restricting = ( "games-abusers" );
	rules = ( { services = "*"; drop = [ "audio"
	    "video" ]; } );
	EOF
	expect_session_failure "$POLICY:4: two strings side by side, which libconfig joins into one: put a comma between them; groups left unchanged$"
	sed -i 's/"audio"$/"audio",/' "$POLICY"
	stack session success
	log_reset
	run_pam alice open_session
	assert_rc 0
	assert_groups 1001 100 46 2003 3000
}

# libconfig 1.5 ignores everything after a comment that is never
# closed: here the drop-in's restricting list, and with it the guard.
test_unterminated_comment_in_a_drop_in_fails_closed() {
	good_policy
	mkdir -m 0755 /etc/security/dropgroups.d
	policy /etc/security/dropgroups.d/10-local.conf <<-'EOF'
	version = 1;
	/* the local negative groups
	restricting = ( "students" );
	EOF
	expect_session_failure "/etc/security/dropgroups.d/10-local.conf:2: this comment is never closed"
	# closed, the drop-in is fine and students stays
	sed -i 's|groups$|groups */|' /etc/security/dropgroups.d/10-local.conf
	stack session success
	run_pam alice open_session
	assert_rc 0
	assert_groups 1001 2003 3000
}

# A terminal prints what follows a carriage return over what precedes
# it: "# TODO<CR>restricting = ( ... );" shows a restricting list that is
# a comment to libconfig.
test_text_that_does_not_show_as_read_fails_closed() {
	printf 'version = 1;\nrestricting = ( ); # TODO\rrestricting = ( "games-abusers" );\nrules = ( { services = "*"; drop = "*"; } );\n' | policy
	expect_session_failure "$POLICY:2: control character 0x0d"
}

# libconfig 1.5 keeps a number without an L suffix in a 32-bit int:
# 4294971397 is 2^32 + 4101, and would have dropped gid 4101.
test_numbers_that_libconfig_would_wrap_fail_closed() {
	policy <<-'EOF'
	version = 1;
	restricting = ( "games-abusers" );
	rules = ( { services = "*"; drop = ( 4294967325 ); } );
	EOF
	expect_session_failure "$POLICY:3: number 4294967325 is out of range: libconfig would wrap it"
	# 4294967325 wraps to 29 (audio): the baseline drops it when written so
	sed -i 's/4294967325/29/' "$POLICY"
	stack session success
	run_pam alice open_session
	assert_rc 0
	assert_groups 1001 100 44 46 2003 3000
	log_reset
	printf 'version = 4294967297;\nrestricting = ( );\n' | policy
	expect_session_failure "$POLICY:1: number 4294967297 is out of range"
}

test_drop_in_writable_by_group() {
	good_policy
	mkdir -m 0755 /etc/security/dropgroups.d
	echo 'version = 1;' | policy /etc/security/dropgroups.d/10-x.conf
	chmod 0664 /etc/security/dropgroups.d/10-x.conf
	expect_session_failure "/etc/security/dropgroups.d/10-x.conf: the file is writable by group or others"
}

test_drop_in_not_owned_by_root() {
	good_policy
	mkdir -m 0755 /etc/security/dropgroups.d
	echo 'version = 1;' | policy /etc/security/dropgroups.d/10-x.conf
	chown 65534 /etc/security/dropgroups.d/10-x.conf
	expect_session_failure "/etc/security/dropgroups.d/10-x.conf: the file is not owned by root"
}

test_drop_in_with_include_dir() {
	good_policy
	mkdir -m 0755 /etc/security/dropgroups.d
	printf 'version = 1;\ninclude_dir = "/tmp";\n' | policy /etc/security/dropgroups.d/10-x.conf
	expect_session_failure "/etc/security/dropgroups.d/10-x.conf:2: include_dir is allowed only in the main file"
}

test_drop_in_without_version() {
	good_policy
	mkdir -m 0755 /etc/security/dropgroups.d
	echo 'restricting = ( );' | policy /etc/security/dropgroups.d/10-x.conf
	expect_session_failure "/etc/security/dropgroups.d/10-x.conf: required setting \"version\" is missing"
}

# Each NSS failure below is the directory of lib.sh use_directory,
# failing the way nss-pam-ldapd does with nslcd down (UNAVAIL, ENOENT).

# A restricting name the directory cannot look up (nslcd down), under a
# rule that drops everything else.
restricting_name_outage() {
	use_directory 'group ldap-abusers 6003' 'fail getgrnam ldap-abusers unavail ENOENT'
	policy <<-'EOF'
	version = 1;
	restricting = ( "games-abusers", "ldap-abusers" );
	rules = ( { name = "all"; services = "*"; drop = "*"; } );
	EOF
}

test_nss_error_on_restricting_name() {
	restricting_name_outage
	expect_session_failure "$POLICY:2: looking up group \"ldap-abusers\" in restricting failed: No such file or directory"
}

test_nss_error_on_drop_name() {
	# Not knowing a gid in drop or keep is as bad: keep would drop more.
	use_directory 'fail getgrnam ldap-users unavail EIO'
	policy <<-'EOF'
	version = 1;
	restricting = ( );
	rules = ( { services = "*"; keep = [ "users", "ldap-users" ]; } );
	EOF
	expect_session_failure "$POLICY:3: looking up group \"ldap-users\" in keep failed: Input/output error"
}

test_nss_error_on_user() {
	use_directory 'user dave 5001 5001' 'fail getpwnam dave unavail ENOENT'
	good_policy
	stack session session_err
	START=5001
	run_pam dave open_session
	assert_failed_closed 'looking up user "dave" failed: No such file or directory'
}

test_unknown_user() {
	good_policy
	stack session session_err
	run_pam ghost open_session
	assert_failed_closed 'user "ghost" does not exist'
}

# The user name is not the admin's choice: in sshd's auth stack it is
# whatever the client sent, for a user that does not exist too.  A
# newline in it must not start a line of its own in the log (here a
# forged login line), and no control byte reaches the log raw: each is
# written \xHH, as in the fields.
test_a_user_name_cannot_forge_a_log_line() {
	local forged='pam_dropgroups(dgtest:session): service=dgtest user=root uid=0 rule=all result=dropped'
	good_policy
	stack session session_err
	run_pam "$(printf 'ghost\n%s\033[2J' "$forged")" open_session
	assert_failed_closed 'user "ghost\\x0apam_dropgroups\(dgtest:session\): service=dgtest user=root uid=0 rule=all result=dropped\\x1b\[2J" does not exist'
	log_flush
	! grep -qF "$forged" <(grep -v '^<' "$LOG") ||
		fail "the user name started a log line of its own"
	! LC_ALL=C grep -q $'\033' "$LOG" || fail "an escape byte reached the log raw"
	# the baseline: the same name through logger(1), which does not
	# escape, does start a line of its own in this sink
	env -u LD_PRELOAD logger -u /dev/log -t dgtest "$(printf 'ghost\n%s' "$forged")"
	log_flush
	grep -qF "$forged" <(grep -v '^<' "$LOG") ||
		fail "the sink does not show a raw newline as a line: the test proves nothing"
}

# The same name in the auth and account stacks, where sshd passes the
# client's name before it knows the user exists, with debug on too: the
# session stack above is not the only facility whose lines carry it.
test_a_user_name_is_one_line_in_auth_and_account_too() {
	local name esc='ghost\\x0aforged\\x0d\\x1b\\x7f\\xc2\\x85\\xe2\\x80\\xa8'
	# (and UTF-8's NEL and line separator, line breaks to some readers)
	name=$(printf 'ghost\nforged\r\033\177\302\205\342\200\250')
	good_policy
	for debug in "" debug; do
		log_reset
		stack setcred auth_err config=$POLICY $debug
		run_pam "$name" authenticate
		assert_rc 0
		stack account perm_denied config=$POLICY $debug
		run_pam "$name" authenticate acct_mgmt
		assert_rc 0
		assert_log err 2 "\\((dgtest:auth|dgtest:account)\\): service=dgtest user=\"$esc\" .*: user \"$esc\" does not exist; groups left unchanged\$"
		# every line of the sink starts a message: none was split
		! LC_ALL=C grep -aqv '^<' "$LOG" ||
			fail "a message of the module's was split"
		! LC_ALL=C grep -aq $'[\r\033\177\302\342]' "$LOG" ||
			fail "a byte outside printable ASCII reached the log raw"
	done
}

test_setgroups_without_cap_setgid_fails_closed() {
	good_policy
	PRE=(--inh-caps=-all --bounding-set=-setgid)
	expect_session_failure 'setgroups failed: Operation not permitted; the process lacks CAP_SETGID, and dropping groups without it needs a kernel with subset-setgroups'
}

test_setcred_without_cap_setgid_fails_with_cred_err() {
	good_policy
	PRE=(--inh-caps=-all --bounding-set=-setgid)
	stack setcred cred_err
	run_pam alice "setcred(PAM_ESTABLISH_CRED)" open_session
	assert_failed_closed 'lacks CAP_SETGID'
}

test_no_new_privs_is_set_before_setgroups() {
	# setgroups fails here; no_new_privs was already set, and the groups
	# are untouched: never fewer groups without the flag that was asked.
	policy <<-'EOF'
	version = 1;
	restricting = ( );
	rules = ( { services = "*"; drop = "*"; no_new_privs = true; } );
	EOF
	PRE=(--inh-caps=-all --bounding-set=-setgid)
	expect_session_failure 'lacks CAP_SETGID'
	assert_no_new_privs 1
	# and when setgroups succeeds, the flag came first: the order of
	# the module's system calls, as strace saw them
	log_reset
	PRE=(strace -f -qq -o "$T/trace" -e trace=prctl,setgroups)
	stack session success
	run_pam alice open_session
	assert_rc 0
	assert_groups 1001
	assert_no_new_privs 1
	local nnp set
	# awk reads the file itself: a pipe into head could end grep with
	# SIGPIPE, and pipefail the test with it
	nnp=$(awk '/PR_SET_NO_NEW_PRIVS/ { print NR; exit }' "$T/trace")
	set=$(awk '/setgroups/ && !/ = -/ { print NR; exit }' "$T/trace")
	[ -n "$nnp" ] && [ -n "$set" ] || fail "strace saw no prctl or setgroups: $(cat "$T/trace")"
	[ "$nnp" -lt "$set" ] || fail "setgroups came before no_new_privs: $(cat "$T/trace")"
}

# After setgroups the module reads the groups back, as OpenSSH does, and
# compares them whole with what it set: a kernel (here tests/faults/liar.c,
# preloaded) that reports another list, of the same length with one gid
# swapped, one gid short or one more, or fails to report one, is a
# failure, and the old list is set back.  The baseline: the same list in
# another order, with a gid twice, is the same set and the drop stands.
test_groups_read_back_other_than_set_fail_closed() {
	good_policy
	local lie
	for lie in swap short extra fail; do
		echo "-- DG_LIAR=$lie"
		log_reset
		PRE=(env LD_PRELOAD="${LD_PRELOAD:+$LD_PRELOAD }$BUILD/liar.so" DG_LIAR=$lie)
		expect_session_failure 'the groups read back after setgroups are not the ones set; the old list was set back'
	done
	log_reset
	PRE=(env LD_PRELOAD="${LD_PRELOAD:+$LD_PRELOAD }$BUILD/liar.so" DG_LIAR=unsorted)
	stack session success
	run_pam alice open_session
	assert_rc 0
	assert_groups 1001 2003
}

# prctl(PR_SET_NO_NEW_PRIVS) failing (tests/faults/liar.c) fails closed
# before setgroups; the baseline is the same rule without the lie.
test_no_new_privs_failure_fails_closed() {
	policy <<-'EOF'
	version = 1;
	restricting = ( );
	rules = ( { services = "*"; drop = "*"; no_new_privs = true; } );
	EOF
	PRE=(env LD_PRELOAD="${LD_PRELOAD:+$LD_PRELOAD }$BUILD/liar.so" DG_LIAR=nnp)
	expect_session_failure 'cannot set no_new_privs: Invalid argument'
	assert_no_new_privs 0
	log_reset
	PRE=(env LD_PRELOAD="${LD_PRELOAD:+$LD_PRELOAD }$BUILD/liar.so")
	stack session success
	run_pam alice open_session
	assert_rc 0
	assert_groups 1001
	assert_no_new_privs 1
}

test_unknown_module_argument() {
	good_policy
	stack session session_err "config=$POLICY" colour=red
	run_pam alice open_session
	assert_failed_closed 'unknown option "colour=red"'
}

test_relative_config_path() {
	good_policy
	stack session session_err config=security/dropgroups.conf
	run_pam alice open_session
	assert_failed_closed 'config=security/dropgroups.conf: the policy path must be absolute'
}

test_oversized_policy_file() {
	good_policy
	head -c 2000000 /dev/zero | tr '\0' '#' >> "$POLICY"
	expect_session_failure "$POLICY: file is larger than 1048576 bytes"
}

# libconfig would read a file with a NUL byte only up to it: whatever
# follows (here, the restricting list) would be silently ignored.
test_policy_with_a_nul_byte_fails_closed() {
	# the baseline: the same file with a space for the NUL trims
	printf 'version = 1;\n# \nrestricting = ( "games-abusers" );\nrules = ( { services = "*"; drop = "*"; } );\n' | policy
	stack session success
	run_pam alice open_session
	assert_rc 0
	assert_groups 1001 2003
	printf 'version = 1;\n# \0\nrestricting = ( "games-abusers" );\nrules = ( { services = "*"; drop = "*"; } );\n' | policy
	expect_session_failure "$POLICY: file contains a NUL byte"
}

# The same in a drop-in, as its very last byte (after the last newline).
test_drop_in_ending_in_a_nul_byte_fails_closed() {
	good_policy
	mkdir -m 0755 /etc/security/dropgroups.d
	# the baseline: the drop-in without its last byte is read
	printf 'version = 1;\n' | policy /etc/security/dropgroups.d/10-x.conf
	stack session success
	run_pam alice open_session
	assert_rc 0
	assert_groups 1001 2003
	printf 'version = 1;\n\0' | policy /etc/security/dropgroups.d/10-x.conf
	expect_session_failure "/etc/security/dropgroups.d/10-x.conf: file contains a NUL byte"
}

# The limit itself is allowed: a file of exactly 1048576 bytes, most of
# them one comment line with no newline at its end, trims; one byte more
# is refused.
test_policy_of_exactly_the_size_limit_is_read() {
	good_policy
	printf '#' >> "$POLICY"
	head -c $((1048576 - $(stat -c %s "$POLICY"))) /dev/zero | tr '\0' 'x' >> "$POLICY"
	[ "$(stat -c %s "$POLICY")" -eq 1048576 ] || fail "not 1 MiB"
	stack session success
	run_pam alice open_session
	assert_rc 0
	assert_groups 1001 2003
	printf 'x' >> "$POLICY"
	expect_session_failure "$POLICY: file is larger than 1048576 bytes"
}

test_system_err_option_changes_only_the_failure_code() {
	good_policy
	stack session system_err "config=$POLICY" system_err
	PRE=(--inh-caps=-all --bounding-set=-setgid)
	run_pam alice open_session
	assert_failed_closed 'lacks CAP_SETGID'
}

test_system_err_survives_a_typo_in_another_argument() {
	good_policy
	stack session system_err "config=$POLICY" system_err colur=red
	run_pam alice open_session
	assert_failed_closed 'unknown option "colur=red"'
}

test_system_err_option_still_trims() {
	good_policy
	stack session success "config=$POLICY" system_err
	run_pam alice open_session
	assert_rc 0
	assert_groups 1001 2003
}


# Root is never locked out (SECURITY.md): uid 0 can set any groups
# anyway, so a failure for it refuses nothing.  In every facility, with
# and without system_err, the same broken policy refuses alice and lets
# root through (PAM_IGNORE), its groups untouched, with one err line.
# run_facility USER FACILITY EXPECT [ARG...]
run_facility() {
	local user=$1 facility=$2 expect=$3 op=
	shift 3
	case $facility in
	session) ;;
	setcred) op="setcred(PAM_ESTABLISH_CRED)" ;;
	auth) op=authenticate ;;
	account) op=acct_mgmt ;;
	esac
	log_reset
	stack "${facility/auth/setcred}" "$expect" "$@"
	run_pam "$user" $op open_session
	assert_rc 0
	assert_untouched
}

# The code alice's failure has in FACILITY: session_err, ...
refusal() {
	case $1 in
	session) echo session_err ;; setcred) echo cred_err ;;
	auth) echo auth_err ;; account) echo perm_denied ;;
	esac
}

root_is_never_refused() {
	local why=$1 facility args code
	for args in "config=$POLICY" "config=$POLICY system_err"; do
		for facility in session setcred auth account; do
			echo "-- $facility $args"
			code=$(refusal "$facility")
			[ "${args#* }" = system_err ] && code=system_err
			run_facility alice "$facility" "$code" $args
			assert_log err 1 "$why; groups left unchanged$"
			run_facility root "$facility" ignore $args
			assert_log err 1 "$why; groups left unchanged, and the session is not refused: the user is uid 0, who can set any groups anyway$"
		done
	done
}

test_a_broken_policy_refuses_alice_but_never_root() {
	# the baseline: the rule applies to root as to anyone
	good_policy
	stack session success
	run_pam root open_session
	assert_rc 0
	assert_groups 2003
	echo 'version = 1; restricting = ( ); bogus = 1;' | policy
	root_is_never_refused "$POLICY:1: unknown key \"bogus\""
}

test_an_nss_error_refuses_alice_but_never_root() {
	restricting_name_outage
	root_is_never_refused "$POLICY:2: looking up group \"ldap-abusers\" in restricting failed: No such file or directory"
}

# Who is uid 0 is what NSS says of the user: a name whose look-up fails
# is refused, even one the directory holds as uid 0, as nothing then
# says which uid the session runs as.
test_a_user_whose_look_up_fails_is_refused_even_as_uid_0() {
	use_directory 'user toor 0 0'
	echo 'version = 1; restricting = ( ); bogus = 1;' | policy
	stack session ignore
	run_pam toor open_session
	assert_rc 0
	assert_untouched
	assert_log err 1 'the session is not refused: the user is uid 0'
	log_reset
	directory 'user toor 0 0' 'fail getpwnam toor unavail ENOENT'
	stack session session_err
	run_pam toor open_session
	assert_failed_closed "$POLICY:1: unknown key \"bogus\"; groups left unchanged$"
}

# Each passwd service, asked on its own, may hold the name as uid 0
# while glibc, following the line's actions, finds no such user: here
# "files [NOTFOUND=return]" stops before the directory that holds toor.
# The login program was told of no uid 0, so nothing says the session
# runs as uid 0: refused, as any user.
test_a_uid_0_that_glibc_does_not_find_is_refused() {
	use_directory 'user toor 0 0'
	echo 'version = 1; restricting = ( ); bogus = 1;' | policy
	stack session ignore
	run_pam toor open_session
	assert_rc 0
	assert_untouched
	assert_log err 1 'the session is not refused: the user is uid 0'
	log_reset
	printf 'passwd: files [NOTFOUND=return] dgfault\ngroup: files dgfault\n' \
		> /etc/nsswitch.conf
	if getent passwd toor > /dev/null; then
		fail "glibc still finds toor"
	fi
	stack session session_err
	run_pam toor open_session
	assert_failed_closed "$POLICY:1: unknown key \"bogus\"; groups left unchanged$"
}

# A name glibc looks up as uid 0 is not enough: sudo -u '#5000' reaches
# a user by uid, and a directory after "files" may call uid 5000 "root"
# while /etc/passwd's "root" is uid 0, so PAM_USER is "root" for a
# session that runs as 5000.  Every NSS passwd service is asked for the
# name on its own: one that gives another uid, or does not answer,
# refuses, "root" too.  The baseline: a directory that does not know the
# name lets root through.
test_a_name_a_directory_gives_another_uid_is_not_root() {
	use_directory 'user bob 5001 5001'
	echo 'version = 1; restricting = ( ); bogus = 1;' | policy
	stack session ignore
	run_pam root open_session
	assert_rc 0
	assert_untouched
	assert_log err 1 'the session is not refused: the user is uid 0, who can set any groups anyway$'
	log_reset
	directory 'user root 5000 5000'
	stack session session_err
	run_pam root open_session
	assert_failed_closed "$POLICY:1: unknown key \"bogus\"; groups left unchanged$"
	log_reset
	# a directory that does not answer: whether it holds a "root" of
	# another uid cannot be told
	directory 'fail getpwnam root unavail ENOENT'
	run_pam root open_session
	assert_failed_closed "$POLICY:1: unknown key \"bogus\"; groups left unchanged$"
	log_reset
	# /etc/passwd itself with a second "root" line, of another uid
	echo 'root:x:5000:5000::/:/bin/sh' >> /etc/passwd
	directory 'user bob 5001 5001'
	run_pam root open_session
	assert_failed_closed "$POLICY:1: unknown key \"bogus\"; groups left unchanged$"
}

# A line of /etc/passwd too long to read (over 1 MiB) might be a "root"
# of another uid: whether it is cannot be told, so root is refused even
# where a directory holds "root" as uid 0.  The baseline: with the line
# short, root is let through.
test_a_passwd_line_too_long_to_read_is_not_root() {
	use_directory 'user root 0 0'
	echo 'version = 1; restricting = ( ); bogus = 1;' | policy
	stack session ignore
	cp /etc/passwd "$T/passwd"
	echo 'root:x:0:0:short:/root:/bin/sh' >> /etc/passwd
	run_pam root open_session
	assert_rc 0
	assert_untouched
	assert_log err 1 'the session is not refused: the user is uid 0, who can set any groups anyway$'
	log_reset
	stack session session_err
	cat "$T/passwd" > /etc/passwd
	{
		printf 'root:x:5000:5000:'
		head -c 1100000 /dev/zero | tr '\0' x
		printf ':/:/bin/sh\n'
	} >> /etc/passwd
	run_pam root open_session
	assert_failed_closed "$POLICY:1: unknown key \"bogus\"; groups left unchanged$"
}

# report_only refuses nothing, not even a broken policy or a line the
# module cannot read: each failure is logged, the groups stay, and every
# facility answers PAM_IGNORE, with or without system_err.
test_report_only_lets_a_broken_policy_through_and_logs_it() {
	local facility args
	echo 'version = 1; restricting = ( ); bogus = 1;' | policy
	# the baseline: without report_only, alice is refused
	run_facility alice session session_err "config=$POLICY"
	assert_log err 1 "$POLICY:1: unknown key \"bogus\"; groups left unchanged$"
	for args in "config=$POLICY report_only" \
		"config=$POLICY system_err report_only"; do
		for facility in session setcred auth account; do
			echo "-- $facility $args"
			run_facility alice "$facility" ignore $args
			assert_log err 1 "$POLICY:1: unknown key \"bogus\"; groups left unchanged, and the session is not refused: report_only enforces nothing$"
		done
	done
	# root: the line without report_only would not refuse either, and
	# the trial says so, not that only report_only let root through
	run_facility root session ignore "config=$POLICY"
	assert_log err 1 "the session is not refused: the user is uid 0, who can set any groups anyway$"
	run_facility root session ignore "config=$POLICY" report_only
	assert_log err 1 "$POLICY:1: unknown key \"bogus\"; groups left unchanged, and the session is not refused: the user is uid 0, who can set any groups anyway$"
	good_policy
	run_facility alice session ignore "config=$POLICY" report_only colour=red
	assert_log err 1 'unknown option "colour=red"; groups left unchanged, and the session is not refused: report_only enforces nothing$'
}
