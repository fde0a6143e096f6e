# tests/lib/directory.sh: a real directory for the tests that need one
# (sourced after lib.sh, inside the test's sandbox).
#
# Everything lives in the test's private mount, network and pid
# namespaces: slapd on 127.0.0.1:389 of the test's own loopback, with a
# throwaway slapd.conf and mdb database in $T; nslcd and SSSD on
# throwaway configs bind-mounted over /etc/nslcd.conf and /etc/sssd, their
# sockets and caches on tmpfs; /etc/nsswitch.conf is the test's own file.
#
#   slapd_start            build the database offline (slapadd), start slapd
#   nslcd_start            nslcd on /run/nslcd/socket
#   sssd_start             sssd, id_provider = ldap, cache in $T
#   nsswitch_directory nslcd|sss   passwd and group: files, then the directory
#   directory_start nslcd|sss      all of the above for one NSS daemon
#
# Outages: slapd_kill (connection refused), slapd_stop / slapd_cont (a
# hung server: SIGSTOP), slapd_restart, slapd_refuse_membership_search
# (every look-up answers but a user's memberships), nslcd_kill, sssd_kill (the
# daemon gone, SIGKILL), sssd_stop (SIGTERM: a clean stop), sssd_offline /
# sssd_online (SIGUSR1 / SIGUSR2), sssd_cache_expire (sss_cache -E),
# sssd_cache_wipe (no cache at all), nss_warm USER (look USER and their
# groups up once).
#
# Every daemon is recorded by pid and stopped when the test ends, passed
# or failed (at_exit in lib.sh); the pid namespace ends any that remain.
#
# The directory (dc=dgtest,dc=invalid), next to the local users of lib.sh:
#   dave     uid 5001, primary group dave 5001
#   bigdave  uid 5002, primary group bigdave 5002, in 2,000 groups
#            big7000 .. big8999 (gids 7000..8999), and ldap-staff
#   ldap-abusers 6003   dave, alice, bigdave   (the restricting group)
#   ldap-staff   6100   dave, alice, bigdave
#   ldap-audio   6101   dave, alice
#   ldap-video   6102   dave, alice
# alice stays the local user of /etc/passwd (uid 1001); the directory
# groups name her, so through nslcd her initgroups list gains 6003 6100
# 6101 6102.  Through SSSD it does not: SSSD's initgroups answers only
# for users of its own domain.
# More entries: dir_group NAME GID MEMBER... before slapd_start.

DIR_BASE="dc=dgtest,dc=invalid"
DIR_ADMIN="cn=admin,$DIR_BASE"
DIR_PW=dgtest-secret
DIR_URI="ldap://127.0.0.1/"
DIR_BIG_FIRST=7000
DIR_BIG_COUNT=2000

# The groups initgroups(3) gives each user once the directory is there.
DAVE_GROUPS="5001 6003 6100 6101 6102"
ALICE_NSLCD_GROUPS="${ALICE_GROUPS:-} 6003 6100 6101 6102"
bigdave_groups() {
	echo 5002 6003 6100 $(seq "$DIR_BIG_FIRST" $((DIR_BIG_FIRST + DIR_BIG_COUNT - 1)))
}

declare -A DAEMON_PID=() DAEMON_AT_EXIT=()
DIR_EXTRA=""

# daemon_started NAME PID: stop it when the test ends.
daemon_started() {
	if [ -z "${DAEMON_AT_EXIT[$1]:-}" ]; then
		at_exit "daemon_stop $1"
		DAEMON_AT_EXIT[$1]=1
	fi
	DAEMON_PID[$1]=$2
	echo "  started $1 (pid $2)"
}

# daemon_stop NAME [SIGNAL]: stop it (default: TERM, then KILL after 3 s)
# and wait for it.  Its whole process group: sssd forks its responders.
daemon_stop() {
	local pid=${DAEMON_PID[$1]:-} sig=${2:-TERM}
	[ -n "$pid" ] || return 0
	kill -CONT -- "-$pid" 2>/dev/null || true
	kill "-$sig" -- "-$pid" 2>/dev/null || true
	for _ in $(seq 60); do
		alive "$pid" || break
		sleep 0.05
	done
	kill -KILL -- "-$pid" 2>/dev/null || true
	DAEMON_PID[$1]=
	echo "  stopped $1 (pid $pid, $sig)"
}

