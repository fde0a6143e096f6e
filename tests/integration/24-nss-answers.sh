# What NSS answers, and what the module makes of it: groups that share a
# name, directories that are down or offline, and how often each name is
# asked.  The directory is tests/nss/dgfault.c after "files" (lib.sh
# use_directory), so glibc's own NSS dispatch turns each status and
# errno into what the module sees, as it would for nslcd or SSSD.

# drop_all_but_restricting [RESTRICTING]: drop = "*" for dgtest, with
# RESTRICTING (libconfig text; default "games-abusers") restricting.
drop_all_but_restricting() {
	local restricting=${1:-'"games-abusers"'}
	policy <<-EOF
	version = 1;
	restricting = ( $restricting );
	rules = ( { name = "all"; services = "dgtest"; drop = "*"; } );
	EOF
}

# --- two groups, one name ---

# sudoers' "!%games-abusers" matches by name, so a second group of that
# name (here a second line in /etc/group) is as restricting as the first.
test_restricting_name_keeps_a_second_group_of_that_name() {
	echo 'games-abusers:x:2005:alice' >> /etc/group
	START=$START,2005
	drop_all_but_restricting
	stack session success
	run_pam alice open_session
	assert_rc 0
	assert_groups 1001 2003 2005
	# the baseline: listed by gid only, the second group goes
	drop_all_but_restricting 2003
	run_pam alice open_session
	assert_rc 0
	assert_groups 1001 2003
}

# Lines of /etc/group that the files-first pass leaves to glibc's parser
# (white space before the name, a sign before the gid: nss_files reads
# both) are still the first lines of their gids: each names its gid
# games-abusers, as getgrgid does, not the plain line after it, so the
# restricting name keeps them.
test_restricting_name_keeps_groups_on_lines_only_glibc_reads() {
	printf '%s\n' ' games-abusers:x:2006:alice' 'games-abusers:x:+2007:alice' \
		'dgother6:x:2006:alice' 'dgother7:x:2007:alice' >> /etc/group
	START=$START,2006,2007
	drop_all_but_restricting
	stack session success
	[ "$(getent group 2006 | cut -d: -f1)" = games-abusers ] &&
		[ "$(getent group 2007 | cut -d: -f1)" = games-abusers ] ||
		fail "glibc does not read the lines"
	run_pam alice open_session
	assert_rc 0
	assert_groups 1001 2003 2006 2007
}

# A local group and a directory group of the same name.
test_restricting_name_keeps_a_directory_group_of_that_name() {
	use_directory 'group games-abusers 6003 alice' 'group ldap-video 6102 alice'
	START=$START,6003,6102
	drop_all_but_restricting
	stack session success
	run_pam alice open_session
	assert_rc 0
	assert_groups 1001 2003 6003
	drop_all_but_restricting 2003
	run_pam alice open_session
	assert_rc 0
	assert_groups 1001 2003
}

# When /etc/nsswitch.conf names a database twice, glibc uses the last
# line.  The module names dropped gids from one pass over /etc/group only
# when a single line names the database and asks files first; if it read
# the first line, gid 6006 would be named by the file (dgother) and dropped,
# while glibc, sudo included, calls it games-abusers through the
# directory.  Blanks before the colon are glibc's syntax too.
test_nsswitch_read_as_glibc_reads_it() {
	use_directory 'group games-abusers 6003 alice' 'group games-abusers 6006 alice'
	echo 'dgother:x:6006:alice' >> /etc/group
	START=$START,6006
	drop_all_but_restricting
	stack session success
	[ "$(getent group 6006 | cut -d: -f1)" = dgother ] || fail "files does not answer first"
	local nsswitch
	for nsswitch in 'group: files\ngroup: dgfault files' \
		'group: files\ngroup : dgfault files' 'group:files dgfault\ngroup:	dgfault files' \
		'group: files\n\fgroup: dgfault files' 'group: files\ngroup:: dgfault files'; do
		echo "-- $nsswitch"
		printf "passwd: files dgfault\n$nsswitch\n" > /etc/nsswitch.conf
		[ "$(getent group 6006 | cut -d: -f1)" = games-abusers ] ||
			fail "glibc does not read the last line"
		run_pam alice open_session
		assert_rc 0
		assert_groups 1001 2003 6006
	done
	# the baseline: files alone, as glibc reads it, names 6006 dgother
	printf 'passwd: files dgfault\ngroup: dgfault\ngroup: files\n' > /etc/nsswitch.conf
	run_pam alice open_session
	assert_rc 0
	assert_groups 1001 2003
}

