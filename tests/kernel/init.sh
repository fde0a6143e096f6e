#!/bin/sh
# /init of the kernel-check VM (busybox sh, as pid 1, as root).
#
# The kernel command line says which kernel this is: dgkernel=stock or
# dgkernel=patched (the harness knows which image it booted; the checks
# do not guess it from the kernel under test).  Every check prints
# "ok - KERNEL: what" or "not ok - KERNEL: what"; the harness counts
# them.  The last line is "# kernel-check: KERNEL done", then reboot -f
# ends qemu (-no-reboot).  A VM that never prints it has failed.
#
# Sections: sysctls; (a) the seed's test sequence (seedtest); (b) the
# module through pamtester as an unprivileged user; (c) sticky gids;
# (d) the CLI's probe, run and sync-kernel.
#
# shellcheck disable=SC2086 # $SEED_* are lists of steps, split on purpose

export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
umask 022

mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
exec < /dev/console > /dev/console 2>&1

K=unknown
# shellcheck disable=SC2013 # the command line's words
for arg in $(cat /proc/cmdline); do
	case $arg in dgkernel=*) K=${arg#dgkernel=} ;; esac
done
case $K in
stock|patched) ;;
*) echo; echo "not ok - $K: the kernel command line has no dgkernel=stock|patched"; reboot -f ;;
esac

KNOB=/proc/sys/kernel/setgroups_unprivileged_drop
STICKY=/proc/sys/kernel/setgroups_sticky_gids
DG=/usr/local/sbin/dropgroups
LOG=/var/log/messages
ALICE_GROUPS=29,44,46,100,1000,2003 # audio video plugdev users alice games-abusers
ALICE_ALL=29,44,46,100,1000,2003    # the list as the kernel shows it (sorted)
ALICE_TRIMMED=46,100,1000,2003       # without audio and video

syslogd -n -O "$LOG" &
for _ in 1 2 3 4 5 6 7 8 9 10; do [ -S /dev/log ] && break; sleep 0.2; done

echo # the firmware leaves the cursor mid-line
echo "# kernel-check: $K kernel $(uname -r) ($(uname -v))"

ok() { echo "ok - $K: $*"; }
notok() { echo "not ok - $K: $*"; }
# expect WHAT CMD...: ok when CMD succeeds
expect() { what=$1; shift; if "$@"; then ok "$what"; else notok "$what"; fi; }
skip() { echo "# SKIP $K: $*"; }

set_knob() { echo "$1" > "$KNOB"; }
set_sticky() { echo "$1" > "$STICKY"; }

# ---------------------------------------------------------------------
# The sysctls: present and off/empty by default on the patched kernel,
# absent on stock; writes need CAP_SYS_ADMIN; the list's syntax.
# ---------------------------------------------------------------------
if [ "$K" = stock ]; then
	expect "no kernel.setgroups_unprivileged_drop on the stock kernel" [ ! -e "$KNOB" ]
	expect "no kernel.setgroups_sticky_gids on the stock kernel" [ ! -e "$STICKY" ]
else
	expect "kernel.setgroups_unprivileged_drop is 0 by default" [ "$(cat "$KNOB")" = 0 ]
	expect "kernel.setgroups_sticky_gids is empty by default" [ -z "$(cat "$STICKY")" ]
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
	for bad in abc 12x -1 4294967295 99999999999; do
		set_sticky "$bad" 2>/dev/null
		expect "the sticky list refuses \"$bad\"" [ "$(cat "$STICKY")" = 29,2003 ]
	done
	write_as alice "$STICKY" ""
	expect "alice cannot empty the sticky list ($out)" [ "$(cat "$STICKY")" = 29,2003 ]
	write_as root-without-sys-admin "$STICKY" ""
	expect "root without CAP_SYS_ADMIN cannot empty the sticky list ($out)" \
		[ "$(cat "$STICKY")/$out" = "29,2003/Operation not permitted" ]
	set_sticky ""
	expect "an empty line empties the sticky list" [ -z "$(cat "$STICKY")" ]
	# NGROUPS_MAX gids, in one write (dd: one write(2) of the whole file)
	seq 1 65536 | tr '\n' ' ' > /tmp/many
	dd if=/tmp/many of="$STICKY" bs=1M 2>/dev/null
	expect "the sticky list takes NGROUPS_MAX (65536) gids and reads them all back" \
		[ "$(tr ',' '\n' < "$STICKY" | sed -n '1p;$p;$=' | paste -sd' ' 2>/dev/null || true)" = "1 65536 65536" ]
	seq 1 65537 | tr '\n' ' ' > /tmp/many
	dd if=/tmp/many of="$STICKY" bs=1M 2>/dev/null
	expect "the sticky list refuses NGROUPS_MAX + 1 gids" \
		[ "$(tr ',' '\n' < "$STICKY" | wc -l)" = 65536 ]
	rm -f /tmp/many
	set_sticky ""
