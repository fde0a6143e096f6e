# make install, then pam-auth-update --enable dropgroups, on throwaway
# copies of /etc/pam.d, /usr/share/pam-configs and /var/lib/pam: the
# resulting common-* stacks make su, sudo and sshd trim.

. "$TOP/tests/lib/sshd.sh"
. "$TOP/tests/lib/profile.sh"

enable_profile() {
	enable_dropgroups_profile
	policy <<-'EOF'
	version = 1;
	restricting = ( "games-abusers" );
	rules = ( { services = [ "su", "sudo", "sshd" ]; drop = [ "audio", "video", "plugdev" ]; } );
	EOF
}

test_pam_auth_update_profile_makes_su_and_sudo_trim() {
	skip_under_sanitizers "make install builds its own objects"
	capture su alice -c "$SUPP_GROUPS"
	assert_ids "$out" $ALL
	enable_profile
	capture su alice -c "$SUPP_GROUPS"
	assert_ids "$out" $TRIMMED
	capture sudo -u alice sh -c "$SUPP_GROUPS"
	assert_ids "$out" $TRIMMED
	echo 'version = 1; restricting = ( ); bogus = 1;' | policy
	capture su alice -c "$SUPP_GROUPS"
	[ "$rc" -ne 0 ] && [ -z "$out" ] || fail "su ran with a broken policy"
	capture sudo -u alice sh -c "$SUPP_GROUPS"
	[ "$rc" -ne 0 ] && [ -z "$out" ] || fail "sudo ran with a broken policy"
}

test_pam_auth_update_profile_makes_sshd_trim() {
	skip_under_sanitizers "make install builds its own objects"
	sshd_start
	ssh_alice -- "$SUPP_GROUPS"
	assert_ids "$out" $ALL
	enable_profile
	ssh_alice -- "$SUPP_GROUPS"
	assert_ids "$out" $TRIMMED
	ssh_alice -tt -- "$SUPP_GROUPS"
	assert_ids "$out" $TRIMMED
	echo 'version = 1; restricting = ( ); bogus = 1;' | policy
	ssh_alice -- "$SUPP_GROUPS"
	[ "$rc" -ne 0 ] && [ -z "$out" ] || fail "ssh logged in with a broken policy"
}

test_pam_auth_update_disable_removes_the_module() {
	skip_under_sanitizers "make install builds its own objects"
	enable_profile
	DEBIAN_FRONTEND=noninteractive pam-auth-update --disable dropgroups
	! grep -l pam_dropgroups /etc/pam.d/common-* || fail "the module is still in the stacks"
	capture su alice -c "$SUPP_GROUPS"
	assert_ids "$out" $ALL
}

# With the profile, su trims twice on one PAM handle: in pam_setcred
# (common-auth's line) and in pam_open_session (common-session's).  The
# login still leaves one line, and sudo's its own one.
test_pam_auth_update_profile_logs_one_line_per_su() {
	skip_under_sanitizers "make install builds its own objects"
	enable_profile
	log_reset
	capture su alice -c "$SUPP_GROUPS"
	assert_ids "$out" $TRIMMED
	assert_log info 1 'pam_dropgroups\(su:(setcred|session)\): service=su user=alice uid=1001 rule=[^ ]+ result=dropped dropped=audio\(29\),video\(44\),plugdev\(46\) kept=4: '
	log_reset
	capture sudo -u alice sh -c "$SUPP_GROUPS"
	assert_ids "$out" $TRIMMED
	assert_log info 1 'service=sudo user=alice uid=1001 .* result=dropped '
}
