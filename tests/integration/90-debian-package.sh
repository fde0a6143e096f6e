# debian/: the libpam-dropgroups package builds with dpkg-buildpackage, is
# lintian-clean at error level, and installs (and removes) cleanly in a
# throwaway root: overlays on /usr, /etc and /var, private to the test.

# build_deb, throwaway_root, use_test_users and use_host_users are in
# tests/lib/debian.sh.
. "$TOP/tests/lib/debian.sh"

test_debian_package_builds_lintian_clean() {
	skip_under_sanitizers "the package is built without sanitizers"
	build_deb
	lintian --fail-on error "$DEB" > "$T/lintian.log" 2>&1 ||
		{ cat "$T/lintian.log"; fail "lintian reports errors"; }
	sed 's/^/  lintian: /' "$T/lintian.log"
}

test_debian_package_installs_each_file_in_place() {
	skip_under_sanitizers "the package is built without sanitizers"
	local secdir f
	build_deb
	throwaway_root
	dpkg -i "$DEB" > "$T/dpkg.log" 2>&1 || { cat "$T/dpkg.log"; fail "dpkg -i failed"; }
	secdir=/lib/$(dpkg-architecture -qDEB_HOST_MULTIARCH)/security
	for f in "$secdir/pam_dropgroups.so" /usr/sbin/dropgroups \
		/usr/share/man/man8/pam_dropgroups.8.gz /usr/share/man/man8/dropgroups.8.gz \
		/usr/share/man/man5/dropgroups.conf.5.gz /usr/share/pam-configs/dropgroups \
		/etc/security/dropgroups.conf /usr/share/doc/libpam-dropgroups/copyright \
		/usr/share/doc/libpam-dropgroups/pam.d/sshd; do
		[ -f "$f" ] || fail "the package did not install $f"
		dpkg -S "$f" > /dev/null || fail "$f is not owned by the package"
		echo "installed $f"
	done
	dpkg-query -W -f='${Conffiles}\n' libpam-dropgroups | grep -q ' /etc/security/dropgroups.conf ' ||
		fail "the example policy is not a conffile"
	/usr/sbin/dropgroups --version | grep -q '^dropgroups ' || fail "the CLI does not run"
	use_test_users
	/usr/sbin/dropgroups check || fail "the shipped policy is not valid"
	# "Default: no": installing must not change any stack
	! grep -l pam_dropgroups /etc/pam.d/common-* || fail "installing enabled the profile"
}

test_debian_package_profile_trims_su_and_removal_cleans_up() {
	skip_under_sanitizers "the package is built without sanitizers"
	build_deb
	throwaway_root
	dpkg -i "$DEB" > "$T/dpkg.log" 2>&1 || { cat "$T/dpkg.log"; fail "dpkg -i failed"; }
	policy <<-'EOF'
	version = 1;
	restricting = ( "games-abusers" );
	rules = ( { services = "su"; drop = [ "audio", "video", "plugdev" ]; } );
	EOF
	DEBIAN_FRONTEND=noninteractive pam-auth-update --enable dropgroups
	use_test_users
	out=$(su alice -c "$SUPP_GROUPS")
	assert_ids "$out" $TRIMMED
	use_host_users
	[ -d /run/dropgroups ] || fail "the login kept no compiled policy: the check after removal shows nothing"
	dpkg -r libpam-dropgroups > "$T/dpkg.log" 2>&1 || { cat "$T/dpkg.log"; fail "dpkg -r failed"; }
	! grep -l pam_dropgroups /etc/pam.d/common-* || fail "removal left the module in the stacks"
	use_test_users
	out=$(su alice -c "$SUPP_GROUPS")
	assert_ids "$out" $ALL
	use_host_users
	[ -f /etc/security/dropgroups.conf ] || fail "remove (not purge) deleted the conffile"
	# the compiled policy the logins left (pam_dropgroups(8), FILES)
	# goes with the module: nothing reads it any more
	[ ! -e /run/dropgroups ] || fail "remove left the compiled policy in /run/dropgroups"
	dpkg -P libpam-dropgroups > "$T/dpkg.log" 2>&1
	[ ! -e /etc/security/dropgroups.conf ] || fail "purge kept the conffile"
}

# The prerm's refusal names every line libpam would read that names the
# module: in a subdirectory of /etc/pam.d, behind an absolute include, in
# a vendor stack of /usr/lib/pam.d, and not one after a "#"
# (tests/debian/prerm-lines.sh, on a made-up root: no dpkg run); and
# through a symlinked stack or directory, a file name with blanks, and
# "Session Include", and a file it cannot read refuses too
# (tests/debian/prerm-more.sh).
test_debian_prerm_names_every_stack_line_that_names_the_module() {
	sh "$TOP/tests/debian/prerm-lines.sh" || fail "the prerm misses a line, or refuses for a comment"
	sh "$TOP/tests/debian/prerm-more.sh" || fail "the prerm misses a line"
}