# An action after files decides what glibc asks next: with
# "files [SUCCESS=continue] dgfault" it asks the directory after the file
# named a gid, and the directory's answer is what getgrgid, and so sudo,
# get: games-abusers for 6006 (dgother in the file), and no name at all
# for audio (29), which the directory lacks.  A gid with no name might
# have a restricting one, and stays.  Read as plain "files dgfault" (one
# pass over /etc/group), 6006 would be dgother and 29 audio, both dropped.
test_an_action_after_files_is_read_as_glibc_reads_it() {
	use_directory 'group games-abusers 6003 alice' 'group games-abusers 6006 alice'
	echo 'dgother:x:6006:alice' >> /etc/group
	START=$START,6006
	drop_all_but_restricting
	stack session success
	local nsswitch
	for nsswitch in 'files [SUCCESS=continue] dgfault' \
		'files [ success = continue ] dgfault' \
		'files [!NOTFOUND=continue] dgfault' \
		'files [NOTFOUND=continue SUCCESS=continue] dgfault'; do
		echo "-- group: $nsswitch"
		printf 'passwd: files dgfault\ngroup: %s\n' "$nsswitch" > /etc/nsswitch.conf
		[ "$(getent group 6006 | cut -d: -f1)" = games-abusers ] ||
			fail "glibc does not ask the directory after files"
		[ -z "$(getent group 29)" ] ||
			fail "glibc names gid 29 from the file alone"
		run_pam alice open_session
		assert_rc 0
		assert_untouched
	done
	# the baseline: files first with glibc's defaults names 6006 dgother
	printf 'passwd: files dgfault\ngroup: files dgfault\n' > /etc/nsswitch.conf
	[ "$(getent group 6006 | cut -d: -f1)" = dgother ] || fail "files does not answer first"
	run_pam alice open_session
	assert_rc 0
	assert_groups 1001 2003
}

# stack_copying_between_calls FROM TO: account management and the
# session on one handle, both with the module, and between them pam_exec
# copying FROM over TO (cp writes into TO: its inode and any bind mount
# on it stay), so that the session meets a file the account step did not.
stack_copying_between_calls() {
	{
		echo "auth required pam_permit.so"
		echo "account required $MODULE config=$POLICY"
		echo "account required pam_exec.so quiet /bin/cp $1 $2"
		echo "session required $MODULE config=$POLICY"
		echo "session optional pam_exec.so quiet $TOP/tests/pam-exec/record-groups.sh $T/groups"
	} > "/etc/pam.d/$SERVICE"
}

# Whether /etc/group may be read in one pass is asked once per PAM call,
# never kept with the plan that later calls on the handle reuse: here
# account management reads the policy under "group: files dgfault", then
# nsswitch.conf is edited to ask the directory first (pam_exec in
# between), and the session, on the kept plan, must name the gids it
# meets as glibc now does.  The directory calls 6105 games-abusers, the
# file dgplain5: a verdict kept from account management would read the
# file, name 6105 dgplain5 and drop it.  (Two restricting names, so that
# account management makes the probe; two gids to name in the session,
# so that a kept verdict is used whatever the count.)
test_the_files_first_verdict_does_not_outlive_its_call() {
	use_directory 'group games-abusers 6105'
	printf '%s\n' dgplain5:x:6105: dgplain6:x:6106: >> /etc/group
	START=$START,6105,6106
	policy <<-'EOF2'
	version = 1;
	restricting = ( "games-abusers", "students" );
	rules = ( { name = "all"; services = "dgtest"; drop = "*"; } );
	EOF2
	printf 'passwd: files dgfault\ngroup: dgfault files\n' > "$T/nsswitch.later"
	stack_copying_between_calls "$T/nsswitch.later" /etc/nsswitch.conf
	[ "$(getent group 6105 | cut -d: -f1)" = dgplain5 ] || fail "files does not answer first"
	run_pam alice acct_mgmt open_session
	assert_rc 0
	[ "$(getent group 6105 | cut -d: -f1)" = games-abusers ] ||
		fail "the edit did not make glibc ask the directory first"
	assert_groups 1001 2003 3000 6105
	# the baseline: with files first all along, 6105 is dgplain5 and goes
	printf 'passwd: files dgfault\ngroup: files dgfault\n' > /etc/nsswitch.conf
	cp /etc/nsswitch.conf "$T/nsswitch.later"
	run_pam alice acct_mgmt open_session
	assert_rc 0
	assert_groups 1001 2003 3000
}

# /etc/group as a call read it (the policy's names, then the session's
# gids, from one read) is not kept past the call either: account
# management resolves the policy's one restricting name from the file,
# /etc/group is then edited (pam_exec in between) to call 6105
# games-abusers, and the session must name 6105 from the file as it is
# now, and keep it.  A text kept from account management names 6105
# dgplain5 and drops it.  (6105 is not among alice's groups in the file,
# so account management does not name it ahead.)
test_the_text_of_etc_group_does_not_outlive_its_call() {
	printf '%s\n' dgplain5:x:6105: >> /etc/group
	sed 's/^dgplain5:/games-abusers:/' /etc/group > "$T/group.later"
	START=$START,6105
	policy <<-'EOF2'
	version = 1;
	restricting = ( "games-abusers" );
	rules = ( { name = "all"; services = "dgtest"; drop = "*"; } );
	EOF2
	printf 'passwd: files\ngroup: files\n' > /etc/nsswitch.conf
	stack_copying_between_calls "$T/group.later" /etc/group
	[ "$(getent group 6105 | cut -d: -f1)" = dgplain5 ] || fail "the file does not call 6105 dgplain5"
	run_pam alice acct_mgmt open_session
	assert_rc 0
	[ "$(getent group 6105 | cut -d: -f1)" = games-abusers ] ||
		fail "the edit did not rename 6105"
	assert_groups 1001 2003 6105
	# the baseline: with the file unchanged, 6105 is dgplain5 and goes
	grep -v '^games-abusers:x:6105:' /etc/group > "$T/group.later"
	echo 'dgplain5:x:6105:' >> "$T/group.later"
	cat "$T/group.later" > /etc/group
	run_pam alice acct_mgmt open_session
	assert_rc 0
	assert_groups 1001 2003
}

