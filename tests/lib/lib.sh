# tests/lib/lib.sh: the sandbox and the helpers every integration test uses.
#
# Sourced by tests/lib/sandbox.sh, which runs inside
#   unshare --mount --net --pid --fork --mount-proc
# so every mount below is private to one test and vanishes with it.  The
# host's /etc is never written: /etc/passwd, /etc/group, /etc/shadow and
# /etc/nsswitch.conf are bind-mounted from throwaway files, and /etc/pam.d
# and /etc/security from throwaway copies of the host's, which tests edit.

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
BUILD=${BUILD:-$TOP/build}
MODULE=$BUILD/pam_dropgroups.so
DG=$BUILD/dropgroups
POLICY=/etc/security/dropgroups.conf
SERVICE=dgtest

# alice's groups as initgroups(3) would set them from the test /etc/group.
ALICE_GROUPS="1001 100 29 44 46 2003 3000"
START=${ALICE_GROUPS// /,}
# ... and after the login programs' test policy drops audio, video, plugdev.
ALL=$ALICE_GROUPS
TRIMMED="1001 100 2003 3000"

fail() {
	echo "FAIL: $*" >&2
	exit 1
}

# skip REASON: end the test as skipped (the runner counts exit 77).
skip() {
	echo "$*"
	exit 77
}

# Tests that cannot run with the sanitizer runtimes preloaded (their own
# malloc, valgrind, object-file checks, package builds) call this.
skip_under_sanitizers() {
	[ -z "${DG_SANITIZE:-}" ] || skip "not under the sanitizer build: $*"
}

# Replace /dev by a small tmpfs of our own, so that /dev/log can be a
# socket we listen on (the host may have no syslog at all).
sandbox_dev() {
	mkdir "$T/hostdev"
	mount --bind /dev "$T/hostdev"
	mount -t tmpfs -o mode=0755,nosuid tmpfs /dev
	for n in null zero full random urandom tty; do
		touch "/dev/$n"
		mount --bind "$T/hostdev/$n" "/dev/$n"
	done
	umount -l "$T/hostdev"
	mkdir /dev/pts /dev/shm
	mount -t devpts -o newinstance,ptmxmode=0666,mode=0620 devpts /dev/pts
	ln -s pts/ptmx /dev/ptmx
	mount -t tmpfs -o mode=1777 tmpfs /dev/shm
	ln -s /proc/self/fd /dev/fd
	ln -s /proc/self/fd/0 /dev/stdin
	ln -s /proc/self/fd/1 /dev/stdout
	ln -s /proc/self/fd/2 /dev/stderr
}

sandbox_etc() {
	mkdir -m 0755 "$T/etc"
	cat > "$T/etc/passwd" <<-'EOP'
	root:x:0:0:root:/root:/bin/bash
	bin:x:2:2:bin:/bin:/usr/sbin/nologin
	alice:x:1001:1001:Alice:/home/alice:/bin/bash
	bob:x:1002:1002:Bob:/home/bob:/bin/bash
	sshd:x:105:65534::/run/sshd:/usr/sbin/nologin
	nobody:x:65534:65534:nobody:/nonexistent:/usr/sbin/nologin
	EOP
	cat > "$T/etc/group" <<-'EOG'
	root:x:0:
	bin:x:2:
	audio:x:29:alice
	video:x:44:alice
	plugdev:x:46:alice
	users:x:100:alice,bob
	alice:x:1001:
	bob:x:1002:
	games-abusers:x:2003:alice
	gamers:x:2003:
	students:x:3000:alice
	nogroup:x:65534:
	EOG
	# Password "test" for everyone, for the login programs that ask.
	local hash='$6$dgtest$058IP/RahrrmpX5vzWklHe7HLvxxeQDvmajHLXPkh1mBbOWyCs3UO/PJds2Zp0obxbIFacInMXuwgfy1l7nc80'
	for u in root bin alice bob sshd nobody; do
		echo "$u:$hash:19000:0:99999:7:::"
	done > "$T/etc/shadow"
	# gshadow as grpconv writes it: no group password, the same members
	# (newgrp and sg believe gshadow's member list, not group's).
	awk -F: '{ print $1 ":*::" $4 }' "$T/etc/group" > "$T/etc/gshadow"
	chmod 0640 "$T/etc/shadow" "$T/etc/gshadow"
	printf 'passwd: files\ngroup: files\nshadow: files\ngshadow: files\n' \
		> "$T/etc/nsswitch.conf"
	for f in passwd group shadow nsswitch.conf gshadow; do
		if [ ! -e "/etc/$f" ]; then
			[ "$f" = gshadow ] && continue # optional on some systems
			fail "/etc/$f is missing on this host"
		fi
		mount --bind "$T/etc/$f" "/etc/$f"
	done
	# Copies of the host's PAM stacks and module settings (pam_env and
	# pam_limits need theirs), without any policy of ours.
	for d in pam.d security; do
		mkdir -m 0755 "$T/$d"
		cp -a "/etc/$d/." "$T/$d/"
		mount --bind "$T/$d" "/etc/$d"
	done
	rm -rf /etc/security/dropgroups.conf /etc/security/dropgroups.d
}

sandbox_log() {
	LOG=$T/log
	: > "$LOG"
	"$BUILD/logsink" /dev/log "$LOG" "$LOG.pids" &
	for _ in $(seq 100); do
		[ -S /dev/log ] && return 0
		sleep 0.05
	done
	fail "logsink did not start"
}

# Writable throwaway copies of the places login programs write to
# (utmp, lastlog, sshd's privsep directory, homes).
sandbox_var() {
	mount -t tmpfs -o mode=0755 tmpfs /run
	mkdir -m 0755 /run/sshd
	mount -t tmpfs -o mode=0755 tmpfs /var/log
	mount -t tmpfs -o mode=0755 tmpfs /home
	for u in alice bob; do
		mkdir -m 0755 "/home/$u"
		chown "$u:$u" "/home/$u"
	done
}

# at_exit CMD: run CMD (one string, eval'd) when the test ends, passed or
# failed: the last registered first, then the sandbox's own clean-up.
# For daemons a test starts (tests/lib/directory.sh): the pid namespace ends
# them with the test anyway, but in order, and where the log shows it.
AT_EXIT=()
at_exit() {
	AT_EXIT+=("$1")
}

sandbox_exit() {
	local i
	for ((i = ${#AT_EXIT[@]} - 1; i >= 0; i--)); do
		eval "${AT_EXIT[i]}" || true
	done
	cd / || true
	umount -l "$T" 2>/dev/null || true
	rmdir "$T" 2>/dev/null || true
}

sandbox_setup() {
	T=$(mktemp -d /tmp/dgtest.XXXXXX)
	# Everything the test writes lives in memory and dies with it; the
	# empty directory on the host goes at exit.
	mount -t tmpfs -o mode=0700 tmpfs "$T"
	trap sandbox_exit EXIT
	chmod 0755 "$T"
	ip link set lo up 2>/dev/null || true
	sandbox_dev
	sandbox_etc
	sandbox_var
	sandbox_log
}

# module_by_name [SO]: make "pam_dropgroups.so" resolve by name, as in an
# admin's pam.d line: the PAM module directory becomes a copy holding SO
# (default: the built module) too.
module_by_name() {
	local secdir
	secdir=$(pkg-config --variable=libdir pam)/security
	if [ ! -d "$T/secdir" ]; then
		mkdir "$T/secdir"
		cp -a "$secdir/." "$T/secdir/"
		mount --bind "$T/secdir" "$secdir"
	fi
	cp "${1:-$BUILD/pam_dropgroups.so}" "$T/secdir/pam_dropgroups.so"
}

# use_directory [LINE...]: a small directory after "files" in NSS, for
# every program of the test, setuid ones included: the NSS module of
# tests/nss/dgfault.c, found by glibc through an overlay on its library
# directory.  Its entries and failures are the LINEs (see the C file);
# `directory LINE...` replaces them later.
use_directory() {
	local libdir
	libdir=$(dirname "$(readlink -f "/lib/$(gcc -print-multiarch)/libnss_files.so.2")")
	mkdir "$T/nsslib" "$T/nsswork"
	mount -t overlay overlay \
		-o "lowerdir=$libdir,upperdir=$T/nsslib,workdir=$T/nsswork" "$libdir"
	cp "$BUILD/libnss_dgfault.so.2" "$libdir/"
	printf 'passwd: files dgfault\ngroup: files dgfault\nshadow: files\ngshadow: files\n' \
		> /etc/nsswitch.conf
	directory "$@"
}

directory() {
	printf '%s\n' "$@" > /run/dgfault.conf
}

# The calls NSS made to the directory since `directory log` (one "CALL
# KEY" line each).
directory_calls() {
	cat /run/dgfault.log 2>/dev/null || true
}

# use_snippet NAME [SERVICE]: append conf/pam.d/NAME, as shipped, to the
# sandbox's copy of /etc/pam.d/SERVICE (default NAME).
use_snippet() {
	cat "$TOP/conf/pam.d/$1" >> "/etc/pam.d/${2:-$1}"
}

# capture CMD...: run CMD, the one way tests run a program and look at
# what it said: stdout in $T/out and $out, stderr in $T/err, the exit
# status in $rc.  assert_exit, assert_in and assert_output read them.
capture() {
	set +e
	"$@" > "$T/out" 2> "$T/err"
	rc=$?
	set -e
	out=$(cat "$T/out")
	echo "  \$ $*  -> rc $rc"
	# (long lines cut for the log: a 2,000-group `id -G` is one line)
	cut -c1-300 "$T/out" | sed 's/^/  stdout: /'
	cut -c1-300 "$T/err" | sed 's/^/  stderr: /'
}

# cli ARG...: dropgroups ARG..., through capture (the CLI tests).
cli() {
	capture "$DG" "$@"
}

# The policy the CLI tests check, explain and edit: a drop rule for ssh
# and a keep rule for a %group.
example_policy() {
	policy <<-'EOF'
	version = 1;
	restricting = ( "games-abusers" );
	rules = (
	  { name = "ssh"; services = [ "sshd", "dgtest" ]; drop = ( "audio", "video", 46 ); },
	  { name = "students"; services = "*"; users = "%students"; keep = "users"; }
	);
	EOF
}

assert_exit() {
	[ "$rc" -eq "$1" ] || fail "the command exited $rc, want $1"
}

# assert_in out|err ERE: some line of what the command printed matches
assert_in() {
	grep -Eq -- "$2" "$T/$1" || fail "$1 has no line matching /$2/"
}

# assert_output NAME: the command printed exactly tests/expected/NAME.out
# on stdout and NAME.err on stderr (an absent file: nothing), as
# util-linux's tests do: a change of wording is a diff in review.
assert_output() {
	local f want
	for f in out err; do
		want=$TOP/tests/expected/$1.$f
		if [ -f "$want" ]; then
			diff -u "$want" "$T/$f" || fail "$f differs from tests/expected/$1.$f"
		else
			[ ! -s "$T/$f" ] || fail "$f is not empty, and tests/expected/$1.$f does not exist"
		fi
	done
}

# one_per_line WORD...: the words, one a line (xargs -n1 without a
# process per word: lists of 2,000 groups).
one_per_line() {
	printf '%s\n' "$*" | tr -s '[:space:]' '\n' | sed '/^$/d'
}

# A shell command that prints the supplementary groups of the process
# that runs it, as the kernel holds them (/proc/self/status "Groups:"),
# on one line: `id -G` always adds the egid, so it cannot show that a
# session lost (or gained) its primary group.  For `su alice -c
# "$SUPP_GROUPS"`, `ssh_alice -- "$SUPP_GROUPS"`, `sudo -u alice sh -c ...`.
SUPP_GROUPS='echo $(sed -n "s/^Groups://p" /proc/self/status)'

# The groups in a command's `id -G` (or $SUPP_GROUPS) output, sorted.
sorted() {
	one_per_line "$@" | sort -n -u | xargs
}

# assert_ids GOT WANT...: compare two group lists as sets.
assert_ids() {
	local got want
	got=$(sorted $1)
	shift
	want=$(sorted "$@")
	[ -n "$got" ] || fail "the command printed no groups"
	[ "$got" = "$want" ] || fail "groups: want [$want], got [$got]"
	echo "groups: $got"
}

# policy [FILE]: write the policy (stdin), root-owned 0644.
policy() {
	local file=${1:-$POLICY}
	mkdir -p "$(dirname "$file")"
	cat > "$file"
	chmod 0644 "$file"
}

# stack MODE EXPECT [ARG...]: write /etc/pam.d/$SERVICE.
#   MODE session: the module in the session stack;
#   MODE setcred: the module in the auth stack (for pam_setcred);
#   MODE account: the module in the account stack;
#   MODE none: the same stacks without the module (the baseline).
# The stack succeeds if and only if the module returns EXPECT (success,
# ignore, session_err, cred_err, ...), and pam_exec records the groups
# after it either way, so a test can check the code and the groups.
stack() {
	local mode=$1 expect=${2:-success}
	shift 2 || shift $#
	local args=${*:-config=$POLICY}
	local mod="[$expect=1 default=bad] $MODULE $args"
	local rec="session optional pam_exec.so quiet $TOP/tests/pam-exec/record-groups.sh $T/groups"
	{
		case $mode in
		setcred)
			echo "auth $mod"
			echo "auth required pam_deny.so"
			echo "auth required pam_permit.so"
			echo "session required pam_permit.so"
			;;
		session)
			echo "auth required pam_permit.so"
			echo "session $mod"
			echo "session required pam_deny.so"
			echo "session required pam_permit.so"
			;;
		account)
			echo "auth required pam_permit.so"
			echo "account $mod"
			echo "account required pam_deny.so"
			echo "account required pam_permit.so"
			echo "session required pam_permit.so"
			;;
		none)
			echo "auth required pam_permit.so"
			echo "session required pam_permit.so"
			;;
		*) fail "stack: unknown mode $mode" ;;
		esac
		echo "$rec"
	} > "/etc/pam.d/$SERVICE"
}