fi

# ---------------------------------------------------------------------
# (a) The seed's test sequence: as root setgroups(1..5), drop to uid 1,
# then setgroups(2,3,4) and setgroups(1..5) again (seedtest.c).
# ---------------------------------------------------------------------
SEED_DROPS="2,3,4:ok 1,2,3,4,5:EPERM"
SEED_REFUSED="2,3,4:EPERM 1,2,3,4,5:EPERM"
if [ "$K" = stock ]; then
	seedtest -n "$K: seed, no_new_privs" $SEED_REFUSED
	seedtest "$K: seed, without no_new_privs" $SEED_REFUSED
	seedtest -3 -n "$K: seed via setgroups16, no_new_privs" $SEED_REFUSED
	seedtest -n -u "$K: seed in a user namespace with setgroups deny" 1:EPERM :EPERM
else
	set_knob 0
	seedtest -n "$K: seed, knob 0, no_new_privs" $SEED_REFUSED
	seedtest -3 -n "$K: seed via setgroups16, knob 0, no_new_privs" $SEED_REFUSED
	set_knob 1
	# The seed's result: drop 1 and 5, then cannot get them back.  Then:
	# a group never held cannot be added, a list with a duplicate is a
	# subset, dropping everything is allowed, and nothing comes back.
	seedtest -n "$K: seed, knob 1, no_new_privs" $SEED_DROPS \
		2,3,4,6:EPERM 3,3,4:ok :ok 3:EPERM
	seedtest "$K: seed, knob 1, without no_new_privs" $SEED_REFUSED
	seedtest -3 -n "$K: seed via setgroups16, knob 1, no_new_privs" $SEED_DROPS
	seedtest -3 "$K: seed via setgroups16, knob 1, without no_new_privs" $SEED_REFUSED
	seedtest -n -u "$K: seed in a user namespace with setgroups deny, knob 1, no_new_privs" \
		1:EPERM :EPERM
	set_knob 0
fi

# ---------------------------------------------------------------------
# (b) The module through pamtester, run by alice without CAP_SETGID
# (asuser checks that), with or without no_new_privs.  pam_exec records
# the groups after the module; syslogd keeps the module's messages.
# ---------------------------------------------------------------------
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

# Baseline, both kernels: root (CAP_SETGID) trims; that is the stack
# working at all in the VM.
pam_case "module as root with CAP_SETGID" trimmed "$ALICE_TRIMMED" dg root
if [ "$K" = stock ]; then
	pam_case "module as alice, no_new_privs" refused "needs a kernel with subset-setgroups" dg -n
	pam_case "module as alice, policy sets no_new_privs" refused "needs a kernel with subset-setgroups" dg-nnp
	pam_case "module as alice, without no_new_privs" refused "needs a kernel with subset-setgroups" dg
