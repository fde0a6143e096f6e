# The compiled policy cache (/run/dropgroups, cache.c): a login after the
# first takes the parsed policy from it, and only while every file is,
# byte for byte, the one that was parsed; only root's alone is read.
#
# To show that a login really took the cache (and not the file), some
# tests forge it: the compiled rule says "audio" where the file still
# says "video".  A login that obeys the forgery read the cache; one that
# drops video read the file.  alice starts with 1001 100 29(audio)
# 44(video) 46 2003 3000.

video_policy() {
	policy <<-'EOF'
	version = 1;
	restricting = ( );
	rules = ( { name = "v"; services = "dgtest"; drop = "video"; } );
	EOF
}

CACHE_DIR=/run/dropgroups

cache_file() {
	local f
	f=$(ls "$CACHE_DIR"/policy-*.cache 2>/dev/null) || true
	[ -n "$f" ] && [ "$(printf '%s\n' "$f" | wc -l)" -eq 1 ] ||
		fail "want one cache file in $CACHE_DIR, got: [$f]"
	echo "$f"
}

# The last "video" in the cache is the compiled rule's (the files' bytes
# come first): make it say "audio", and keep the files' bytes.
forge_audio() {
	python3 - "$1" <<-'EOF'
	import os, sys
	p = sys.argv[1]
	d = open(p, "rb").read()
	i = d.rindex(b"video")
	assert d.index(b"video") < i, "the source and the rule"
	open(p + ".new", "wb").write(d[:i] + b"audio" + d[i + 5:])
	os.chmod(p + ".new", 0o600)
	os.rename(p + ".new", p)
	EOF
}

login_drops() {
	log_reset
	run_pam alice open_session
	assert_rc 0
	case $1 in
	video) assert_groups 1001 100 29 46 2003 3000 ;;
	audio) assert_groups 1001 100 44 46 2003 3000 ;;
	*) fail "login_drops: $1" ;;
	esac
}

test_cache_is_written_root_only_and_used() {
	video_policy
	stack session success
	[ ! -e "$CACHE_DIR" ] || fail "$CACHE_DIR exists before any login"
	login_drops video
	local f
	f=$(cache_file)
	[ "$(stat -c '%U %a' "$CACHE_DIR")" = "root 700" ] ||
		fail "$CACHE_DIR is $(stat -c '%U %a' "$CACHE_DIR")"
	[ "$(stat -c '%U %a %h' "$f")" = "root 600 1" ] ||
		fail "$f is $(stat -c '%U %a %h' "$f")"
	# the baseline: the file says video, and so does the cache
	login_drops video
	forge_audio "$f"
	login_drops audio
}

# The cache's key holds the build ID of the libconfig that parsed: the
# copy loaded in the process (cache.c walks every loaded object for the
# one that holds config_read_string).  Taken from another object (the
# program, the module), an upgrade of libconfig would not change the key,
# and a cache its old parse wrote would still be read.  The unit tests
# encode and decode in one process, where any object's ID round-trips.
test_cache_key_holds_the_loaded_libconfig_s_build_id() {
	video_policy
	stack session success
	login_drops video
	local got lib want
	got=$(python3 - "$(cache_file)" <<-'EOF'
	import struct, sys
	d = open(sys.argv[1], "rb").read()
	at = len(b"dgpolicy1\n") + 4  # the magic, the byte-order mark
	for part in ("parser", "libconfig"):
	    n, = struct.unpack_from("=I", d, at)
	    s = d[at + 4:at + 4 + n]
	    at += 4 + n + 1  # its length, its bytes, a NUL
	print(s.decode())
	EOF
	)
	lib=$(ldd "$MODULE" | awk '$1 ~ /^libconfig\.so/ { print $3 }')
	[ -n "$lib" ] || fail "the module links no libconfig"
	want=$(readelf -n "$lib" | awk '/Build ID:/ { print $3 }')
	[ -n "$want" ] || fail "$lib has no build ID"
	echo "  cache: $got; $lib: $want"
	[ "$got" = "$want" ] || fail "the cache's libconfig ID is $got, not $lib's $want"
}

test_cache_not_roots_alone_is_ignored() {
	video_policy
	stack session success
	login_drops video
	local f
	f=$(cache_file)
	forge_audio "$f"
	login_drops audio # the forgery is read while it is root's alone

	chmod 0640 "$f"
	login_drops video
	# (that login parsed, and put a true cache in place)
	forge_audio "$f"
	chown nobody "$f"
	login_drops video

	forge_audio "$f"
	ln "$f" /run/second-link
	login_drops video
	rm -f /run/second-link

	forge_audio "$f"
	chmod 0755 "$CACHE_DIR"
	login_drops video
	chmod 0700 "$CACHE_DIR"
	chown nobody "$CACHE_DIR"
	login_drops video
	chown root "$CACHE_DIR"

	# a symbolic link in place of the directory is never followed
	mv "$CACHE_DIR" /run/elsewhere
	ln -s /run/elsewhere "$CACHE_DIR"
	login_drops video
	rm "$CACHE_DIR"
	mv /run/elsewhere "$CACHE_DIR"
	login_drops audio # the forgery again, where it is trusted
}