# A call that has probed nsswitch.conf (two restricting names resolved)
# and has one dropped gid left to name: that one gid is named as glibc
# names it, whatever the probe said (the pass over the text the call has
# read, or getgrgid_r when it has read none, must agree with glibc).
# Directory first, 6105 is
# games-abusers, not the file's dgplain5, and stays; files first and the
# file lacking 6105, the directory's outage is an outage, not "no name";
# files first, the first of two lines names it.
test_one_gid_in_a_call_that_probed_is_named_as_glibc_names_it() {
	# (6003 first: the name resolves to it, so 6105 stays by name alone)
	use_directory 'group games-abusers 6003' 'group games-abusers 6105'
	START=1001,6105
	policy <<-'EOF2'
	version = 1;
	restricting = ( "games-abusers", "students" );
	rules = ( { name = "all"; services = "dgtest"; drop = "*"; } );
	EOF2
	cp /etc/group "$T/group.orig"
	echo '-- group: dgfault files'
	echo 'dgplain5:x:6105:' >> /etc/group
	printf 'passwd: files dgfault\ngroup: dgfault files\n' > /etc/nsswitch.conf
	[ "$(getent group 6105 | cut -d: -f1)" = games-abusers ] || fail "the directory is not asked first"
	stack session success
	run_pam alice open_session
	assert_rc 0
	assert_groups 1001 6105
	echo '-- group: files dgfault, 6105 not in the file, the directory down'
	cat "$T/group.orig" > /etc/group
	printf 'passwd: files dgfault\ngroup: files dgfault\n' > /etc/nsswitch.conf
	directory 'group games-abusers 6003' 'group games-abusers 6105' \
		'fail getgrgid 6105 unavail ENOENT'
	stack session session_err
	run_pam alice open_session
	assert_failed_closed 'looking up the name of gid 6105 failed: No such file or directory'
	echo '-- group: files, two lines for 6105'
	printf '%s\n' games-abusers:x:6105: dgplain5:x:6105: >> /etc/group
	printf 'passwd: files\ngroup: files\n' > /etc/nsswitch.conf
	stack session success
	run_pam alice open_session
	assert_rc 0
	assert_groups 1001 6105
	# the baseline: the file's first line plain, 6105 goes
	cat "$T/group.orig" > /etc/group
	printf '%s\n' dgplain5:x:6105: games-abusers:x:6105: >> /etc/group
	run_pam alice open_session
	assert_rc 0
	assert_groups 1001
}

# With nscd running, glibc asks it before any backend, and its answer,
# cached from before an edit of /etc/group, is what sudo sees: the
# one-pass read of /etc/group must not name a gid otherwise.  Here nscd
# still calls gid 2005 games-abusers after the file renamed it.  (nscd
# files each entry under its name too, so that name must lead elsewhere,
# to 2008, for the rename to matter: the module asks getgrnam first.)
test_nscd_answers_before_the_file() {
	command -v nscd > /dev/null || skip "nscd is not installed"
	local g pid
	# two gids to name at least, so that the module would read the file
	printf '%s\n' games-abusers:x:2005:alice games-abusers:x:2008:alice \
		dgplain:x:2007:alice >> /etc/group
	START=$START,2005,2007,2008
	drop_all_but_restricting
	stack session success
	# the sandbox's own nscd.conf: /etc itself is the host's
	touch "$T/etc/nscd.conf"
	mount --bind "$T/etc/nscd.conf" /etc/nscd.conf
	cat > /etc/nscd.conf <<-EOF
	enable-cache passwd no
	enable-cache hosts no
	enable-cache services no
	enable-cache netgroup no
	enable-cache group yes
	check-files group no
	persistent group no
	shared group no
	positive-time-to-live group 600
	EOF
	mkdir -p /var/run/nscd
	# (a host program: not under the sanitizers' preload of check-asan)
	env -u LD_PRELOAD nscd || fail "nscd did not start"
	for _ in $(seq 100); do [ -S /var/run/nscd/socket ] && break; sleep 0.1; done
	[ -S /var/run/nscd/socket ] || fail "nscd made no socket"
	getent group 2005 2008 > /dev/null || fail "nscd: gids 2005 and 2008"
	# the edit nscd does not see (written in place: /etc/group is a mount)
	sed 's/^games-abusers:x:2005:/dgother:x:2005:/' /etc/group > "$T/group"
	cat "$T/group" > /etc/group
	g=$(getent group 2005 | cut -d: -f1)
	[ "$g" = games-abusers ] || fail "nscd forgot its answer: gid 2005 is $g"
	echo "  nscd: games-abusers is $(getent group games-abusers | cut -d: -f3)"
	run_pam alice open_session
	assert_rc 0
	assert_groups 1001 2003 2005 2008
	# the baseline: without nscd, glibc and the file both say dgother
	# (by its pid file: pkill hangs under check-asan's preload)
	pid=$(cat /var/run/nscd/nscd.pid) && kill "$pid" || fail "no nscd to stop"
	for _ in $(seq 100); do kill -0 "$pid" 2> /dev/null || break; sleep 0.1; done
	! kill -0 "$pid" 2> /dev/null || fail "nscd did not stop"
	rm -f /var/run/nscd/socket
	[ "$(getent group 2005 | cut -d: -f1)" = dgother ] || fail "without nscd: gid 2005"
	run_pam alice open_session
	assert_rc 0
	assert_groups 1001 2003 2008
}

