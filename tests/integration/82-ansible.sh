# contrib/ansible: the dropgroups role, run by ansible-playbook -c local
# against the sandbox: a fresh host's state, with /usr, /etc and /var
# throwaway overlays on tmpfs (tests/lib/debian.sh's throwaway_root), the
# test's own users on top.  The module, the CLI and the pam-auth-update
# profile come from `make install DESTDIR=` (the role's "files" way), from
# the .deb built from the tree ("deb", installed by the role with apt,
# in the overlays), or are there before the role runs ("none").  Every
# policy file is checked by `dropgroups check` before it replaces the old
# one: an invalid one is not installed, and logins go on as before.

. "$TOP/tests/lib/debian.sh"

CACHE=/var/cache/libpam-dropgroups

ansible_sandbox() {
	skip_under_sanitizers "make install builds its own objects"
	local d
	# where the role installs the module, the CLI, the profile, the .deb
	# and what dpkg, apt and pam-auth-update record
	throwaway_root
	add_dpkg_owners
	use_test_users
	# a fresh host: the role's cache directory is not there
	rm -rf "$CACHE"
	[ ! -e "$CACHE" ] || fail "$CACHE is still there"
	echo "  baseline: $CACHE does not exist"
	# where the role copies them from (its dropgroups_pam_module_dir;
	# merged /usr makes it the directory the .deb installs into as /lib)
	make -s -C "$TOP" install DESTDIR="$T/stage" PREFIX=/usr \
		SECUREDIR="/usr/lib/$(gcc -print-multiarch)/security" > "$T/install.log" 2>&1 ||
		{ cat "$T/install.log"; fail "make install failed"; }
	[ ! -e /usr/sbin/dropgroups ] || fail "dropgroups is already installed in /usr/sbin"
	# Ansible's own files (~/.ansible, temporary copies) stay in $T too
	for d in home tmp; do mkdir -m 0700 "$T/$d"; done
	export HOME=$T/home TMPDIR=$T/tmp
	export ANSIBLE_CONFIG=$T/ansible.cfg
	printf '[defaults]\n' > "$ANSIBLE_CONFIG"
	export ANSIBLE_ROLES_PATH=$TOP/contrib/ansible/roles
	export ANSIBLE_LOCAL_TEMP=$T/home/.ansible/tmp ANSIBLE_REMOTE_TEMP=$T/home/.ansible/tmp
	export ANSIBLE_PYTHON_INTERPRETER=/usr/bin/python3 ANSIBLE_NOCOLOR=1
	export ANSIBLE_RETRY_FILES_ENABLED=0 ANSIBLE_LOCALHOST_WARNING=0 ANSIBLE_PIPELINING=1
	# (the facts once per test: each play costs seconds on a busy machine)
	export ANSIBLE_GATHERING=smart ANSIBLE_CACHE_PLUGIN=jsonfile
	export ANSIBLE_CACHE_PLUGIN_CONNECTION=$T/facts
	cat > "$T/play.yml" <<-'EOF'
	- hosts: localhost
	  gather_subset: [min]
	  roles: [dropgroups]
	EOF
	# The login path: the common session stack pam-auth-update writes,
	# then a record of the groups.
	{
		echo "@include common-session"
		echo "session optional pam_exec.so quiet $TOP/tests/pam-exec/record-groups.sh $T/groups"
	} > "/etc/pam.d/$SERVICE"
}

# vars: the role's variables (YAML on stdin), for the next play; the
# module and the CLI are installed from the make install tree, or, with
# INSTALL=none, are there already (a few seconds less a play).
INSTALL=files
vars() {
	cat > "$T/vars.yml"
	{
		echo "dropgroups_install: $INSTALL"
		echo "dropgroups_files_root: $T/stage"
		echo "dropgroups_deb: ${DEB:-}"
	} >> "$T/vars.yml"
}

