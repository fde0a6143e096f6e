# tests/lib/debian.sh: the libpam-dropgroups package, built from the working
# tree, and a throwaway root to install it in (sourced by the tests that
# install the package: 90-debian-package.sh, 82-ansible.sh).

# build_deb: build the package from the working tree, without build
# outputs, and set DEB to it.  A build takes minutes: run-integration.sh
# gives every test of one run a directory of its own (DG_DEB_CACHE), and
# the first test to build puts the .deb there for the others.
build_deb() {
	local src=$T/src/pam-dropgroups cached
	cached=$(ls "${DG_DEB_CACHE:-/nonexistent}"/libpam-dropgroups_*.deb 2>/dev/null || true)
	if [ -n "$cached" ]; then
		mkdir -p "$T/src"
		cp "$cached" "$T/src/"
		DEB=$T/src/$(basename "$cached")
		echo "built $(basename "$DEB") (earlier in this run)"
		return 0
	fi
	mkdir -p "$src"
	tar -C "$TOP" --exclude=./build --exclude=./.git -c . | tar -C "$src" -x
	(cd "$src" && dpkg-buildpackage -us -uc -b) > "$T/build.log" 2>&1 ||
		{ tail -n 30 "$T/build.log"; fail "dpkg-buildpackage failed"; }
	DEB=$(ls "$T"/src/libpam-dropgroups_*.deb)
	echo "built $(basename "$DEB")"
	if [ -n "${DG_DEB_CACHE:-}" ] && [ -d "$DG_DEB_CACHE" ]; then
		# (a copy, then a rename: a half-written .deb is never found)
		cp "$DEB" "$DG_DEB_CACHE/.new" || fail "could not keep the .deb for the run"
		mv "$DG_DEB_CACHE/.new" "$DG_DEB_CACHE/$(basename "$DEB")" ||
			fail "could not keep the .deb for the run"
	fi
}

# Everything below /usr, /etc and /var now writes to tmpfs.  The host's
# user and group files show through, as dpkg needs them; use_test_users puts
# the test's own on top for a login, and use_host_users takes them off.
# (The overlays hide the sandbox's bind mounts below /etc and /var: what
# the test writes there goes to $T/ov, and the host's root is only read.)
throwaway_root() {
	local d
	for d in usr etc var; do
		mkdir -p "$T/ov/$d/up" "$T/ov/$d/work"
		mount -t overlay overlay \
			-o "lowerdir=/$d,upperdir=$T/ov/$d/up,workdir=$T/ov/$d/work" "/$d"
	done
	rm -rf /etc/security/dropgroups.conf /etc/security/dropgroups.d
	! dpkg -s libpam-dropgroups > /dev/null 2>&1 ||
		fail "libpam-dropgroups is already installed on this host"
}

# add_dpkg_owners: dpkg stops ("unknown system group ... in statoverride
# file") when a user or group its statoverride file names is unknown, so
# a dpkg run under the test's users needs those too.  Each is copied from
# the host's file into the test's own, without members (no test user gains
# a group), unless the test has the name already; a name or id the test
# uses otherwise fails the test.  Call it after throwaway_root (the host's
# files show) and before use_test_users.
add_dpkg_owners() {
	local u g
	[ -f /var/lib/dpkg/statoverride ] || return 0
	while read -r u g _; do
		add_dpkg_owner passwd "$u"
		add_dpkg_owner group "$g"
	done < /var/lib/dpkg/statoverride
}

add_dpkg_owner() { # add_dpkg_owner passwd|group NAME
	local line id
	case $2 in '#'*) return 0 ;; esac # a number: nothing to look up
	grep -q "^$2:" "$T/etc/$1" && return 0
	line=$(grep -m 1 "^$2:" "/etc/$1") || fail "$2 is not in the host's /etc/$1"
	id=$(echo "$line" | cut -d: -f3)
	! cut -d: -f3 "$T/etc/$1" | grep -qx "$id" ||
		fail "the host's $1 entry $2 has an id of the test's: $id"
	[ "$1" = group ] && line=${line%:*}:
	echo "$line" >> "$T/etc/$1"
	echo "  for dpkg: $1 $line"
}

use_test_users() {
	local f
	for f in passwd group shadow gshadow nsswitch.conf; do
		[ -e "$T/etc/$f" ] && mount --bind "$T/etc/$f" "/etc/$f"
	done
}

use_host_users() {
	local f
	for f in passwd group shadow gshadow nsswitch.conf; do
		[ -e "$T/etc/$f" ] && umount "/etc/$f"
	done
}