# --- outages: only a clean "not found" is not found ---

# nss-pam-ldapd with nslcd down answers NSS_STATUS_UNAVAIL with errno
# ENOENT, which glibc hands back as ENOENT: an outage, not an absence.
test_directory_down_on_a_restricting_name_fails_closed() {
	use_directory 'group ldap-abusers 6003 alice'
	START=$START,6003
	drop_all_but_restricting '"ldap-abusers"'
	stack session success
	run_pam alice open_session
	assert_rc 0
	assert_groups 1001 6003
	for failure in 'unavail ENOENT' 'unavail EIO' 'tryagain EAGAIN' 'unavail ETIMEDOUT'; do
		echo "-- getgrnam answers $failure"
		directory 'group ldap-abusers 6003 alice' "fail getgrnam ldap-abusers $failure"
		stack session session_err
		run_pam alice open_session
		assert_rc 0
		assert_untouched
	done
	assert_log err 4 "^.*$POLICY:2: looking up group \"ldap-abusers\" in restricting failed: "
}

# The gids a rule would drop are named through NSS (getgrgid_r): an
# outage there fails closed too, as the name might be restricting.
test_directory_down_while_naming_a_dropped_gid_fails_closed() {
	use_directory 'group ldap-video 6102 alice' 'fail getgrgid 6102 unavail ENOENT'
	START=$START,6102
	drop_all_but_restricting
	stack session session_err
	run_pam alice open_session
	assert_failed_closed 'looking up the name of gid 6102 failed: No such file or directory'
	# the baseline: with the directory up, the gid is dropped
	directory 'group ldap-video 6102 alice'
	stack session success
	run_pam alice open_session
	assert_rc 0
	assert_groups 1001 2003
}

# The gids are named in order: an outage on one is not undone by the
# answer for the next (6103 is named after 6102 fails).
test_an_outage_on_one_gid_is_not_hidden_by_the_next_answer() {
	use_directory 'group ldap-video 6102 alice' 'group ldap-docs 6103 alice' \
		'fail getgrgid 6102 unavail ENOENT'
	START=$START,6102,6103
	drop_all_but_restricting
	stack session session_err
	run_pam alice open_session
	assert_failed_closed 'looking up the name of gid 6102 failed: No such file or directory'
	# the baseline: with the directory up, both gids are dropped
	directory 'group ldap-video 6102 alice' 'group ldap-docs 6103 alice'
	stack session success
	run_pam alice open_session
	assert_rc 0
	assert_groups 1001 2003
}

# The login's line names each dropped gid with the name the decision
# used, not one asked again when the line is written: account management
# names 6102 ahead, the directory goes down before the session (pam_exec
# in between), and the session's line still says ldap-video(6102), where
# a name asked again would have fallen back to the number.
test_the_line_names_a_dropped_gid_as_the_decision_did() {
	use_directory 'group ldap-video 6102 alice'
	START=$START,6102
	drop_all_but_restricting
	printf '%s\n' 'group ldap-video 6102 alice' 'fail getgrgid * unavail ENOENT' \
		> "$T/down.conf"
	{
		echo "auth required pam_permit.so"
		echo "account required $MODULE config=$POLICY"
		echo "account required pam_exec.so quiet /bin/cp $T/down.conf /run/dgfault.conf"
		echo "session required $MODULE config=$POLICY"
		echo "session optional pam_exec.so quiet $TOP/tests/pam-exec/record-groups.sh $T/groups"
	} > "/etc/pam.d/$SERVICE"
	run_pam alice acct_mgmt open_session
	assert_rc 0
	assert_groups 1001 2003
	assert_log info 1 'dropped ([a-z-]+\([0-9]+\), )*ldap-video\(6102\)(, |$)'
	# the baseline: asked when the line is written, the name is gone
	[ -z "$(getent group 6102)" ] || fail "the directory still names 6102"
}

# A directory that goes silent (UNAVAIL without an errno) looks like
# "this gid has no name".  Such a gid could be a restricting one: it
# stays, where the policy names restricting groups by name.
test_gid_without_a_name_stays_when_restricting_names_exist() {
	use_directory 'group ldap-video 6102 alice' 'fail getgrgid 6102 unavail 0'
	START=$START,6102
	drop_all_but_restricting
	stack session success
	run_pam alice open_session
	assert_rc 0
	assert_groups 1001 2003 6102
	# by gid only, no name can matter, and it goes
	drop_all_but_restricting 2003
	run_pam alice open_session
	assert_rc 0
	assert_groups 1001 2003
}

