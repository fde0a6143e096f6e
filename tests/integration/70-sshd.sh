# A real OpenSSH sshd on 127.0.0.1 in the test's own network namespace,
# the real ssh client, public-key login, and the host's own sshd PAM
# stack (a throwaway copy) with conf/pam.d/sshd appended as shipped.

ALL="1001 29 44 46 100 2003 3000"
TRIMMED="1001 100 2003 3000"

sshd_start() {
	module_by_name
	policy <<-'EOF'
	version = 1;
	restricting = ( "games-abusers" );
	rules = ( { name = "ssh"; services = "sshd"; drop = [ "audio", "video", "plugdev" ]; } );
	EOF
	mkdir -m 0755 "$T/ssh"
	cp -a /etc/ssh/. "$T/ssh/"
	mount --bind "$T/ssh" /etc/ssh
	ssh-keygen -q -t ed25519 -N '' -f /etc/ssh/dgtest_host_key
	mkdir -m 0755 /etc/ssh/dgtest_keys
	ssh-keygen -q -t ed25519 -N '' -f "$T/alice_key"
	install -m 0644 "$T/alice_key.pub" /etc/ssh/dgtest_keys/alice
	cat > "$T/sshd_config" <<-'EOF'
	ListenAddress 127.0.0.1
	Port 22
	HostKey /etc/ssh/dgtest_host_key
	UsePAM yes
	PubkeyAuthentication yes
	PasswordAuthentication no
	KbdInteractiveAuthentication no
	AuthorizedKeysFile /etc/ssh/dgtest_keys/%u
	PermitRootLogin no
	PidFile /run/sshd.dgtest.pid
	PrintMotd no
	LogLevel VERBOSE
	EOF
	/usr/sbin/sshd -t -f "$T/sshd_config" || fail "sshd rejects the test config"
	/usr/sbin/sshd -f "$T/sshd_config" -E "$T/sshd.log" || fail "sshd did not start"
	for _ in $(seq 100); do
		[ -s /run/sshd.dgtest.pid ] && return 0
		sleep 0.05
	done
	fail "sshd wrote no pid file"
}

# ssh_alice [SSH-OPTION...] -- CMD: log in as alice and run CMD.
ssh_alice() {
	local opts=()
	while [ "$1" != -- ]; do opts+=("$1"); shift; done
	shift
	set +e
	out=$(ssh -F /dev/null -i "$T/alice_key" -o BatchMode=yes \
		-o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null \
		-o LogLevel=ERROR -o ConnectTimeout=10 "${opts[@]}" \
		alice@127.0.0.1 "$@" 2> "$T/ssh.err" < /dev/null | tr -d '\r')
	rc=$?
	set -e
	echo "  ssh ${opts[*]} alice@127.0.0.1 $* -> rc $rc: $out"
	sed 's/^/  ssh stderr: /' "$T/ssh.err"
}

show_sshd_log() {
	sed 's/^/  sshd: /' "$T/sshd.log" | tail -n 20
}

test_sshd_exec_path_trims_the_remote_command_s_groups() {
	sshd_start
	ssh_alice -- id -G
	assert_ids "$out" $ALL
	use_snippet sshd
	ssh_alice -- id -G
	assert_ids "$out" $TRIMMED
	# (the monitor's own pam_setcred logs "dropped no groups": it has none
	# of alice's)
	module_log info | grep -E 'pam_dropgroups\(sshd:setcred\): user "alice", rule "ssh": dropped audio\(29\), video\(44\), plugdev\(46\)$' ||
		fail "no log line names the dropped groups"
}

test_sshd_pty_path_trims_the_remote_shell_s_groups() {
	sshd_start
	ssh_alice -tt -- id -G
	assert_ids "$out" $ALL
	use_snippet sshd
	ssh_alice -tt -- id -G
	assert_ids "$out" $TRIMMED
	# and a process started from the login keeps the trimmed list
	ssh_alice -tt -- sh -c "'sleep 0 & wait; cat /proc/self/status'"
	echo "$out" | grep -q "^Groups:[[:space:]]*100 1001 2003 3000[[:space:]]*$" ||
		fail "a child of the session has other groups"
}

test_sshd_broken_policy_refuses_the_login() {
	sshd_start
	use_snippet sshd
	echo 'version = 1; restricting = ( ); bogus = 1;' | policy
	ssh_alice -- id -G
	[ "$rc" -ne 0 ] || { show_sshd_log; fail "ssh logged in with a broken policy"; }
	[ -z "$out" ] || fail "the remote command ran: $out"
	log_flush
	grep -F "pam_dropgroups(sshd:account)" "$LOG" | grep -qF "$POLICY:1: unknown key \"bogus\"" ||
		fail "no account error line from the module"
	show_sshd_log
}

test_sshd_without_the_account_line_lets_a_broken_policy_through() {
	# Why the sshd snippet has an account line: after a public-key login
	# sshd only logs a failing pam_setcred.  If this ever fails, sshd
	# changed and the docs should follow.
	sshd_start
	echo "auth required pam_dropgroups.so" >> /etc/pam.d/sshd
	echo 'version = 1; restricting = ( ); bogus = 1;' | policy
	ssh_alice -- id -G
	assert_ids "$out" $ALL
}
