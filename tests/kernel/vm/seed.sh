# The seed's test sequence (seedtest.c): as root setgroups(1..5), drop
# to uid 1, then setgroups(2,3,4) and setgroups(1..5) again.  See seed in
# lib.sh.
# shellcheck disable=SC2086 # $SEED_* are lists of steps, split on purpose

SEED_DROPS="2,3,4:ok 1,2,3,4,5:EPERM"
SEED_REFUSED="2,3,4:EPERM 1,2,3,4,5:EPERM"
if [ "$K" = stock ]; then
	seed -n "seed, no_new_privs" $SEED_REFUSED
	seed "seed, without no_new_privs" $SEED_REFUSED
	seed -3 -n "seed via setgroups16, no_new_privs" $SEED_REFUSED
	seed -n -u "seed in a user namespace with setgroups deny" 1:EPERM :EPERM
	return 0
fi

set_knob 0
seed -n "seed, knob 0, no_new_privs" $SEED_REFUSED
seed -3 -n "seed via setgroups16, knob 0, no_new_privs" $SEED_REFUSED
set_knob 1
# The seed's result: drop 1 and 5, then cannot get them back.  Then: a
# group never held cannot be added, a list with a duplicate is a subset,
# dropping everything is allowed, and nothing comes back.
seed -n "seed, knob 1, no_new_privs" $SEED_DROPS 2,3,4,6:EPERM 3,3,4:ok :ok 3:EPERM
seed "seed, knob 1, without no_new_privs" $SEED_REFUSED
seed -3 -n "seed via setgroups16, knob 1, no_new_privs" $SEED_DROPS
seed -3 "seed via setgroups16, knob 1, without no_new_privs" $SEED_REFUSED
seed -n -u "seed in a user namespace with setgroups deny, knob 1, no_new_privs" 1:EPERM :EPERM
set_knob 0
