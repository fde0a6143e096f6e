# dropgroups(8): check and explain, run against the same sandboxed /etc
# files as the module, and held to agree with it.  What a person reads is
# compared whole with tests/expected/NAME.out and .err (assert_output):
# a change of wording shows as a diff in review.

test_check_accepts_a_valid_policy() {
	example_policy
	cli check -c "$POLICY"
	assert_exit 0
	assert_output check-valid
}

test_check_reads_the_default_path() {
	example_policy
	cli check
	assert_exit 0
	assert_in out "^$POLICY: valid"
}

test_check_shipped_example_policy_is_valid() {
	policy < "$TOP/conf/dropgroups.conf"
	cli check
	assert_exit 0
}

test_check_reports_every_problem_as_file_line_message() {
	policy <<-'EOF'
	version = 1;
	restricting = ( );
	rules = (
	  { name = "a"; services = "*"; drop = "*"; colour = 1; },
	  { name = "b"; services = "*"; }
	);
	EOF
	cli check -c "$POLICY"
	assert_exit 1
	assert_output check-every-problem
}

test_check_warns_but_accepts_unknown_names_and_restricting_in_drop() {
	policy <<-'EOF'
	version = 1;
	restricting = ( "games-abusers", { name = "no-such-group"; optional = true; } );
	rules = ( { name = "r"; services = "*"; drop = [ "games-abusers", "audio" ]; } );
	EOF
	cli check -c "$POLICY"
	assert_exit 0
	assert_output check-warnings
}

# Configuration management validates a drop-in before it replaces the
# installed one, together with the installed main policy (as visudo -cf
# does for sudoers): check --drop-in FILE.
test_check_a_drop_in_before_it_is_installed() {
	example_policy
	mkdir -m 0755 /etc/security/dropgroups.d
	echo 'version = 1; restricting = ( "plugdev" );' | policy /etc/security/dropgroups.d/50-local.conf
	mkdir -m 0700 "$T/candidate"
	printf 'version = 1;\nrestricting = ( "students" );\n' | policy "$T/candidate/50-local.conf"
	cli check --drop-in "$T/candidate/50-local.conf"
	assert_exit 0
	# it stands in for the installed 50-local.conf: 2003 and 3000 only
	assert_in out "^$POLICY: valid: 2 rule\(s\), 2 restricting gid\(s\), 2 file\(s\) read$"
	printf 'version = 1;\nrestricting = ( "students" ); bogus = 1;\n' | policy "$T/candidate/50-local.conf"
	cli check -d "$T/candidate/50-local.conf"
	assert_exit 1
	assert_in err "^$T/candidate/50-local.conf:2: unknown key \"bogus\"$"
	# held to the same file checks as an installed drop-in
	printf 'version = 1;\n' | policy "$T/candidate/50-local.conf"
	chmod 0666 "$T/candidate/50-local.conf"
	cli check -d "$T/candidate/50-local.conf"
	assert_exit 1
	assert_in err 'the file is writable by group or others'
}

# Ansible's validate: runs on a copy it names "source": --as says which
# installed drop-in the candidate stands in for.  The baseline: without
# --as, the installed 50-local.conf, now broken, is read as well, and a
# good replacement for it could never pass.
test_check_a_drop_in_as_the_name_it_will_have() {
	example_policy
	mkdir -m 0755 /etc/security/dropgroups.d
	echo 'version = 1; bogus = 1;' | policy /etc/security/dropgroups.d/50-local.conf
	mkdir -m 0700 "$T/tmp"
	printf 'version = 1;\nrestricting = ( "students" );\n' | policy "$T/tmp/source"
	cli check --drop-in "$T/tmp/source"
	assert_exit 1
	assert_in err '^/etc/security/dropgroups.d/50-local.conf:1: unknown key "bogus"$'
	cli check --drop-in "$T/tmp/source" --as 50-local.conf
	assert_exit 0
	assert_in out "^$POLICY: valid: 2 rule\(s\), 2 restricting gid\(s\), 2 file\(s\) read$"
	# a name the module would never read is refused, as is a relative
	# path, and, without --drop-in, anything but an absolute path
	for name in 50-local .50-local.conf /etc/security/dropgroups.d/50-local; do
		cli check --drop-in "$T/tmp/source" --as "$name"
		assert_exit 2
		assert_in err "^dropgroups: check: --as \"$name\": a drop-in is named NAME.conf"
	done
	cli check --drop-in "$T/tmp/source" --as dir/50-local.conf
	assert_exit 2
	assert_in err '^dropgroups: check: --as "dir/50-local.conf": a drop-in.s NAME, or the absolute path'
	cli check --as 50-local.conf
	assert_exit 2
	assert_in err '^dropgroups: check: --as "50-local.conf" without --drop-in: the absolute path'
}

