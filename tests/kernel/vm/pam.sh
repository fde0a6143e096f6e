# The module through pamtester, run by alice without CAP_SETGID (asuser
# checks that), with or without no_new_privs.  pam_exec records the
# groups after the module; syslogd keeps the module's messages.  See
# pam_case in lib.sh.
# shellcheck disable=SC2154 # $capeff and $nnp: set by pam_case

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
