# Fault injection: memory exhaustion at every allocation, a policy file
# swapped while logins run, and sizes far past any real policy.  Each
# must end in the clean result or fail closed with the groups untouched.

fault_policy() {
	policy <<-'EOF'
	version = 1;
	restricting = ( "games-abusers", { name = "no-such-group"; optional = true; } );
	rules = ( { name = "r"; services = "dgtest"; users = [ "%students", "bob" ];
	            drop = "*"; no_new_privs = true; } );
	EOF
	mkdir -m 0755 /etc/security/dropgroups.d
	echo 'version = 1; restricting = ( "plugdev" );' | policy /etc/security/dropgroups.d/10.conf
	printf 'auth required %s\naccount required %s\nsession required %s\n' \
		"$MODULE" "$MODULE" "$MODULE" > "/etc/pam.d/$SERVICE"
}

# Every error line the module logged must say the groups stayed.
assert_error_lines_well_formed() {
	local bad
	bad=$(module_log err | grep -v 'groups left unchanged$' || true)
	[ -z "$bad" ] || fail "error lines without the outcome: $bad"
	echo "  $(module_log err | wc -l) error lines, all ending in 'groups left unchanged'"
}

allocfail() {
	setpriv --groups "$START" "$BUILD/allocfail" "$SERVICE" alice "$1" > "$T/af.out" 2>&1 ||
		{ cat "$T/af.out"; fail "allocation failure in $1 did not fail closed"; }
	sed 's/^/  /' "$T/af.out"
	grep -q '^failed-closed [1-9]' "$T/af.out" || fail "no allocation failure made it fail"
}

test_every_allocation_failure_in_open_session_fails_closed() {
	skip_under_sanitizers "the injector replaces malloc"
	fault_policy
	allocfail session
	assert_error_lines_well_formed
}

# Every login line the module wrote at info must be the clean run's (its
# first): the same fields, user, rule and groups.  Out of memory may only
# lose the fields (result= alone), the names in them (dropped=-) or in the
# text ("(out of memory naming them)"), never the user and the rule: the
# line libpam formats needs no allocation of ours.
assert_login_lines_whole() {
	module_log info | sed 's/^.*pam_dropgroups([^)]*): //' > "$T/info"
	python3 - "$T/info" <<-'EOF'
	import sys
	lines = open(sys.argv[1]).read().splitlines()
	assert lines, "no login line at all"
	fields, sep, text = lines[0].partition(': user "')
	assert sep, "the clean line names no user: " + lines[0]
	text = sep + text
	lost = text[:text.index(": dropped ") + len(": dropped ")] + \
	       "(out of memory naming them)" + \
	       ("; no_new_privs set" if text.endswith("; no_new_privs set") else "")
	head = fields[:fields.index(" result=dropped ") + len(" result=dropped ")]
	bad = [l for l in lines
	       if not any(l == "result=dropped" + t for t in (text, lost)) and
	          not (l.startswith(head) and
	               (l.endswith(text) or l.endswith(lost)))]
	print("  %d login lines, %d not whole" % (len(lines), len(bad)))
	for l in bad:
	    print("  not whole: " + l)
	sys.exit(1 if bad else 0)
	EOF
}

test_every_allocation_failure_in_open_session_keeps_the_login_line_whole() {
	skip_under_sanitizers "the injector replaces malloc"
	fault_policy
	allocfail session > /dev/null
	assert_login_lines_whole || fail "a login line lost its user or rule to out of memory"
}

test_every_allocation_failure_in_setcred_fails_closed() {
	skip_under_sanitizers "the injector replaces malloc"
	fault_policy
	allocfail setcred
	assert_error_lines_well_formed
}

test_every_allocation_failure_in_account_management_fails_closed() {
	skip_under_sanitizers "the injector replaces malloc"
	fault_policy
	allocfail account
	assert_error_lines_well_formed
}