# check -c FILE --as PATH (Ansible's validate: of the main file): FILE,
# a copy in a temporary directory, is judged as if installed at PATH.
# The baseline: without --as, a relative include_dir is looked for next
# to the copy, where there is no drop-in, and "." reads the copy's own
# directory; installed, the policy reads /etc/security's other files.
test_check_a_main_file_as_the_path_it_will_have() {
	example_policy
	mkdir -m 0755 /etc/security/dropgroups.d
	echo 'version = 1; bogus = 1;' | policy /etc/security/dropgroups.d/50-local.conf
	echo 'version = 1;' | policy /etc/security/other.conf
	mkdir -m 0700 "$T/tmp"
	# the default include_dir: PATH + ".d", not the copy's "source.d"
	sed '/^version/a include_dir = "dropgroups.d";' "$POLICY" | policy "$T/tmp/source"
	cli check -c "$T/tmp/source"
	assert_exit 0
	cli check -c "$T/tmp/source" --as "$POLICY"
	assert_exit 1
	assert_in err '^/etc/security/dropgroups.d/50-local.conf:1: unknown key "bogus"$'
	grep -v include_dir "$POLICY" | policy "$T/tmp/source"
	cli check -c "$T/tmp/source" --as "$POLICY"
	assert_exit 1
	assert_in err '^/etc/security/dropgroups.d/50-local.conf:1: unknown key "bogus"$'
	echo 'version = 1; restricting = ( "students" );' | policy /etc/security/dropgroups.d/50-local.conf
	cli check -c "$T/tmp/source" --as "$POLICY"
	assert_exit 0
	assert_in out "^$T/tmp/source: valid: 2 rule\(s\), 2 restricting gid\(s\), 2 file\(s\) read$"
	# include_dir = "." is the main file's own directory: refused, as the
	# module refuses it (it reads every *.conf there, its own file too,
	# and in /etc/security, access.conf...), even before it is installed
	mkdir -m 0755 /etc/security/pol
	sed '/^version/a include_dir = ".";' "$POLICY" | policy "$T/tmp/source"
	cli check -c "$T/tmp/source"
	assert_exit 0
	cli check -c "$T/tmp/source" --as /etc/security/pol/dropgroups.conf
	assert_exit 1
	assert_in err "^$T/tmp/source:[0-9]+: include_dir is allowed only in the main file$"
	cli check -c "$T/tmp/source" --as "$POLICY"
	assert_exit 1
	# the copy's directory is Ansible's, anybody's (a non-root SSH user
	# with become): only the file itself is checked
	chown nobody "$T/tmp"
	grep -v include_dir "$POLICY" | policy "$T/tmp/source"
	cli check -c "$T/tmp/source"
	assert_exit 1
	assert_in err 'directory .*/tmp is not owned by root'
	cli check -c "$T/tmp/source" --as "$POLICY"
	assert_exit 0
	chmod 0666 "$T/tmp/source"
	cli check -c "$T/tmp/source" --as "$POLICY"
	assert_exit 1
	assert_in err "^$T/tmp/source: the file is writable by group or others"
	chmod 0644 "$T/tmp/source"
	# PATH's own directory is checked as the module checks it
	chmod 0777 /etc/security
	cli check -c "$T/tmp/source" --as "$POLICY"
	assert_exit 1
	assert_in err 'directory /etc/security is writable by group or others'
	chmod 0755 /etc/security
}

