# How a value reaches kernel.setgroups_sticky_gids.  Each write(2) at
# position 0 is a whole value: installed, or refused with EINVAL and the
# list left as it was.  Nothing is kept from one write to the next but
# the file position.  A write of a multiple of 1024 bytes that does not
# end the line (stdio's first block of a longer value looks like that)
# takes one byte and installs nothing, so that the rest, and whatever a
# shell writes after the error, is refused at position 1.  An empty line
# is refused ("none" is the empty list).  Every way the
# documentation shows is tried: sysctl -w (procps, and busybox's), the
# sysctl.d files as procps' sysctl -p and Debian's systemd-sysctl apply
# them at boot, printf and echo (busybox and bash), dd bs=1M, and single
# writes at the edges; `dropgroups sync-kernel` is in the cli section.
# procps' and busybox's sysctl, systemd-sysctl, busybox's echo and dd
# bs=1M write a value in one write(2), of any length (busybox's sysctl,
# without a newline, not of exactly 1024 bytes).  printf (busybox
# and bash) and bash's echo write through stdio: a value of up to 1023
# bytes and its newline works, a longer one fails and leaves the list
# as it was.

if [ "$K" = stock ]; then
	skip "writes: the stock kernel has no kernel.setgroups_sticky_gids (checked in sysctl)"
	return 0
fi

# SHORT: 1023 bytes (gids 10000..10169 and 123), so 1024 with its newline
SHORT="$(seq -s, 10000 10169),123"
SHORT_READ="123,$(seq -s, 10000 10169)"
# LONG: gids 1000..1999 separated by spaces, 4999 bytes (5000 with the
# newline), read back with commas
LONG=$(seq 1000 1999 | paste -sd' ')
LONG_READ=$(seq -s, 1000 1999)
expect "the values are as long as planned (${#SHORT} and ${#LONG} bytes)" \
	[ "${#SHORT}/${#LONG}" = "1023/4999" ]

# old WHAT: the list is still "3"; is WHAT LIST: the list reads LIST
old() { expect "$1 (list: $(head -c 40 "$STICKY"))" [ "$(cat "$STICKY")" = 3 ]; }
is() { expect "$1 (list: $(head -c 40 "$STICKY")...)" [ "$(cat "$STICKY")" = "$2" ]; }

set_sticky 3
sysctl.procps -w kernel.setgroups_sticky_gids="$SHORT" > /dev/null 2>&1
expect "sysctl -w (procps) of 1023 bytes succeeds" [ "$?" = 0 ]
is "sysctl -w (procps) of 1023 bytes is taken whole" "$SHORT_READ"
set_sticky 3
sysctl.procps -w kernel.setgroups_sticky_gids="$LONG" > /dev/null 2>&1
expect "sysctl -w (procps: one write) of 5 KB succeeds" [ "$?" = 0 ]
is "sysctl -w (procps) of 5 KB is taken whole" "$LONG_READ"
set_sticky 3
sysctl -w kernel.setgroups_sticky_gids="$LONG" > /dev/null 2>&1
expect "sysctl -w (busybox: one write, no newline) of 5 KB succeeds" [ "$?" = 0 ]
is "sysctl -w (busybox) of 5 KB is taken whole" "$LONG_READ"
set_sticky 3
sysctl -w kernel.setgroups_sticky_gids="$SHORT," > /dev/null 2>&1
expect "sysctl -w (busybox) of exactly 1024 bytes, no newline, fails" [ "$?" != 0 ]
old "sysctl -w (busybox) of exactly 1024 bytes leaves the list as it was"

# sysctl.d, as procps applies it (sysctl -p, --system): the list, then
# the knob, in one file
mkdir -p /etc/sysctl.d
printf 'kernel.setgroups_sticky_gids = %s\nkernel.setgroups_unprivileged_drop = 1\n' "$SHORT" \
	> /etc/sysctl.d/60-dropgroups.conf
set_sticky 3
sysctl.procps -p /etc/sysctl.d/60-dropgroups.conf > /dev/null 2>&1
expect "sysctl -p (procps) of a sysctl.d file with the list and the knob succeeds" [ "$?" = 0 ]
is "sysctl -p (procps): the list is taken whole" "$SHORT_READ"
expect "sysctl -p (procps): the knob is on" [ "$(cat "$KNOB")" = 1 ]
set_knob 0
# as Debian applies it at boot: systemd-sysctl writes each value in one
# write(2), so a long list works too
printf 'kernel.setgroups_sticky_gids = %s\nkernel.setgroups_unprivileged_drop = 1\n' "$LONG" \
	> /etc/sysctl.d/60-dropgroups.conf
set_sticky 3
systemd-sysctl /etc/sysctl.d/60-dropgroups.conf > /tmp/out 2>&1
expect "systemd-sysctl of a sysctl.d file with a 5 KB list and the knob succeeds ($(head -c 100 /tmp/out))" [ "$?" = 0 ]
is "systemd-sysctl: the 5 KB list is taken whole" "$LONG_READ"
expect "systemd-sysctl: the knob is on" [ "$(cat "$KNOB")" = 1 ]
set_knob 0
rm -f /etc/sysctl.d/60-dropgroups.conf

