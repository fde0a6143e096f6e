# dropgroups audit (issue 14): the groups a system uses to take access
# away, found on crafted trees in the test's own tmpfs.  Each test first
# shows the baseline (without the evidence, the group is not reported),
# so that it can fail.

# audit ARG...: dropgroups audit with an empty sudoers unless --sudoers.
audit() {
	[ -e "$T/no-sudoers" ] || : > "$T/no-sudoers"
	case " $* " in
	*" --sudoers "*) capture "$DG" audit "$@" ;;
	*) capture "$DG" audit --sudoers "$T/no-sudoers" "$@" ;;
	esac
}

# The groups the report names (first word of each row), on one line.
reported() {
	awk '{ print $1 }' "$T/out" | xargs
}

assert_reported() {
	[ "$(reported)" = "$*" ] || fail "reported: want [$*], got [$(reported)]"
}

tree() {
	mkdir -m 0755 "$T/tree"
	TREE=$T/tree
}

# f MODE GROUP PATH: a file with that mode and group
f() {
	mkdir -p "$(dirname "$TREE/$3")"
	touch "$TREE/$3"
	chgrp "$2" "$TREE/$3"
	chmod "$1" "$TREE/$3"
}

test_audit_mode_evidence_and_decoys() {
	tree
	# decoys: group-writable, a group that only grants, bits equal
	f 0664 audio gw-file
	f 0570 video only-grants
	f 0755 plugdev equal
	mkdir -m 0775 "$TREE/gw-dir"
	chgrp users "$TREE/gw-dir"
	f 0705 games-abusers sub/locked-out
	chmod 0700 "$TREE/sub/locked-out" # baseline: not yet negative
	audit "$TREE"
	assert_exit 0
	assert_reported ""
	# the article's chmod 705, on a file and on a directory
	chmod 0705 "$TREE/sub/locked-out"
	mkdir -m 0705 "$TREE/sub/dir705"
	chgrp students "$TREE/sub/dir705"
	f 0604 alice sub/dir705/read-only-for-others
	audit "$TREE"
	assert_exit 1
	assert_reported "alice games-abusers students"
	assert_in out "^games-abusers gid 2003: mode 1; e.g. $TREE/sub/locked-out$"
	assert_in out "^students gid 3000: mode 1; e.g. $TREE/sub/dir705$"
}

test_audit_acl_evidence_and_decoys() {
	tree
	f 0755 root named
	f 0755 root masked
	f 0755 root granting
	mkdir -m 0755 "$TREE/defaults"
	audit "$TREE"
	assert_exit 0
	assert_reported ""
	setfacl -m g:plugdev:--- "$TREE/named"
	# rwx for video, but the mask leaves r--, less than other's r-x
	setfacl -m g:video:rwx,m::r-- "$TREE/masked"
	# decoys: an entry that grants at least other, a default entry too
	setfacl -m g:users:r-x "$TREE/granting"
	setfacl -d -m g:users:rwx "$TREE/defaults"
	setfacl -d -m g:audio:--- "$TREE/defaults"
	getfacl -R "$TREE" 2>/dev/null | sed 's/^/  /'
	audit "$TREE"
	assert_exit 1
	# (masked: r-- is also what the owning group root gets after it)
	assert_reported "audio plugdev root video"
	assert_in out "^audio gid 29: acl 1; e.g. $TREE/defaults \(default ACL\)$"
	assert_in out "^plugdev gid 46: acl 1; e.g. $TREE/named$"
	assert_in out "^video gid 44: acl 1; e.g. $TREE/masked$"
	# an owning-group entry of an ACL that grants less than other
	rm "$TREE/masked"
	setfacl -m g::--x "$TREE/named"
	chgrp students "$TREE/named"
	audit "$TREE"
	assert_reported "audio plugdev students"
}