# A new main file whose include_dir is not the installed one's would
# silently stop reading the drop-ins left in the old directory, and the
# restricting groups they add.  The baseline: the file alone is valid.
test_check_refuses_a_main_file_that_abandons_drop_ins() {
	example_policy
	mkdir -m 0755 /etc/security/dropgroups.d /etc/security/site.d
	echo 'version = 1; restricting = ( "students" );' | policy /etc/security/dropgroups.d/10-local.conf
	mkdir -m 0700 "$T/tmp"
	sed '/^version/a include_dir = "/etc/security/site.d";' "$POLICY" | policy "$T/tmp/source"
	cli check -c "$T/tmp/source"
	assert_exit 0
	cli check -c "$T/tmp/source" --as "$POLICY"
	assert_exit 1
	assert_in err "^$T/tmp/source: the installed $POLICY reads drop-ins from /etc/security/dropgroups.d, and this one would not: 10-local.conf would no longer be read \(move or remove them first\)$"
	# once they are moved, it is accepted; the same directory spelled
	# otherwise is the same directory
	mv /etc/security/dropgroups.d/10-local.conf /etc/security/site.d/
	cli check -c "$T/tmp/source" --as "$POLICY"
	assert_exit 0
	assert_in out 'valid: 2 rule\(s\), 2 restricting gid\(s\), 2 file\(s\) read$'
	sed '/^version/a include_dir = "/etc/security/site.d";' "$POLICY" | policy "$POLICY.new"
	mv "$POLICY.new" "$POLICY"
	sed 's|/etc/security/site.d|site.d/.|' "$POLICY" | policy "$T/tmp/source"
	cli check -c "$T/tmp/source" --as "$POLICY"
	assert_exit 0
}

# check --drop-in FILE --as PATH: PATH must be in the directory the
# policy reads its drop-ins from, or its restricting groups would never
# be read.  The baseline: the bare NAME says nothing of the directory.
test_check_a_drop_in_as_a_path_in_the_include_dir() {
	sed '/^version/a include_dir = "/etc/security/local.d";' <<-'EOF' | policy
	version = 1;
	restricting = ( );
	rules = ( { name = "ssh"; services = "sshd"; keep = "users"; } );
	EOF
	mkdir -m 0755 /etc/security/local.d /etc/security/dropgroups.d
	mkdir -m 0700 "$T/tmp"
	printf 'version = 1;\nrestricting = ( "games-abusers" );\n' | policy "$T/tmp/source"
	cli check --drop-in "$T/tmp/source" --as 50-games.conf
	assert_exit 0
	cli check --drop-in "$T/tmp/source" --as /etc/security/dropgroups.d/50-games.conf
	assert_exit 1
	assert_in err "^$POLICY: the policy reads its drop-ins from /etc/security/local.d, not /etc/security/dropgroups.d: /etc/security/dropgroups.d/50-games.conf would never be read$"
	cli check --drop-in "$T/tmp/source" --as /etc/security/local.d/50-games.conf
	assert_exit 0
	assert_in out "^$POLICY: valid: 1 rule\(s\), 1 restricting gid\(s\), 2 file\(s\) read$"
	# Ansible's temporary directory is anybody's: the file itself is
	# checked, not its directory
	chown nobody "$T/tmp"
	cli check --drop-in "$T/tmp/source" --as /etc/security/local.d/50-games.conf
	assert_exit 0
	chown root "$T/tmp/source"
	chmod 0664 "$T/tmp/source"
	cli check --drop-in "$T/tmp/source" --as /etc/security/local.d/50-games.conf
	assert_exit 1
	assert_in err "^$T/tmp/source: the file is writable by group or others"
	chmod 0644 "$T/tmp/source"
	# no include directory at all: a drop-in would never be read
	rmdir /etc/security/local.d
	cli check --drop-in "$T/tmp/source" --as 50-games.conf
	assert_exit 1
	assert_in err "^$POLICY: the include directory /etc/security/local.d does not exist: a drop-in would never be read$"
}

# The candidate is read at its name's place in the C-locale order, as it
# will be once installed (the first matching rule wins): the warnings of
# each file come in the order the files are read.  The baseline: last.
test_check_reads_a_drop_in_candidate_at_its_sorted_place() {
	example_policy
	mkdir -m 0755 /etc/security/dropgroups.d
	for f in 10-a 90-z; do
		echo "version = 1; rules = ( { name = \"$f\"; services = \"Svc-$f\"; drop = \"audio\"; } );" |
			policy /etc/security/dropgroups.d/$f.conf
	done
	mkdir -m 0700 "$T/tmp"
	echo 'version = 1; rules = ( { name = "m"; services = "Svc-m"; drop = "audio"; } );' | policy "$T/tmp/source"
	cli check --drop-in "$T/tmp/source" --as 50-m.conf
	assert_exit 0
	[ "$(grep -o 'Svc-[a-z0-9-]*' "$T/err" | xargs)" = "Svc-10-a Svc-m Svc-90-z" ] ||
		fail "the candidate is not read between 10-a.conf and 90-z.conf"
	cli check --drop-in "$T/tmp/source" --as /etc/security/dropgroups.d/95-m.conf
	assert_exit 0
	[ "$(grep -o 'Svc-[a-z0-9-]*' "$T/err" | xargs)" = "Svc-10-a Svc-90-z Svc-m" ] ||
		fail "the candidate is not read after 90-z.conf"
}