# run_pam USER OP...: pamtester with the groups in $START, under the
# command prefix in ${PRE[@]} (e.g. setpriv options).  Sets $rc.
PRE=()
run_pam() {
	local user=$1
	shift
	rm -f "$T/groups"
	set +e
	setpriv --groups "$START" "${PRE[@]}" \
		pamtester -v "$SERVICE" "$user" "$@" > "$T/pamtester.out" 2>&1
	rc=$?
	set -e
	sed 's/^/  pamtester: /' "$T/pamtester.out"
}

# The groups the session ended up with, sorted, egid 0 included.
groups_seen() {
	[ -f "$T/groups" ] || fail "pam_exec recorded no groups"
	one_per_line "$(head -n1 "$T/groups")" | sort -n | xargs
}

sorted_with_root() {
	one_per_line 0 "$@" | sort -n -u | xargs
}

assert_groups() {
	local want got
	want=$(sorted_with_root "$@")
	got=$(groups_seen)
	[ "$got" = "$want" ] || fail "groups: want [$want], got [$got]"
	echo "groups after: $got"
}

assert_untouched() {
	assert_groups "${START//,/ }"
}

assert_rc() {
	[ "$rc" -eq "${1:-0}" ] ||
		fail "pamtester exited $rc, want ${1:-0} (module did not return the expected code)"
}

