# shellcheck disable=SC2016 # editor bodies: expanded when the editor runs
# dropgroups edit: the policy, or one drop-in, edited as visudo edits
# sudoers.  The editor is a script ($EDITOR) that edits its copy with
# sed, or writes a broken policy, and records what it was given; one test
# drives a real terminal through tmux.  Each test shows the installed
# file before the edit, so that a change (or none) is seen.

# editor NAME BODY: an editor script $T/NAME: BODY runs with the copy as
# "$1", after the copy's path, its mode and its directory's are recorded
# in $T/NAME.seen.
editor() {
	export T
	cat > "$T/$1" <<-EOF
	#!/bin/sh
	set -e
	echo "\$1 \$(stat -c '%U:%G %a' "\$1") \$(stat -c '%U:%G %a' "\$(dirname "\$1")")" >> "$T/$1.seen"
	$2
	EOF
	chmod 0755 "$T/$1"
}

# identity FILE: its inode, owner, group and mode.
identity() {
	stat -c '%i %U:%G %a' "$1"
}

test_edit_installs_a_good_edit_atomically_as_root_0644() {
	example_policy
	echo "before:"; cat "$POLICY"
	grep -q '"audio", "video", 46' "$POLICY" || fail "the baseline drops audio"
	before=$(identity "$POLICY")
	editor ed.sh 'sed -i "s/\"audio\", //" "$1"'
	cp "$POLICY" "$T/old"
	# a reader that opened the file before the install (a login in the
	# middle of reading it) goes on reading the old file whole: the
	# new one is a new inode renamed over it, never written in place
	exec 3< "$POLICY"
	# VISUAL before EDITOR, and EDITOR may hold arguments (sh -c)
	EDITOR=false VISUAL="sh $T/ed.sh" capture "$DG" edit < /dev/null
	cmp - "$T/old" <&3 || fail "a reader of the old file saw it change"
	exec 3<&-
	assert_exit 0
	assert_in out "^$POLICY: installed$"
	after=$(identity "$POLICY")
	echo "identity before: $before, after: $after"
	[ "${before%% *}" != "${after%% *}" ] || fail "the file was written in place, not renamed"
	[ "${after#* }" = "root:root 644" ] || fail "installed as ${after#* }, want root:root 644"
	grep -q '^  { name = "ssh"; services = \[ "sshd", "dgtest" \]; drop = ( "video", 46 ); },$' "$POLICY" ||
		fail "the edit is not installed"
	# the private copy: 0600 in a 0700 directory of root's, gone after
	read -r copy owner mode downer dmode < "$T/ed.sh.seen"
	[ "$owner $mode $downer $dmode" = "root:root 600 root:root 700" ] ||
		fail "the copy was $owner $mode in a $downer $dmode directory"
	[ "$(basename "$copy")" = dropgroups.conf ] || fail "the copy is $copy"
	[ ! -e "$(dirname "$copy")" ] || fail "$(dirname "$copy") was left behind"
	[ -z "$(find /etc/security -maxdepth 1 -name '.*')" ] || fail "a temporary file was left in /etc/security"
	# the installed file's mode where it is stricter than 0644, else 0644
	for modes in "600 600" "640 640" "755 644"; do
		rm "$POLICY"
		example_policy
		chmod "${modes% *}" "$POLICY"
		EDITOR="$T/ed.sh" capture "$DG" edit < /dev/null
		assert_exit 0
		[ "$(identity "$POLICY" | cut -d' ' -f2-)" = "root:root ${modes#* }" ] ||
			fail "a ${modes% *} file installed as $(identity "$POLICY" | cut -d' ' -f2-), want ${modes#* }"
	done
	cli check
	assert_exit 0
}

test_edit_refuses_a_broken_edit_and_keeps_the_original() {
	example_policy
	cli check
	assert_exit 0
	cp "$POLICY" "$T/original"
	before=$(identity "$POLICY")
	editor bad.sh 'sed -i "s/keep = \"users\";/keep = \"users\"; colour = 1;/" "$1"'
	EDITOR="$T/bad.sh" capture "$DG" edit < /dev/null
	assert_exit 1
	read -r copy _ < "$T/bad.sh.seen"
	assert_in err "^$copy:5: unknown key \"colour\" in rule \"students\"$"
	assert_in err "^dropgroups: $POLICY: the edit is discarded; nothing installed$"
	cmp "$T/original" "$POLICY" || fail "the installed policy changed"
	[ "$(identity "$POLICY")" = "$before" ] || fail "the installed file was replaced"
	[ ! -e "$(dirname "$copy")" ] || fail "$(dirname "$copy") was left behind"
	# an editor that fails (vi's :cq) installs nothing, even a good edit
	editor fails.sh 'sed -i "s/\"audio\", //" "$1"; exit 3'
	EDITOR="$T/fails.sh" capture "$DG" edit < /dev/null
	assert_exit 1
	assert_in err 'the editor .* exited with status 3; nothing installed$'
	cmp "$T/original" "$POLICY" || fail "the installed policy changed"
}