test_directory_down_on_the_user_fails_closed() {
	use_directory 'user dave 5001 5001' 'group ldap-video 6102 dave'
	drop_all_but_restricting
	stack session success
	START=5001,6102
	run_pam dave open_session
	assert_rc 0
	assert_groups 5001
	directory 'user dave 5001 5001' 'fail getpwnam dave unavail ENOENT'
	stack session session_err
	run_pam dave open_session
	assert_failed_closed 'looking up user "dave" failed: No such file or directory'
}

test_directory_down_on_a_percent_group_fails_closed() {
	use_directory 'group ldap-staff 6100 alice' 'fail getgrnam ldap-staff unavail ENOENT'
	policy <<-'EOF'
	version = 1;
	restricting = ( );
	rules = ( { services = "dgtest"; users = "%ldap-staff"; keep = "users"; } );
	EOF
	stack session session_err
	run_pam alice open_session
	assert_failed_closed "$POLICY:3: cannot tell whether user \"alice\" is in group \"ldap-staff\" of rule \"[^\"]*\": looking the group up failed: No such file or directory"
}

# getgrouplist(3) has no way to report a backend failure: the list just
# comes back shorter.  Here alice is in students only by the directory's
# say, so with the directory down a %students rule would silently stop
# matching and the next rule would apply.
test_directory_down_during_getgrouplist_fails_closed() {
	sed 's/^students:x:3000:alice$/students:x:3000:/' /etc/group > "$T/group"
	cat "$T/group" > /etc/group # in place: /etc/group is a bind mount
	use_directory 'group students 3000 alice'
	policy <<-'EOF'
	version = 1;
	restricting = ( );
	rules = ( { name = "students"; services = "dgtest"; users = "%students"; keep = "users"; },
	          { name = "rest"; services = "dgtest"; drop = "*"; } );
	EOF
	stack session success
	run_pam alice open_session
	assert_rc 0
	assert_groups 1001 100
	assert_log info 1 'rule "students"'
	directory 'group students 3000 alice' 'fail initgroups * unavail ENOENT' \
		'fail getgrnam * unavail ENOENT' 'fail getgrgid * unavail ENOENT'
	stack session session_err
	run_pam alice open_session
	assert_failed_closed 'cannot tell whether user "alice" is in group "students" of rule "students": NSS service "dgfault" did not answer for the groups of user "alice" \(unavail: No such file or directory\)'
}

# --- the membership search fails while single look-ups answer ---
#
# The review's case: nslcd or SSSD time out on the user's memberships
# (initgroups) and still answer getgrnam and getgrgid.  glibc then hands
# out a short list, with no error.  Whether the rule with "%group" drops
# more than the next one (contractors) or less (students), the user is
# never moved to the next rule: the session is refused, or the group's
# own entry says she is a member and the "%group" rule applies.

# two_rules FIRST SECOND: a "%group" rule named FIRST, then a rule for
# everyone named "rest" (libconfig text for each).
two_rules() {
	policy <<-EOF
	version = 1;
	restricting = ( "games-abusers" );
	rules = ( $1,
	          { name = "rest"; services = "dgtest"; $2 } );
	EOF
}

students_rule() {
	two_rules '{ name = "students"; services = "dgtest"; users = "%students"; keep = "users"; }' 'drop = "*";'
}

contractors_rule() {
	two_rules '{ name = "contractors"; services = "dgtest"; users = "%contractors"; drop = "*"; }' 'drop = "audio";'
}

# membership_outage RULE GROUP GID STATUS ERRNO KEPT_BY_RULE...: alice
# is in GROUP (GID) by the directory's say alone.  Healthy, RULE's
# "%GROUP" rule applies; with initgroups failing (STATUS ERRNO) while
# getgrnam and getgrgid answer, the same rule still applies (the group's
# entry lists her).  With a local line of GROUP that lists nobody in
# front (files answers getgrgid first), nothing says she is a member: the
# session is refused.
membership_outage() {
	local rule=$1 group=$2 gid=$3 status=$4 err=$5
	shift 5
	sed "/^$group:/d" /etc/group > "$T/group"
	cat "$T/group" > /etc/group
	use_directory "group $group $gid alice"
	START=1001,100,29,44,46,2003,$gid
	"$rule"
	stack none
	run_pam alice open_session
	assert_rc 0
	assert_untouched
	[ "$(id -Gn alice | tr ' ' '\n' | grep -cx "$group")" = 1 ] || fail "alice is not in $group"
	stack session success
	log_reset
	run_pam alice open_session
	assert_rc 0
	assert_groups "$@"
	assert_log info 1 "rule \"$rule_name\""
	directory "group $group $gid alice" "fail initgroups alice $status $err"
	[ "$(id -Gn alice | tr ' ' '\n' | grep -cx "$group")" = 0 ] ||
		fail "the outage does not shorten glibc's list"
	log_reset
	run_pam alice open_session
	assert_rc 0
	assert_groups "$@"
	assert_log info 1 "rule \"$rule_name\""
	assert_log err 0
	# her membership is now said by nothing that answered
	echo "$group:x:$gid:" >> /etc/group
	stack session session_err
	log_reset
	run_pam alice open_session
	assert_failed_closed "cannot tell whether user \"alice\" is in group \"$group\" of rule \"$rule_name\": NSS service \"dgfault\" did not answer for the groups of user \"alice\" \($status: [^)]*\), and the group's entry does not list the user"
	# the baseline of that: the directory answers again
	directory "group $group $gid alice"
	stack session success
	run_pam alice open_session
	assert_rc 0
	assert_groups "$@"
}