# The policy file is replaced by a symlink to a policy that drops
# games-abusers, or by a group-writable copy of it, while logins run.  No
# login may ever apply it: each either uses the good file or fails closed.
# First each state once, in turn (both outcomes, for sure); then the same
# swaps racing a fixed number of logins: bounded by count, never by time
# or by the luck of the race, so a loaded machine only makes it slower.
test_policy_swapped_while_logins_run_is_never_followed() {
	local i racer state dropped=0 failed=0 fine=0 runs=40
	[ -z "${DG_SANITIZE:-}" ] || runs=20
	stack session success
	sed -i 's/^session \[success=1 default=bad\]/session optional/' "/etc/pam.d/$SERVICE"
	cat > /etc/security/good.conf <<-'EOF'
	version = 1;
	restricting = ( "games-abusers" );
	rules = ( { services = "dgtest"; drop = "audio"; } );
	EOF
	cat > "$T/evil.conf" <<-'EOF'
	version = 1;
	restricting = ( );
	rules = ( { services = "dgtest"; drop = "*"; } );
	EOF
	cp "$T/evil.conf" /etc/security/evil-writable.conf
	chmod 0666 /etc/security/evil-writable.conf
	chmod 0644 /etc/security/good.conf
	swap_to() {
		case $1 in
		link) ln -sfn "$T/evil.conf" /etc/security/.swap ;;
		writable) cp -p /etc/security/evil-writable.conf /etc/security/.swap ;;
		good) cp /etc/security/good.conf /etc/security/.swap ;;
		esac
		mv -T /etc/security/.swap "$POLICY"
	}
	for state in link good writable good; do
		swap_to "$state"
		run_pam alice open_session > /dev/null
		echo "  $state: $(groups_seen)"
		case $state in
		good) [ "$(groups_seen)" = "$(sorted_with_root 1001 100 44 46 2003 3000)" ] ||
			fail "the good policy was not applied" ;;
		*) [ "$(groups_seen)" = "$(sorted_with_root ${START//,/ })" ] ||
			fail "the $state policy was not refused" ;;
		esac
	done
	assert_log err 2 '(symbolic link|writable by group or others)'
	(
		while :; do
			swap_to link
			swap_to good
			swap_to writable
			swap_to good
		done
	) &
	racer=$!
	for ((i = 0; i < runs; i++)); do
		run_pam alice open_session > /dev/null
		case " $(groups_seen) " in
		*" 2003 "*) ;;
		*) dropped=$((dropped + 1)) ;;
		esac
		if [ "$(groups_seen)" = "$(sorted_with_root ${START//,/ })" ]; then
			failed=$((failed + 1))
		else
			fine=$((fine + 1))
		fi
	done
	kill "$racer"
	wait "$racer" 2> /dev/null || true
	echo "  $i racing logins: $fine used the good policy, $failed failed closed, $dropped dropped games-abusers"
	[ "$dropped" -eq 0 ] || fail "a swapped-in policy was applied"
}

test_more_than_ngroups_max_entries() {
	local max
	max=$(getconf NGROUPS_MAX)
	# a policy naming more gids than a process can hold (restricting by
	# gid: these gids have no names, and with a restricting *name* a gid
	# without one stays, which 24-nss-answers.sh covers)
	{
		echo 'version = 1;'
		echo 'restricting = ( 2003 );'
		printf 'rules = ( { services = "dgtest"; drop = ( '
		seq -s, 5000 $((5000 + max + 1000))
		echo ' ); } );'
	} | policy
	# and a process that holds NGROUPS_MAX groups (too many for one
	# setpriv argument, so perl's $) sets them: egid 0, then the list)
	seq 5000 $((5000 + max - 3)) > "$T/gids"
	stack session success
	rm -f "$T/groups"
	perl -e 'open(my $f, "<", shift) or die; my @g = map { chomp; $_ } <$f>;
		$) = "0 1001 2003 @g"; die "setgroups: $!" if $!; exec @ARGV or die' \
		"$T/gids" pamtester "$SERVICE" alice open_session || fail "pamtester failed"
	[ "$(grep -c . "$T/gids")" -eq $((max - 2)) ] || fail "not NGROUPS_MAX groups"
	[ "$(groups_seen)" = "0 1001 2003" ] || fail "want 0 1001 2003, got $(groups_seen | cut -c1-80)..."
	echo "  $max groups trimmed to: $(groups_seen)"
}

test_names_and_lines_of_100_kb() {
	local long
	long=$(head -c 102400 /dev/zero | tr '\0' 'g')
	policy <<-EOF
	version = 1;
	restricting = ( "games-abusers", { name = "$long"; optional = true; } );
	rules = ( { name = "$long"; services = [ "dgtest", "$long" ]; users = ( { name = "%$long"; optional = true; }, "alice" ); drop = ( "audio", "$long" ); } );
	EOF
	[ "$(wc -L < "$POLICY")" -gt 300000 ] || fail "the test line is not long"
	stack session success
	run_pam alice open_session > /dev/null
	assert_rc 0
	assert_groups 1001 100 44 46 2003 3000
	"$DG" check > /dev/null 2> "$T/err" || fail "check rejected long names"
	grep -c 'does not exist' "$T/err"
}

test_a_10_mb_policy_fails_closed() {
	policy <<-'EOF'
	version = 1; restricting = ( );
	rules = ( { services = "dgtest"; drop = "*"; } );
	EOF
	head -c $((10485760 - $(stat -c %s "$POLICY") - 1)) /dev/zero | tr '\0' '#' >> "$POLICY"
	echo >> "$POLICY"
	[ "$(stat -c %s "$POLICY")" -eq 10485760 ] || fail "not 10 MB"
	stack session session_err
	run_pam alice open_session > /dev/null
	assert_failed_closed "$POLICY: file is larger than 1048576 bytes"
}
