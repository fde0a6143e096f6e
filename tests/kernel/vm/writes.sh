# How a value reaches kernel.setgroups_sticky_gids: a value replaces the
# whole list or fails and leaves the list as it was.  A list over 4 KiB
# written by sysctl -w (procps and busybox), by stdio (printf), by echo,
# in write()s of 1 KiB blocks (collected, then taken whole), in pieces
# of 1000, 512 and 7 bytes (refused: the second piece puts back the old
# list), a block that nothing completes, a write at an offset and a
# zero-length write never leave a partial list, and the list in force
# afterwards is the old one or the whole new one.

if [ "$K" = stock ]; then
	skip "writes: the stock kernel has no kernel.setgroups_sticky_gids (checked in sysctl)"
	return 0
fi

# gids 1000..1999, 5000 bytes with the newline, as written and read back
seq 1000 1999 | tr '\n' ' ' > /tmp/list
echo >> /tmp/list
WHOLE=$(seq -s, 1000 1999)
LIST=$(cat /tmp/list)
# old WHAT: the list is still "3"
old() { expect "$1 (list: $(head -c 40 "$STICKY"))" [ "$(cat "$STICKY")" = 3 ]; }
# whole WHAT: the list is the whole new one
whole() { expect "$1 (list: $(head -c 40 "$STICKY")...)" [ "$(cat "$STICKY")" = "$WHOLE" ]; }

set_sticky 3
sysctl.procps -w kernel.setgroups_sticky_gids="$LIST" > /dev/null 2>&1
expect "sysctl -w (procps) of a 5 KB list succeeds" [ "$?" = 0 ]
whole "sysctl -w (procps) of a 5 KB list is taken whole"
set_sticky 3
sysctl -w kernel.setgroups_sticky_gids="$LIST" > /dev/null 2>&1
expect "sysctl -w (busybox, one write without a newline) of a 5 KB list succeeds" [ "$?" = 0 ]
whole "sysctl -w (busybox) of a 5 KB list is taken whole"
set_sticky 3
printf '%s\n' "$WHOLE" > "$STICKY"
expect "printf (stdio) of the list succeeds" [ "$?" = 0 ]
whole "printf (stdio) of the list is taken whole"
set_sticky 3
echo "$LIST" > "$STICKY"
whole "echo of the list is taken whole"

for piece in 1024 2048; do
	set_sticky 3
	piecewrite "$STICKY" "$piece" < /tmp/list > /tmp/out 2>&1
	expect "the list in write()s of $piece bytes succeeds ($(paste -sd' ' < /tmp/out))" [ "$?" = 0 ]
	whole "the list in write()s of $piece bytes is collected and taken whole"
done

for piece in 1000 7; do
	set_sticky 3
	piecewrite "$STICKY" "$piece" < /tmp/list > /tmp/out 2>&1
	expect "the list in write()s of $piece bytes fails ($(head -n2 /tmp/out | paste -sd' '))" [ "$?" = 1 ]
	old "the list in write()s of $piece bytes: the second puts back the old list"
done
set_sticky 3
dd if=/tmp/list of="$STICKY" bs=512 2> /dev/null
expect "dd bs=512 of the list fails" [ "$?" != 0 ]
old "dd bs=512 of the list leaves the list as it was"
# and the old list is the one in force: 3 cannot be dropped, and 1000
# (the first gid of the refused list) can
set_knob 1
steps -n -g 3,1000,1500 "after the refused dd, 3 is sticky and 1000 is not" \
	1000,1500:EPERM 3,1500:ok
set_knob 0

set_sticky 3
head -c 2048 /tmp/list | piecewrite "$STICKY" 2048 > /tmp/out 2>&1
expect "2048 bytes without a newline, and nothing more: the write succeeds" [ "$?" = 0 ]
old "2048 bytes without a newline wait for the rest: nothing is installed"
piecewrite "$STICKY" 0 < /dev/null > /tmp/out 2>&1
expect "a zero-length write succeeds ($(cat /tmp/out))" [ "$?" = 0 ]
old "a zero-length write leaves the list as it was"
echo 4 | piecewrite -o 5 "$STICKY" 100 > /tmp/out 2>&1
expect "a write at offset 5 fails ($(cat /tmp/out))" [ "$?" = 1 ]
old "a write at offset 5 leaves the list as it was"

dd if=/tmp/list of="$STICKY" bs=1M 2>/dev/null
whole "the list in one write (dd bs=1M) is taken whole"

# Short values, as sysctl.d and the project's sync-kernel write them.
sysctl -w kernel.setgroups_sticky_gids="2003,2004" > /dev/null 2>&1
expect "sysctl -w (busybox, no newline) of a short list" [ "$(cat "$STICKY")" = 2003,2004 ]
sysctl.procps -w kernel.setgroups_sticky_gids="8 7" > /dev/null 2>&1
expect "sysctl -w (procps) of a short list" [ "$(cat "$STICKY")" = 7,8 ]
sysctl.procps -w kernel.setgroups_sticky_gids= > /dev/null 2>&1
expect "sysctl -w (procps) of an empty value empties the list" [ -z "$(cat "$STICKY")" ]
rm -f /tmp/list /tmp/out
