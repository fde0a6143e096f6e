# Drop-in files: read after the main file in C-locale order, rules
# appended, restricting added, include_dir resolved and optional.

main_policy() {
	policy <<-EOF
	version = 1;
	restricting = ( );
	${1:-}
	rules = ( { name = "main"; services = "sshd"; drop = "*"; } );
	EOF
}

drop_in() {
	mkdir -p -m 0755 "$(dirname "$1")"
	policy "$1"
}

test_drop_in_rules_are_appended_after_main_rules() {
	main_policy
	drop_in /etc/security/dropgroups.d/50-dg.conf <<-'EOF'
	version = 1;
	rules = ( { name = "from-drop-in"; services = "dgtest"; drop = "audio"; } );
	EOF
	stack session success
	run_pam alice open_session
	assert_rc 0
	assert_groups 1001 100 44 46 2003 3000
	assert_log info 1 'rule "from-drop-in"'
}

test_main_file_rules_win_over_drop_ins() {
	policy <<-'EOF'
	version = 1;
	restricting = ( );
	rules = ( { name = "main"; services = "dgtest"; drop = "video"; } );
	EOF
	drop_in /etc/security/dropgroups.d/10-dg.conf <<-'EOF'
	version = 1;
	rules = ( { name = "drop-in"; services = "dgtest"; drop = "audio"; } );
	EOF
	stack session success
	run_pam alice open_session
	assert_rc 0
	assert_groups 1001 100 29 46 2003 3000
}

# The drop-ins are written twice, in C order and in reverse: whichever
# order the file system lists them in, one of the two differs from
# C order (tmpfs lists the newest first), and the rule must not change.
test_drop_ins_are_read_in_c_locale_order() {
	# "B.conf" < "a.conf" < "b.conf" in C order (uppercase first).
	local order
	main_policy
	for order in "B a b" "b a B"; do
		rm -f /etc/security/dropgroups.d/*.conf
		for f in $order; do
			case $f in
			B) drop_in /etc/security/dropgroups.d/B.conf <<-'EOF'
				version = 1;
				rules = ( { name = "B"; services = "dgtest"; drop = "audio"; } );
				EOF
				;;
			a) drop_in /etc/security/dropgroups.d/a.conf <<-'EOF'
				version = 1;
				rules = ( { name = "a"; services = "dgtest"; drop = "video"; } );
				EOF
				;;
			b) drop_in /etc/security/dropgroups.d/b.conf <<-'EOF'
				version = 1;
				rules = ( { name = "b"; services = "dgtest"; drop = "plugdev"; } );
				EOF
				;;
			esac
		done
		echo "written in the order $order; listed as: $(ls -U /etc/security/dropgroups.d | xargs)"
		log_reset
		stack session success
		run_pam alice open_session
		assert_rc 0
		assert_groups 1001 100 44 46 2003 3000
		assert_log info 1 'rule "B"'
	done
}

test_drop_in_restricting_is_added() {
	policy <<-'EOF'
	version = 1;
	restricting = ( "audio" );
	rules = ( { services = "dgtest"; drop = "*"; } );
	EOF
	drop_in /etc/security/dropgroups.d/10-r.conf <<-'EOF'
	version = 1;
	restricting = ( "games-abusers" );
	EOF
	stack session success
	run_pam alice open_session
	assert_rc 0
	assert_groups 1001 29 2003
}

test_only_conf_files_are_read() {
	main_policy
	for f in README x.conf.dpkg-old .hidden.conf; do
		echo 'this is not a policy' | drop_in "/etc/security/dropgroups.d/$f"
	done
	stack session ignore
	run_pam alice open_session
	assert_rc 0
	assert_untouched
}

test_missing_include_dir_is_fine() {
	main_policy 'include_dir = "/etc/security/nowhere.d";'
	stack session ignore
	run_pam alice open_session
	assert_rc 0
	assert_untouched
}

test_relative_include_dir_is_resolved_against_the_main_file() {
	main_policy 'include_dir = "site.d";'
	drop_in /etc/security/site.d/10.conf <<-'EOF'
	version = 1;
	rules = ( { services = "dgtest"; drop = "audio"; } );
	EOF
	stack session success
	# from another working directory, so a cwd-relative open would miss
	cd /
	run_pam alice open_session
	assert_rc 0
	assert_groups 1001 100 44 46 2003 3000
}

test_default_include_dir_follows_the_config_name() {
	# config=/etc/security/site.conf reads /etc/security/site.d/
	main_policy > /dev/null
	mv "$POLICY" /etc/security/site.conf
	drop_in /etc/security/site.d/10.conf <<-'EOF'
	version = 1;
	rules = ( { services = "dgtest"; drop = "audio"; } );
	EOF
	# the default directory must not be read for this config
	drop_in /etc/security/dropgroups.d/10.conf <<-'EOF'
	version = 1;
	rules = ( { services = "dgtest"; drop = "video"; } );
	EOF
	stack session success config=/etc/security/site.conf
	run_pam alice open_session
	assert_rc 0
	assert_groups 1001 100 44 46 2003 3000
}

test_broken_drop_in_fails_closed() {
	main_policy
	drop_in /etc/security/dropgroups.d/10.conf <<-'EOF'
	version = 1;
	rules = ( { services = "dgtest"; drop = "audio" } ;
	EOF
	stack session session_err
	run_pam alice open_session
	assert_failed_closed '/etc/security/dropgroups.d/10.conf:2: syntax error'
}

test_drop_in_symlink_is_refused() {
	main_policy
	drop_in /etc/security/real.conf <<-'EOF'
	version = 1;
	EOF
	mkdir -m 0755 /etc/security/dropgroups.d
	ln -s ../real.conf /etc/security/dropgroups.d/10.conf
	stack session session_err
	run_pam alice open_session
	assert_failed_closed '/etc/security/dropgroups.d/10.conf: cannot open: it is a symbolic link'
}

# An include directory that fails its check (mode 0777) is closed
# again: 50 sessions through one process leave no descriptor behind
# (each leaked one, found by an attack pass on the cache).
test_insecure_include_dir_leaks_no_descriptor() {
	skip_under_sanitizers "pam_cycles is built for the plain build only (as in 95-stress)"
	main_policy
	mkdir -p -m 0777 /etc/security/dropgroups.d
	chmod 0777 /etc/security/dropgroups.d
	printf 'auth required pam_permit.so\nsession required %s config=%s\n' \
		"$MODULE" "$POLICY" > "/etc/pam.d/$SERVICE"
	capture setpriv --groups "$START" "$BUILD/pam_cycles" "$SERVICE" alice \
		50 session PAM_SESSION_ERR
	# (pam_cycles fails when the count of open descriptors grew)
	assert_exit 0
	grep -q 'pam_open_session PAM_SESSION_ERR' "$T/out" ||
		fail "the sessions did not fail on the insecure directory"
}