for sh in sh bash; do
	set_sticky 3
	$sh -c 'printf "%s\n" "$0" > "$1"' "$SHORT" "$STICKY" 2> /dev/null
	expect "printf ($sh) of 1023 bytes succeeds" [ "$?" = 0 ]
	is "printf ($sh) of 1023 bytes is taken whole" "$SHORT_READ"
	set_sticky 3
	$sh -c 'printf "%s\n" "$0" > "$1"' "$LONG" "$STICKY" 2> /dev/null
	expect "printf ($sh) of 5 KB fails" [ "$?" != 0 ]
	old "printf ($sh) of 5 KB leaves the list as it was"
done
# writers that go on after the first block: their last piece comes at
# position 1, and is refused too (LONGC: the list with commas, 2003
# first, so that a tail taken as the list would lose it)
LONGC="2003,$LONG_READ"
for how in "bash printf" "sh printf" "sh printf2" "bash echo-words" "bash echo2"; do
	set_sticky 3
	case $how in
	"bash printf") bash -c 'printf "$0\n" > "$1"' "$LONGC" "$STICKY" ;;
	"sh printf") sh -c 'printf "$0\n" > "$1"' "$LONGC" "$STICKY" ;;
	"sh printf2") sh -c 'printf "%s %s\n" "$0" 1234 > "$1"' "$LONGC" "$STICKY" ;;
	"bash echo-words") bash -c 'echo $0 > "$1"' "2003 $LONG" "$STICKY" ;;
	"bash echo2") bash -c 'echo "$0" 1234 > "$1"' "$LONGC" "$STICKY" ;;
	esac 2> /dev/null
	expect "$how of 5 KB, which goes on writing after the error, fails" [ "$?" != 0 ]
	old "$how of 5 KB: its last piece is refused too, the list is as it was"
done
set_sticky 3
echo "$LONG" > "$STICKY"
expect "echo (busybox sh: one write) of 5 KB succeeds" [ "$?" = 0 ]
is "echo (busybox sh) of 5 KB is taken whole" "$LONG_READ"
set_sticky 3
bash -c 'echo "$0" > "$1"' "$LONG" "$STICKY" 2> /dev/null
expect "echo (bash) of 5 KB fails" [ "$?" != 0 ]
old "echo (bash) of 5 KB leaves the list as it was: it goes on and writes its newline alone, which is refused too"

# single writes at the edges (piecewrite: the input in write()s of N bytes)
set_sticky 3
printf '%s' "$SHORT," | piecewrite "$STICKY" 1024 > /tmp/out 2>&1
expect "one write of exactly 1024 bytes without a newline takes one byte, the rest is refused ($(paste -sd' ' < /tmp/out))" \
	[ "$?/$(head -n 1 /tmp/out)" = "1/write(1024 bytes at 0): 1" ]
old "one write of exactly 1024 bytes without a newline leaves the list as it was"
printf '%s\n' "$SHORT" | piecewrite "$STICKY" 1024 > /tmp/out 2>&1
expect "one write of 1024 bytes ending with a newline succeeds" [ "$?" = 0 ]
is "one write of 1024 bytes ending with a newline is taken whole" "$SHORT_READ"
set_sticky 3
printf '%s\n' "$SHORT,7" | piecewrite "$STICKY" 2048 > /tmp/out 2>&1
is "one write of 1026 bytes is taken whole" "7,$SHORT_READ"
set_sticky 3
printf '%s\n' "$LONG" | piecewrite "$STICKY" 1024 > /tmp/out 2>&1
expect "the 5 KB list in write()s of 1 KiB fails ($(head -n2 /tmp/out | paste -sd' '))" [ "$?" = 1 ]
old "the 5 KB list in write()s of 1 KiB leaves the list as it was"
set_sticky 3
printf '%s\n' "$LONG" | piecewrite "$STICKY" 1000 > /tmp/out 2>&1
expect "the 5 KB list in write()s of 1000 bytes fails at the second ($(head -n2 /tmp/out | paste -sd' '))" [ "$?" = 1 ]
is "the first write of 1000 bytes was a whole value of its own, and is the list (as for uid_map)" \
	"$(seq -s, 1000 1199)"
set_sticky 3
piecewrite "$STICKY" 0 < /dev/null > /tmp/out 2>&1
expect "a zero-length write succeeds ($(cat /tmp/out))" [ "$?" = 0 ]
old "a zero-length write leaves the list as it was"
echo 4 | piecewrite -o 5 "$STICKY" 100 > /tmp/out 2>&1
expect "a write at offset 5 fails ($(cat /tmp/out))" [ "$?" = 1 ]
old "a write at offset 5 leaves the list as it was"
echo > "$STICKY" 2> /dev/null
expect "an empty line is refused" [ "$?" != 0 ]
old "an empty line leaves the list as it was"
# and the old list is the one in force: 3 cannot be dropped, and 1000
# (the first gid of the refused list) can
set_knob 1
steps -n -g 3,1000,1500 "after the refused writes, 3 is sticky and 1000 is not" \
	1000,1500:EPERM 3,1500:ok
set_knob 0

printf '%s\n' "$LONG" > /tmp/list
dd if=/tmp/list of="$STICKY" bs=1M 2> /dev/null
is "the 5 KB list in one write (dd bs=1M) is taken whole" "$LONG_READ"
echo none > "$STICKY"
is "none empties the list" none
rm -f /tmp/list /tmp/out