test_check_applies_the_module_file_checks() {
	example_policy
	chmod 0666 "$POLICY"
	cli check -c "$POLICY"
	assert_exit 1
	assert_in err "^$POLICY: the file is writable by group or others"
}

test_check_missing_file() {
	cli check -c /etc/security/none.conf
	assert_exit 1
	assert_in err '^/etc/security/none.conf: cannot open: No such file or directory$'
}

# (--pam-dir names no directory: no stack is installed, so the ways back
# in are sg and newgrp alone; 42-lint.sh tests them with stacks)
test_explain_lists_each_group_with_verdict_and_reason() {
	example_policy
	cli explain -c "$POLICY" --pam-dir "$T/no-pam.d" sshd alice
	assert_exit 0
	assert_output explain-drop
}

test_explain_says_when_the_rule_sets_no_new_privs() {
	policy <<-'EOF'
	version = 1;
	restricting = ( "games-abusers" );
	rules = ( { name = "ssh"; services = "sshd"; drop = "audio"; no_new_privs = true; } );
	EOF
	cli explain -c "$POLICY" --pam-dir "$T/no-pam.d" sshd alice
	assert_exit 0
	assert_in out '^rule "ssh" \(.*\) matches: drop, no_new_privs$'
}

test_explain_keep_rule_reasons() {
	example_policy
	cli explain -c "$POLICY" --pam-dir "$T/no-pam.d" su alice
	assert_exit 0
	assert_output explain-keep
}

test_explain_when_no_rule_matches() {
	example_policy
	cli explain -c "$POLICY" --pam-dir "$T/no-pam.d" su bob
	assert_exit 0
	assert_output explain-no-rule
}

test_explain_unknown_user() {
	example_policy
	cli explain -c "$POLICY" sshd ghost
	assert_exit 1
	assert_in err 'user "ghost" does not exist'
}

test_explain_invalid_policy() {
	echo 'version = 2; restricting = ( );' | policy
	cli explain sshd alice
	assert_exit 1
	assert_in err "^$POLICY:1: version 2 is not supported"
}

# explain answers from NSS (initgroups); the module from the process.
# Start the process with exactly alice's NSS groups and both must agree.
test_explain_agrees_with_the_module() {
	example_policy
	for svc_user in dgtest:alice; do
		cli explain "${svc_user%%:*}" "${svc_user#*:}"
		want=$(sed -n 's/^groups after: //p' "$T/out")
		stack session success
		run_pam alice open_session
		assert_rc 0
		assert_groups $want
	done
	# and for the keep rule, through a service name the first rule lacks
	sed -i 's/"sshd", "dgtest"/"sshd"/' "$POLICY"
	cli explain dgtest alice
	want=$(sed -n 's/^groups after: //p' "$T/out")
	run_pam alice open_session
	assert_rc 0
	assert_groups $want
}

# Linux-PAM lowercases the service name before any module sees it: a
# rule for "DGTEST" never matches, and check says so; explain takes its
# SERVICE as PAM would, so it agrees with the module either way.
test_upper_case_services_never_match_and_explain_agrees() {
	policy <<-'EOF'
	version = 1;
	restricting = ( "games-abusers" );
	rules = ( { name = "upper"; services = "DGTEST"; drop = "*"; },
	          { name = "lower"; services = "dgtest"; drop = "audio"; } );
	EOF
	cli check
	assert_exit 0
	assert_in err "^$POLICY:3: warning: service \"DGTEST\" in rule \"upper\" has upper-case letters; Linux-PAM lowercases service names, so it never matches$"
	cli explain DGTEST alice
	assert_exit 0
	assert_in out '^service "dgtest", user "alice"'
	assert_in out '^rule "lower" .* matches: drop$'
	want=$(sed -n 's/^groups after: //p' "$T/out")
	stack session success
	SERVICE=DGTEST run_pam alice open_session
	assert_rc 0
	assert_groups $want
	assert_log info 1 'rule "lower": dropped audio\(29\)$'
}

test_check_warns_about_a_group_name_made_of_digits() {
	policy <<-'EOF'
	version = 1;
	restricting = ( "2003" );
	EOF
	cli check
	# (and no group is called "2003": an error, as for any missing name)
	assert_exit 1
	assert_in err "^$POLICY:2: warning: restricting names the group \"2003\", a name made of digits; for gid 2003 write it without quotes$"
}

