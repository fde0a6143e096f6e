# make install, then pam-auth-update --enable dropgroups, on throwaway
# copies of /etc/pam.d, /usr/share/pam-configs and /var/lib/pam: the
# resulting common-* stacks make su, sudo and sshd trim.

. "$TOP/tests/sshd.sh"

enable_profile() {
	local root=$T/root secdir
	secdir=$(pkg-config --variable=libdir pam)/security
	make -s -C "$TOP" install DESTDIR="$root" PREFIX=/usr > "$T/install.log" 2>&1 ||
		{ cat "$T/install.log"; fail "make install failed"; }
	# the installed module and profile, in copies of the system dirs
	module_by_name "$root$secdir/pam_dropgroups.so"
	mkdir "$T/pam-configs" "$T/var-lib-pam"
	cp -a /usr/share/pam-configs/. "$T/pam-configs/"
	cp "$root/usr/share/pam-configs/dropgroups" "$T/pam-configs/"
	mount --bind "$T/pam-configs" /usr/share/pam-configs
	[ -d /var/lib/pam ] && cp -a /var/lib/pam/. "$T/var-lib-pam/"
	mkdir -p /var/lib/pam
	mount --bind "$T/var-lib-pam" /var/lib/pam
	grep -q pam_dropgroups /etc/pam.d/common-session &&
		fail "the stacks have the module before pam-auth-update ran"
	DEBIAN_FRONTEND=noninteractive pam-auth-update --enable dropgroups ||
		fail "pam-auth-update failed"
	for f in common-auth common-account common-session common-session-noninteractive; do
		grep -H pam_dropgroups "/etc/pam.d/$f" || fail "$f lacks the module"
	done
	policy <<-'EOF'
	version = 1;
	restricting = ( "games-abusers" );
	rules = ( { services = [ "su", "sudo", "sshd" ]; drop = [ "audio", "video", "plugdev" ]; } );
	EOF
}

test_pam_auth_update_profile_makes_su_and_sudo_trim() {
	skip_under_sanitizers "make install builds its own objects"
	capture su alice -c 'id -G'
	assert_ids "$out" $ALL
	enable_profile
	capture su alice -c 'id -G'
	assert_ids "$out" $TRIMMED
	capture sudo -u alice id -G
	assert_ids "$out" $TRIMMED
	echo 'version = 1; restricting = ( ); bogus = 1;' | policy
	capture su alice -c 'id -G'
	[ "$rc" -ne 0 ] && [ -z "$out" ] || fail "su ran with a broken policy"
	capture sudo -u alice id -G
	[ "$rc" -ne 0 ] && [ -z "$out" ] || fail "sudo ran with a broken policy"
}

test_pam_auth_update_profile_makes_sshd_trim() {
	skip_under_sanitizers "make install builds its own objects"
	sshd_start
	ssh_alice -- id -G
	assert_ids "$out" $ALL
	enable_profile
	ssh_alice -- id -G
	assert_ids "$out" $TRIMMED
	ssh_alice -tt -- id -G
	assert_ids "$out" $TRIMMED
	echo 'version = 1; restricting = ( ); bogus = 1;' | policy
	ssh_alice -- id -G
	[ "$rc" -ne 0 ] && [ -z "$out" ] || fail "ssh logged in with a broken policy"
}

test_pam_auth_update_disable_removes_the_module() {
	skip_under_sanitizers "make install builds its own objects"
	enable_profile
	DEBIAN_FRONTEND=noninteractive pam-auth-update --disable dropgroups
	! grep -l pam_dropgroups /etc/pam.d/common-* || fail "the module is still in the stacks"
	capture su alice -c 'id -G'
	assert_ids "$out" $ALL
}