# play: run the role with those variables (sets $rc; the play's output
# is in $T/out).
play() {
	capture ansible-playbook -i localhost, -c local "$T/play.yml" -e "@$T/vars.yml"
	# what dropgroups check said, from a failed task's JSON, whole
	sed -n 's/.*"stderr": "\(\([^"\\]\|\\.\)*\)".*/\1/p' "$T/out" |
		sed 's/\\n/\n/g; s/\\"/"/g' > "$T/play.err"
	sed 's/^/  play stderr: /' "$T/play.err"
}

# A valid policy: the main file keeps games-abusers and trims sshd; the
# drop-in trims the test service (so that a login shows the drop-in at
# work).
valid_vars() {
	vars <<-'EOF'
	dropgroups_restricting: [games-abusers]
	dropgroups_rules:
	  - { name: ssh, services: [sshd], drop: [audio] }
	dropgroups_drop_ins:
	  - name: 50-local.conf
	    restricting: [{ name: students, optional: true }]
	    rules:
	      - { name: local, services: [dgtest, su], drop: [audio, video, plugdev] }
	      - { name: students, services: [sudo], users: ["%students"], keep: [users], no_new_privs: true }
	EOF
}

# A login through the common stack trims as the valid policy says.
assert_login_trims() {
	run_pam alice open_session close_session
	assert_rc 0
	assert_groups $TRIMMED
}

test_ansible_role_installs_the_policy_and_enables_the_stack() {
	ansible_sandbox
	# baseline: nothing installed, the stacks lack the module
	! grep -l pam_dropgroups /etc/pam.d/common-* || fail "the stacks have the module already"
	run_pam alice open_session close_session
	assert_rc 0
	assert_untouched
	valid_vars
	play
	assert_exit 0
	for f in /usr/sbin/dropgroups "$(pkg-config --variable=libdir pam)/security/pam_dropgroups.so" \
		/usr/share/pam-configs/dropgroups /etc/security/dropgroups.conf \
		/etc/security/dropgroups.d/50-local.conf; do
		stat -c '  installed: %n %a %U:%G' "$f"
		[ "$(stat -c %u "$f")" = 0 ] || fail "$f is not root's"
	done
	for f in common-auth common-account common-session common-session-noninteractive; do
		grep -H pam_dropgroups "/etc/pam.d/$f" || fail "$f lacks the module"
	done
	capture /usr/sbin/dropgroups check
	assert_exit 0
	assert_in out 'valid: 3 rule\(s\), 2 restricting gid\(s\), 2 file\(s\) read$'
	assert_login_trims
	capture su alice -c 'id -G'
	assert_ids "$out" $TRIMMED
	[ ! -e "$CACHE" ] || fail "the files way made $CACHE"
	# a second run changes nothing
	play
	assert_exit 0
	assert_in out '^localhost +: ok=[0-9]+ +changed=0 +unreachable=0 +failed=0'
	# and dropgroups_pam_enabled: false takes the lines out again
	INSTALL=none
	valid_vars
	echo 'dropgroups_pam_enabled: false' >> "$T/vars.yml"
	play
	assert_exit 0
	! grep -l pam_dropgroups /etc/pam.d/common-* || fail "the stacks still have the module"
	run_pam alice open_session close_session
	assert_rc 0
	assert_untouched
}

# assert_installed_and_trimming: after a play that enabled the stack, the
# common stacks have the module, and a real su and a pamtester login
# through them trim as the valid policy says.
assert_installed_and_trimming() {
	local f
	for f in common-auth common-account common-session common-session-noninteractive; do
		grep -H pam_dropgroups "/etc/pam.d/$f" || fail "$f lacks the module"
	done
	capture su alice -c 'id -G'
	assert_ids "$out" $TRIMMED
	echo "  su alice: $out"
	assert_login_trims
}

# The baseline of a fresh host: no common stack names the module, and su
# starts alice with every group.
stacks_without_the_module_keep_every_group() {
	! grep -l pam_dropgroups /etc/pam.d/common-* || fail "the stacks have the module already"
	capture su alice -c 'id -G'
	assert_ids "$out" $ALL
	echo "  baseline su alice: $out"
}