test_audit_sudoers_aliases_and_include_dirs() {
	tree
	mkdir -m 0755 "$T/sudoers.d" "$T/more"
	cat > "$T/sudoers" <<-EOF
	Defaults env_reset
	# a comment: ALL, !%audio ALL=(ALL) ALL
	%video ALL=(ALL) ALL
	@includedir $T/sudoers.d
	#include $T/more/extra
	EOF
	cat > "$T/sudoers.d/10-abusers" <<-'EOF'
	User_Alias ABUSERS = %games-abusers, bob
	Runas_Alias NOTSTUDENTS = ALL, !%students
	EOF
	# sudo skips a name with a '.' in an include directory
	echo 'ALL, !%plugdev ALL=(ALL) ALL' > "$T/sudoers.d/skipped.conf"
	echo 'alice ALL=(ALL) ALL' > "$T/more/extra"
	audit --sudoers "$T/sudoers" "$TREE"
	assert_exit 0
	assert_reported ""
	echo 'ALL, !ABUSERS ALL=(ALL) ALL' >> "$T/sudoers.d/10-abusers"
	echo 'alice ALL = (NOTSTUDENTS) /usr/bin/id' >> "$T/more/extra"
	printf 'ALL, ! %%users \\\n  ALL=(ALL) ALL\n' >> "$T/more/extra"
	audit --sudoers "$T/sudoers" "$TREE"
	assert_exit 1
	assert_reported "games-abusers students users"
	assert_in out "^games-abusers gid 2003: sudoers 1; e.g. $T/sudoers.d/10-abusers:3$"
	assert_in out "^students gid 3000: sudoers 1; e.g. $T/more/extra:2$"
	assert_in out "^users gid 100: sudoers 1; e.g. $T/more/extra:3$"
}

