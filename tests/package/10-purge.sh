# tests/package: the .deb in a real Debian 12 root made by debootstrap
# (tests/package/root.sh, `make check-package`): installed and enabled as
# README.md says, logged in through, removed and purged, logged in again.
# The root is chrooted into inside the test's own namespaces; the host's
# /etc and dpkg database are never touched.

. "$TOP/tests/lib/debian.sh"

ROOT_TAR=${DG_PACKAGE_ROOT:-$BUILD/package/bookworm-root.tar}
# alice in the root: uid/gid 1001, then audio, video, plugdev, users and
# games-abusers, the ids Debian's base /etc/group gives them.
EVERY="29 44 46 100 1001 2003"
KEPT="100 1001 2003"

in_root() {
	chroot "$R" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin \
		HOME=/root LC_ALL=C.UTF-8 DEBIAN_FRONTEND=noninteractive "$@"
}

debian_root() {
	[ -s "$ROOT_TAR" ] || fail "no $ROOT_TAR: run tests/package/root.sh (make check-package does)"
	R=$T/root
	mkdir "$R"
	tar -C "$R" -xf "$ROOT_TAR"
	mount -t proc proc "$R/proc"
	mount --rbind /dev "$R/dev"
	mkdir -p "$R/run/sshd"
	in_root groupadd -g 2003 games-abusers
	in_root useradd -m -u 1001 -s /bin/sh \
		-G audio,video,plugdev,users,games-abusers alice
	cp "$DEB" "$R/tmp/"
}

# sshd of the root, on 127.0.0.1:22 of the test's network namespace,
# with a key for alice.
root_sshd() {
	ssh-keygen -q -t ed25519 -N '' -f "$T/alice_key"
	mkdir -p "$R/etc/ssh/keys"
	install -m 0644 "$T/alice_key.pub" "$R/etc/ssh/keys/alice"
	cat >> "$R/etc/ssh/sshd_config" <<-'EOF'
	ListenAddress 127.0.0.1
	AuthorizedKeysFile /etc/ssh/keys/%u
	PasswordAuthentication no
	KbdInteractiveAuthentication no
	EOF
	in_root /usr/sbin/sshd -E /tmp/sshd.log || fail "sshd did not start"
}

ssh_groups() {
	ssh -F /dev/null -i "$T/alice_key" -o BatchMode=yes \
		-o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null \
		-o LogLevel=ERROR -o ConnectTimeout=10 alice@127.0.0.1 id -G < /dev/null
}

# logins_give IDS: su, runuser and ssh each start alice with IDS.
logins_give() {
	local how out
	for how in su runuser ssh; do
		case $how in
		su) out=$(in_root su alice -c 'id -G') ;;
		runuser) out=$(in_root runuser -u alice -- id -G) ;;
		ssh) out=$(ssh_groups) ;;
		esac || fail "$how: the login was refused ($out)"
		echo "  $how: $out"
		[ "$(sorted $out)" = "$(sorted $1)" ] ||
			fail "$how gives groups $out, want $1"
	done
}

sorted() {
	printf '%s\n' "$@" | sort -n | xargs
}

write_policy() {
	cat > "$R/etc/security/dropgroups.conf" <<-'EOF'
	version = 1;
	restricting = ( "games-abusers" );
	rules = (
	  { name = "logins"; services = [ "su", "runuser", "sshd" ];
	    drop = [ "audio", "video", "plugdev" ]; }
	);
	EOF
	in_root dropgroups check || fail "the policy is not valid"
}

# purge_is_refused FILE...: apt-get purge stops, names a line of each
# FILE, and leaves the package installed.
purge_is_refused() {
	local f
	in_root apt-get purge -y libpam-dropgroups > "$T/apt.log" 2>&1 &&
		{ cat "$T/apt.log"; fail "purge went through while a stack names the module"; }
	sed 's/^/  apt: /' "$T/apt.log" | grep -v 'Reading \|Building '
	for f; do
		grep -q "^$f:[0-9][0-9]*: .*pam_dropgroups" "$T/apt.log" ||
			fail "the refusal does not name the line of $f"
	done
	in_root dpkg-query -W -f='${Status}\n' libpam-dropgroups | grep -q ' installed$' ||
		fail "the refused purge left the package not installed"
}

# purge_is_clean: apt-get purge goes through, dpkg warns of nothing, and
# no file of the root names the module any more.
purge_is_clean() {
	in_root apt-get purge -y libpam-dropgroups > "$T/apt.log" 2>&1 ||
		{ cat "$T/apt.log"; fail "purge failed"; }
	! grep -i 'warning' "$T/apt.log" || fail "dpkg warned on purge"
	! grep -rl pam_dropgroups "$R/etc/pam.d" || fail "a stack still names the module"
	[ ! -e "$R/etc/security/dropgroups.conf" ] || fail "purge kept the policy"
	[ ! -e "$R/run/dropgroups" ] || fail "purge kept the compiled policy in /run/dropgroups"
}

test_enabled_as_the_readme_says_then_purged_every_login_works() {
	skip_under_sanitizers "the package is built without sanitizers"
	build_deb
	debian_root
	root_sshd
	echo "before the package: every login keeps every group"
	logins_give "$EVERY"

	echo "every service: the profile, and runuser's own line (README step 4)"
	# (README step 1's command: apt resolves the dependencies)
	in_root apt-get install -y "/tmp/$(basename "$DEB")" > "$T/dpkg.log" 2>&1 ||
		{ cat "$T/dpkg.log"; fail "apt-get install failed"; }
	write_policy
	in_root dropgroups explain su alice | sed 's/^/  explain: /'
	in_root pam-auth-update --enable dropgroups
	echo 'session required pam_dropgroups.so' >> "$R/etc/pam.d/runuser"
	logins_give "$KEPT"

	echo "purge while runuser's line is there: refused, logins still work"
	purge_is_refused /etc/pam.d/runuser
	logins_give "$KEPT"
	echo "the line taken out, as the refusal says: purge goes through"
	sed -i '/pam_dropgroups/d' "$R/etc/pam.d/runuser"
	purge_is_clean
	logins_give "$EVERY"

	echo "sshd only: both lines of the snippet appended (README step 4)"
	in_root dpkg -i "/tmp/$(basename "$DEB")" > "$T/dpkg.log" 2>&1 ||
		{ cat "$T/dpkg.log"; fail "dpkg -i failed"; }
	write_policy
	grep -v '^#' "$R/usr/share/doc/libpam-dropgroups/pam.d/sshd" >> "$R/etc/pam.d/sshd"
	out=$(ssh_groups) || fail "ssh was refused"
	[ "$(sorted $out)" = "$(sorted $KEPT)" ] || fail "ssh gives $out, want $KEPT"
	echo "  ssh: $out"
	purge_is_refused /etc/pam.d/sshd
	out=$(ssh_groups) || fail "ssh was refused after the refused purge"
	echo "forced: the removal goes through and names the lines that now refuse"
	in_root env DROPGROUPS_FORCE_REMOVE=yes apt-get purge -y libpam-dropgroups \
		> "$T/apt.log" 2>&1 || { cat "$T/apt.log"; fail "the forced purge failed"; }
	grep -q '^/etc/pam.d/sshd:[0-9][0-9]*: account' "$T/apt.log" ||
		fail "the forced purge does not name the lines it leaves"
	! out=$(ssh_groups) || fail "ssh went through a stack naming a missing module: $out"
	sed -i '/pam_dropgroups/d' "$R/etc/pam.d/sshd"
	logins_give "$EVERY"
}