# The deb way on a fresh host: no $CACHE, no package.  The role makes the
# directory, copies the .deb built from the tree there and installs it
# with apt (dpkg's database and every file in the throwaway root).  The
# old role failed at the copy: "Destination directory ... does not exist".
test_ansible_role_installs_the_deb_on_a_fresh_host() {
	skip_under_sanitizers "the package is built without sanitizers"
	build_deb
	ansible_sandbox
	# baseline: no package, no module in the stacks, logins keep every group
	! dpkg -s libpam-dropgroups > /dev/null 2>&1 || fail "the package is installed already"
	[ ! -e /usr/sbin/dropgroups ] || fail "the CLI is there already"
	stacks_without_the_module_keep_every_group
	INSTALL=deb
	valid_vars
	play
	assert_exit 0
	[ "$(dpkg-query -W -f='${db:Status-Status}' libpam-dropgroups)" = installed ] ||
		fail "libpam-dropgroups is not installed"
	dpkg -S "/lib/$(gcc -print-multiarch)/security/pam_dropgroups.so" /usr/sbin/dropgroups ||
		fail "the module and the CLI are not the package's"
	stat -c '  made: %n %F %a %U:%G' "$CACHE" "$CACHE/$(basename "$DEB")"
	[ "$(stat -c '%F %a %u:%g' "$CACHE")" = "directory 755 0:0" ] ||
		fail "$CACHE is not a directory, root's, 0755"
	capture /usr/sbin/dropgroups check
	assert_exit 0
	assert_in out 'valid: 3 rule\(s\), 2 restricting gid\(s\), 2 file\(s\) read$'
	assert_installed_and_trimming
	# a second run changes nothing
	play
	assert_exit 0
	assert_in out '^localhost +: ok=[0-9]+ +changed=0 +unreachable=0 +failed=0'
}

# The none way on a fresh host: the module, the CLI and the profile are
# there (as an image or a repository puts them), $CACHE is not, and the
# role neither needs nor makes it.
test_ansible_role_uses_what_is_installed_on_a_fresh_host() {
	ansible_sandbox
	cp -a "$T/stage/usr/." /usr/
	# baseline: installed, not in the stacks, no policy, logins untouched
	/usr/sbin/dropgroups --version
	[ ! -e /etc/security/dropgroups.conf ] || fail "a policy is there already"
	stacks_without_the_module_keep_every_group
	INSTALL=none
	valid_vars
	play
	assert_exit 0
	[ ! -e "$CACHE" ] || fail "the none way made $CACHE"
	capture /usr/sbin/dropgroups check
	assert_exit 0
	assert_installed_and_trimming
}

# The files way never creates the PAM module directory: a module put in a
# directory libpam does not read would leave the stack line naming a
# module that cannot load, and every login refused.  A wrong
# dropgroups_pam_module_dir stops the play before anything is installed
# (the old role made no check: its copy failed on the module, with a
# message about the source, and installed the CLI and the profile).
test_ansible_role_files_refuses_a_missing_module_directory() {
	ansible_sandbox
	# baseline: the right directory is there, the wrong one is not
	[ -d "/usr/lib/$(gcc -print-multiarch)/security" ] || fail "no PAM module directory"
	[ ! -e /usr/lib/no-such-arch/security ] || fail "/usr/lib/no-such-arch/security is there"
	valid_vars
	echo 'dropgroups_pam_module_dir: /usr/lib/no-such-arch/security' >> "$T/vars.yml"
	play
	[ "$rc" -ne 0 ] || fail "the play went on without the module directory"
	[ ! -e /usr/lib/no-such-arch ] || fail "the play made the module directory"
	[ ! -e /usr/sbin/dropgroups ] || fail "the play installed the CLI"
	[ ! -e /usr/share/pam-configs/dropgroups ] || fail "the play installed the profile"
	assert_in out 'dropgroups_pam_module_dir \(/usr/lib/no-such-arch/security\) is not a directory'
	[ ! -e /etc/security/dropgroups.conf ] || fail "the play installed a policy"
	! grep -l pam_dropgroups /etc/pam.d/common-* || fail "the stacks have the module"
	capture su alice -c 'id -G'
	assert_ids "$out" $ALL
}