# explain names the gids it would drop, as the module does, so a second
# group called like a restricting one shows as kept, and why.
test_explain_shows_restricting_by_name() {
	echo 'games-abusers:x:2005:alice' >> /etc/group
	policy <<-'EOF'
	version = 1;
	restricting = ( "games-abusers" );
	rules = ( { services = "*"; drop = "*"; } );
	EOF
	cli explain dgtest alice
	assert_exit 0
	assert_in out '^  kept +games-abusers\(2005\) +restricting \(by name: games-abusers\)$'
	assert_in out '^groups after: 1001 2003 2005$'
}

# During an outage, check and explain say that a look-up failed and exit
# 1: never "valid" with the restricting group missing.
test_check_and_explain_fail_when_the_directory_is_down() {
	use_directory 'group ldap-abusers 6003 alice' 'group ldap-video 6102 alice'
	policy <<-'EOF'
	version = 1;
	restricting = ( "games-abusers", "ldap-abusers" );
	rules = ( { services = "*"; drop = "*"; } );
	EOF
	cli check
	assert_exit 0
	cli explain dgtest alice
	assert_exit 0
	assert_in out '^  kept +ldap-abusers\(6003\) +restricting$'
	directory 'group ldap-abusers 6003 alice' 'group ldap-video 6102 alice' \
		'fail getgrnam * unavail ENOENT' 'fail getgrgid * unavail ENOENT'
	cli check
	assert_exit 1
	assert_in err "^$POLICY:2: looking up group \"ldap-abusers\" in restricting failed: No such file or directory$"
	! grep -q valid "$T/out" || fail "check said valid"
	cli explain dgtest alice
	assert_exit 1
	assert_in err 'looking up group "ldap-abusers" in restricting failed'
	# the same outage, the restricting group listed by gid: no look-up
	# is needed for it, but naming the gids to drop still is
	sed -i 's/"ldap-abusers"/6003/' "$POLICY"
	cli check
	assert_exit 0
	cli explain dgtest alice
	assert_exit 1
	assert_in err 'looking up the name of gid 6102 failed: No such file or directory'
}

test_usage_errors_exit_2() {
	for args in "" "frobnicate" "explain sshd" "explain a b c" "check extra" \
		"check --bogus" "check -c a -c b"; do
		# shellcheck disable=SC2086
		cli $args
		assert_exit 2
		assert_in err "Try 'dropgroups --help'"
	done
}

test_help_and_version() {
	cli --help
	assert_exit 0
	assert_output help
	cli explain --help
	assert_exit 0
	assert_output help-explain
	cli --version
	assert_exit 0
	assert_in out '^dropgroups [0-9]+\.[0-9]+\.[0-9]+$'
}

# Each verb's --help, -h and `help VERB` print that verb's usage, options
# and exit codes, the same text, on stdout; `help` alone the global help.
test_help_of_each_verb() {
	local verb
	for verb in check lint explain probe run sync-kernel audit help; do
		cli help "$verb"
		assert_exit 0
		assert_in out "^Usage: dropgroups $verb( |$)"
		assert_in out '^Options:$'
		assert_in out '^Exit status:$'
		assert_in out '^  2 +usage error'
		[ ! -s "$T/err" ] || fail "help $verb wrote on stderr"
		cp "$T/out" "$T/help-verb"
		cli "$verb" --help
		assert_exit 0
		cmp -s "$T/out" "$T/help-verb" || fail "$verb --help differs from help $verb"
		cli "$verb" -h
		assert_exit 0
		cmp -s "$T/out" "$T/help-verb" || fail "$verb -h differs from help $verb"
	done
	# every status a verb's help gives is one dropgroups(8) explains
	local statuses status
	statuses=$(sed -n '/^\.SH "EXIT STATUS"/,/^\.SH /p' "$TOP/man/dropgroups.8")
	for verb in check lint explain probe run sync-kernel audit help; do
		cli help "$verb"
		for status in $(sed -n '/^Exit status:$/,$p' "$T/out" |
			sed -nE 's/^  ([0-9]+) .*/\1/p'); do
			grep -qx "\.B $status" <<< "$statuses" ||
				fail "$verb's help gives status $status, which dropgroups(8) does not"
		done
	done
	cli help check
	assert_output help-check
	cli help
	assert_exit 0
	assert_output help
	cli help frobnicate
	assert_exit 2
	assert_in err '^dropgroups: help: unknown command "frobnicate"$'
	[ ! -s "$T/out" ] || fail "help of an unknown command printed on stdout"
}

