# Before anything writes the sticky list (this section runs first): the
# knob refuses 1, with EBUSY and a line in the kernel log that says what
# to do, however an administrator sets it: procps' sysctl -w, procps'
# sysctl -p of a sysctl.d file that sets the knob alone, and
# systemd-sysctl, as Debian applies sysctl.d at boot, which must fail
# loudly (it skips a permission error in silence).  The list stays
# never written, for the kselftest's own check, which follows.

if [ "$K" = stock ]; then
	skip "boot: the stock kernel has neither sysctl (checked in sysctl)"
	return 0
fi

expect "at boot the sticky list was never written (an empty line) and the knob is 0" \
	[ "$(cat "$STICKY")/$(cat "$KNOB")" = /0 ]
# refused WHAT RC OUT: the command failed and said "busy", the knob is 0
refused() {
	expect "$1 fails and says why (rc $2: $(echo "$3" | tail -n 1))" \
		sh -c '[ "$0" != 0 ] && echo "$1" | grep -qi "resource busy"' "$2" "$3"
	expect "$1: the knob is still 0" [ "$(cat "$KNOB")" = 0 ]
}
out=$(sysctl.procps -w kernel.setgroups_unprivileged_drop=1 2>&1)
refused "sysctl -w (procps) of the knob before the list" "$?" "$out"
mkdir -p /etc/sysctl.d
echo 'kernel.setgroups_unprivileged_drop = 1' > /etc/sysctl.d/60-dropgroups.conf
out=$(sysctl.procps -p /etc/sysctl.d/60-dropgroups.conf 2>&1)
refused "sysctl -p (procps) of a sysctl.d file with the knob alone" "$?" "$out"
out=$(systemd-sysctl /etc/sysctl.d/60-dropgroups.conf 2>&1)
refused "systemd-sysctl of a sysctl.d file with the knob alone" "$?" "$out"
rm -f /etc/sysctl.d/60-dropgroups.conf
expect "the kernel log says to set the sticky list first" \
	sh -c 'dmesg | grep -q "setgroups_unprivileged_drop: set kernel.setgroups_sticky_gids first"'
expect "the sticky list is still never written" [ -z "$(cat "$STICKY")" ]