else
	set_knob 0
	pam_case "module as alice, knob 0, no_new_privs" refused "setgroups_unprivileged_drop is 0" dg -n
	pam_case "module as alice, knob 0, policy sets no_new_privs" refused "setgroups_unprivileged_drop is 0" dg-nnp
	set_knob 1
	pam_case "module as alice, knob 1, no_new_privs" trimmed "$ALICE_TRIMMED" dg -n
	expect "module as alice, knob 1, no_new_privs: no capabilities, no_new_privs set" \
		[ "$capeff $nnp" = "0000000000000000 1" ]
	pam_case "module as alice, knob 1, policy sets no_new_privs" trimmed "$ALICE_TRIMMED" dg-nnp
	expect "module as alice, knob 1, policy sets no_new_privs: the module set it" \
		[ "$capeff $nnp" = "0000000000000000 1" ]
	pam_case "module as alice, knob 1, drop \"*\" keeps primary and restricting" \
		trimmed 1000,2003 dg-all -n
	pam_case "module as alice, knob 1, without no_new_privs" refused "needs no_new_privs" dg
	set_knob 0
fi

# ---------------------------------------------------------------------
# (c) Sticky gids: with kernel.setgroups_sticky_gids set, an
# unprivileged drop that removes one fails with EPERM; one that keeps it
# succeeds.  Root (CAP_SETGID) is not bound by the list.
# ---------------------------------------------------------------------
if [ "$K" = stock ]; then
	skip "sticky gids: the stock kernel has no kernel.setgroups_sticky_gids (checked above)"
else
	set_knob 1
	set_sticky 3
	seedtest -n "$K: sticky 3, knob 1, no_new_privs" \
		2,4,5:EPERM 1,3,4:ok 3,4:ok 4:EPERM :EPERM 3:ok
	seedtest -n -g 1,2,4,5 "$K: sticky 3 that the process does not have" 2,4:ok :ok
	set_sticky "7, 3"
	seedtest -n "$K: sticky 3 and 7, knob 1, no_new_privs" 1,2,4,5:EPERM 3:ok
	seedtest -3 -n "$K: sticky 3 via setgroups16" 1,2,4,5:EPERM 3,4:ok
	seedtest -r -g 1,2,3 "$K: sticky 3 does not bind root" 1,2:ok
	set_sticky 46
	pam_case "module as alice, sticky plugdev, rule drops plugdev" refused "setgroups_sticky_gids" dg-plugdev -n
	pam_case "module as alice, sticky plugdev, rule keeps plugdev" trimmed "$ALICE_TRIMMED" dg -n
	set_sticky ""
	set_knob 0
fi

# ---------------------------------------------------------------------
# (d) The CLI on each kernel: probe reports the kernel's state without
# changing its caller; run trims unprivileged on the patched kernel with
# the knob on, and names the missing support otherwise; sync-kernel
# fills the sticky list from the policy, or says the kernel lacks it.
# ---------------------------------------------------------------------
cli_probe() {
	# As alice: what probe reports, and that it changes nothing of hers.
	[ "$K" = patched ] && set_knob "${1:-1}"
	before=$(asuser 1000 1000 "$ALICE_GROUPS" -- sh -c \
		'grep -E "^(Groups|NoNewPrivs|CapEff):" /proc/self/status; "$0" probe > /tmp/probe-out 2>&1; echo "rc=$?"; grep -E "^(Groups|NoNewPrivs|CapEff):" /proc/self/status' "$DG")
	rc=$(echo "$before" | sed -n 's/^rc=//p')
	first=$(echo "$before" | sed -n '1,3p')
	last=$(echo "$before" | sed -n '5,7p')
	if [ "$K" = patched ]; then label="probe as alice (knob ${1:-1})"; else label="probe as alice"; fi
	expect "$label: the caller's groups, capabilities and no_new_privs are unchanged" \
		[ "$first" = "$last" ]
	if [ "$K" = stock ]; then
		expect "$label: exit 1, sysctls absent, drops refused" sh -c \
			'[ "$0" = 1 ] && grep -q "^kernel.setgroups_unprivileged_drop: absent" /tmp/probe-out &&
			 grep -q "^unprivileged drop with no_new_privs: refused" /tmp/probe-out &&
			 grep -q "needs a kernel with subset-setgroups" /tmp/probe-out' "$rc"
	elif [ "${1:-1}" = 1 ]; then
		expect "$label: exit 0, knob 1, allowed only under no_new_privs" sh -c \
			'[ "$0" = 0 ] && grep -q "^kernel.setgroups_unprivileged_drop: 1" /tmp/probe-out &&
			 grep -q "^unprivileged drop without no_new_privs: refused" /tmp/probe-out &&
			 grep -q "^unprivileged drop with no_new_privs: allowed" /tmp/probe-out' "$rc"
	else
		expect "$label: exit 1, knob 0 named" sh -c \
			'[ "$0" = 1 ] && grep -q "^kernel.setgroups_unprivileged_drop: 0" /tmp/probe-out &&
			 grep -q "setgroups_unprivileged_drop is 0" /tmp/probe-out' "$rc"
	fi
	[ "$rc" = 0 ] || [ "$rc" = 1 ] || sed 's/^/#   /' /tmp/probe-out
	[ "$K" = patched ] && set_knob 0
}