# Every change that the files show is a miss: an edit of the same
# length, a drop-in added or removed; and a file that is no longer safe,
# its bytes the same, fails closed as it would without a cache.
test_any_change_to_the_files_is_a_miss() {
	video_policy
	stack session success
	login_drops video
	login_drops video
	sed -i 's/"video"/"audio"/' "$POLICY"
	login_drops audio
	sed -i 's/"audio"/"video"/' "$POLICY"
	login_drops video

	# a drop-in that makes video restricting: kept, whatever the rule
	mkdir -p -m 0755 /etc/security/dropgroups.d
	policy /etc/security/dropgroups.d/10-video.conf <<-'EOF'
	version = 1;
	restricting = [ "video" ];
	EOF
	log_reset
	run_pam alice open_session
	assert_rc 0
	assert_untouched
	rm /etc/security/dropgroups.d/10-video.conf
	login_drops video

	# the same bytes, no longer root's alone: refused, with the reason
	stack session session_err
	chmod 0664 "$POLICY"
	log_reset
	run_pam alice open_session
	assert_failed_closed "$POLICY: the file is writable by group or others"
	chmod 0644 "$POLICY"
	mv "$POLICY" "$POLICY.real"
	ln -s "$POLICY.real" "$POLICY"
	log_reset
	run_pam alice open_session
	assert_failed_closed "symbolic link"
}

# A cached parse says what the parse said: the same warnings, each time.
test_a_hit_logs_the_warnings_of_the_parse() {
	policy <<-'EOF'
	version = 1;
	restricting = ( );
	rules = ( { name = "up"; services = [ "SSHD", "dgtest" ];
	            drop = "video"; } );
	EOF
	stack session success
	login_drops video
	assert_log warning 1 'upper-case'
	cache_file > /dev/null
	login_drops video
	assert_log warning 1 'upper-case'
}

# explain (and check) read the cache too, and say what a parse says.
test_explain_says_the_same_from_the_cache() {
	video_policy
	capture "$DG" explain -c "$POLICY" dgtest alice
	assert_exit 0
	cp "$T/out" "$T/explain-parsed"
	cache_file > /dev/null
	capture "$DG" explain -c "$POLICY" dgtest alice
	assert_exit 0
	cmp "$T/explain-parsed" "$T/out" || fail "explain differs on a hit"
	grep -q 'video' "$T/out" || fail "explain does not name video"
}

# Checking policies at many paths (a configuration tool's temporary
# copies) cannot fill /run: a cache file per slot, at most 32.
test_cache_files_are_bounded() {
	local i
	for i in $(seq 60); do
		mkdir -p -m 0755 "/etc/security/t$i"
		video_policy
		cp -p "$POLICY" "/etc/security/t$i/dropgroups.conf"
		capture "$DG" check -c "/etc/security/t$i/dropgroups.conf"
		assert_exit 0
	done
	local n
	n=$(find "$CACHE_DIR" -type f | wc -l)
	echo "cache files after 60 paths: $n"
	[ "$n" -ge 1 ] && [ "$n" -le 32 ] || fail "want 1 to 32 cache files, got $n"
}

# A policy whose cache is larger than a file size limit of 8 KB.
big_video_policy() {
	{
		echo 'version = 1;'
		echo 'restricting = ( );'
		for i in $(seq 400); do echo "# padding line $i ................................................."; done
		echo 'rules = ( { name = "v"; services = "dgtest"; drop = "video"; } );'
	} | policy
}

# A file size limit below the cache's size (the invoking user's, through
# a set-user-ID su, or pam_limits') killed the login program with
# SIGXFSZ mid-write (pamtester exited 153), and left a partial file in
# /run every time.  Now the cache is not written under such a limit.
test_file_size_limit_skips_the_cache() {
	big_video_policy
	stack session success
	local i
	for i in 1 2; do
		log_reset
		set +e
		( ulimit -f 8; exec setpriv --groups "$START" pamtester -v \
			"$SERVICE" alice open_session ) > "$T/p.out" 2>&1
		rc=$?
		set -e
		sed 's/^/  pamtester: /' "$T/p.out"
		assert_rc 0
		assert_groups 1001 100 29 46 2003 3000
	done
	[ -z "$(ls -A "$CACHE_DIR")" ] ||
		fail "files left in $CACHE_DIR: $(ls -A "$CACHE_DIR" | xargs)"
	# the baseline: without the limit, the cache is written
	login_drops video
	cache_file > /dev/null
}

# A login killed while it writes the cache (the invoking user may kill a
# set-user-ID su) leaves at most one file per slot: the cache is written
# unnamed, named policy-N.cache.new only whole, then renamed.  strace
# kills the login at its link and at its rename, three times each (each
# such kill left another .PID.TIME.tmp before).
test_killed_writers_leave_no_files() {
	command -v strace > /dev/null || fail "strace is missing (tests/install-deps.sh)"
	big_video_policy
	stack session success
	local at i left
	for at in linkat renameat,renameat2; do
		for i in 1 2 3; do
			# (a miss, so that the login writes)
			rm -f "$CACHE_DIR"/policy-*.cache
			set +e
			setpriv --groups "$START" strace -f -qq -o /dev/null \
				-e trace="$at" -e inject="$at":signal=KILL \
				pamtester "$SERVICE" alice open_session > /dev/null 2>&1
			set -e
		done
		left=$(ls -A "$CACHE_DIR" 2> /dev/null | xargs)
		echo "killed at $at three times; left: [$left]"
		[ "$(ls -A "$CACHE_DIR" | grep -Evc '^policy-[0-9]+\.cache(\.new)?$')" -eq 0 ] ||
			fail "files left by killed logins: $left"
	done
	# the baseline: a login not killed leaves the cache, and no .new
	login_drops video
	cache_file > /dev/null
	[ -z "$(ls -A "$CACHE_DIR" | grep -Ev '^policy-[0-9]+\.cache$')" ] ||
		fail "left: $(ls -A "$CACHE_DIR" | xargs)"
}