test_students_rule_holds_while_initgroups_is_unavail() {
	rule_name=students membership_outage students_rule students 3000 unavail EIO 1001 100 2003
}

test_students_rule_holds_while_initgroups_must_try_again() {
	rule_name=students membership_outage students_rule students 3000 tryagain EAGAIN 1001 100 2003
}

test_contractors_rule_holds_while_initgroups_is_unavail() {
	rule_name=contractors membership_outage contractors_rule contractors 6200 unavail EIO 1001 2003
}

test_contractors_rule_holds_while_initgroups_must_try_again() {
	rule_name=contractors membership_outage contractors_rule contractors 6200 tryagain EAGAIN 1001 2003
}

# A clean "not found" from initgroups alone (a cache that does not know
# the user yet) is an answer, but not the last word: the group's entry
# still lists her, and the "%group" rule applies.
test_initgroups_not_found_alone_does_not_move_a_member() {
	sed '/^contractors:/d' /etc/group > "$T/group"
	cat "$T/group" > /etc/group
	use_directory 'group contractors 6200 alice' 'fail initgroups alice notfound 0'
	START=1001,100,29,44,46,2003,6200
	contractors_rule
	stack session success
	run_pam alice open_session
	assert_rc 0
	assert_groups 1001 2003
	assert_log info 1 'rule "contractors"'
	# the baseline: a user the entry does not list gets the next rule
	directory 'group contractors 6200 bob' 'fail initgroups alice notfound 0'
	log_reset
	run_pam alice open_session
	assert_rc 0
	assert_groups 1001 100 44 46 2003 6200
	assert_log info 1 'rule "rest"'
}

# /etc/group lists alice in dglocal (7000) and has a contractors line
# that lists nobody; only the directory lists her in contractors (6200),
# and her sessions hold both, under the contractors rule and the rest.
alice_local_and_directory_contractor() {
	sed '/^contractors:/d' /etc/group > "$T/group"
	printf '%s\n' 'contractors:x:6200:' 'dglocal:x:7000:alice' >> "$T/group"
	cat "$T/group" > /etc/group
	use_directory 'group contractors 6200 alice'
	START=1001,100,29,44,46,2003,6200,7000
	contractors_rule
}

# On a "group:" line (no "initgroups:" line) glibc asks every service for
# a user's groups, even after files found some: "return" after SUCCESS
# holds only on an initgroups line.  Here files lists alice in dglocal
# and has a contractors line that lists nobody (so getgrnam answers from
# it); only the directory lists her in contractors, and her sessions hold
# 6200.  Stopping after files would give her the milder rule.
test_a_group_line_asks_the_directory_after_files_found_groups() {
	alice_local_and_directory_contractor
	id -G alice | tr ' ' '\n' | grep -qx 7000 || fail "files does not list alice in dglocal"
	id -G alice | tr ' ' '\n' | grep -qx 6200 || fail "glibc does not ask the directory after files"
	stack session success
	run_pam alice open_session
	assert_rc 0
	assert_groups 1001 2003
	assert_log info 1 'rule "contractors"'
	# the baseline: with the directory's list gone, she gets the next rule
	directory 'group contractors 6200 bob'
	log_reset
	run_pam alice open_session
	assert_rc 0
	assert_groups 1001 100 44 46 2003 6200 7000
	assert_log info 1 'rule "rest"'
}

# files answers SUCCESS for a user /etc/group lists (glibc's nss_files
# initgroups), and what follows that answer is what glibc does next:
# on "initgroups: files dgfault" it stops there, and her sessions lack
# the directory's contractors (the next rule); on "group: files
# [NOTFOUND=return] dgfault" it goes on (a group line's SUCCESS never
# returns), and they hold it (the contractors rule).  Read as NOTFOUND,
# files would do the opposite of each: a rule her sessions do not match,
# and, worse, the milder rule while her sessions hold 6200.
test_files_that_lists_the_user_answers_success() {
	alice_local_and_directory_contractor
	stack session success
	printf 'passwd: files dgfault\ninitgroups: files dgfault\ngroup: files dgfault\n' \
		> /etc/nsswitch.conf
	id -G alice | tr ' ' '\n' | grep -qx 7000 || fail "files does not list alice in dglocal"
	if id -G alice | tr ' ' '\n' | grep -qx 6200; then
		fail "glibc asks the directory after files on an initgroups line"
	fi
	run_pam alice open_session
	assert_rc 0
	assert_groups 1001 100 44 46 2003 6200 7000
	assert_log info 1 'rule "rest"'
	printf 'passwd: files dgfault\ngroup: files [NOTFOUND=return] dgfault\n' \
		> /etc/nsswitch.conf
	id -G alice | tr ' ' '\n' | grep -qx 6200 ||
		fail "glibc does not ask the directory after files on a group line"
	log_reset
	run_pam alice open_session
	assert_rc 0
	assert_groups 1001 2003
	assert_log info 1 'rule "contractors"'
}