# alive PID: the process runs (a zombie, killed and not yet waited for,
# does not).
alive() {
	local stat
	stat=$(cat "/proc/$1/stat" 2>/dev/null) || return 1
	stat=${stat##*) }
	[ "${stat%% *}" != Z ]
}

# daemon_run NAME LOG CMD...: CMD in the background, in a process group
# of its own (so that its children stop with it).
daemon_run() {
	local name=$1 log=$2
	shift 2
	# (not our code: no sanitizer runtimes from make check-asan in it)
	env -u LD_PRELOAD setsid "$@" > "$log" 2>&1 &
	daemon_started "$name" $!
	# (bash still reaps it, without a "Killed" line in the test's log)
	disown $!
}

# wait_for WHAT CMD...: retry CMD for up to 10 s.
wait_for() {
	local what=$1
	shift
	for _ in $(seq 200); do
		"$@" > /dev/null 2>&1 && return 0
		sleep 0.05
	done
	fail "$what did not come up"
}

# ------------------------------------------------------------------ slapd

# dir_group NAME GID MEMBER...: one more posixGroup (before slapd_start).
dir_group() {
	local name=$1 gid=$2 m
	shift 2
	DIR_EXTRA+="dn: cn=$name,ou=groups,$DIR_BASE
objectClass: posixGroup
cn: $name
gidNumber: $gid
"
	for m in "$@"; do DIR_EXTRA+="memberUid: $m
"; done
	DIR_EXTRA+="
"
}

directory_ldif() {
	cat <<-EOF
	dn: $DIR_BASE
	objectClass: dcObject
	objectClass: organization
	dc: dgtest
	o: dgtest

	dn: ou=people,$DIR_BASE
	objectClass: organizationalUnit
	ou: people

	dn: ou=groups,$DIR_BASE
	objectClass: organizationalUnit
	ou: groups

	EOF
	local u uid
	for u in dave:5001 bigdave:5002; do
		uid=${u#*:}
		u=${u%:*}
		cat <<-EOF
		dn: uid=$u,ou=people,$DIR_BASE
		objectClass: account
		objectClass: posixAccount
		uid: $u
		cn: $u
		uidNumber: $uid
		gidNumber: $uid
		homeDirectory: /home/$u
		loginShell: /bin/bash

		dn: cn=$u,ou=groups,$DIR_BASE
		objectClass: posixGroup
		cn: $u
		gidNumber: $uid

		EOF
	done
	local g
	for g in ldap-abusers:6003:bigdave ldap-staff:6100:bigdave ldap-audio:6101: ldap-video:6102:; do
		IFS=: read -r name gid extra <<< "$g"
		cat <<-EOF
		dn: cn=$name,ou=groups,$DIR_BASE
		objectClass: posixGroup
		cn: $name
		gidNumber: $gid
		memberUid: dave
		memberUid: alice
		EOF
		[ -z "$extra" ] || echo "memberUid: $extra"
		echo
	done
	awk -v base="$DIR_BASE" -v first="$DIR_BIG_FIRST" -v n="$DIR_BIG_COUNT" 'BEGIN {
		for (g = first; g < first + n; g++)
			printf "dn: cn=big%d,ou=groups,%s\nobjectClass: posixGroup\ncn: big%d\ngidNumber: %d\nmemberUid: bigdave\n\n", g, base, g, g
	}'
	printf '%s' "$DIR_EXTRA"
}

slapd_conf() {
	cat <<-EOF
	include /etc/ldap/schema/core.schema
	include /etc/ldap/schema/cosine.schema
	include /etc/ldap/schema/nis.schema
	modulepath /usr/lib/ldap
	moduleload back_mdb
	pidfile $T/slapd/slapd.pid
	argsfile $T/slapd/slapd.args
	loglevel stats
	# a user in 2,000 groups: no size limit on the group searches
	sizelimit unlimited
	database mdb
	maxsize 268435456
	suffix "$DIR_BASE"
	rootdn "$DIR_ADMIN"
	rootpw $DIR_PW
	directory $T/slapd/db
	index objectClass eq
	index uid,cn,memberUid eq
	index uidNumber,gidNumber eq
	access to * by * read
	EOF
}

# slapd_start: the database, built offline (2,000 groups in well under a
# second), then slapd on ldap://127.0.0.1 and ldapi in $T/slapd.
slapd_start() {
	command -v slapadd > /dev/null && [ -d /etc/ldap/schema ] ||
		fail "slapd is not installed (tests/install-deps.sh)"
	mkdir -p "$T/slapd/db"
	slapd_conf > "$T/slapd/slapd.conf"
	directory_ldif > "$T/slapd/data.ldif"
	local t0=$SECONDS
	env -u LD_PRELOAD slapadd -q -f "$T/slapd/slapd.conf" -l "$T/slapd/data.ldif" ||
		fail "slapadd refused the test directory"
	echo "  slapadd: $(grep -c '^dn:' "$T/slapd/data.ldif") entries in $((SECONDS - t0)) s"
	slapd_run
}

slapd_run() {
	local ldapi
	ldapi="ldapi://$(printf '%s' "$T/slapd/ldapi" | sed 's|/|%2F|g')"
	# -d 0: no fork, so the pid is ours; the log goes to $T/slapd/log.
	daemon_run slapd "$T/slapd/log" /usr/sbin/slapd -d 0 \
		-h "$DIR_URI $ldapi" -f "$T/slapd/slapd.conf"
	wait_for slapd env -u LD_PRELOAD ldapsearch -x -H "$DIR_URI" -b "$DIR_BASE" -s base
}

slapd_kill() { daemon_stop slapd KILL; }
slapd_stop() { kill -STOP "${DAEMON_PID[slapd]}"; echo "  slapd stopped (SIGSTOP)"; }
slapd_cont() { kill -CONT "${DAEMON_PID[slapd]}"; echo "  slapd continued"; }
slapd_restart() {
	daemon_stop slapd
	slapd_run
}

# slapd_refuse_membership_search: slapd refuses the search for a user's
# groups ((memberUid=USER), which initgroups makes) with
# adminLimitExceeded, as a directory does when that search hits a limit
# or times out, and keeps answering every look-up of one entry (by name,
# by uid or gid: indexed).  Through nslcd, getgrouplist(3) then gives the
# primary group alone, with errno ENOENT; through SSSD, with no error at
# all.  (The memberUid index goes, and a search that no index narrows
# may look at 50 entries at most: 2,000 groups are more.)
slapd_refuse_membership_search() {
	sed -i 's/^index uid,cn,memberUid eq$/index uid,cn eq/' "$T/slapd/slapd.conf"
	echo 'limits * size.unchecked=50' >> "$T/slapd/slapd.conf"
	slapd_restart
}

# ldap_admin ldapmodify|ldapadd|ldapdelete ARG...: as the rootdn.
ldap_admin() {
	local cmd=$1
	shift
	env -u LD_PRELOAD "$cmd" -x -H "$DIR_URI" -D "$DIR_ADMIN" -w "$DIR_PW" "$@"
}

# ------------------------------------------------------------------ nslcd

# nslcd_start: as root (the sandbox's /etc/passwd has no nslcd user),
# with short limits so an outage costs seconds, not minutes:
#   bind_timelimit / timelimit 2 s: a hung slapd answers nothing in 2 s;
#   reconnect_sleeptime 1, reconnect_retrytime 2: after a failure nslcd
#   tries again within 2 s instead of 10.
nslcd_start() {
	[ -e /etc/nslcd.conf ] || fail "no /etc/nslcd.conf: is nslcd installed (tests/install-deps.sh)?"
	cat > "$T/nslcd.conf" <<-EOF
	uri $DIR_URI
	base $DIR_BASE
	ldap_version 3
	bind_timelimit 2
	timelimit 2
	idle_timelimit 30
	reconnect_sleeptime 1
	reconnect_retrytime 2
	threads 2
	EOF
	chmod 0600 "$T/nslcd.conf"
	mountpoint -q /etc/nslcd.conf || mount --bind "$T/nslcd.conf" /etc/nslcd.conf
	mkdir -p /run/nslcd
	rm -f /run/nslcd/socket /run/nslcd/nslcd.pid
	daemon_run nslcd "$T/nslcd.log" /usr/sbin/nslcd -n
	wait_for nslcd test -S /run/nslcd/socket
}

nslcd_kill() { daemon_stop nslcd KILL; }
nslcd_stop() { daemon_stop nslcd; }

# ------------------------------------------------------------------- sssd

# sssd_start: /etc/sssd and /var/lib/sss (cache, memory cache, sockets)
# are the test's own; the cache stays across sssd_kill / sssd_start in one
# test (that is a warm cache) until sssd_cache_wipe.
#   ldap_*_timeout 2: a hung slapd costs about 2 s a request;
#   offline_timeout 2, no backoff, no random offset: when offline, try
#   the server again every 2 s (the defaults: 60 s, doubling up to an
#   hour, plus up to 30 s at random);
#   entry_negative_timeout 0: no negative cache, so that a name that did
#   not resolve during an outage resolves as soon as the server answers;
#   enumerate = false, as on real sites.
sssd_start() {
	[ -d /etc/sssd ] || fail "no /etc/sssd: is sssd-common installed (tests/install-deps.sh)?"
	if [ ! -d "$T/sss" ]; then
		mkdir -p "$T/sssd/conf.d" "$T/sss" "$T/sssd-log"
		chmod 0711 "$T/sssd"
		cat > "$T/sssd/sssd.conf" <<-EOF
		[sssd]
		config_file_version = 2
		services = nss
		domains = dgtest

		[nss]
		entry_negative_timeout = 0

		[domain/dgtest]
		id_provider = ldap
		auth_provider = none
		ldap_uri = ldap://127.0.0.1
		ldap_search_base = $DIR_BASE
		ldap_schema = rfc2307
		ldap_id_use_start_tls = false
		ldap_tls_reqcert = never
		enumerate = false
		cache_credentials = false
		ldap_network_timeout = 2
		ldap_opt_timeout = 2
		ldap_search_timeout = 2
		ldap_enumeration_search_timeout = 2
		offline_timeout = 2
		offline_timeout_max = 0
		offline_timeout_random_offset = 0
		# Storing 2,000 groups for one initgroups blocks sssd_be for
		# 16-30 s on a loaded machine; its watchdog kills it after three
		# missed 10 s heartbeats, and initgroups then answers the primary
		# group alone.  Give it 3 x 60 s.
		timeout = 60
		EOF
		chmod 0600 "$T/sssd/sssd.conf"
		mount --bind "$T/sssd" /etc/sssd
		mount --bind "$T/sss" /var/lib/sss
		mkdir -p /var/log/sssd
		mount --bind "$T/sssd-log" /var/log/sssd
	fi
	local d
	for d in db mc pipes pipes/private pubconf gpo_cache secrets deskprofile; do
		mkdir -p "/var/lib/sss/$d"
	done
	chmod 0700 /var/lib/sss/db /var/lib/sss/secrets
	chmod 0750 /var/lib/sss/pipes/private
	# (a killed sssd leaves its sockets: wait for the new ones)
	rm -f /run/sssd.pid /var/lib/sss/pipes/nss /var/lib/sss/pipes/private/*
	daemon_run sssd "$T/sssd.log" /usr/sbin/sssd -i --logger=files
	wait_for sssd test -S /var/lib/sss/pipes/nss
	wait_for "sssd's backend" sssd_answers
}

# sssd_answers: the NSS responder answers a look-up (found or not), that
# is, anything but "cannot reach sssd".
sssd_answers() {
	local out
	out=$(SSS_NSS_USE_MEMCACHE=NO "$BUILD/nssprobe" pwnam dg-no-such-user) || return 1
	case $out in *" rc=0("*) return 0 ;; esac
	return 1
}

# sssd_is_online: SSSD reaches slapd (a group it has never cached
# resolves; each call asks for another of the 2,000).
SSSD_PROBE_GID=$((DIR_BIG_FIRST + DIR_BIG_COUNT - 1))
sssd_is_online() {
	SSSD_PROBE_GID=$((SSSD_PROBE_GID - 1))
	SSS_NSS_USE_MEMCACHE=NO "$BUILD/nssprobe" grgid "$SSSD_PROBE_GID" |
		grep -q 'result=found'
}

# sssd_wait_online: after an outage, until SSSD is back online (it
# retries every offline_timeout; SIGUSR2 asks it to now).
sssd_wait_online() {
	local t0=$SECONDS
	for _ in $(seq 100); do
		sssd_is_online && { echo "  sssd online again after $((SECONDS - t0)) s"; return 0; }
		kill -USR2 "${DAEMON_PID[sssd]}" 2>/dev/null || true
		sleep 0.2
	done
	fail "sssd did not go back online"
}

# sssd_kill: SIGKILL to sssd and its responders: the sockets stay, no one
# answers them, and the memory cache (/var/lib/sss/mc) is left as it was.
sssd_kill() { daemon_stop sssd KILL; }
# sssd_stop: a clean stop, as systemctl stop does it: SIGTERM to the
# monitor, which stops its responders.
sssd_stop() {
	local pid=${DAEMON_PID[sssd]:-}
	[ -n "$pid" ] || return 0
	kill -TERM "$pid" 2>/dev/null || true
	for _ in $(seq 100); do
		alive "$pid" || break
		sleep 0.05
	done
	daemon_stop sssd
}
# SSSD's own switch: SIGUSR1 makes it offline until the next retry, that
# is for offline_timeout (2 s): enough for a look-up or two.  For a
# lasting outage, take slapd away (slapd_kill, slapd_stop).
# sssd_online: SIGUSR2, until SSSD really answers from slapd again.
sssd_offline() { kill -USR1 "${DAEMON_PID[sssd]}"; sleep 0.2; }
sssd_online() { sssd_wait_online; }
# sssd_cache_expire: every cached entry out of date (offline, SSSD still
# answers from it).
sssd_cache_expire() { env -u LD_PRELOAD sss_cache -E; }
# sssd_cache_wipe: no cache at all (stops sssd; start it again).
sssd_cache_wipe() {
	daemon_stop sssd
	rm -rf /var/lib/sss/db/* /var/lib/sss/mc/*
}

# ------------------------------------------------------------- nsswitch

# nsswitch_directory nslcd|sss: passwd and group from files, then the
# directory (initgroups follows group).
nsswitch_directory() {
	local src
	case $1 in
	nslcd | ldap) src=ldap ;;
	sss | sssd) src=sss ;;
	*) fail "nsswitch_directory: unknown source $1" ;;
	esac
	# (write through the bind mount of lib.sh: /etc/nsswitch.conf is $T's)
	printf 'passwd: files %s\ngroup: files %s\nshadow: files\ngshadow: files\n' \
		"$src" "$src" > /etc/nsswitch.conf
}

# directory_start nslcd|sss: slapd, the NSS daemon, nsswitch.conf.
# Not under the sanitizer build: what the module does with a directory's
# answers and failures is the same code ASan already runs through the
# fault-injecting NSS module (24-nss-answers.sh, 20-fail-closed.sh);
# these real daemons are about the answers themselves, and they cost the
# sanitizer run a third of its time (CI's budget).
directory_start() {
	skip_under_sanitizers "the real directory tests run in the plain build"
	slapd_start
	case $1 in
	nslcd) nslcd_start ;;
	sss) sssd_start ;;
	*) fail "directory_start: unknown daemon $1" ;;
	esac
	nsswitch_directory "$1"
}

# nss_warm USER: look USER and their groups up once, so that a caching
# daemon has them (SSSD); prints the id -G answer.
nss_warm() {
	id -G "$1"
}

# assert_many_ids GOT WANT...: assert_ids for long lists (2,000 groups):
# prints the count, and on a mismatch only the difference.
assert_many_ids() {
	local got want diff
	got=$(one_per_line "$1" | sort -u)
	shift
	want=$(one_per_line "$@" | sort -u)
	[ -n "$got" ] || fail "the command printed no groups"
	if [ "$got" != "$want" ]; then
		diff=$(comm -3 <(echo "$want") <(echo "$got") |
			sed 's/^\t/+/; s/^\([0-9]\)/-\1/' | xargs | cut -c1-300)
		fail "groups: $(echo "$got" | wc -l) instead of $(echo "$want" | wc -l) (-missing +extra: $diff)"
	fi
	echo "groups: the $(echo "$got" | wc -l) expected"
}

# directory_groups USER: the user's groups as NSS gives them, sorted.
directory_groups() {
	one_per_line "$(id -G "$1")" | sort -n -u | xargs
}
