# LSMs on the unprivileged drop.  No LSM is asked whether the drop is
# allowed (it is not a capability check), but security_task_fix_setgroups
# sees the new list, as for every setgroups().  SafeSetID is the one LSM
# with that hook: for a process whose real gid its policy restricts, it
# kills the process (SIGKILL, status 137 to the shell) when the new list
# holds a gid that the policy does not allow, even though the list only
# drops groups.  A process whose gid has no policy is not affected.

SFS=/sys/kernel/security
mount -t securityfs securityfs "$SFS" 2>/dev/null
POLICY=$SFS/safesetid/gid_allowlist_policy
expect "SafeSetID is there, its gid policy writable" [ -w "$POLICY" ]
# alice's gid, 1000, may become only audio (29)
echo "1000:29" > "$POLICY"
expect "SafeSetID policy 1000:29 written" [ "$?" = 0 ]

# as_alice GID LIST: asuser with no_new_privs, gid GID, groups audio and
# video; prints dropto's line and sets $rc
as_alice() { out=$(asuser -n 1000 "$1" 29,44 -- dropto "$2" 2>&1); rc=$?; }

if [ "$K" = stock ]; then
	as_alice 1000 29
	expect "stock, SafeSetID on alice's gid: the drop is refused before any LSM ($out)" \
		[ "$rc/$out" = "1/setgroups: EPERM" ]
else
	set_sticky none
	set_knob 1
	as_alice 1000 29
	expect "SafeSetID on alice's gid: a drop that keeps only audio, which the policy allows, works ($out)" \
		[ "$rc/$out" = "0/setgroups: ok" ]
	as_alice 1000 44
	expect "SafeSetID on alice's gid: a drop that keeps video kills the process (status $rc, \"$out\")" \
		[ "$rc" = 137 ] && [ -z "$out" ]
	as_alice 100 44
	expect "SafeSetID: a process whose gid (100) has no policy drops as without it ($out)" \
		[ "$rc/$out" = "0/setgroups: ok" ]
	set_knob 0
fi
# a policy for a gid nobody has, in place of alice's
echo "4000:4001" > "$POLICY"