assert_no_new_privs() {
	grep -q "^NoNewPrivs:[[:space:]]*$1\$" "$T/groups" ||
		fail "NoNewPrivs is not $1: $(grep NoNewPrivs "$T/groups")"
}

# Make sure every message sent so far is in $LOG: datagrams on one socket
# arrive in order, so once our marker is there, so is everything before.
log_flush() {
	local marker="dgtest-flush-$RANDOM$RANDOM"
	env -u LD_PRELOAD logger -u /dev/log -t dgtest "$marker"
	for _ in $(seq 200); do
		grep -q "$marker" "$LOG" && return 0
		sleep 0.02
	done
	fail "log marker never arrived"
}

# log_reset: forget what was logged so far, for a test in several phases
# (logsink appends, so the file can be emptied under it).
log_reset() {
	log_flush
	: > "$LOG"
}

# module_log PRIORITY: the module's lines at one syslog priority.  pam_syslog
# logs to LOG_AUTHPRIV (10 << 3): err 83, warning 84, notice 85, info 86.
module_log() {
	local pri
	case $1 in
	err) pri=83 ;; warning) pri=84 ;; notice) pri=85 ;; info) pri=86 ;;
	debug) pri=87 ;; *) fail "module_log: $1" ;;
	esac
	log_flush
	grep -F "<$pri>" "$LOG" | grep -F "pam_dropgroups(" || true
}

# assert_log PRIORITY COUNT [ERE]: exactly COUNT lines, each matching ERE.
assert_log() {
	local lines n
	lines=$(module_log "$1")
	n=$(printf '%s' "$lines" | grep -c . || true)
	[ "$n" -eq "$2" ] || fail "want $2 $1 line(s), got $n: $lines"
	# every line, not just one: a second, unexpected line fails too
	if [ -n "${3:-}" ] && [ "$2" -gt 0 ] &&
		grep -Evq -- "$3" <<< "$lines"; then
		fail "$1 log has lines that do not match /$3/: $(printf '%s\n' "$lines" | grep -Ev -- "$3")"
	fi
	[ -z "$lines" ] || printf '  log(%s): %s\n' "$1" "$lines"
}

# The whole fail-closed contract in one call: the module returned
# EXPECT, the groups are exactly what they were, and one error line says
# why, matching ERE.
assert_failed_closed() {
	assert_rc 0
	assert_untouched
	assert_log err 1 "$1"
}