test_edit_an_unchanged_file_installs_nothing() {
	example_policy
	before=$(identity "$POLICY")
	touch -d '2001-01-01' "$POLICY"
	EDITOR=true capture "$DG" edit < /dev/null
	assert_exit 0
	assert_output edit-unchanged
	[ "$(identity "$POLICY")" = "$before" ] || fail "the file was replaced"
	[ "$(stat -c %Y "$POLICY")" = "$(date -d 2001-01-01 +%s)" ] || fail "the file was written"
	# the baseline: the same session with an edit installs it
	editor ed.sh 'sed -i "s/\"audio\", //" "$1"'
	EDITOR="$T/ed.sh" capture "$DG" edit < /dev/null
	assert_exit 0
	[ "$(identity "$POLICY")" != "$before" ] || fail "the edit was not installed"
}

# The lock is an flock on the main file: a second editor (of the main
# file or of any drop-in) is refused at once while it is held.
test_edit_a_second_editor_is_refused_while_the_lock_is_held() {
	example_policy
	mkdir -m 0755 /etc/security/dropgroups.d
	editor slow.sh 'touch "$T/started"; while [ ! -e "$T/release" ]; do sleep 0.1; done; sed -i "s/\"audio\", //" "$1"'
	EDITOR="$T/slow.sh" "$DG" edit < /dev/null > "$T/first.out" 2>&1 &
	first=$!
	# on a failure below, let it end and remove its copy
	at_exit 'touch "$T/release"; wait "$first" 2>/dev/null'
	for _ in $(seq 100); do [ -e "$T/started" ] && break; sleep 0.1; done
	[ -e "$T/started" ] || fail "the first editor never started"
	flock -n "$POLICY" true && fail "the main file is not flocked"
	EDITOR=true capture "$DG" edit < /dev/null
	assert_exit 1
	assert_output edit-busy
	EDITOR=true capture "$DG" edit -d 50-local.conf < /dev/null
	assert_exit 1
	assert_in err "^dropgroups: $POLICY is being edited"
	touch "$T/release"
	wait "$first" || fail "the first edit failed: $(cat "$T/first.out")"
	cat "$T/first.out"
	grep -q "installed" "$T/first.out" || fail "the first edit was not installed"
	grep -q '"audio"' "$POLICY" && fail "the first edit is not in place"
	# the lock went with the first editor, though the file is new
	EDITOR=true capture "$DG" edit < /dev/null
	assert_exit 0
	assert_in out 'unchanged'
}

# A termination signal ends the edit with nothing installed, also when
# it comes while the new file is written and synced (held up here for
# two seconds by strace): that is before the rename, the one step that
# cannot be taken back.
test_edit_a_signal_while_the_file_is_synced_installs_nothing() {
	example_policy
	cp "$POLICY" "$T/old"
	editor ed.sh 'sed -i "s/\"audio\", //" "$1"; touch "$T/edited"'
	EDITOR="$T/ed.sh" strace -f -qq -o /dev/null -e trace=fsync \
		-e inject=fsync:delay_enter=2000000:when=2+ \
		"$DG" edit < /dev/null > "$T/edit.out" 2>&1 &
	tracer=$!
	at_exit 'wait "$tracer" 2>/dev/null'
	for _ in $(seq 100); do [ -e "$T/edited" ] && break; sleep 0.1; done
	[ -e "$T/edited" ] || fail "the editor never ran"
	# the check takes milliseconds: by now the install's fsync is held
	sleep 0.5
	# (read by hand: pgrep hangs with the sanitizer runtimes that
	# make check-asan preloads into every process)
	dg=
	read -r dg _ < "/proc/$tracer/task/$tracer/children" || true
	[ -n "$dg" ] || fail "no dropgroups under strace"
	kill -TERM "$dg"
	set +e
	wait "$tracer"
	set -e
	cat "$T/edit.out"
	! grep -q ': installed$' "$T/edit.out" || fail "a signal before the rename still installed the edit"
	cmp "$POLICY" "$T/old" || fail "the edit was installed"
	[ -z "$(find /etc/security -maxdepth 1 -name '.*')" ] || fail "a temporary file was left in /etc/security"
	[ -z "$(find /tmp -maxdepth 1 -name 'dropgroups-edit.*')" ] || fail "the private directory was left"
}