# The help cannot drift from the parsers: every option a verb's help
# lists is accepted by that verb, and every option of another verb that
# it does not list is refused (exit 2).  An option that takes a value is
# given one; --help after it shows the option was parsed.
test_help_lists_exactly_the_options_each_parser_accepts() {
	local verb all listed opt arg
	for verb in check lint explain probe run sync-kernel audit help; do
		cli help "$verb"
		cp "$T/out" "$T/help-$verb"
	done
	# every option some verb lists, as "--long ARG" or "--long"
	all=$(cat "$T"/help-* | sed -n '/^Options:$/,/^$/p' |
		sed -nE 's/^  (-[a-z], )?(--[a-z-]+)( [A-Z|]+)?  .*/\2\3/p' | sort -u)
	[ -n "$all" ] || fail "no option found in any help"
	# and every option dropgroups(8) describes is in some verb's help
	for opt in $(sed -n '/^\.SH OPTIONS/,/^\.SH "EXIT/p' "$TOP/man/dropgroups.8" |
		grep -A1 '^\.TP' | grep -oE '\\-\\-[a-z\\-]+' | tr -d '\\' | sort -u); do
		[ "$opt" = --version ] ||
			grep -q -- "^$opt\( \|$\)" <<< "$all" ||
			fail "dropgroups(8) describes $opt, which no verb's help lists"
	done
	for verb in check lint explain probe run sync-kernel audit help; do
		listed=$(sed -n '/^Options:$/,/^$/p' "$T/help-$verb")
		while read -r opt arg; do
			[ "$opt" != --help ] || continue
			# shellcheck disable=SC2086
			cli "$verb" "$opt" ${arg:+value} --help
			if grep -qE -- "^  (-[a-z], )?$opt( |$)" <<< "$listed"; then
				assert_exit 0
				cmp -s "$T/out" "$T/help-$verb" ||
					fail "$verb $opt --help did not print $verb's help"
			else
				assert_exit 2
			fi
			# and the short form where the help gives one
			local short
			short=$(sed -nE "s/^  (-[a-z]), $opt( .*|$)/\1/p" <<< "$listed")
			if [ -n "$short" ]; then
				# shellcheck disable=SC2086
				cli "$verb" "$short" ${arg:+value} --help
				assert_exit 0
			fi
		done <<< "$all"
	done
}

# visudo-style: a syntax error says FILE:LINE:COLUMN:, the column the
# byte where libconfig's parse stopped; other problems keep FILE:LINE:.
test_check_syntax_error_names_its_column() {
	policy <<-'EOF'
	version = 1;
	restricting = ( "games-abusers" );
	rules = ( { name = "a"; services = "*"; drop = [ 1 2 ]; } );
	EOF
	cli check -c "$POLICY"
	assert_exit 1
	assert_in err "^$POLICY:3:52: syntax error$"
	policy <<-'EOF'
	version = 1;
	restricting = ( );
	rules = ( { name = "a"; services = "*"; drop = "*"; colour = 1; } );
	EOF
	cli check -c "$POLICY"
	assert_exit 1
	assert_in err "^$POLICY:3: unknown key \"colour\" in rule \"a\"$"
}

# A syntax error through the other verbs that print the policy's
# problems: lint and explain say the column too.
test_lint_and_explain_syntax_error_names_its_column() {
	policy <<-'EOF'
	version = 1;
	restricting = ( $ );
	EOF
	cli lint -c "$POLICY" --pam-dir "$T"
	assert_exit 1
	assert_in err "^$POLICY:2:17: syntax error$"
	cli explain -c "$POLICY" sshd alice
	assert_exit 1
	assert_in err "^$POLICY:2:17: syntax error$"
}

# An unknown key names the known key nearest to it; the policy is still
# refused as before.
test_check_unknown_key_suggests_the_nearest() {
	policy <<-'EOF'
	version = 1;
	restricing = ( );
	rules = ( { name = "a"; services = "*"; dorp = "*"; keep = "users";
	            users = ( { name = "%g"; optinal = true; } ); } );
	EOF
	cli check -c "$POLICY"
	assert_exit 1
	assert_in err "^$POLICY:2: unknown key \"restricing\"; did you mean \"restricting\"\?$"
	assert_in err "^$POLICY:3: unknown key \"dorp\" in rule \"a\"; did you mean \"drop\"\?$"
	assert_in err "^$POLICY:4: unknown key \"optinal\" in a users entry \(only \"name\" and \"optional\"\); did you mean \"optional\"\?$"
}

