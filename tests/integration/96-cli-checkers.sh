# shellcheck disable=SC2016 # editor and command bodies: expanded when they run
# The CLI under the checkers 95-stress.sh runs over the module: every
# verb of dropgroups under valgrind's memcheck (memory errors, reads of
# uninitialised memory, definite and indirect leaks), on its success
# path, its --json form and its error paths (a broken policy, a missing
# file, a usage error, a failing editor); and dropgroups audit's
# parallel walk (audit/walk.c, a pool of threads) under ThreadSanitizer.
# Each checker must also catch a planted bug, here (a CLI that leaks in
# explain, a walk with an unlocked counter: tests/stress/*_canary.c) and
# in tests/mutate/mutations (cli-*-leak, walk-*).
#
# Programs, all built by the Makefile (tests/tests.mk):
#   $BUILD/dropgroups                the CLI, as shipped (memcheck)
#   $BUILD/stress/dropgroups-leaky   the CLI with a planted leak
#   $BUILD/tsan/dropgroups           the CLI built with clang's TSan
#   $BUILD/tsan/dropgroups-racy      the same with a planted race
#
# valgrind suppressions: tests/stress/cli.supp, libconfig's own leak only
# (the file says why).  TSan needs none: the walk calls only glibc and
# libacl, and TSan intercepts glibc.

CLI_SUPP=$TOP/tests/stress/cli.supp

checkers_prereqs() {
	if declare -F skip_under_sanitizers > /dev/null; then
		skip_under_sanitizers "valgrind and ThreadSanitizer bring their own runtime"
	fi
	command -v valgrind > /dev/null || fail "valgrind is not installed"
}

# vg WANT ARG...: dropgroups ARG... under memcheck, through capture ($T/out,
# $T/err, $rc), with the prefix command in ${VG_PRE[@]} (e.g. setpriv) and
# the CLI in $VG_DG (default $DG).  It must exit WANT (exec: it runs its
# COMMAND, whose status is COMMAND's own), and every process
# valgrind ran (dropgroups, and a child it forks, up to its exec) must be
# clean: no error, no definite or indirect leak.  Logs: $T/vg/PID.log.
VG_PRE=()
VG_RUNS=0
vg() {
	local want=$1
	shift
	checkers_prereqs
	rm -rf "$T/vg"
	mkdir -m 1777 "$T/vg"
	capture "${VG_PRE[@]}" valgrind --log-file="$T/vg/%p.log" \
		--leak-check=full --show-leak-kinds=definite,indirect,possible \
		--errors-for-leak-kinds=definite,indirect --error-exitcode=97 \
		--num-callers=40 --vgdb=no --suppressions="$CLI_SUPP" \
		"${VG_DG:-$DG}" "$@"
	VG_RUNS=$((VG_RUNS + 1))
	vg_clean "$want" "$*"
}

