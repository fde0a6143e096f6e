# Writers of the sticky list against unprivileged drops and readers
# (stickyrace.c), for $RACE_SECONDS seconds.

if [ "$K" = stock ]; then
	skip "race: the stock kernel has no kernel.setgroups_sticky_gids"
	return 0
fi
set_knob 1
tap "stickyrace $RACE_SECONDS s" 4 stickyrace "$K: race ($RACE_SECONDS s)" "$RACE_SECONDS"
set_knob 0
expect "race: the list is empty afterwards" [ "$(cat "$STICKY")" = none ]
