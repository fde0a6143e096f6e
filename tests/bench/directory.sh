# tests/bench/directory.sh: what the module adds to one login of a user in
# 2,000 directory groups (tests/lib/directory.sh's bigdave), warm cache.
#
#   make bench-directory [BENCH_RUNS=N] [BENCH_DAEMONS="sss nslcd"]
#
# Runs in the test sandbox (tests/lib/sandbox.sh: private mount, network and
# pid namespaces, throwaway /etc files), never on the host's stacks.  For
# each NSS daemon: slapd and the daemon, one warm-up login of each kind
# (through SSSD that fills its cache; the module's result is checked
# there), then N rounds, each timing, in turn:
#   pamtester open_session, a session stack of pam_permit alone;
#   the same stack with the module before pam_permit, its policy
#     restricting by name (so it names, through NSS, the 2,000 gids it
#     drops), and written with gids only (nothing to look up);
#   su bigdave -c true without and with the shipped snippet: a whole
#     login, with su's own initgroups (what NSS costs a login);
# and prints the median of each (wall and CPU time), the difference to
# the same login without the module, and the ratio.  The setup of each
# kind (its stack and policy) is written before its timing starts.

. "$TOP/tests/lib/directory.sh"

BENCH_RUNS=${BENCH_RUNS:-9}

bench_policy() { # names|gids
	if [ "$1" = names ]; then
		policy <<-'P'
		version = 1;
		restricting = ( "ldap-abusers" );
		rules = ( { services = [ "dgtest", "su" ]; users = "bigdave"; keep = [ "ldap-staff" ]; } );
		P
	else
		policy <<-'P'
		version = 1;
		restricting = ( 6003 );
		rules = ( { services = [ "dgtest", "su" ]; users = "bigdave"; keep = [ 6100 ]; } );
		P
	fi
}

# ms CMD...: run CMD (its output thrown away) and print how long it
# took, in ms: "WALL CPU", CPU being the user and system time of CMD and
# its children (not of the NSS daemons it asks).  On a busy machine the
# wall time varies with the load; the CPU time much less.  Fails if CMD
# failed.
ms() {
	local TIMEFORMAT='%3R %3U %3S' t
	t=$({ time "$@" > /dev/null 2>&1; } 2>&1) || fail "$* failed"
	awk -v t="$t" 'BEGIN { split(t, v, " "); printf "%.1f %.1f\n", v[1] * 1e3, (v[2] + v[3]) * 1e3 }'
}

# median COLUMN: of the numbers in COLUMN of stdin.
median() {
	awk -v c="$1" '{ print $c }' | sort -n | awk '{ v[NR] = $1 } END {
		printf "%.1f", NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# setup_pam none|names|gids, setup_su none|module: the stack and the
# policy for one kind of login, written before its timing starts.
setup_pam() {
	{
		echo "auth required pam_permit.so"
		[ "$1" = none ] || echo "session required $MODULE"
		echo "session required pam_permit.so"
	} > "/etc/pam.d/$SERVICE"
	[ "$1" = none ] || bench_policy "$1"
}

setup_su() {
	cp "$T/su.orig" /etc/pam.d/su
	[ "$1" = none ] || use_snippet su
	bench_policy names
}

# The logins timed.  (They run inside one `setpriv --groups`: setpriv
# looks each of 2,003 numbers up as a group name first, which through
# SSSD costs seconds, and is no part of a login.)
login_pam() { pamtester "$SERVICE" bigdave open_session; }
login_su() { su bigdave -c true; }

bench_one_daemon() {
	local d=$1 kinds="pam:none pam:names pam:gids su:none su:module" k i
	case $d in
	nslcd) nslcd_start ;;
	sss) sssd_start ;;
	*) fail "unknown NSS daemon $d" ;;
	esac
	nsswitch_directory "$d"
	[ -d /home/bigdave ] || mkdir -m 0755 /home/bigdave
	chown 5002:5002 /home/bigdave
	module_by_name
	[ -e "$T/su.orig" ] || cp /etc/pam.d/su "$T/su.orig"
	START=$(bigdave_groups | tr ' ' ',')
	# warm-up: SSSD stores the user, the 2,000 groups and their names;
	# and the module trims as it should
	local t0=$SECONDS
	id bigdave > /dev/null
	for k in names gids; do
		bench_policy "$k"
		stack session success
		run_pam bigdave open_session > /dev/null
		assert_rc 0
		assert_groups 5002 6003 6100 > /dev/null
	done
	BENCH_KINDS=$kinds BENCH_RUNS=1 in_bigdave_groups warmup
	echo "$d: warm-up in $((SECONDS - t0)) s; $BENCH_RUNS interleaved rounds"
	BENCH_KINDS=$kinds in_bigdave_groups "$d"
	local base cbase m c f
	printf '  %-40s %10s %10s %6s %10s %10s %6s\n' "" "wall ms" "+ms" "ratio" "CPU ms" "+ms" "ratio"
	for k in $kinds; do
		f=$T/bench.$d.${k/:/.}
		m=$(median 1 < "$f")
		c=$(median 2 < "$f")
		case $k in *:none) base=$m cbase=$c ;; esac
		printf '  %-40s %10.1f %+10.1f %6s %10.1f %+10.1f %6s\n' "$(label "$k")" \
			"$m" "$(calc "$m - $base")" "x$(calc "$m / $base" 2)" \
			"$c" "$(calc "$c - $cbase")" "x$(calc "$c / $cbase" 2)"
	done
	echo "  wall ms of every run, sorted:"
	for k in $kinds; do
		printf '    %-38s %s\n' "$(label "$k")" "$(awk '{ print $1 }' "$T/bench.$d.${k/:/.}" | sort -n | xargs)"
	done
	if [ "$d" = sss ]; then daemon_stop sssd; else daemon_stop nslcd; fi
}

# in_bigdave_groups NAME: bench_rounds NAME in a shell that has bigdave's
# 2,003 groups (one setpriv for every round).
in_bigdave_groups() {
	# (the script's own functions, in a new bash under setpriv)
	# shellcheck disable=SC2016
	T=$T BENCH_KINDS=$BENCH_KINDS BENCH_RUNS=$BENCH_RUNS \
		setpriv --groups "$START" bash -euo pipefail -c \
		'. "$1/tests/lib/lib.sh"; . "$1/tests/bench/directory.sh"; bench_rounds "$2"' \
		bench "$TOP" "$1"
}

# bench_rounds DAEMON: the timed rounds, in a process that has bigdave's
# groups already.
bench_rounds() {
	local i k
	for i in $(seq "$BENCH_RUNS"); do
		for k in $BENCH_KINDS; do
			"setup_${k%%:*}" "${k#*:}"
			ms "login_${k%%:*}" >> "$T/bench.$1.${k/:/.}"
		done
	done
}

# calc EXPR [DECIMALS]: awk arithmetic.
calc() {
	awk "BEGIN { printf \"%.${2:-1}f\", $1 }"
}

label() {
	case $1 in
	pam:none) echo "pamtester, without the module" ;;
	pam:names) echo "pamtester, module, policy by name" ;;
	pam:gids) echo "pamtester, module, policy by gid" ;;
	su:none) echo "su bigdave -c true, without the module" ;;
	su:module) echo "su bigdave -c true, snippet, by name" ;;
	esac
}

bench_directory() {
	local d
	echo "one login of bigdave (2,003 groups), warm cache: medians of $BENCH_RUNS runs, and the difference and ratio to the run without the module"
	slapd_start
	for d in ${BENCH_DAEMONS:-sss nslcd}; do
		bench_one_daemon "$d"
	done
}