# files answers NOTFOUND for a user /etc/group does not list (glibc's
# nss_files initgroups), and on "initgroups: files dgfault" glibc then
# asks the directory: alice is a contractor by the directory's say alone,
# her sessions hold 6200, and the contractors rule applies.  Read as
# SUCCESS, files would stop there: the milder rule while her sessions
# hold 6200.
test_files_that_does_not_list_the_user_answers_notfound() {
	awk -F: -v OFS=: 'NF >= 4 && $1 != "contractors" {
		n = split($4, m, ","); $4 = ""
		for (i = 1; i <= n; i++)
			if (m[i] != "alice")
				$4 = $4 ($4 == "" ? "" : ",") m[i]
	} $1 != "contractors"' /etc/group > "$T/group"
	echo 'contractors:x:6200:' >> "$T/group"
	cat "$T/group" > /etc/group
	use_directory 'group contractors 6200 alice'
	START=1001,100,29,44,46,2003,6200
	contractors_rule
	stack session success
	printf 'passwd: files dgfault\ninitgroups: files dgfault\ngroup: files dgfault\n' \
		> /etc/nsswitch.conf
	if grep -v "^#" /etc/group | cut -d: -f4 | tr , "\n" |
		grep -qx alice; then
		fail "/etc/group still lists alice"
	fi
	id -G alice | tr ' ' '\n' | grep -qx 6200 ||
		fail "glibc does not ask the directory after files' NOTFOUND"
	run_pam alice open_session
	assert_rc 0
	assert_groups 1001 2003
	assert_log info 1 'rule "contractors"'
	# the baseline: with the directory's list gone, she gets the next rule
	directory 'group contractors 6200 bob'
	log_reset
	run_pam alice open_session
	assert_rc 0
	assert_groups 1001 100 44 46 2003 6200
	assert_log info 1 'rule "rest"'
}

# --- offline with a cold cache: "not found" for a group that exists ---

test_restricting_name_that_does_not_resolve_fails_closed() {
	use_directory 'group ldap-abusers 6003 alice' 'fail getgrnam ldap-abusers notfound 0'
	START=$START,6003
	drop_all_but_restricting '"games-abusers", "ldap-abusers"'
	stack session session_err
	run_pam alice open_session
	assert_failed_closed "$POLICY:2: restricting group \"ldap-abusers\" does not exist"
}

# glibc's nss_files initgroups parses every line of /etc/group, comment
# lines too: "#contractors:x:6200:alice" gives alice gid 6200 in every
# session (id(1) lists it), while getgrgid_r and fgetgrent_r skip it.
# Read the second way, alice would be no member and get the milder rule
# while her session holds 6200.  Neither reading is guessed: refused.
test_commented_group_line_listing_the_user_decides_nothing() {
	sed '/^contractors:/d' /etc/group > "$T/group"
	printf '%s\n' 'contractors:x:6200:' '#contractors:x:6200:alice' >> "$T/group"
	cat "$T/group" > /etc/group
	START=$START,6200
	contractors_rule
	[ "$(id -G alice | tr ' ' '\n' | grep -cx 6200)" = 1 ] ||
		fail "glibc does not give alice 6200 from the comment line"
	stack session session_err
	run_pam alice open_session
	assert_failed_closed 'cannot tell whether user "alice" is in group "contractors" of rule "contractors": /etc/group has a comment line that lists user "alice"'
	# the baseline: without the comment, she is no member, and glibc agrees
	sed '/^#contractors:/d' /etc/group > "$T/group"
	cat "$T/group" > /etc/group
	[ "$(id -G alice | tr ' ' '\n' | grep -cx 6200)" = 0 ] || fail "alice is in 6200"
	stack session success
	log_reset
	run_pam alice open_session
	assert_rc 0
	assert_groups 1001 100 44 46 2003 3000 6200
	assert_log info 1 'rule "rest"'
}

# libnss_sss reads _SSS_LOOPS with getenv(3), and glibc does not clear
# it for set-user-ID programs: whoever runs su can make SSSD answer a
# clean "not found" to every look-up, an outage that looks like health.
# The module refuses any session whose environment sets it.
test_an_environment_that_silences_nss_is_refused() {
	students_rule
	stack session success
	run_pam alice open_session
	assert_rc 0
	assert_groups 1001 100 2003
	stack session session_err
	log_reset
	_SSS_LOOPS=NO run_pam alice open_session
	assert_failed_closed 'the environment sets _SSS_LOOPS, which makes an NSS module answer "not found" to every look-up'
}

# The same environment does not lock root out: the look-up that says
# uid 0 goes through /etc/passwd, which such a variable cannot hide.
test_an_environment_that_silences_nss_does_not_lock_root_out() {
	students_rule
	stack session ignore
	_SSS_LOOPS=NO run_pam root open_session
	assert_rc 0
	assert_untouched
	assert_log err 1 'the environment sets _SSS_LOOPS, .*; groups left unchanged, and the session is not refused: the user is uid 0'
	log_reset
	stack session session_err
	_SSS_LOOPS=NO run_pam alice open_session
	assert_failed_closed 'the environment sets _SSS_LOOPS'
}