# vg_clean WANT WHAT: the checks of vg.
vg_clean() {
	local log bad=
	for log in "$T"/vg/*.log; do
		if grep -qE '^==[0-9]+== +(Invalid|Conditional|Use of uninitialised|Syscall param|Mismatched|Source and destination|Argument .* of function|[0-9,]+ bytes in [0-9,]+ blocks are (definitely|indirectly) lost)' "$log" ||
			{ grep -q 'ERROR SUMMARY:' "$log" &&
				! grep -q 'ERROR SUMMARY: 0 errors' "$log"; }; then
			bad="$bad $log"
		fi
	done
	if [ -n "$bad" ] || [ "$rc" -eq 97 ]; then
		for log in $bad; do
			grep -E -A30 '^==[0-9]+== +(Invalid|Conditional|Use of uninitialised|Syscall param|Mismatched|Source and destination|Argument|[0-9,]+ bytes in [0-9,]+ blocks are)' \
				"$log" | head -n 120 || true
		done
		fail "valgrind found errors in dropgroups $2 (exit $rc)"
	fi
	# the main process either ended under valgrind (its summary) or
	# exec'd (run's COMMAND, never checked past the exec)
	grep -lq 'ERROR SUMMARY: 0 errors' "$T"/vg/*.log ||
		[ "$want" = exec ] || fail "valgrind reported no summary for dropgroups $2"
	[ "$want" = exec ] || assert_exit "$want"
	return 0
}

# --- memcheck: every verb ---

test_help_and_usage_errors_under_valgrind() {
	checkers_prereqs
	vg 0 --help
	vg 0 --version
	vg 0 help
	for verb in check edit lint explain probe run sync-kernel audit help; do
		vg 0 help "$verb"
	done
	vg 0 audit --help
	for args in "" frobnicate "help frobnicate" "check -c a -c b" \
		"explain sshd" "run" "audit --bogus" "edit -d ../x.conf"; do
		# shellcheck disable=SC2086
		vg 2 $args
		assert_in err .
	done
	echo "  $VG_RUNS runs under memcheck"
}

# A policy with a drop-in, a candidate drop-in, --as, and each kind of
# broken policy: schema errors and warnings, a syntax error (a string
# token that libconfig 1.5 leaks itself: see cli.supp), an insecure
# file, a missing file.
test_check_under_valgrind() {
	checkers_prereqs
	example_policy
	mkdir -m 0755 /etc/security/dropgroups.d
	echo 'version = 1; restricting = ( "plugdev" );' | policy /etc/security/dropgroups.d/50-local.conf
	mkdir -m 0700 "$T/candidate"
	printf 'version = 1;\nrestricting = ( "students" );\n' | policy "$T/candidate/50-local.conf"
	vg 0 check
	assert_in out 'valid: 2 rule\(s\), 2 restricting gid\(s\), 2 file\(s\) read$'
	vg 0 check --json
	vg 0 check -d "$T/candidate/50-local.conf" --as 50-local.conf
	cp "$POLICY" "$T/candidate/main"
	vg 0 check -c "$T/candidate/main" --as "$POLICY"
	# warnings and errors
	policy "$T/broken.conf" <<-'EOF'
	version = 1;
	restricting = ( "no-such-group", 4294967294 );
	rules = ( { name = "x"; services = "*"; drop = ( "audio", "nobody-here" ); colour = "red"; },
	          { servcies = "sshd"; keep = "users"; } );
	EOF
	vg 1 check -c "$T/broken.conf"
	assert_in err 'unknown key "colour"'
	vg 1 check --json -c "$T/broken.conf"
	printf 'version = 1;\nrestricting = ( "a" "b" );\nrules = ( { services = "x" ' | policy "$T/syntax.conf"
	vg 1 check -c "$T/syntax.conf"
	assert_in err 'syntax'
	vg 1 check --json -c "$T/syntax.conf"
	# the two string tokens libconfig 1.5 loses (cli.supp), each must be
	# suppressed, not counted
	for s in '""' '"a string that needs libconfig to grow its buffer"'; do
		printf '%s' "$s" | policy "$T/string.conf"
		vg 1 check -c "$T/string.conf"
		grep -q 'suppressed: [1-9][0-9]* bytes' "$T"/vg/*.log ||
			fail "libconfig's lost string token was not suppressed"
	done
	chmod 0666 "$T/candidate/50-local.conf"
	vg 1 check -d "$T/candidate/50-local.conf"
	assert_in err 'writable by group or others'
	vg 1 check -c /etc/security/none.conf
	assert_in err 'cannot open: No such file or directory$'
	vg 1 check --json -c /etc/security/none.conf
	echo "  $VG_RUNS runs under memcheck"
}

# lint and explain: findings on made-up stacks, an sshd that does not
# run its stack, every verdict, no rule, an unknown user, a broken
# policy, each in text and --json.
test_lint_and_explain_under_valgrind() {
	checkers_prereqs
	example_policy
	mkdir -p "$T/pam"
	printf 'session required pam_dropgroups.so\n' > "$T/pam/common-session"
	printf 'auth required pam_unix.so\n@include common-session\n' > "$T/pam/sshd"
	printf 'auth [success=1 default=bad] pam_dropgroups.so colour=red\nauth include gone\n' > "$T/pam/cron"
	printf 'session optional \\\n  pam_dropgroups.so debug\n' > "$T/pam/su"
	printf 'UsePAM no\nMatch User alice\n  X11Forwarding no\n' > "$T/sshd_config"
	vg 1 lint --pam-dir "$T/pam" --sshd-config "$T/sshd_config"
	vg 1 lint --json --pam-dir "$T/pam" --sshd-config "$T/sshd_config"
	vg 0 explain --pam-dir "$T/pam" sshd alice
	assert_in out 'audio'
	vg 0 explain --json --pam-dir "$T/pam" --sshd-config "$T/sshd_config" sshd alice
	vg 0 explain --pam-dir "$T/pam" cron alice
	vg 0 explain --pam-dir "$T/nowhere" login bob
	vg 1 explain sshd nosuchuser
	vg 1 explain --json sshd nosuchuser
	# sudoers turning pam_session off: what lint and explain read of
	# it (cli.c, sudo_not_run) is held until it is said, then freed
	printf 'session required pam_dropgroups.so\n' > "$T/pam/sudo"
	printf 'root ALL=(ALL:ALL) ALL\nDefaults !pam_session\n' > "$T/sudoers"
	chmod 0440 "$T/sudoers"
	mount --bind "$T/sudoers" /etc/sudoers
	vg 1 lint --pam-dir "$T/pam" --sshd-config "$T/sshd_config"
	assert_in err '^/etc/sudoers:2: Defaults !pam_session'
	vg 0 explain --pam-dir "$T/pam" sudo alice
	assert_in out 'pam_session'
	rm "$T/pam/sudo"
	echo 'version = 1; rules = ( { services = "*"; drop = "audio"; keep = "users"; } );' | policy
	vg 1 lint --pam-dir "$T/pam"
	vg 1 lint --json --pam-dir "$T/pam"
	vg 1 explain sshd alice
	vg 1 explain --json sshd alice
	echo "  $VG_RUNS runs under memcheck"
}

vg_run_policy() {
	policy <<-'EOF'
	version = 1;
	restricting = ( "games-abusers" );
	rules = ( { services = "dropgroups"; users = [ "alice", "root" ]; drop = [ "audio", "video", "plugdev" ]; } );
	EOF
}

# run (as root, trimming; unprivileged on a stock kernel; no rule; a
# command not found; a broken policy), probe (a forked child) and
# sync-kernel (no sysctl; a stand-in sysctl file; a broken policy).
test_run_probe_and_sync_kernel_under_valgrind() {
	checkers_prereqs
	vg_run_policy
	VG_PRE=(setpriv --groups "0,29,44,46,100,2003")
	vg exec run -- sh -c 'echo $(id -G)'
	[ "$out" = "0 100 2003" ] || fail "run did not trim: $out"
	vg 127 run -- /nonexistent/command
	VG_PRE=(setpriv --reuid=1001 --regid=1001 --groups "$START" --inh-caps=-all)
	vg 1 run -- id -G
	assert_in err 'lacks CAP_SETGID'
	VG_PRE=()
	vg 1 run -s nosuchservice -- id -G
	vg 1 probe
	vg 1 sync-kernel
	assert_in err 'lacks kernel.setgroups_sticky_gids'
	mount -t tmpfs -o mode=0755 tmpfs /proc/sys/kernel
	: > /proc/sys/kernel/setgroups_sticky_gids
	vg 0 sync-kernel
	[ "$(cat /proc/sys/kernel/setgroups_sticky_gids)" = 2003 ] || fail "sync-kernel wrote no list"
	echo 'version = 1; bogus = 1;' | policy
	vg 1 sync-kernel
	vg 1 run -- id -G
	echo "  $VG_RUNS runs under memcheck"
}

# audit: modes, ACLs, sudoers evidence; --json; --emit-dropin; a clean
# tree; a path and a sudoers file that are missing; an unreadable
# directory.
test_audit_under_valgrind() {
	checkers_prereqs
	mkdir -m 0755 "$T/tree" "$T/tree/sub" "$T/tree/locked"
	touch "$T/tree/sub/f705" "$T/tree/acl" "$T/tree/locked/hidden"
	chgrp students "$T/tree/sub/f705"
	chmod 0705 "$T/tree/sub/f705"
	setfacl -m g:plugdev:--- "$T/tree/acl"
	setfacl -d -m g:audio:--- "$T/tree/sub"
	chmod 0700 "$T/tree/locked"
	printf 'User_Alias ABUSERS = %%games-abusers, bob\nALL, !ABUSERS ALL=(ALL) ALL\n' > "$T/sudoers"
	chmod 0644 "$T/sudoers"
	export DG_AUDIT_THREADS=2
	vg 1 audit --sudoers "$T/sudoers" "$T/tree"
	assert_in out '^students gid 3000: mode 1'
	vg 1 audit --json --sudoers "$T/sudoers" "$T/tree"
	vg 1 audit --sudoers "$T/sudoers" --emit-dropin "$T/d.conf" "$T/tree" /var/log
	grep -q 'restricting' "$T/d.conf" || fail "no drop-in written"
	: > "$T/empty"
	mkdir -m 0755 "$T/clean"
	vg 0 audit --sudoers "$T/empty" --xdev "$T/clean"
	vg 2 audit --sudoers "$T/empty" "$T/no-such-dir"
	vg 2 audit --sudoers "$T/no-such-sudoers" "$T/clean"
	VG_PRE=(setpriv --reuid=65534 --regid=65534 --clear-groups)
	vg 1 audit --sudoers "$T/sudoers" "$T/tree"
	assert_in err 'cannot open directory \(skipped\)'
	echo "  $VG_RUNS runs under memcheck"
}

# edit with scripted editors: a good edit installed, a broken one
# refused, an editor that fails, nothing changed, a new drop-in, a
# second editor while the lock is held, not root.
test_edit_under_valgrind() {
	checkers_prereqs
	example_policy
	mkdir -m 0755 /etc/security/dropgroups.d
	printf '#!/bin/sh\nsed -i "s/\\"audio\\", //" "$1"\n' > "$T/good.sh"
	printf '#!/bin/sh\necho "colour = 1;" >> "$1"\n' > "$T/bad.sh"
	printf '#!/bin/sh\nexit 3\n' > "$T/fails.sh"
	printf '#!/bin/sh\necho "version = 1; restricting = ( \\"plugdev\\" );" > "$1"\n' > "$T/dropin.sh"
	printf '#!/bin/sh\ntouch "%s/started"\nwhile [ ! -e "%s/release" ]; do sleep 0.1; done\n' "$T" "$T" > "$T/slow.sh"
	chmod 0755 "$T"/*.sh
	EDITOR=$T/good.sh vg 0 edit < /dev/null
	assert_in out 'installed$'
	EDITOR=$T/bad.sh vg 1 edit < /dev/null
	assert_in err 'unknown key "colour"'
	EDITOR=$T/fails.sh vg 1 edit < /dev/null
	EDITOR=true vg 0 edit < /dev/null
	EDITOR=$T/dropin.sh vg 0 edit -d 50-local.conf < /dev/null
	[ -s /etc/security/dropgroups.d/50-local.conf ] || fail "the drop-in was not installed"
	EDITOR=$T/slow.sh "$DG" edit < /dev/null > "$T/first.out" 2>&1 &
	first=$!
	at_exit 'touch "$T/release"; wait "$first" 2>/dev/null'
	for _ in $(seq 100); do [ -e "$T/started" ] && break; sleep 0.1; done
	EDITOR=$T/good.sh vg 1 edit < /dev/null
	touch "$T/release"
	wait "$first" || fail "the first edit failed"
	VG_PRE=(setpriv --reuid=1001 --regid=1001 --clear-groups)
	EDITOR=$T/good.sh vg 1 edit < /dev/null
	assert_in err 'edit needs root'
	echo "  $VG_RUNS runs under memcheck"
}

# The planted leak (tests/stress/leak_canary.c: 64 bytes lost in each
# dg_plan_prepare) must fail the same check, with the verb named.
test_valgrind_catches_a_leak_planted_in_the_cli() {
	checkers_prereqs
	example_policy
	[ -x "$BUILD/stress/dropgroups-leaky" ] || fail "$BUILD/stress/dropgroups-leaky is not built"
	vg 0 explain sshd alice
	set +e
	(VG_DG=$BUILD/stress/dropgroups-leaky vg 0 explain sshd alice) > "$T/leaky.out" 2>&1
	local sub=$?
	set -e
	sed 's/^/  leaky: /' "$T/leaky.out"
	[ "$sub" -ne 0 ] || fail "vg passed a leaking CLI"
	grep -q 'valgrind found errors in dropgroups explain sshd alice (exit 97)' "$T/leaky.out" ||
		fail "vg did not fail for the leak"
	grep -A6 'definitely lost' "$T/leaky.out" | grep -q 'cmd_explain (cli.c' ||
		fail "the leak's stack does not name cmd_explain"
	echo "  the planted leak was found"
}

# --- ThreadSanitizer: the audit's walk ---

# A tree for many threads at once: 40 x 25 directories, each with files
# whose mode or ACL takes access away (record() from every thread), a
# default ACL, directories root alone may enter, a name with a newline,
# a tmpfs mounted inside (a mount point: --xdev stops there) and a proc
# (a pseudo file system, never entered).
walk_tree() {
	mkdir -m 0755 "$T/tree"
	python3 - "$T/tree" <<-'EOF'
	import os, sys
	top = sys.argv[1]
	for i in range(40):
	    for j in range(25):
	        d = os.path.join(top, "d%d" % i, "e%d" % j)
	        os.makedirs(d)
	        for k, mode in enumerate((0o705, 0o644, 0o604)):
	            p = os.path.join(d, "f%d" % k)
	            open(p, "w").close()
	            os.chown(p, 0, 2003 + k * 997)  # games-abusers, students
	            os.chmod(p, mode)
	    if i % 8 == 0:
	        os.chmod(os.path.join(top, "d%d" % i), 0o700)
	open(os.path.join(top, "x\nforged"), "w").close()
	os.chmod(os.path.join(top, "x\nforged"), 0o705)
	EOF
	setfacl -m g:plugdev:--- "$T/tree/d1/e1/f1" "$T/tree/d2/e2/f1" "$T/tree/d3/e3/f1"
	setfacl -d -m g:audio:--- "$T/tree/d4/e4" "$T/tree/d5"
	mkdir "$T/tree/mnt" "$T/tree/proc"
	mount -t tmpfs -o mode=0755 tmpfs "$T/tree/mnt"
	mkdir -p "$T/tree/mnt/m/n"
	touch "$T/tree/mnt/m/n/f"
	chgrp video "$T/tree/mnt/m/n/f"
	chmod 0705 "$T/tree/mnt/m/n/f"
	mount -t proc proc "$T/tree/proc"
	: > "$T/empty"
	chmod 0644 "$T/empty"
}

# tsan WANT [PRE...] -- ARG...: $BUILD/tsan/dropgroups (or $TSAN_DG) ARG...
# with 8 walk threads under ThreadSanitizer, after PRE (e.g. setpriv),
# through capture.  It must exit WANT with no report, and print what the
# shipped build prints for the same run (its warnings in any order).
tsan() {
	local want=$1 dg=${TSAN_DG:-$BUILD/tsan/dropgroups} pre=()
	shift
	while [ "$1" != -- ]; do
		pre+=("$1")
		shift
	done
	shift
	checkers_prereqs
	[ -x "$dg" ] || fail "$dg is not built (make check builds it)"
	capture "${pre[@]}" env DG_AUDIT_THREADS=8 "$DG" "$@"
	cp "$T/out" "$T/plain.out"
	cp "$T/err" "$T/plain.err"
	capture "${pre[@]}" env DG_AUDIT_THREADS=8 \
		TSAN_OPTIONS="exitcode=66 halt_on_error=0 history_size=4" "$dg" "$@"
	if grep -q 'WARNING: ThreadSanitizer' "$T/err" || [ "$rc" -eq 66 ]; then
		grep -v '^$' "$T/err" | head -n 120 || true
		fail "ThreadSanitizer reported a race in dropgroups $* (exit $rc)"
	fi
	assert_exit "$want"
	diff -u "$T/plain.out" "$T/out" || fail "the TSan build printed another report"
	# (sorted: each thread keeps its warnings in its own order)
	diff -u <(sort "$T/plain.err") <(sort "$T/err") ||
		fail "the TSan build printed other warnings"
}

test_audit_walk_under_tsan() {
	checkers_prereqs
	walk_tree
	nm "$BUILD/tsan/dropgroups" > "$T/syms" || fail "nm failed"
	grep -q '__tsan_func_entry' "$T/syms" || fail "$BUILD/tsan/dropgroups is not built with TSan"
	tsan 1 -- audit --sudoers "$T/empty" "$T/tree"
	assert_in out '^games-abusers gid 2003: mode 1000; e.g. '
	assert_in out '^plugdev gid 46: acl 3; '
	assert_in out '^video gid 44: mode 1; '
	tsan 1 -- audit --json --sudoers "$T/empty" --xdev "$T/tree" "$T/tree/d1" /var/log
	tsan 1 -- audit --sudoers "$T/empty" --emit-dropin "$T/d.conf" "$T/tree"
	# nobody: the directories of root's alone are warnings, from the
	# walk's threads
	tsan 1 setpriv --reuid=65534 --regid=65534 --clear-groups -- \
		audit --sudoers "$T/empty" "$T/tree"
	assert_in err 'd0: cannot open directory \(skipped\)'
	assert_in err 'd32: cannot open directory \(skipped\)'
}

# The planted race (tests/stress/walk_race_canary.c: an unlocked counter
# bumped by each walk thread that records evidence) must be reported.
test_tsan_catches_a_race_planted_in_the_walk() {
	checkers_prereqs
	walk_tree
	local sub
	set +e
	(TSAN_DG=$BUILD/tsan/dropgroups-racy tsan 1 -- audit --sudoers "$T/empty" "$T/tree") \
		> "$T/racy.out" 2>&1
	sub=$?
	set -e
	# sed alone, not sed | head: head leaving early kills sed with
	# SIGPIPE, and under pipefail and set -e the test with it
	sed -n '1,40s/^/  racy: /p' "$T/racy.out"
	[ "$sub" -ne 0 ] || fail "tsan passed a racy walk"
	grep -q 'ThreadSanitizer reported a race in dropgroups audit .*(exit 66)' "$T/racy.out" ||
		fail "tsan did not fail for the race"
	grep -A8 'WARNING: ThreadSanitizer: data race' "$T/racy.out" |
		grep -q '__wrap_dg_evidence_add .*walk_race_canary.c' ||
		fail "the report does not point at the planted counter"
	echo "  the planted race was found"
}
