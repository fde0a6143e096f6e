#!/bin/bash
# make demo: pam_dropgroups trimming groups through the real su(1).
#
# Runs in a private mount namespace: a demo user exists only there, and
# the su stack is a copy of the host's with one line added.  The host's
# /etc is never written.
set -euo pipefail
TOP=$(cd "$(dirname "$0")/.." && pwd)

if [ "${1:-}" != --inside ]; then
	[ "$(id -u)" = 0 ] || { echo "make demo needs root (it builds a mount namespace)" >&2; exit 1; }
	exec unshare --mount --net --pid --fork --mount-proc -- "$0" --inside
fi

. "$TOP/tests/lib/lib.sh"
sandbox_setup

say() { printf '\n\033[1m== %s\033[0m\n' "$*"; }
run() { printf '$'; printf ' %q' "$@"; echo; "$@"; }

# A demo user in several groups, games-abusers among them.  Appending
# keeps the inode that the bind mount shows as /etc/passwd.
echo 'demo:x:1100:1100:Demo User:/tmp:/bin/sh' >> /etc/passwd
echo 'demo:!:19000:0:99999:7:::' >> /etc/shadow
sed 's/^\(audio\|video\|plugdev\|users\|games-abusers\):\(.*\):\(.*\)$/\1:\2:\3,demo/; $a demo:x:1100:' \
	/etc/group > "$T/group.new"
cat "$T/group.new" > /etc/group

policy <<'EOP'
version = 1;
# Members of games-abusers may not enter /srv/games (chmod 705, group
# games-abusers): dropping that group would let them in.  Never drop it.
restricting = ( "games-abusers" );
rules = (
  { name = "su-sessions"; services = [ "su", "su-l" ]; drop = "*"; }
);
EOP

say "The demo user, as NSS sees them"
run id demo

say "The policy ($POLICY)"
sed 's/^/    /' "$POLICY"
run "$DG" check

say "Baseline: su with the host's stack (a throwaway copy) keeps every group"
run su demo -c id

say "Add one line to the su stack"
line="session required $MODULE"
echo "    $line"
echo "$line" >> /etc/pam.d/su
run su demo -c id

say "The restricting group still restricts: /srv/games is chmod 705, group games-abusers"
mkdir -p "$T/srv/games" && echo "high scores" > "$T/srv/games/scores"
chown root:games-abusers "$T/srv/games" && chmod 705 "$T/srv/games"
mount --bind "$T/srv" /srv
run ls -ld /srv/games
run su demo -c 'cat /srv/games/scores' || echo "(denied, as it must be)"

say "Why: dropgroups explain su demo"
run "$DG" explain su demo

say "What the module logged"
module_log info | sed 's/^<[0-9]*>//'

# The demo proves something, so it checks it too.
after=$(su demo -c 'id -G')
case " $after " in
*" 29 "* | *" 44 "* | *" 100 "*) echo "demo FAILED: groups were not trimmed: $after" >&2; exit 1 ;;
esac
case " $after " in
*" 2003 "*) ;;
*) echo "demo FAILED: the restricting group is gone: $after" >&2; exit 1 ;;
esac
if su demo -c 'cat /srv/games/scores' > /dev/null 2>&1; then
	echo "demo FAILED: demo can read /srv/games" >&2
	exit 1
fi
echo
echo "demo OK: su sessions keep demo(1100) and games-abusers(2003), and drop the rest."