# cli_run NAME trimmed|refused ARG SERVICE: "dropgroups run" as alice
# without CAP_SETGID; trimmed: the command runs with groups ARG and
# no_new_privs; refused: it does not run, and the error names ARG.
cli_run() {
	name=$1 want=$2 arg=$3 svc=$4
	rm -f /tmp/run-groups
	out=$(asuser 1000 1000 "$ALICE_GROUPS" -- "$DG" run -s "$svc" -- \
		sh -c 'grep -E "^(Groups|NoNewPrivs|CapEff):" /proc/self/status > /tmp/run-groups' 2>&1)
	rc=$?
	groups=$(sed -n 's/^Groups:[[:space:]]*//p' /tmp/run-groups 2>/dev/null | tr -s ' \t' ',' | sed 's/,$//')
	nnp=$(sed -n 's/^NoNewPrivs:[[:space:]]*//p' /tmp/run-groups 2>/dev/null)
	case $want in
	trimmed)
		expect "run $name: rc $rc, groups $groups, NoNewPrivs $nnp" \
			test "$rc" = 0 -a "$groups" = "$arg" -a "$nnp" = 1 ;;
	refused)
		case $out in
		*"$arg"*) ok "run $name: refused (rc $rc): $out" ;;
		*) notok "run $name: want a refusal naming \"$arg\", got rc $rc: $out" ;;
		esac
		expect "run $name: the command did not run" [ ! -e /tmp/run-groups ] ;;
	esac
}

cli_sync_kernel() {
	out=$("$DG" sync-kernel 2>&1)
	rc=$?
	if [ "$K" = stock ]; then
		case "$rc $out" in
		"1 "*"lacks kernel.setgroups_sticky_gids"*) ok "sync-kernel explains the missing sysctl: $out" ;;
		*) notok "sync-kernel on stock: rc $rc: $out" ;;
		esac
		return
	fi
	set_sticky ""
	out=$("$DG" sync-kernel 2>&1)
	rc=$?
	expect "sync-kernel as root fills the sticky list from the policy (rc $rc, list $(cat "$STICKY"))" \
		test "$rc" = 0 -a "$(cat "$STICKY")" = 2003
	out=$(asuser 1000 1000 "$ALICE_GROUPS" -- "$DG" sync-kernel 2>&1)
	rc=$?
	expect "sync-kernel as alice fails (rc $rc)" [ "$rc" != 0 ]
	# and the kernel now refuses an unprivileged drop of games-abusers,
	# whatever the program (the module itself never drops it)
	set_knob 1
	seedtest -n -g 1,2003 "$K: after sync-kernel, sticky games-abusers" 1:EPERM 2003:ok
	set_knob 0
	set_sticky ""
}

cli_probe
if [ "$K" = patched ]; then
	cli_probe 0
	set_knob 1
	cli_run "knob 1" trimmed "$ALICE_TRIMMED" dg
	set_knob 0
	cli_run "knob 0" refused "setgroups_unprivileged_drop is 0" dg
else
	cli_run "stock kernel" refused "needs a kernel with subset-setgroups" dg
fi
cli_sync_kernel

echo "# kernel-check: $K done"
sync
reboot -f