test_check_warns_about_unknown_user_names() {
	policy <<-'EOF'
	version = 1;
	restricting = ( );
	rules = ( { name = "r"; services = "*"; users = [ "alice", "alcie" ]; drop = "audio"; } );
	EOF
	cli check -c "$POLICY"
	assert_exit 0
	assert_in err "^$POLICY:3: warning: user \"alcie\" in users of rule \"r\" does not exist; it is ignored$"
	! grep -q '"alice"' "$T/err" || fail "warned about a user who exists"
}

test_check_explains_large_gids_need_an_l_suffix() {
	policy <<-'EOF'
	version = 1;
	restricting = ( 4294967294 );
	EOF
	cli check -c "$POLICY"
	assert_exit 1
	assert_in err 'with an L suffix'
	echo 'version = 1; restricting = ( 4294967294L );' | policy
	cli check -c "$POLICY"
	assert_exit 0
}

# --- the kernel-side commands, on this (stock) kernel; the patched
# kernel is exercised in a VM by `make kernel-check` ---

run_policy() {
	policy <<-'EOF'
	version = 1;
	restricting = ( "games-abusers" );
	rules = ( { services = "dropgroups"; users = [ "alice", "root" ]; drop = [ "audio", "video", "plugdev" ]; } );
	EOF
}

# The probe drops every capability, sets no_new_privs and calls
# setgroups: in a forked child, never in dropgroups' own process (whose
# caller could be a script that goes on as root).  strace shows which
# process made those calls.
test_probe_on_a_stock_kernel_reports_no_support_and_changes_nothing() {
	local main
	capture strace -f -qq -o "$T/trace" -e trace=execve,prctl,setgroups,capset "$DG" probe
	assert_exit 1
	assert_in out '^kernel.setgroups_unprivileged_drop: absent'
	assert_in out '^unprivileged drop with no_new_privs: refused$'
	assert_in out 'needs a kernel with subset-setgroups'
	main=$(grep -m1 'execve(' "$T/trace" | cut -d' ' -f1)
	grep -q 'PR_SET_NO_NEW_PRIVS' "$T/trace" || fail "the probe set no no_new_privs: $(cat "$T/trace")"
	if grep -E 'PR_SET_NO_NEW_PRIVS|setgroups\(|capset\(' "$T/trace" | grep -c "^$main " > /dev/null; then
		fail "the probe changed dropgroups' own process: $(cat "$T/trace")"
	fi
}

# The probe must not run with its capabilities or without no_new_privs
# where it could not clear or set them (tests/faults/liar.c makes libcap
# or prctl fail): as root it would then "drop" through CAP_SETGID and
# report a kernel that lets any process drop groups.
test_probe_that_cannot_clear_its_capabilities_reports_nothing() {
	local lie
	for lie in capset nnp; do
		capture env LD_PRELOAD="${LD_PRELOAD:+$LD_PRELOAD }$BUILD/liar.so" DG_LIAR=$lie "$DG" probe
		assert_exit 3
		assert_in err 'the probe could not run'
		! grep -q 'unprivileged drop' "$T/out" || fail "the probe reported: $out"
	done
	# the baseline: without the lie it runs, and reports
	capture env LD_PRELOAD="${LD_PRELOAD:+$LD_PRELOAD }$BUILD/liar.so" "$DG" probe
	assert_exit 1
	assert_in out '^unprivileged drop with no_new_privs: refused$'
}

test_run_with_cap_setgid_trims_and_sets_no_new_privs() {
	run_policy
	START=0,29,44,46,100,2003
	set +e
	out=$(setpriv --groups "$START" "$DG" run -- sh -c 'id -G; grep NoNewPrivs /proc/self/status')
	set -e
	echo "$out"
	# (no pipes: an early exit of grep -q or head must not fail the test)
	[ "${out%%$'\n'*}" = '0 100 2003' ] || fail "run did not trim: $out"
	grep -q 'NoNewPrivs:[[:space:]]*1' <<< "$out" || fail "run did not set no_new_privs"
	# baseline: the same command without run keeps every group
	out=$(setpriv --groups "$START" sh -c 'id -G')
	[ "$out" = "0 29 44 46 100 2003" ] || fail "baseline: $out"
}

test_run_unprivileged_on_a_stock_kernel_names_the_missing_support() {
	run_policy
	set +e
	out=$(setpriv --reuid alice --regid alice --groups "$START" --inh-caps=-all \
		"$DG" run -- id -G 2>&1)
	rc=$?
	set -e
	echo "$out"
	[ "$rc" -eq 1 ] || fail "run exited $rc"
	echo "$out" | grep -q 'lacks CAP_SETGID, and dropping groups without it needs a kernel with subset-setgroups' ||
		fail "no clear error"
	! echo "$out" | grep -q '^1001' || fail "the command ran"
}