test_ansible_role_refuses_an_invalid_main_policy() {
	ansible_sandbox
	valid_vars
	play
	assert_exit 0
	INSTALL=none
	cp -a /etc/security/dropgroups.conf "$T/good.conf"
	assert_login_trims
	ls -A /etc/security /etc/security/dropgroups.d > "$T/ls.before"
	# a restricting group that does not exist: the guard would be lost
	valid_vars
	sed -i 's/^dropgroups_restricting: .*/dropgroups_restricting: [games-abusers, no-such-group]/' "$T/vars.yml"
	play
	[ "$rc" -ne 0 ] || fail "the play installed an invalid policy"
	assert_in out '"msg": "failed to validate"'
	assert_in play.err '/source:[0-9]+: restricting group "no-such-group" does not exist'
	cmp /etc/security/dropgroups.conf "$T/good.conf" ||
		fail "the installed policy changed"
	echo "  the installed policy is byte-identical to the good one"
	ls -A /etc/security /etc/security/dropgroups.d > "$T/ls.after"
	diff "$T/ls.before" "$T/ls.after" || fail "the play left a file in /etc/security"
	assert_login_trims
}

test_ansible_role_checks_each_drop_in_with_the_installed_policy() {
	ansible_sandbox
	valid_vars
	play
	assert_exit 0
	INSTALL=none
	cp -a /etc/security/dropgroups.d/50-local.conf "$T/good-50.conf"
	assert_login_trims
	# A file that is a valid policy on its own (baseline), but not a valid
	# drop-in of the installed one: include_dir is the main file's alone.
	printf 'version = 1;\ninclude_dir = "/etc/security/other.d";\nrestricting = ( );\nrules = ( { name = "all"; services = "*"; drop = "*"; } );\n' |
		policy "$T/alone.conf"
	capture /usr/sbin/dropgroups check -c "$T/alone.conf"
	assert_exit 0
	vars <<-EOF
	dropgroups_restricting: [games-abusers]
	dropgroups_rules:
	  - { name: ssh, services: [sshd], drop: [audio] }
	dropgroups_drop_ins:
	  - name: 50-local.conf
	    content: |
	$(sed 's/^/      /' "$T/alone.conf")
	EOF
	play
	[ "$rc" -ne 0 ] || fail "the play installed an invalid drop-in"
	assert_in out '"msg": "failed to validate"'
	assert_in play.err '/source:2: include_dir is allowed only in the main file$'
	cmp /etc/security/dropgroups.d/50-local.conf "$T/good-50.conf" ||
		fail "the installed drop-in changed"
	echo "  the installed drop-in is byte-identical to the good one"
	assert_login_trims
	# a new drop-in that does not parse is not installed at all
	vars <<-'EOF'
	dropgroups_restricting: [games-abusers]
	dropgroups_rules:
	  - { name: ssh, services: [sshd], drop: [audio] }
	dropgroups_drop_ins:
	  - name: 60-new.conf
	    content: "version = 1; rules = ( { name = \"x\"; services = \"*\"; drop = \"audio\"; } ;"
	EOF
	play
	[ "$rc" -ne 0 ] || fail "the play installed an invalid drop-in"
	assert_in play.err '/source:[0-9]+:[0-9]+: syntax error'
	[ ! -e /etc/security/dropgroups.d/60-new.conf ] || fail "60-new.conf was installed"
	ls -A /etc/security/dropgroups.d
	[ "$(ls -A /etc/security/dropgroups.d)" = 50-local.conf ] ||
		fail "the drop-in directory has more than 50-local.conf"
	assert_login_trims

	# A broken installed drop-in is repaired by a valid one: the candidate
	# stands in for the file it replaces (check --as).  Checked next to
	# it, as Ansible's copy named "source" would be without --as, it
	# could not be.
	echo 'version = 1; bogus = 1;' | policy /etc/security/dropgroups.d/50-local.conf
	# baseline: the session is refused, the groups are left alone
	run_pam alice open_session close_session
	[ "$rc" -ne 0 ] || fail "a session opened with a broken drop-in"
	assert_untouched
	mkdir -m 0700 "$T/cand"
	cp -a "$T/good-50.conf" "$T/cand/source"
	capture /usr/sbin/dropgroups check --drop-in "$T/cand/source"
	assert_exit 1
	assert_in err '50-local.conf:1: unknown key "bogus"'
	valid_vars
	play
	assert_exit 0
	cmp /etc/security/dropgroups.d/50-local.conf "$T/good-50.conf" ||
		fail "the drop-in was not repaired"
	assert_login_trims
}

