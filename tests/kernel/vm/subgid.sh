# The subgid route: alice, with ranges in /etc/subuid and /etc/subgid,
# has the set-user-ID newuidmap and newgidmap write the maps of her new
# user namespace (nsmapped), as rootless containers and unshare
# --map-auto do.  newgidmap leaves its setgroups file at "allow", so root
# of that namespace holds CAP_SETGID there and may call setgroups().  On
# a stock kernel, and on the patched one with nothing sticky, it drops
# games-abusers (2003), mapped or not: the baseline.  With 2003 in
# kernel.setgroups_sticky_gids, the patched kernel refuses any list
# without it, whatever the knob says, and still lets it drop the others.
#
# Maps: uid 0 inside is alice (1000); gid 0 inside is alice (1000), and
# either 2003 is itself (alice:2003:1 in /etc/subgid) or only the
# range 100000.. (1..65536 inside) is mapped, which leaves 2003 out.
MAPPED="0:1000:1,2003:2003:1"
UNMAPPED="0:1000:1,1:100000:65536"

# ns_drop NAME WANT GIDMAP LIST: as alice (no capabilities, no
# no_new_privs: newgidmap is set-user-ID), in a namespace with GIDMAP,
# setgroups(LIST); WANT is "ok" or an error name (EPERM).
ns_drop() {
	out=$(asuser 1000 1000 "$ALICE_GROUPS" -- nsmapped 0:1000:1 "$3" -- \
		sh -c 'echo "setgroups file: $(cat /proc/self/setgroups)"; dropto "$0"' "$4" 2>&1)
	rc=$?
	case $out in
	*"setgroups file: allow"*"setgroups: $2") ok "$1: $(echo "$out" | tail -n 1) (rc $rc)" ;;
	*) notok "$1: want \"setgroups: $2\" in a namespace whose setgroups file says allow, got rc $rc: $(echo "$out" | paste -sd'|')" ;;
	esac
}

if [ "$K" = stock ]; then
	ns_drop "stock: root of alice's subgid namespace drops games-abusers (mapped)" ok "$MAPPED" -
	ns_drop "stock: root of alice's subgid namespace drops games-abusers (unmapped)" ok "$UNMAPPED" -
	return 0
fi

set_sticky none
ns_drop "nothing sticky: root of alice's subgid namespace drops games-abusers, as on stock" ok "$MAPPED" -
set_sticky 2003
for knob in 0 1; do
	set_knob $knob
	ns_drop "sticky 2003, knob $knob: root of the namespace cannot drop games-abusers (mapped)" EPERM "$MAPPED" -
	ns_drop "sticky 2003, knob $knob: root of the namespace cannot drop games-abusers (unmapped)" EPERM "$UNMAPPED" -
	ns_drop "sticky 2003, knob $knob: nor take a mapped gid in its place" EPERM "$UNMAPPED" 1
	ns_drop "sticky 2003, knob $knob: root of the namespace keeps 2003 and drops every other group" ok "$MAPPED" 2003
done
set_knob 0
set_sticky none