# The same for a "%group" of users: SSSD offline with a cold cache says
# "not found" for contractors, which exists.  Whoever reaches that rule
# is refused, not handed the milder rule after it; a user an earlier rule
# names is not.  check says so (exit 1), and so does explain.
test_percent_group_that_does_not_resolve_refuses_who_reaches_it() {
	sed '/^contractors:/d' /etc/group > "$T/group"
	cat "$T/group" > /etc/group
	use_directory 'group contractors 6200 alice'
	policy <<-'EOF'
	version = 1;
	restricting = ( "games-abusers" );
	rules = ( { name = "bobs"; services = "dgtest"; users = "bob"; drop = "audio"; },
	          { name = "contractors"; services = "dgtest"; users = "%contractors"; drop = "*"; },
	          { name = "rest"; services = "dgtest"; drop = "audio"; } );
	EOF
	stack session success
	run_pam alice open_session
	assert_rc 0
	assert_groups 1001 2003
	assert_log info 1 'rule "contractors"'
	directory 'group contractors 6200 alice' 'fail getgrnam contractors notfound 0'
	stack session session_err
	log_reset
	run_pam alice open_session
	assert_failed_closed "$POLICY:4: cannot tell whether user \"alice\" is in group \"contractors\" of rule \"contractors\": the group does not exist"
	# bob's rule comes first and names him: the missing group is not his
	stack session success
	log_reset
	# (with bob's own primary group, as after initgroups: the login's
	# line is logged in the user's process only)
	START=$START,1002
	run_pam bob open_session
	assert_rc 0
	assert_groups 1001 1002 100 44 46 2003 3000
	assert_log info 1 'user "bob", rule "bobs"'
	capture "$DG" check -c "$POLICY"
	assert_exit 1
	assert_in err "$POLICY:4: group \"contractors\" in users of rule \"contractors\" does not exist"
	capture "$DG" explain -c "$POLICY" --pam-dir "$T/no-pam.d" dgtest alice
	assert_exit 1
	assert_in err 'cannot tell whether user "alice" is in group "contractors" of rule "contractors".*the session is refused'
	# marked as allowed to be missing: a warning, and the next rule
	sed -i 's/users = "%contractors";/users = ( { name = "%contractors"; optional = true; } );/' "$POLICY"
	log_reset
	START=${START%,1002}
	run_pam alice open_session
	assert_rc 0
	assert_groups 1001 100 44 46 2003 3000
	assert_log info 1 'rule "rest"'
	assert_log warning 1 'group "contractors" \(optional\) in users of rule "contractors" does not exist; it is ignored'
	capture "$DG" check -c "$POLICY"
	assert_exit 0
}

# A group that may not exist yet is marked optional: its absence is a
# warning, and a gid NSS calls by that name is still kept.
test_optional_restricting_name_may_be_missing_and_still_protects() {
	use_directory 'group ldap-abusers 6003 alice' 'fail getgrnam ldap-abusers notfound 0'
	START=$START,6003
	drop_all_but_restricting '"games-abusers", { name = "ldap-abusers"; optional = true; }'
	stack session success
	run_pam alice open_session
	assert_rc 0
	assert_groups 1001 2003 6003
	assert_log warning 1 'restricting group "ldap-abusers" \(optional\) does not exist'
	# the same without the name: the gid goes
	drop_all_but_restricting '"games-abusers"'
	run_pam alice open_session
	assert_rc 0
	assert_groups 1001 2003
}

# --- how often NSS is asked ---

test_each_name_is_asked_once_per_call() {
	use_directory log
	policy <<-'EOF'
	version = 1;
	restricting = ( "games-abusers", { name = "no-such-group"; optional = true; } );
	rules = (
	  { services = "x"; users = "%no-such-staff"; drop = ( "no-such-group", "audio" ); },
	  { services = "y"; drop = "no-such-group"; },
	  { services = "dgtest"; keep = ( "no-such-group", "users" ); } );
	EOF
	stack session success
	run_pam alice open_session
	assert_rc 0
	assert_groups 1001 100 2003
	directory_calls | sort | uniq -c
	[ "$(directory_calls | grep -c '^getgrnam no-such-group$')" -eq 1 ] ||
		fail "no-such-group was not asked exactly once"
	# a %group name is asked again when not found: a passing failure
	# there would make another rule match
	[ "$(directory_calls | grep -c '^getgrnam no-such-staff$')" -eq 2 ] ||
		fail "no-such-staff was not asked exactly twice"
}

# User names in users are matched as written: the module never asks NSS
# about them, so a directory outage on one cannot refuse a login.
test_user_names_in_users_are_never_looked_up_by_the_module() {
	use_directory log 'fail getpwnam dave unavail ENOENT'
	policy <<-'EOF'
	version = 1;
	restricting = ( "games-abusers" );
	rules = ( { name = "r"; services = "*"; users = [ "dave", "alice" ]; drop = "*"; } );
	EOF
	stack session success
	run_pam alice open_session
	assert_rc 0
	assert_groups 1001 2003
	! directory_calls | grep -q '^getpwnam dave$' || fail "the module asked NSS about dave"
	# check does ask, to warn about typos, and says when it could not
	"$DG" check > "$T/out" 2> "$T/err" || fail "check refused the policy"
	cat "$T/err"
	grep -q 'looking up user "dave" in users of rule "r" failed: No such file or directory; it could not be checked' "$T/err" ||
		fail "check did not say that dave could not be checked"
}