# A run that installs the main file and then has a drop-in refused puts
# the main file back: the new main rule is never left live without the
# restricting groups meant to come with it (the old role stopped with it
# installed).  And a main file whose include_dir is "." (the main file's
# own directory, /etc/security) is judged where it goes, and refused: the
# old role checked it next to Ansible's copy, called it valid, and every
# login was refused once it was installed.
test_ansible_role_puts_every_file_back_when_one_is_refused() {
	ansible_sandbox
	valid_vars
	play
	assert_exit 0
	INSTALL=none
	cp -a /etc/security/dropgroups.conf "$T/good.conf"
	cp -a /etc/security/dropgroups.d/50-local.conf "$T/good-50.conf"
	ls -A /etc/security /etc/security/dropgroups.d > "$T/ls.before"
	assert_login_trims
	# a new main rule (valid) with a drop-in that names a group that
	# does not exist (refused), and a new drop-in before it (valid)
	vars <<-'EOF'
	dropgroups_restricting: [games-abusers]
	dropgroups_rules:
	  - { name: ssh, services: [sshd, dgtest], keep: [users] }
	dropgroups_drop_ins:
	  - { name: 40-new.conf, restricting: [students] }
	  - { name: 50-local.conf, restricting: [no-such-group] }
	EOF
	play
	[ "$rc" -ne 0 ] || fail "the play installed an invalid drop-in"
	assert_in out 'was put back as it was, and the policy as it was put back is valid'
	assert_in out '/source:[0-9]+: restricting group \\"no-such-group\\" does not exist'
	cmp /etc/security/dropgroups.conf "$T/good.conf" || fail "the main policy was left changed"
	cmp /etc/security/dropgroups.d/50-local.conf "$T/good-50.conf" || fail "the drop-in changed"
	ls -A /etc/security /etc/security/dropgroups.d > "$T/ls.after"
	diff "$T/ls.before" "$T/ls.after" || fail "the play left a file behind, or took one away"
	echo "  the policy files are byte-identical to the good ones, and no other is there"
	assert_login_trims

	# include_dir = "." in a site's own template
	{
		echo 'version = 1;'
		echo 'include_dir = ".";'
		echo 'restricting = ( "games-abusers" );'
		echo 'rules = ( { name = "ssh"; services = [ "sshd" ]; drop = [ "audio" ]; } );'
	} > "$T/dot.conf.j2"
	valid_vars
	echo "dropgroups_policy_template: $T/dot.conf.j2" >> "$T/vars.yml"
	play
	[ "$rc" -ne 0 ] || fail "the play installed a policy whose include_dir is its own directory"
	assert_in play.err '/source:[0-9]+: include_dir is allowed only in the main file$'
	cmp /etc/security/dropgroups.conf "$T/good.conf" || fail "the main policy changed"
	ls -A /etc/security /etc/security/dropgroups.d > "$T/ls.after"
	diff "$T/ls.before" "$T/ls.after" || fail "the play left a file behind"
	assert_login_trims
}
