# tests/lib/sshd.sh: a real sshd for the tests that need one (sourced).
# It listens on 127.0.0.1:22 inside the test's own network namespace,
# with a throwaway /etc/ssh, a fresh host key, and a key for alice.

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
	capture ssh -F /dev/null -i "$T/alice_key" -o BatchMode=yes \
		-o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null \
		-o LogLevel=ERROR -o ConnectTimeout=10 "${opts[@]}" \
		alice@127.0.0.1 "$@" < /dev/null
	out=$(tr -d '\r' < "$T/out") # a pty's line ends
}

show_sshd_log() {
	sed 's/^/  sshd: /' "$T/sshd.log" | tail -n 20
}
