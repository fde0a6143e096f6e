# Sticky gids: with kernel.setgroups_sticky_gids set, an unprivileged
# drop that removes one fails with EPERM; one that keeps it succeeds.
# Root (CAP_SETGID) is not bound by the list.

if [ "$K" = stock ]; then
	skip "sticky gids: the stock kernel has no kernel.setgroups_sticky_gids (checked in sysctl)"
	return 0
fi

set_knob 1
set_sticky 3
steps -n "sticky 3, knob 1, no_new_privs" 2,4,5:EPERM 1,3,4:ok 3,4:ok 4:EPERM :EPERM 3:ok
steps -n -g 1,2,4,5 "sticky 3 that the process does not have" 2,4:ok :ok
set_sticky "7, 3"
steps -n "sticky 3 and 7, knob 1, no_new_privs" 1,2,4,5:EPERM 3:ok
steps -3 -n "sticky 3 via setgroups16" 1,2,4,5:EPERM 3,4:ok
steps -r -g 1,2,3 "sticky 3 does not bind root" 1,2:ok
set_sticky 46
pam_case "module as alice, sticky plugdev, rule drops plugdev" refused "setgroups_sticky_gids" dg-plugdev -n
pam_case "module as alice, sticky plugdev, rule keeps plugdev" trimmed "$ALICE_TRIMMED" dg -n
set_sticky none
set_knob 0
