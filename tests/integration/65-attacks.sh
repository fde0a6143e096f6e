# The article's attacks, over the real su (and sshd): alice is in
# games-abusers, and her session drops "*".  The policy says that
# games-abusers is restricting, so every attack must still fail.  Each
# test also shows the attack working when the group really is gone
# (setpriv --groups without it), so it can fail.

. "$TOP/tests/lib/sshd.sh"

# Alice's groups, minus games-abusers: what an attacker would want.
WITHOUT_ABUSERS=1001,100,29,44,46,3000

attack_policy() {
	module_by_name
	policy <<-EOF
	version = 1;
	restricting = ( "games-abusers" );
	rules = ( { name = "shed-everything"; services = [ "su", "sshd" ]; drop = "*"; ${1:-} } );
	EOF
	use_snippet su
}

# as_alice CMD: through the real su, with the module trimming.
as_alice() {
	capture su alice -c "$1"
	out=$(cat "$T/out" "$T/err")
}

# as_alice_without_the_group CMD: alice's identity with games-abusers
# really gone, which is what the module must never allow.
as_alice_without_the_group() {
	capture setpriv --reuid alice --regid alice --groups "$WITHOUT_ABUSERS" \
		--inh-caps=-all env HOME=/home/alice sh -c "$1"
	out=$(cat "$T/out" "$T/err")
}

games_dir() {
	mkdir -p "$T/srv/games"
	echo "high scores" > "$T/srv/games/scores"
	chown -R bin:games-abusers "$T/srv/games"
	chmod 705 "$T/srv/games"
	chmod 644 "$T/srv/games/scores"
	mount --bind "$T/srv" /srv
}

test_attack_chmod_705_directory_stays_closed() {
	attack_policy
	games_dir
	as_alice "$SUPP_GROUPS; "'cat /srv/games/scores'
	echo "$out" | grep -qx '1001 2003' || fail "the session was not trimmed to primary + restricting"
	echo "$out" | grep -q 'Permission denied' || fail "alice read the games directory"
	! echo "$out" | grep -q 'high scores' || fail "alice read the scores"
	as_alice_without_the_group 'cat /srv/games/scores'
	[ "$out" = "high scores" ] || fail "baseline: without the group the directory should open"
}

test_attack_acl_deny_entry_still_denies() {
	attack_policy
	echo "secret" > "$T/data"
	chmod 644 "$T/data"
	setfacl -m g:games-abusers:--- "$T/data" || fail "this filesystem has no POSIX ACLs"
	getfacl -p "$T/data" | sed 's/^/  acl: /'
	as_alice "$SUPP_GROUPS; cat $T/data"
	# the attack was tried: the session really was trimmed
	echo "$out" | grep -qx '1001 2003' || fail "the session was not trimmed to primary + restricting"
	echo "$out" | grep -q 'Permission denied' || fail "alice read a file her ACL denies"
	as_alice_without_the_group "cat $T/data"
	[ "$out" = secret ] || fail "baseline: without the group the ACL should not deny"
}

sudoers_deny_abusers() {
	mkdir -p "$T/sudo"
	cat > "$T/sudoers" <<-'EOF'
	Defaults env_reset
	root ALL=(ALL:ALL) ALL
	ALL, !%games-abusers ALL=(root) NOPASSWD: /usr/bin/id
	EOF
	chmod 0440 "$T/sudoers"
	mount --bind "$T/sudoers" /etc/sudoers
	visudo -c -f /etc/sudoers > /dev/null || fail "test sudoers is invalid"
}

test_attack_sudoers_negated_group_still_denies() {
	attack_policy
	sudoers_deny_abusers
	as_alice "$SUPP_GROUPS; "'sudo -n /usr/bin/id -u'
	# su opened the session and trimmed it: only then does sudo's
	# refusal mean anything (it would also refuse a session su refused)
	echo "$out" | grep -qx '1001 2003' || fail "the session was not trimmed to primary + restricting"
	[ "$rc" -ne 0 ] && ! echo "$out" | grep -qx 0 || fail "sudo let a member of games-abusers run id as root"
	as_alice_without_the_group 'sudo -n /usr/bin/id -u'
	echo "$out" | grep -qx 0 || fail "baseline: without the group sudo should allow it"
}

# Two groups called games-abusers, a local one (2003, no members) and one
# that alice is in (2005: a directory's, say).  getgrnam_r() finds 2003,
# but sudo's "!%games-abusers" matches 2005 by its name.
test_attack_sudoers_negated_group_with_a_second_gid_of_that_name() {
	sed 's/^games-abusers:x:2003:alice$/games-abusers:x:2003:/' /etc/group > "$T/group"
	echo 'games-abusers:x:2005:alice' >> "$T/group"
	cat "$T/group" > /etc/group # in place: /etc/group is a bind mount
	attack_policy
	sudoers_deny_abusers
	as_alice "$SUPP_GROUPS; "'sudo -n /usr/bin/id -u'
	echo "$out" | grep -qx '1001 2005' || fail "the session was not trimmed to primary + restricting"
	[ "$rc" -ne 0 ] && ! echo "$out" | grep -qx 0 || fail "sudo let a member of games-abusers run id as root"
	# the attack, had the policy protected only the gid getgrnam_r gives
	sed -i 's/restricting = ( "games-abusers" );/restricting = ( 2003 );/' "$POLICY"
	as_alice "$SUPP_GROUPS; "'sudo -n /usr/bin/id -u'
	echo "$out" | grep -qx 1001 || fail "baseline: the session should have lost 2005"
	echo "$out" | grep -qx 0 || fail "baseline: without 2005 sudo should allow it"
}

