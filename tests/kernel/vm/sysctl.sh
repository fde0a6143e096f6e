# The sysctls: absent on stock; on the patched kernel present, off and
# empty by default, written only with CAP_SYS_ADMIN, and the list's
# syntax.  (How a list arrives is the writes section.)  The kselftest
# ran first and checked the boot values, the knob's refusal before the
# list is written among them; it left the list "none".

if [ "$K" = stock ]; then
	expect "no kernel.setgroups_unprivileged_drop on the stock kernel" [ ! -e "$KNOB" ]
	expect "no kernel.setgroups_sticky_gids on the stock kernel" [ ! -e "$STICKY" ]
	return 0
fi

expect "kernel.setgroups_unprivileged_drop is 0 by default" [ "$(cat "$KNOB")" = 0 ]
expect "kernel.setgroups_sticky_gids is the empty list after the kselftest" [ "$(cat "$STICKY")" = none ]
expect "both sysctls are mode 0644" \
	[ "$(stat -c %a "$KNOB") $(stat -c %a "$STICKY")" = "644 644" ]

# write_as WHO FILE VALUE: write VALUE to FILE as alice or as root
# without CAP_SYS_ADMIN (capability 21); sets $out to the error.
write_as() {
	case $1 in
	alice) out=$(asuser 1000 1000 - -- sh -c "echo '$3' > $2" 2>&1) ;;
	root-without-sys-admin) out=$(asuser -d 21 0 0 - -- sh -c "echo '$3' > $2" 2>&1) ;;
	esac
	out=${out##*: }
}
write_as alice "$KNOB" 1
expect "alice cannot turn the knob on ($out)" [ "$(cat "$KNOB")" = 0 ]
write_as root-without-sys-admin "$KNOB" 1
expect "root without CAP_SYS_ADMIN cannot turn the knob on ($out)" \
	[ "$(cat "$KNOB")/$out" = "0/Operation not permitted" ]
set_knob 1
expect "root turns the knob on" [ "$(cat "$KNOB")" = 1 ]
set_knob 2 2>/dev/null
expect "the knob refuses 2" [ "$(cat "$KNOB")" = 1 ]
set_knob 0
expect "root turns the knob off" [ "$(cat "$KNOB")" = 0 ]

set_sticky "2003 29,2003"
expect "the sticky list reads back sorted, deduplicated, comma-separated ($(cat "$STICKY"))" \
	[ "$(cat "$STICKY")" = "29,2003" ]
for bad in abc 12x -1 4294967295 99999999999 "1;2"; do
	set_sticky "$bad" 2>/dev/null
	expect "the sticky list refuses \"$bad\"" [ "$(cat "$STICKY")" = 29,2003 ]
done
printf '1\n2\n' > "$STICKY" 2>/dev/null
expect "the sticky list refuses two lines" [ "$(cat "$STICKY")" = 29,2003 ]
write_as alice "$STICKY" none
expect "alice cannot empty the sticky list ($out)" [ "$(cat "$STICKY")" = 29,2003 ]
write_as root-without-sys-admin "$STICKY" none
expect "root without CAP_SYS_ADMIN cannot empty the sticky list ($out)" \
	[ "$(cat "$STICKY")/$out" = "29,2003/Operation not permitted" ]
set_sticky "" 2>/dev/null
expect "an empty line is refused" [ "$(cat "$STICKY")" = 29,2003 ]
set_sticky none
expect "none empties the sticky list, and reads back as none" [ "$(cat "$STICKY")" = none ]
# NGROUPS_MAX gids in one write (dd bs=1M: one write(2) of the file),
# ending with the newline that a value of 1 KiB or more needs
{ seq 1 65536 | tr '\n' ' '; echo; } > /tmp/many
dd if=/tmp/many of="$STICKY" bs=1M 2>/dev/null
expect "the sticky list takes NGROUPS_MAX (65536) gids and reads them all back" \
	[ "$(tr ',' '\n' < "$STICKY" | sed -n '1p;$p;$=' | paste -sd' ' 2>/dev/null || true)" = "1 65536 65536" ]
{ seq 1 65537 | tr '\n' ' '; echo; } > /tmp/many
dd if=/tmp/many of="$STICKY" bs=1M 2>/dev/null
expect "the sticky list refuses NGROUPS_MAX + 1 gids" \
	[ "$(tr ',' '\n' < "$STICKY" | wc -l)" = 65536 ]
rm -f /tmp/many
set_sticky none