# A drop-in is checked with the main file and the other drop-ins, as
# `check --drop-in` checks it, and created when it is not there.
test_edit_a_drop_in_is_checked_with_the_main_file() {
	example_policy
	mkdir -m 0755 /etc/security/dropgroups.d
	echo 'version = 1; restricting = ( "plugdev" );' | policy /etc/security/dropgroups.d/20-other.conf
	[ ! -e /etc/security/dropgroups.d/50-local.conf ] || fail "50-local.conf is there already"
	# a file that would be a valid main policy on its own ...
	printf 'version = 1;\ninclude_dir = "elsewhere.d";\nrestricting = ( "audio" );\nrules = ( );\n' > "$T/alone.conf"
	chmod 0644 "$T/alone.conf"
	cli check -c "$T/alone.conf"
	assert_exit 0
	# ... refused as a drop-in of this policy
	editor main-only.sh "cat $T/alone.conf > \"\$1\""
	EDITOR="$T/main-only.sh" capture "$DG" edit -d 50-local.conf < /dev/null
	assert_exit 1
	read -r copy _ < "$T/main-only.sh.seen"
	assert_in err "^$copy:2: include_dir is allowed only in the main file$"
	[ ! -e /etc/security/dropgroups.d/50-local.conf ] || fail "a refused drop-in was created"
	# the whole policy: a good drop-in is refused while another is broken
	echo 'version = 1; bogus = 1;' | policy /etc/security/dropgroups.d/20-other.conf
	editor good.sh 'printf "version = 1;\nrestricting = ( \"audio\" );\n" > "$1"'
	EDITOR="$T/good.sh" capture "$DG" edit -d 50-local.conf < /dev/null
	assert_exit 1
	assert_in err '^/etc/security/dropgroups.d/20-other.conf:1: unknown key "bogus"$'
	[ ! -e /etc/security/dropgroups.d/50-local.conf ] || fail "installed beside a broken drop-in"
	echo 'version = 1; restricting = ( "plugdev" );' | policy /etc/security/dropgroups.d/20-other.conf
	EDITOR="$T/good.sh" capture "$DG" edit -d 50-local.conf < /dev/null
	assert_exit 0
	# read with the main file: its rule now names a restricting group
	assert_in err "^$POLICY:4: warning: rule \"ssh\" names restricting group audio\(29\) in drop; it is never dropped$"
	assert_in out '^/etc/security/dropgroups.d/50-local.conf: installed$'
	[ "$(stat -c '%U:%G %a' /etc/security/dropgroups.d/50-local.conf)" = "root:root 644" ] ||
		fail "the drop-in is not root:root 0644"
	cli check
	assert_exit 0
	assert_in out 'valid: 2 rule\(s\), 3 restricting gid\(s\), 3 file\(s\) read$'
	# names the module would not read are refused before any editor runs
	for name in 50-local .50-local.conf dir/50-local.conf; do
		EDITOR="$T/good.sh" capture "$DG" edit -d "$name" < /dev/null
		assert_exit 2
		assert_in err "^dropgroups: edit: -d \"$name\": a drop-in is named NAME.conf"
	done
}

# The loader's checks come first: a directory others may write refuses
# the edit before the editor runs.
test_edit_refuses_an_insecure_policy_directory() {
	example_policy
	editor ed.sh 'sed -i "s/\"audio\", //" "$1"'
	chmod 0775 /etc/security
	EDITOR="$T/ed.sh" capture "$DG" edit < /dev/null
	assert_exit 1
	assert_in err '^/etc/security/dropgroups.conf: directory /etc/security is writable by group or others \(mode 0775\)$'
	[ ! -e "$T/ed.sh.seen" ] || fail "the editor ran"
	chmod 0755 /etc/security
	EDITOR="$T/ed.sh" capture "$DG" edit < /dev/null
	assert_exit 0
	[ -e "$T/ed.sh.seen" ] || fail "the editor did not run"
}

