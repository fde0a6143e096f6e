# shellcheck shell=sh
# The VM's /tests/lib.sh: sourced by every section of the kernel-check
# VM (busybox sh).  $K is the kernel (stock or patched).
#
#   ok WHAT / notok WHAT     one check: "ok - K: WHAT", "not ok - K: WHAT"
#   expect WHAT CMD...       ok when CMD succeeds
#   skip WHAT                "# SKIP K: WHAT" (not a check)
#   tap NAME PLAN CMD...     run a program that prints TAP lines itself:
#                            prints "# plan NAME PLAN", its output, and a
#                            "not ok" when it printed another number of
#                            results than PLAN or exited non-zero
#   steps ...                 dropsteps with its plan (below)
#   set_knob V / set_sticky LIST
#   pam_case ...             the module through pamtester (below)

# shellcheck disable=SC2034 # for the sections that source this file
KNOB=/proc/sys/kernel/setgroups_unprivileged_drop
STICKY=/proc/sys/kernel/setgroups_sticky_gids
DG=/usr/local/sbin/dropgroups
LOG=/var/log/messages
ALICE_GROUPS=29,44,46,100,1000,2003 # audio video plugdev users alice games-abusers
ALICE_ALL=29,44,46,100,1000,2003    # the list as the kernel shows it (sorted)
ALICE_TRIMMED=46,100,1000,2003       # without audio and video

ok() { echo "ok - $K: $*"; }
notok() { echo "not ok - $K: $*"; }
expect() { _what=$1; shift; if "$@"; then ok "$_what"; else notok "$_what"; fi; }
skip() { echo "# SKIP $K: $*"; }

tap() {
	_name=$1 _plan=$2
	shift 2
	echo "# plan $_name $_plan"
	"$@" > /tmp/tap.out 2>&1
	_rc=$?
	cat /tmp/tap.out
	_n=$(grep -cE '^(not )?ok ' /tmp/tap.out)
	[ "$_n" = "$_plan" ] || notok "$_name: $_n results, where the plan is $_plan"
	[ "$_rc" = 0 ] || notok "$_name: exit status $_rc"
	return "$_rc"
}

# steps [-n] [-u] [-3] [-r] [-g START] NAME STEP...: dropsteps, whose plan
# is one check for the setup, one for entering the user namespace (-u),
# and one per STEP.
# shellcheck disable=SC2086 # $_args: options, split on purpose
steps() {
	_plan=1 _args=""
	while [ $# -gt 0 ]; do
		case $1 in
		-u) _plan=$((_plan + 1)); _args="$_args $1" ;;
		-g) _args="$_args $1 $2"; shift ;;
		-*) _args="$_args $1" ;;
		*) break ;;
		esac
		shift
	done
	_name=$1
	shift
	tap "dropsteps $_name" $((_plan + $#)) dropsteps $_args "$K: $_name" "$@"
}

set_knob() { echo "$1" > "$KNOB"; }
set_sticky() { echo "$1" > "$STICKY"; }

# pam_case NAME trimmed GROUPS SERVICE [root] [ASUSER_OPTION...]
#   pamtester succeeds, and the process has GROUPS afterwards
# pam_case NAME refused CAUSE SERVICE [root] [ASUSER_OPTION...]
#   pamtester fails, the groups are untouched, and the module's log line
#   says that the process lacks CAP_SETGID and names CAUSE (a word for
#   what the kernel lacks: subset-setgroups, a sysctl, no_new_privs)
# As alice (uid 1000, gid 1000, $ALICE_GROUPS), or as root with "root".
pam_case() {
	name=$1 want=$2 arg=$3 svc=$4
	shift 4
	uid=1000
	if [ "${1:-}" = root ]; then uid=0; shift; fi
	rm -f /tmp/pam-groups
	mark=$(wc -l < "$LOG")
	asuser "$@" "$uid" 1000 "$ALICE_GROUPS" -- \
		pamtester "$svc" alice open_session close_session > /tmp/pam-out 2>&1
	rc=$?
	groups=$(sed -n 's/^Groups:[[:space:]]*//p' /tmp/pam-groups 2>/dev/null |
		 tr -s ' \t' ',' | sed 's/,$//')
	capeff=$(sed -n 's/^CapEff:[[:space:]]*//p' /tmp/pam-groups 2>/dev/null)
	nnp=$(sed -n 's/^NoNewPrivs:[[:space:]]*//p' /tmp/pam-groups 2>/dev/null)
	msg=""
	for _ in 1 2 3 4 5 6 7 8 9 10; do
		msg=$(tail -n +"$((mark + 1))" "$LOG" | grep 'pam_dropgroups' | head -n 1)
		[ -n "$msg" ] || [ "$want" = trimmed ] || { sleep 0.2; continue; }
		break
	done
	msg=${msg#*pamtester: }
	what="$name: pamtester rc $rc, groups $groups, CapEff $capeff, NoNewPrivs $nnp"
	case $want in
	trimmed)
		if [ "$rc" = 0 ] && [ "$groups" = "$arg" ]; then ok "$what"; else
			notok "$what (want rc 0, groups $arg)"
			sed 's/^/#   /' /tmp/pam-out; echo "#   log: $msg"
		fi ;;
	refused)
		if [ "$rc" != 0 ] && [ "$groups" = "$ALICE_ALL" ]; then ok "$what"; else
			notok "$what (want failure, groups $ALICE_ALL)"
			sed 's/^/#   /' /tmp/pam-out
		fi
		case $msg in
		*"lacks CAP_SETGID"*"$arg"*)
			ok "$name: the module names the cause ($arg): $msg" ;;
		*)
			notok "$name: the module's log line says it lacks CAP_SETGID and names \"$arg\": got \"$msg\"" ;;
		esac ;;
	esac
	# The unprivileged runs must really have been unprivileged.
	if [ "$uid" != 0 ] && [ -n "$capeff" ] && [ "$capeff" != 0000000000000000 ]; then
		notok "$name: pamtester ran with capabilities $capeff"
	fi
}