test_run_refuses_when_no_rule_matches() {
	run_policy
	cli run -s nosuchservice -- id -G
	assert_exit 1
	assert_in err 'no rule matches service "nosuchservice"'
	[ ! -s "$T/out" ] || fail "the command ran"
}

test_run_refuses_to_be_setuid() {
	run_policy
	install -m 4755 "$DG" "$T/dropgroups-suid"
	chmod 0755 "$T"
	set +e
	out=$(setpriv --reuid alice --regid alice --init-groups "$T/dropgroups-suid" run -- id 2>&1)
	rc=$?
	set -e
	echo "$out"
	[ "$rc" -eq 1 ] && echo "$out" | grep -q 'must not be set-user-ID' || fail "a setuid run went ahead"
}

test_sync_kernel_on_a_stock_kernel_explains_what_is_missing() {
	run_policy
	cli sync-kernel
	assert_exit 1
	assert_in err 'this kernel lacks kernel.setgroups_sticky_gids'
}

# sticky_file: a stand-in for the patched kernel's sysctl, on a tmpfs
# over this sandbox's /proc/sys/kernel (the host's kernel has none).
sticky_file() {
	mount -t tmpfs -o mode=0755 tmpfs /proc/sys/kernel
	: > /proc/sys/kernel/setgroups_sticky_gids
	STICKY=/proc/sys/kernel/setgroups_sticky_gids
}

# The kernel takes the list in one write(2), whole or refused: a write
# of a multiple of 1 KiB that does not end the line is refused (it may
# be stdio's first block of a longer value), and so is an empty line (the
# empty list is spelled "none").  So sync-kernel writes one line, with
# its newline, and "none" for a policy that restricts nothing.  strace
# shows the write(2) calls; the stand-in file keeps the bytes.
test_sync_kernel_writes_one_line_and_none_for_an_empty_list() {
	run_policy
	sticky_file
	strace -f -qq -e trace=write -e signal=none -o "$T/trace" \
		"$DG" sync-kernel > "$T/out" 2>&1 || fail "sync-kernel: $(cat "$T/out")"
	[ "$(od -An -c "$STICKY" | tr -s ' ')" = " 2 0 0 3 \n" ] ||
		fail "sticky bytes: $(od -An -c "$STICKY")"
	[ "$(grep -cE 'write\([0-9]+, "2003\\n", 5\) += 5$' "$T/trace")" = 1 ] ||
		fail "not one write of \"2003\\n\": $(cat "$T/trace")"
	policy <<-'EOF'
	version = 1;
	restricting = ( );
	rules = ( { services = "dropgroups"; users = [ "alice" ]; drop = [ "audio" ]; } );
	EOF
	cli sync-kernel
	assert_exit 0
	assert_in out '^kernel.setgroups_sticky_gids = .empty.$'
	[ "$(od -An -c "$STICKY" | tr -s ' ')" = " n o n e \n" ] ||
		fail "an empty list was written as: $(od -An -c "$STICKY")"
}

# The kernel holds gids: sync-kernel writes every gid a walk of the
# group database calls by a restricting name.  A directory that does not
# list its groups (SSSD's default; here the sandbox's small directory,
# which answers look-ups but no walk) can hold another games-abusers,
# 2005, that alice is in: sync-kernel must say so, not report success
# with 2005 missing.
test_sync_kernel_names_a_group_whose_gids_it_cannot_all_know() {
	run_policy
	sticky_file
	# baseline: the files alone list every group; all of it written
	cli sync-kernel
	assert_exit 0
	[ "$(cat "$STICKY")" = 2003 ] || fail "sticky list: $(cat "$STICKY")"
	use_directory 'group games-abusers 2005 alice'
	# what a session would see: the directory's games-abusers
	getent group 2005 | grep -q '^games-abusers:' || fail "the directory does not answer"
	: > "$STICKY"
	cli sync-kernel
	assert_exit 1
	assert_in out '^kernel.setgroups_sticky_gids = 2003$'
	[ "$(cat "$STICKY")" = 2003 ] || fail "sticky list: $(cat "$STICKY")"
	assert_in err 'restricting group "games-abusers" may have gids the kernel does not hold: the group database also asks "dgfault", which need not list its groups'
	assert_in err 'list each gid of "games-abusers" in restricting, by number'
}