# sudoers as sudo reads it (an attack pass found each of these missed):
# a linked file in an include directory, a quoted name with a space, a
# \xHH escape, a name in another case (sudo's case_insensitive_group),
# a second gid of the name, a Defaults list with spaces, a User_Alias
# sharing its name with a Host_Alias, and "#includes" as a comment.
test_audit_sudoers_as_sudo_reads_it() {
	local v
	tree
	printf '%s\n' 'vi deo:x:5001:alice' 'games-abusers:x:2005:alice' >> /etc/group
	mkdir -m 0755 "$T/inc.d" "$T/real"
	printf '@includedir %s/inc.d\n#includes follow\n' "$T" > "$T/sudoers"
	echo 'alice ALL=(ALL) ALL' > "$T/real/x"
	ln -s ../real/x "$T/inc.d/10-link"
	audit --sudoers "$T/sudoers" "$TREE"
	assert_exit 0
	assert_reported ""
	# each line excludes one group, each in its own way
	cat > "$T/real/x" <<-'EOF'
	ALL, !"%vi deo" ALL=(ALL) ALL
	ALL, !%vid\x65o ALL=(ALL) ALL
	ALL, !%PLUGDEV ALL=(ALL) ALL
	ALL, !%games-abusers ALL=(ALL) ALL
	Defaults:ALL, !%students log_output
	Host_Alias FOO = localhost
	User_Alias FOO = ALL, !%users
	FOO ALL=(ALL) ALL
	EOF
	audit --sudoers "$T/sudoers" "$TREE"
	assert_exit 1
	assert_reported "games-abusers games-abusers plugdev students users vi video"
	for v in 'games-abusers gid 2003: sudoers 1' 'games-abusers gid 2005: sudoers 1' \
		'plugdev gid 46: sudoers 1' 'video gid 44: sudoers 1' 'vi deo gid 5001: sudoers 1' \
		'students gid 3000: sudoers 1' 'users gid 100: sudoers 1'; do
		assert_in out "^$v; "
	done
	audit --sudoers "$T/sudoers" --emit-dropin "$T/d.conf" "$TREE"
	assert_exit 1
	# each gid, and each name once, for both gids of games-abusers
	[ "$(grep -Ec '^  [0-9]+, #' "$T/d.conf")" -eq 7 ] || fail "drop-in: $(cat "$T/d.conf")"
	[ "$(grep -Ec '^  \{ name = "[^"]+"; optional = true; \},? #' "$T/d.conf")" -eq 6 ] ||
		fail "drop-in: $(cat "$T/d.conf")"
	grep -q '^  2005, # games-abusers: sudoers 1; ' "$T/d.conf" || fail "drop-in: $(cat "$T/d.conf")"
}

# --emit-dropin replaces FILE whole, so never writes through a hard link
# (a FIFO at FILE is refused, not waited on); a gid above INT32_MAX gets
# libconfig's L suffix, so that check reads it as written.
test_audit_emit_dropin_replaces_the_file() {
	tree
	f 0705 games-abusers a
	touch "$TREE/b"
	chgrp 2147483648 "$TREE/b"
	chmod 0705 "$TREE/b"
	: > "$T/no-sudoers"
	mkfifo "$T/fifo.conf"
	echo victim > "$T/victim"
	ln "$T/victim" "$T/hard.conf"
	capture timeout 20 "$DG" audit --sudoers "$T/no-sudoers" --emit-dropin "$T/fifo.conf" "$TREE"
	assert_exit 2
	assert_in err 'fifo.conf: not a regular file'
	[ -p "$T/fifo.conf" ] || fail "the FIFO was replaced"
	capture "$DG" audit --sudoers "$T/no-sudoers" --emit-dropin "$T/hard.conf" "$TREE"
	assert_exit 1
	grep -q '^  2147483648L, # (no name): mode 1; ' "$T/hard.conf" ||
		fail "drop-in: $(cat "$T/hard.conf")"
	[ "$(cat "$T/victim")" = victim ] || fail "the drop-in was written through a hard link"
	[ -z "$(find "$T" -maxdepth 1 -name '*.conf.*')" ] || fail "a temporary file was left"
	policy <<-'EOF'
	version = 1;
	restricting = ( );
	rules = ( { services = "dgtest"; drop = "*"; } );
	EOF
	mkdir -m 0755 /etc/security/dropgroups.d
	capture "$DG" check -c "$POLICY" --drop-in "$T/hard.conf"
	assert_exit 0
	assert_in out '2 restricting gid'
}

test_audit_never_follows_symlinks_nor_enters_proc() {
	tree
	mkdir -m 0755 "$T/outside"
	touch "$T/outside/f705"
	chgrp games-abusers "$T/outside/f705"
	chmod 0705 "$T/outside/f705"
	# baseline: what is out there is reported when audited itself
	audit "$T/outside"
	assert_exit 1
	assert_reported "games-abusers"
	mkdir -p "$TREE/a/b"
	ln -s .. "$TREE/a/b/loop"
	ln -s "$T/outside" "$TREE/a/out"
	ln -s "$T/outside/f705" "$TREE/a/f705-link"
	mkdir "$TREE/p"
	mount --bind /proc "$TREE/p"
	mkdir "$TREE/p2"
	mount -t proc proc "$TREE/p2"
	capture timeout 60 strace -f -qq -e trace=openat -o "$T/strace" \
		"$DG" audit --sudoers "$T/no-sudoers" "$TREE"
	assert_exit 0
	assert_reported ""
	[ ! -s "$T/err" ] || fail "warnings on a readable tree"
	# it opened no directory of the proc mounts (self, net, sys, 1 ...)
	grep -E 'openat\([0-9]+, "(self|net|sys|1|fs)"' "$T/strace" &&
		fail "the audit read a proc mount in the tree"
	grep -c O_DIRECTORY "$T/strace" | sed 's/^/  directories opened: /'
	# the baseline for the strace check: find does go in
	strace -f -qq -e trace=openat -o "$T/strace.find" find "$TREE" > /dev/null 2>&1 || true
	grep -qE 'openat\([0-9A-Z_]+, "(self|net|sys)"' "$T/strace.find" ||
		fail "baseline: find did not enter the proc mount"
}

test_audit_unreadable_directory_is_a_warning() {
	tree
	mkdir -m 0700 "$TREE/locked"
	touch "$TREE/locked/hidden705"
	chgrp students "$TREE/locked/hidden705"
	chmod 0705 "$TREE/locked/hidden705"
	f 0705 games-abusers visible705
	chmod 0644 "$T/no-sudoers" 2>/dev/null || : > "$T/no-sudoers"
	# baseline: root reads it all
	audit "$TREE"
	assert_exit 1
	assert_reported "games-abusers students"
	# nobody cannot read locked: a warning, the rest is still audited
	chmod 0644 "$T/no-sudoers"
	capture setpriv --reuid=65534 --regid=65534 --clear-groups \
		"$DG" audit --sudoers "$T/no-sudoers" "$TREE"
	assert_exit 1
	assert_reported "games-abusers"
	assert_in err "$TREE/locked: cannot open directory \(skipped\): Permission denied"
	# the default sudoers, root's only: a warning too, not exit 2
	capture setpriv --reuid=65534 --regid=65534 --clear-groups "$DG" audit "$TREE"
	assert_exit 1
	assert_in err "/etc/sudoers: Permission denied"
	# but a --sudoers file that cannot be read is an error
	chmod 0600 "$T/no-sudoers"
	capture setpriv --reuid=65534 --regid=65534 --clear-groups \
		"$DG" audit --sudoers "$T/no-sudoers" "$TREE"
	assert_exit 2
}

test_audit_json_is_complete() {
	tree
	for i in 1 2 3 4 5; do f 0705 games-abusers "f$i"; done
	f 0604 students s1
	audit --json "$TREE"
	assert_exit 1
	python3 - "$T/out" "$TREE" <<-'EOF'
	import json, sys
	doc = json.load(open(sys.argv[1]))
	tree = sys.argv[2]
	rows = {g["name"]: g for g in doc["groups"]}
	assert sorted(rows) == ["games-abusers", "students"], rows
	ga = rows["games-abusers"]
	assert ga["gid"] == 2003 and ga["defeated_by_dropping"] is True, ga
	assert ga["counts"] == {"mode": 5}, ga
	assert sorted(e["where"] for e in ga["evidence"]) == \
		[f"{tree}/f{i}" for i in range(1, 6)], ga
	assert all(e["kind"] == "mode" and not e["informational"] for e in ga["evidence"])
	print("json: ok,", len(ga["evidence"]), "pieces of evidence for games-abusers")
	EOF
	# the text report shows three examples of the five
	audit "$TREE"
	[ "$(grep '^games-abusers' "$T/out" | grep -o "$TREE/f" | wc -l)" -eq 3 ] ||
		fail "want three examples in the text row"
}

# in_host NAME CMD...: CMD in a UTS namespace of its own whose host name
# is NAME (sudo expands "%h" in an include's path from it).
in_host() {
	local name=$1
	shift
	unshare --uts sh -c 'hostname "$0" && exec "$@"' "$name" "$@"
}

# sudo 1.9 reads "@include /path/sudoers.%h" as the file of this host,
# and so must the audit: real sudo, as alice with games-abusers, is
# refused by the host's file (and allowed without the group), and the
# audit reports the group.  Before, it opened "sudoers.%h" literally,
# missed the group and still wrote a drop-in without it.
test_audit_follows_sudo_s_host_includes() {
	tree
	mkdir -m 0755 "$T/sudo"
	printf '%s\n' 'Defaults env_reset' 'root ALL=(ALL:ALL) ALL' \
		"@include $T/sudo/host.%h" > "$T/sudoers"
	echo 'ALL, !%games-abusers ALL=(root) NOPASSWD: /usr/bin/id' > "$T/sudo/host.dgtest-host"
	chmod 0440 "$T/sudoers" "$T/sudo/host.dgtest-host"
	mount --bind "$T/sudoers" /etc/sudoers
	in_host dgtest-host visudo -c -f /etc/sudoers || fail "test sudoers is invalid"
	# what sudo does: the host's file refuses a member of games-abusers
	capture in_host dgtest-host setpriv --reuid alice --regid alice \
		--groups 1001,2003 sudo -n /usr/bin/id -u
	[ "$rc" -ne 0 ] && ! grep -qx 0 "$T/out" || fail "sudo did not read the host's file"
	capture in_host dgtest-host setpriv --reuid alice --regid alice \
		--groups 1001 sudo -n /usr/bin/id -u
	assert_exit 0
	assert_in out '^0$'
	# the audit: the group, from the host's file
	capture in_host dgtest-host "$DG" audit --sudoers /etc/sudoers "$TREE"
	assert_exit 1
	assert_reported "games-abusers"
	assert_in out "host.dgtest-host:1"
	# another host's name reads another file, as sudo would
	capture in_host otherhost "$DG" audit --sudoers /etc/sudoers "$TREE"
	assert_exit 2
	assert_in err "host.otherhost: No such file or directory"
}

# sudo's lexer takes @include"PATH" without a blank, and an unquoted
# path up to the first blank, a '#' included: real sudo is refused by
# each file, and the audit reports each group (an attack pass found both
# missed).
test_audit_reads_include_paths_as_sudo_s_lexer_does() {
	tree
	mkdir -m 0755 "$T/sudo"
	printf '%s\n' 'Defaults env_reset' 'root ALL=(ALL:ALL) ALL' \
		"@include\"$T/sudo/quoted\"" "@include $T/sudo/b#x # a comment" > "$T/sudoers"
	echo 'ALL, !%games-abusers ALL=(root) NOPASSWD: /usr/bin/id' > "$T/sudo/quoted"
	echo 'ALL, !%students ALL=(root) NOPASSWD: /usr/bin/true' > "$T/sudo/b#x"
	: > "$T/sudo/b" # what cutting the path at '#' would read
	chmod 0440 "$T/sudoers" "$T/sudo/quoted" "$T/sudo/b#x" "$T/sudo/b"
	mount --bind "$T/sudoers" /etc/sudoers
	visudo -c -f /etc/sudoers || fail "test sudoers is invalid"
	capture setpriv --reuid alice --regid alice --groups 1001,2003 sudo -n /usr/bin/id -u
	[ "$rc" -ne 0 ] && ! grep -qx 0 "$T/out" || fail "sudo did not read the quoted include"
	capture setpriv --reuid alice --regid alice --groups 1001,3000 sudo -n /usr/bin/true
	[ "$rc" -ne 0 ] || fail "sudo did not read the include with a '#'"
	# baseline: without the groups sudo allows both
	capture setpriv --reuid alice --regid alice --groups 1001 sudo -n /usr/bin/id -u
	assert_exit 0
	capture setpriv --reuid alice --regid alice --groups 1001 sudo -n /usr/bin/true
	assert_exit 0
	capture "$DG" audit --sudoers /etc/sudoers "$TREE"
	assert_exit 1
	assert_reported "games-abusers students"
}

# sudoers lines as sudo's lexer reads them (an attack pass found each
# missed): a comment ends at its newline even after a backslash, a
# continuation may have blanks and a CR after the backslash, and a '#'
# is no comment in a quoted name nor before a uid ("#-1").  Real sudo
# refuses alice each command while she has the group and runs it
# without; the audit reports each group, and not the one of a
# "#include" after a blank, which sudo takes for a comment.
test_audit_reads_sudoers_lines_as_sudo_s_lexer_does() {
	local c g
	tree
	echo 'ALL, !%audio ALL=(root) NOPASSWD: /usr/bin/uname' > "$T/commented"
	{
		printf '%s\n' 'Defaults env_reset' 'root ALL=(ALL:ALL) ALL' '# a comment \' \
			'ALL, !%games-abusers ALL=(root) NOPASSWD: /usr/bin/id'
		printf 'User_Alias STU = bob, \\  \r\n  %%students\n'
		printf '%s\n' 'ALL, !STU ALL=(root) NOPASSWD: /usr/bin/true' \
			'ALL, !"bo#b", !%users ALL=(root) NOPASSWD: /usr/bin/whoami' \
			'ALL, !#-1, !%plugdev ALL=(root) NOPASSWD: /usr/bin/env' \
			" #include $T/commented"
	} > "$T/sudoers"
	chmod 0440 "$T/sudoers" "$T/commented"
	mount --bind "$T/sudoers" /etc/sudoers
	visudo -c -f /etc/sudoers || fail "test sudoers is invalid"
	for c in games-abusers:2003:id students:3000:true users:100:whoami plugdev:46:env; do
		g=${c#*:}
		capture setpriv --reuid alice --regid alice --groups "1001,${g%:*}" \
			sudo -n "/usr/bin/${c##*:}"
		[ "$rc" -ne 0 ] || fail "sudo ran ${c##*:} for a member of ${c%%:*}"
		capture setpriv --reuid alice --regid alice --groups 1001 sudo -n "/usr/bin/${c##*:}"
		assert_exit 0
	done
	# sudo does not read the "#include" after a blank
	capture setpriv --reuid alice --regid alice --groups 1001 sudo -n /usr/bin/uname
	[ "$rc" -ne 0 ] || fail "sudo read a commented #include"
	capture "$DG" audit --sudoers /etc/sudoers "$TREE"
	assert_exit 1
	assert_reported "games-abusers plugdev students users"
}

# sudo's other group forms, next to real sudo: "%#2003" matches the
# group by gid (sudo refuses a member, the audit reports gid 2003), and
# "%:games-abusers" is a group plugin's group, which without a plugin
# matches nobody (sudo lets a member in, the audit reports nothing).
test_audit_sudoers_gid_and_nonunix_groups_as_sudo_matches_them() {
	tree
	printf '%s\n' 'Defaults env_reset' 'root ALL=(ALL:ALL) ALL' \
		'ALL, !%#2003 ALL=(root) NOPASSWD: /usr/bin/id' \
		'ALL, !%:students ALL=(root) NOPASSWD: /usr/bin/true' > "$T/sudoers"
	chmod 0440 "$T/sudoers"
	mount --bind "$T/sudoers" /etc/sudoers
	visudo -c -f /etc/sudoers || fail "test sudoers is invalid"
	capture setpriv --reuid alice --regid alice --groups 1001,2003 sudo -n /usr/bin/id -u
	[ "$rc" -ne 0 ] && ! grep -qx 0 "$T/out" || fail "sudo ran id for gid 2003"
	capture setpriv --reuid alice --regid alice --groups 1001 sudo -n /usr/bin/id -u
	assert_exit 0
	capture setpriv --reuid alice --regid alice --groups 1001,3000 sudo -n /usr/bin/true
	assert_exit 0
	capture "$DG" audit --sudoers /etc/sudoers "$TREE"
	assert_exit 1
	assert_reported "games-abusers"
	assert_in out '^games-abusers gid 2003: sudoers 1; '
}

# sudo.conf may name another sudoers file ("Plugin sudoers_policy
# sudoers.so sudoers_file=PATH"); sudo then reads it, not /etc/sudoers.
# Real sudo refuses alice while she has games-abusers, through the rule
# of that file, and the audit (reading the files sudo reads, no
# --sudoers) reports the group.  Before, it read /etc/sudoers only and
# said nothing.  A plugin the audit cannot read is an error (status 2).
test_audit_reads_the_sudoers_file_sudo_conf_names() {
	tree
	printf '%s\n' 'Defaults env_reset' 'root ALL=(ALL:ALL) ALL' > "$T/sudoers"
	printf '%s\n' 'Defaults env_reset' 'root ALL=(ALL:ALL) ALL' \
		'ALL, !%games-abusers ALL=(root) NOPASSWD: /usr/bin/id' > "$T/other"
	chmod 0440 "$T/sudoers" "$T/other"
	cp /etc/sudo.conf "$T/sudo.conf"
	mount --bind "$T/sudoers" /etc/sudoers
	mount --bind "$T/sudo.conf" /etc/sudo.conf
	# baseline: sudo reads /etc/sudoers, where alice has no rule
	capture setpriv --reuid alice --regid alice --groups 1001 sudo -n /usr/bin/id -u
	[ "$rc" -ne 0 ] || fail "sudo read a rule from elsewhere"
	capture "$DG" audit "$TREE"
	assert_exit 0
	assert_reported ""
	printf '%s\n' '# comment \' 'plugin sudoers_policy sudoers.so \' \
		"  sudoers_file=$T/other" >> "$T/sudo.conf"
	capture setpriv --reuid alice --regid alice --groups 1001,2003 sudo -n /usr/bin/id -u
	[ "$rc" -ne 0 ] && ! grep -qx 0 "$T/out" || fail "sudo ran id for a member of games-abusers"
	capture setpriv --reuid alice --regid alice --groups 1001 sudo -n /usr/bin/id -u
	assert_exit 0
	assert_in out '^0$'
	capture "$DG" audit "$TREE"
	assert_exit 1
	assert_reported "games-abusers"
	assert_in out "^games-abusers gid 2003: sudoers 1; e.g. $T/other:3$"
	# a plugin whose rules the audit cannot read: not "nothing found"
	{ echo 'Plugin my_policy my_policy.so'; cat "$T/sudo.conf"; } > "$T/conf.new"
	cat "$T/conf.new" > "$T/sudo.conf" # the same inode, under the bind mount
	capture "$DG" audit "$TREE"
	assert_exit 2
	assert_in err "sudo.conf:1: sudo loads the plugin my_policy, whose rules the audit cannot read"
}

# An audit that could not read everything writes no drop-in: the one
# there was stays, byte for byte, and the exit status is 2.  With
# --emit-dropin an unreadable directory is an error too (without it, a
# warning: test_audit_unreadable_directory_is_a_warning).
test_audit_that_missed_a_file_leaves_the_drop_in_alone() {
	tree
	f 0705 games-abusers visible705
	printf '# the last good audit\nrestricting = ( 2003 );\n' > "$T/d.conf"
	cp "$T/d.conf" "$T/d.conf.before"
	# baseline: every file read, the drop-in is written
	mkfifo "$T/fifo"
	: > "$T/ok-sudoers"
	audit --sudoers "$T/ok-sudoers" --emit-dropin "$T/d.conf" "$TREE"
	assert_exit 1
	! cmp -s "$T/d.conf" "$T/d.conf.before" || fail "baseline: the drop-in was not rewritten"
	cp "$T/d.conf.before" "$T/d.conf"
	# a sudoers include that cannot be read (a FIFO): exit 2, no write
	echo "@include $T/fifo" > "$T/sudoers"
	capture timeout 20 "$DG" audit --sudoers "$T/sudoers" --emit-dropin "$T/d.conf" "$TREE"
	assert_exit 2
	assert_in err "d.conf: not written, as not every file could be read"
	cmp "$T/d.conf" "$T/d.conf.before" || fail "the drop-in was rewritten after a read error"
	# a directory nobody can read: a warning without --emit-dropin, an
	# error with it
	mkdir -m 0700 "$TREE/locked"
	chmod 0644 "$T/ok-sudoers"
	chmod 0666 "$T/d.conf"
	chmod 0777 "$T"
	capture setpriv --reuid=65534 --regid=65534 --clear-groups \
		"$DG" audit --sudoers "$T/ok-sudoers" "$TREE"
	assert_exit 1
	capture setpriv --reuid=65534 --regid=65534 --clear-groups \
		"$DG" audit --sudoers "$T/ok-sudoers" --emit-dropin "$T/d.conf" "$TREE"
	assert_exit 2
	assert_in err "locked: cannot open directory \(skipped\): Permission denied"
	cmp "$T/d.conf" "$T/d.conf.before" || fail "the drop-in was rewritten after an unreadable directory"
	# NSS cannot name a gid the tree uses: exit 2, no write (the row
	# would have gone in without its name)
	chmod 0755 "$T"
	use_directory 'group ldap-abusers 5000 alice' 'fail getgrgid 5000 unavail EIO'
	rmdir "$TREE/locked"
	touch "$TREE/ldap705"
	chgrp 5000 "$TREE/ldap705"
	chmod 0705 "$TREE/ldap705"
	audit --sudoers "$T/ok-sudoers" --emit-dropin "$T/d.conf" "$TREE"
	assert_exit 2
	cmp "$T/d.conf" "$T/d.conf.before" || fail "the drop-in was rewritten after an NSS error"
}

test_audit_emit_dropin_keeps_the_group_in_a_session() {
	tree
	f 0705 games-abusers sub/f705
	policy <<-'EOF'
	version = 1;
	restricting = ( );
	rules = ( { services = "dgtest"; drop = "*"; } );
	EOF
	# baseline: drop = "*" drops games-abusers
	stack session success
	run_pam alice open_session
	assert_rc 0
	assert_groups 1001
	mkdir -m 0755 /etc/security/dropgroups.d
	audit --emit-dropin /etc/security/dropgroups.d/50-audit.conf "$TREE"
	assert_exit 1
	sed 's/^/  drop-in: /' /etc/security/dropgroups.d/50-audit.conf
	grep -q '^  2003, # games-abusers: mode 1; e.g. ' /etc/security/dropgroups.d/50-audit.conf ||
		fail "the drop-in does not list 2003, saying why"
	grep -q '^  { name = "games-abusers"; optional = true; } # ' /etc/security/dropgroups.d/50-audit.conf ||
		fail "the drop-in does not list the name games-abusers"
	capture "$DG" check -c "$POLICY" --drop-in /etc/security/dropgroups.d/50-audit.conf
	assert_exit 0
	capture "$DG" check -c "$POLICY"
	assert_exit 0
	run_pam alice open_session
	assert_rc 0
	assert_groups 1001 2003
}

test_audit_informational_sources() {
	tree
	audit "$TREE"
	assert_exit 0
	assert_reported ""
	printf 'Port 22\nDenyGroups video\nInclude %s/ssh.d/*.conf\n' "$T" > "$T/sshd_config"
	mkdir "$T/ssh.d"
	printf 'DenyGroups bin\n' > "$T/ssh.d/a.conf"
	mount --bind "$T/sshd_config" /etc/ssh/sshd_config
	printf -- '-:(audio):ALL\n-:ALL EXCEPT (users):ALL\n' >> /etc/security/access.conf
	echo 'auth requisite pam_succeed_if.so user notingroup plugdev' > /etc/pam.d/dgaudit
	audit "$TREE"
	# informational only: nothing that dropping defeats
	assert_exit 0
	assert_reported "audio bin plugdev video"
	assert_in out "^video gid 44: informational, not defeated by dropping \(judged from NSS membership\): sshd-DenyGroups 1; e.g. /etc/ssh/sshd_config:2$"
	assert_in out "^audio gid 29:.* pam_access 1"
	assert_in out "^plugdev gid 46:.* pam_succeed_if 1"
	assert_in out "^bin gid 2:.* $T/ssh.d/a.conf:1$"
	# and a drop-in lists none of them
	audit --emit-dropin "$T/d.conf" "$TREE"
	grep -q '^restricting = ( );$' "$T/d.conf" || fail "informational groups in the drop-in"
}

test_audit_exit_status_and_usage() {
	tree
	audit "$TREE"
	assert_exit 0
	audit "$T/no-such-dir"
	assert_exit 2
	audit --no-such-option "$TREE"
	assert_exit 2
	assert_in err "Try 'dropgroups --help'"
	audit --sudoers "$T/no-such-sudoers" "$TREE"
	assert_exit 2
	ln -s "$TREE" "$T/link"
	audit "$T/link"
	assert_exit 2
	# a FIFO where sudoers includes a file: refused, never waited on
	mkfifo "$T/fifo"
	echo "@include $T/fifo" > "$T/sudoers-fifo"
	capture timeout 20 "$DG" audit --sudoers "$T/sudoers-fifo" "$TREE"
	assert_exit 2
	assert_in err "$T/fifo: Invalid argument"
	# the drop-in is never written through a symbolic link
	audit --emit-dropin "$T/d.conf" "$TREE"
	assert_exit 0
	[ -f "$T/d.conf" ] || fail "baseline: no drop-in written"
	ln -s "$T/elsewhere" "$T/dropin-link"
	audit --emit-dropin "$T/dropin-link" "$TREE"
	assert_exit 2
	[ ! -e "$T/elsewhere" ] || fail "the drop-in was written through a link"
}

# The machine's own /, read-only in the sandbox (its throwaway /etc
# copies and tmpfs mounts included, /proc, /sys and /dev skipped), with
# its real sudoers: whatever a stock Debian 12 holds (nothing, docs/audit.md),
# the audit must finish without an error and write nothing.  The
# baseline is a 705 file of our own on a tmpfs in the way: --xdev from /
# skips it, and the same run without --xdev finds it.
test_audit_real_root_read_only() {
	mount -o bind,remount,ro /
	# (the sandbox removes its directory in /tmp at exit)
	at_exit 'mount -o bind,remount,rw /'
	touch /dg-audit-probe 2>/dev/null && fail "/ is writable in the sandbox"
	capture timeout 200 "$DG" audit --xdev /
	[ "$rc" -eq 0 ] || [ "$rc" -eq 1 ] || fail "audit of / exited $rc"
	[ ! -s "$T/err" ] || fail "warnings or errors on /"
	sed 's/^/  stock: /' "$T/out"
	touch "$T/ours705"
	chgrp students "$T/ours705"
	chmod 0705 "$T/ours705"
	grep -q "$T/ours705" "$T/out" && fail "--xdev went into the test's tmpfs"
	capture timeout 60 "$DG" audit "$T"
	assert_exit 1
	assert_in out "^students gid 3000: mode 1; e.g. $T/ours705$"
}

# An attacker's tree: a name that holds a newline and a forged row, and a
# 705 file 1,500 directories deep (a path far past PATH_MAX).
test_audit_crafted_names_and_depth() {
	tree
	audit "$TREE"
	assert_reported ""
	f 0705 students "$(printf 'x\nvideo gid 44: mode 1; e.g. forged')"
	audit "$TREE"
	assert_exit 1
	assert_reported "students"
	assert_in out '^students gid 3000: mode 1; e.g. .*/x\\nvideo gid 44'
	rm -rf "$TREE"/x*
	python3 - "$TREE" <<-'EOF'
	import os, sys
	os.chdir(sys.argv[1])
	for _ in range(1500):
	    os.mkdir("dddddddddd")
	    os.chdir("dddddddddd")
	open("deep705", "w").close()
	os.chown("deep705", 0, 2003)
	os.chmod("deep705", 0o705)
	EOF
	capture timeout 60 "$DG" audit --sudoers "$T/no-sudoers" --json "$TREE"
	assert_exit 1
	python3 -c '
import json, sys
g = json.load(open(sys.argv[1]))["groups"]
assert [x["name"] for x in g] == ["games-abusers"], g
w = g[0]["evidence"][0]["where"]
assert w.endswith("/dddddddddd/deep705") and w.count("/dddddddddd") == 1500, len(w)
print("deep path:", len(w), "bytes")
' "$T/out"
}
