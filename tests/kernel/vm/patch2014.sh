# The 2014 patch's test sequence (dropsteps.c): as root setgroups(1..5), drop
# to uid 1, then setgroups(2,3,4) and setgroups(1..5) again.  See steps in
# lib.sh.
# shellcheck disable=SC2086 # $SEQ2014_* are lists of steps, split on purpose

SEQ2014_DROPS="2,3,4:ok 1,2,3,4,5:EPERM"
SEQ2014_REFUSED="2,3,4:EPERM 1,2,3,4,5:EPERM"
if [ "$K" = stock ]; then
	steps -n "2014 sequence, no_new_privs" $SEQ2014_REFUSED
	steps "2014 sequence, without no_new_privs" $SEQ2014_REFUSED
	steps -3 -n "2014 sequence via setgroups16, no_new_privs" $SEQ2014_REFUSED
	steps -n -u "2014 sequence in a user namespace with setgroups deny" 1:EPERM :EPERM
	return 0
fi

set_knob 0
steps -n "2014 sequence, knob 0, no_new_privs" $SEQ2014_REFUSED
steps -3 -n "2014 sequence via setgroups16, knob 0, no_new_privs" $SEQ2014_REFUSED
set_knob 1
# The 2014 patch's result: drop 1 and 5, then cannot get them back.  Then: a
# group never held cannot be added, a list with a duplicate is a subset,
# dropping everything is allowed, and nothing comes back.
steps -n "2014 sequence, knob 1, no_new_privs" $SEQ2014_DROPS 2,3,4,6:EPERM 3,3,4:ok :ok 3:EPERM
steps "2014 sequence, knob 1, without no_new_privs" $SEQ2014_REFUSED
steps -3 -n "2014 sequence via setgroups16, knob 1, no_new_privs" $SEQ2014_DROPS
steps -3 "2014 sequence via setgroups16, knob 1, without no_new_privs" $SEQ2014_REFUSED
steps -n -u "2014 sequence in a user namespace with setgroups deny, knob 1, no_new_privs" 1:EPERM :EPERM
set_knob 0
