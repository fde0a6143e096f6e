# The CLI on each kernel: probe reports the kernel's state without
# changing its caller; run trims unprivileged on the patched kernel with
# the knob on, and names the missing support otherwise; sync-kernel
# fills the sticky list from the policy, or says the kernel lacks it.

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
	set_sticky none
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
	steps -n -g 1,2003 "after sync-kernel, sticky games-abusers" 1:EPERM 2003:ok
	set_knob 0
	# a long list (1001 gids, over 5 KB) goes in one write(2), whole;
	# a policy that restricts nothing writes "none"
	{ echo 'version = 1;'; printf 'restricting = ( "games-abusers"'
	  seq 10000 10999 | sed 's/^/, /' | tr -d '\n'; echo ' );'
	  echo 'rules = ( { services = "dg"; drop = ( "audio" ); } );'; } > /etc/security/dg-long.conf
	out=$("$DG" sync-kernel -c /etc/security/dg-long.conf 2>&1)
	rc=$?
	expect "sync-kernel of 1001 gids (rc $rc): the kernel takes the whole list" \
		[ "$rc/$(cat "$STICKY")" = "0/2003,$(seq -s, 10000 10999)" ]
	printf 'version = 1;\nrestricting = ( );\nrules = ( { services = "dg"; drop = ( "audio" ); } );\n' > /etc/security/dg-none.conf
	out=$("$DG" sync-kernel -c /etc/security/dg-none.conf 2>&1)
	rc=$?
	expect "sync-kernel of a policy that restricts nothing writes none (rc $rc, $out)" \
		[ "$rc/$(cat "$STICKY")" = "0/none" ]
	rm -f /etc/security/dg-long.conf /etc/security/dg-none.conf
	set_sticky none
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