# The audit's drop-in protects the name, not the one gid it saw.  A
# directory that does not list its groups (SSSD's default; here the
# sandbox's small directory after files, which answers look-ups but no
# enumeration) holds a second games-abusers, 2005, that alice is in;
# getgrent lists only the local 2003.  sudo's "!%games-abusers" matches
# 2005 by its name, so drop = "*" with the audit's drop-in must keep it.
test_attack_audit_dropin_keeps_every_gid_of_the_name() {
	sed 's/^games-abusers:x:2003:alice$/games-abusers:x:2003:/' /etc/group > "$T/group"
	cat "$T/group" > /etc/group # in place: /etc/group is a bind mount
	# (the directory first: its overlay on the library directory would
	# hide the module that module_by_name puts there)
	use_directory 'group games-abusers 2005 alice'
	module_by_name
	policy <<-'EOF'
	version = 1;
	restricting = ( );
	rules = ( { name = "shed-everything"; services = "su"; drop = "*"; } );
	EOF
	use_snippet su
	sudoers_deny_abusers
	mkdir -m 0755 /etc/security/dropgroups.d
	mkdir -m 0755 "$T/tree"
	capture "$DG" audit --sudoers /etc/sudoers --emit-dropin \
		/etc/security/dropgroups.d/50-audit.conf "$T/tree"
	assert_exit 1
	sed 's/^/  drop-in: /' /etc/security/dropgroups.d/50-audit.conf
	capture "$DG" check -c "$POLICY"
	assert_exit 0
	as_alice "$SUPP_GROUPS; "'sudo -n /usr/bin/id -u'
	echo "$out" | grep -qx '1001 2005' || fail "the session did not keep 2005, the directory's games-abusers"
	[ "$rc" -ne 0 ] && ! echo "$out" | grep -qx 0 || fail "sudo let a member of games-abusers run id as root"
	# the drop-in as the audit wrote it before: the gid getgrent listed
	printf 'version = 1;\nrestricting = ( 2003 );\n' > /etc/security/dropgroups.d/50-audit.conf
	as_alice "$SUPP_GROUPS; "'sudo -n /usr/bin/id -u'
	echo "$out" | grep -qx 1001 || fail "baseline: the session should have lost 2005"
	echo "$out" | grep -qx 0 || fail "baseline: without 2005 sudo should allow it"
}

# sudo compares group names ignoring case by default
# (case_insensitive_group): a group GAMES-ABUSERS is games-abusers to it.
test_attack_sudoers_negated_group_named_in_other_case() {
	sed 's/^games-abusers:x:2003:alice$/games-abusers:x:2003:/' /etc/group > "$T/group"
	echo 'GAMES-ABUSERS:x:2005:alice' >> "$T/group"
	cat "$T/group" > /etc/group
	attack_policy
	sudoers_deny_abusers
	as_alice "$SUPP_GROUPS; "'sudo -n /usr/bin/id -u'
	echo "$out" | grep -qx '1001 2005' || fail "the session was not trimmed to primary + restricting"
	[ "$rc" -ne 0 ] && ! echo "$out" | grep -qx 0 || fail "sudo let a member of GAMES-ABUSERS run id as root"
	# the attack, had the policy protected only the gid 2003
	sed -i 's/restricting = ( "games-abusers" );/restricting = ( 2003 );/' "$POLICY"
	as_alice "$SUPP_GROUPS; "'sudo -n /usr/bin/id -u'
	echo "$out" | grep -qx 1001 || fail "baseline: the session should have lost 2005"
	echo "$out" | grep -qx 0 || fail "baseline: without 2005 sudo should allow it"
}

test_attack_no_new_privs_makes_setuid_sudo_useless() {
	attack_policy 'no_new_privs = true;'
	cat > "$T/sudoers" <<-'EOF'
	root ALL=(ALL:ALL) ALL
	alice ALL=(root) NOPASSWD: /usr/bin/id
	EOF
	chmod 0440 "$T/sudoers"
	mount --bind "$T/sudoers" /etc/sudoers
	as_alice "$SUPP_GROUPS; "'grep NoNewPrivs /proc/self/status; sudo -n /usr/bin/id -u'
	echo "$out" | grep -qx '1001 2003' || fail "the session was not trimmed to primary + restricting"
	echo "$out" | grep -q '^NoNewPrivs:[[:space:]]*1$' || fail "the session lacks NoNewPrivs"
	[ "$rc" -ne 0 ] && ! echo "$out" | grep -qx 0 || fail "setuid sudo gained root under no_new_privs"
	# baseline: the same sudoers, without no_new_privs, gives root
	sed -i 's/no_new_privs = true;//' "$POLICY"
	as_alice 'grep NoNewPrivs /proc/self/status; sudo -n /usr/bin/id -u'
	echo "$out" | grep -q '^NoNewPrivs:[[:space:]]*0$' || fail "NoNewPrivs set without the rule asking"
	echo "$out" | grep -qx 0 || fail "baseline: sudo should work without no_new_privs"
}

test_attack_chmod_705_directory_stays_closed_over_sshd() {
	attack_policy
	sshd_start
	policy <<-'EOF'
	version = 1;
	restricting = ( "games-abusers" );
	rules = ( { services = "sshd"; drop = "*"; } );
	EOF
	use_snippet sshd
	games_dir
	ssh_alice -- "$SUPP_GROUPS; "'cat /srv/games/scores'
	echo "$out" | grep -qx '1001 2003' || fail "the ssh session was not trimmed"
	! echo "$out" | grep -q 'high scores' || fail "alice read the scores over ssh"
	as_alice_without_the_group 'cat /srv/games/scores'
	[ "$out" = "high scores" ] || fail "baseline: without the group the directory should open"
}
