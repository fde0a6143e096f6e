# tests/lib/profile.sh: make install, then pam-auth-update --enable
# dropgroups, on throwaway copies of /etc/pam.d (the sandbox's),
# /usr/share/pam-configs and /var/lib/pam (sourced).

enable_dropgroups_profile() {
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
}