# Only root edits: the files are root's, and the install makes them so.
test_edit_needs_root() {
	example_policy
	editor ed.sh 'sed -i "s/\"audio\", //" "$1"'
	EDITOR="$T/ed.sh" capture setpriv --reuid=1001 --regid=1001 --clear-groups "$DG" edit < /dev/null
	assert_exit 1
	assert_in err '^dropgroups: edit needs root: the policy.s files are root.s$'
	[ ! -e "$T/ed.sh.seen" ] || fail "the editor ran"
	# the baseline: root's edit
	EDITOR="$T/ed.sh" capture "$DG" edit < /dev/null
	assert_exit 0
	[ -e "$T/ed.sh.seen" ] || fail "the editor did not run"
}

# A real terminal: the first edit is broken, "What now?" is asked, the
# admin answers e, fixes it in the second run, and the fix is installed.
test_edit_asks_what_now_on_a_terminal_and_edits_again() {
	example_policy
	cp "$POLICY" "$T/original"
	# first run: a broken key; second run: the key removed, and audio
	# no longer dropped
	editor twice.sh 'if [ -e "$T/broken" ]; then sed -i "s/ colour = 1;//; s/\"audio\", //" "$1"; else touch "$T/broken"; sed -i "s/keep = \"users\";/keep = \"users\"; colour = 1;/" "$1"; fi'
	export TMUX_TMPDIR=$T TERM=xterm
	at_exit "tmux -L dgedit kill-server"
	tmux -L dgedit new-session -d -s edit -n w1 -x 200 -y 50 \
		"EDITOR=$T/twice.sh $DG edit; echo \"exit status \$?\"; sleep 600"
	wait_for_screen w1 'What now\? \(e\)dit again, \(x\) discard: ?$'
	cmp "$T/original" "$POLICY" || fail "installed before the answer"
	grep -q 'unknown key "colour" in rule "students"' "$T/screen" || fail "no diagnostics on the terminal"
	tmux -L dgedit send-keys -t edit:w1 e Enter
	wait_for_screen w1 '^exit status 0$'
	grep -q "^$POLICY: installed$" "$T/screen" || fail "not installed"
	[ "$(grep -c '^/tmp/dropgroups-edit\.' "$T/twice.sh.seen")" = 2 ] || fail "the editor did not run twice"
	cmp -s "$T/original" "$POLICY" && fail "the policy is unchanged"
	grep -q colour "$POLICY" && fail "the broken edit was installed"
	grep -q 'drop = ( "video", 46 )' "$POLICY" || fail "the fix is not installed"
	cli check
	assert_exit 0
	# x discards: the broken first run, then nothing installed
	rm "$T/broken"
	cp "$POLICY" "$T/second"
	tmux -L dgedit new-window -t edit: -n w2 \
		"EDITOR=$T/twice.sh $DG edit; echo \"exit status \$?\"; sleep 600"
	wait_for_screen w2 'What now\? \(e\)dit again, \(x\) discard: ?$'
	tmux -L dgedit send-keys -t edit:w2 x Enter
	wait_for_screen w2 '^exit status 1$'
	grep -q 'the edit is discarded; nothing installed$' "$T/screen" || fail "no discard message"
	cmp "$T/second" "$POLICY" || fail "a discarded edit was installed"
	# ^C at the question discards too, and removes the private copy
	rm "$T/broken"
	# (the window's shell outlives the ^C, to say how the edit ended)
	tmux -L dgedit new-window -t edit: -n w3 \
		"trap : INT; EDITOR=$T/twice.sh $DG edit; echo \"exit status \$?\"; sleep 600"
	wait_for_screen w3 'What now\? \(e\)dit again, \(x\) discard: ?$'
	copy=$(tail -n 1 "$T/twice.sh.seen" | cut -d' ' -f1)
	[ -e "$copy" ] || fail "no private copy while the question is asked"
	tmux -L dgedit send-keys -t edit:w3 C-c
	wait_for_screen w3 '^exit status 1$'
	[ ! -e "$(dirname "$copy")" ] || fail "^C left $(dirname "$copy") behind"
	cmp "$T/second" "$POLICY" || fail "an interrupted edit was installed"
}

# wait_for_screen WINDOW ERE: until a line of the tmux window matches
# (10 s).
wait_for_screen() {
	for _ in $(seq 100); do
		tmux -L dgedit capture-pane -p -t "edit:$1" > "$T/screen"
		grep -Eq -- "$2" "$T/screen" && { cat "$T/screen"; return 0; }
		sleep 0.1
	done
	cat "$T/screen"
	fail "window $1 never showed /$2/"
}
