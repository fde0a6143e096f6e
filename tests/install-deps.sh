#!/bin/sh
# Install the Debian packages that building, testing and the demo need,
# and nothing when they are all present.  Run as root on Debian 12.
#   tests/install-deps.sh [PACKAGE...]   these instead of the default list
#
# The directory packages (slapd, nslcd, SSSD) are for tests that run them
# in their own namespaces only.  Installed as they come, they would start
# daemons and rewrite the host's /etc/nsswitch.conf and PAM stacks, so
# the install below preseeds their questions, keeps PAM profiles out of
# the stacks, prints every change the packages made under /etc and
# /var/lib/pam, puts /etc/nsswitch.conf and /etc/pam.d back as they were,
# and fails loudly if that does not hold.
set -eu

PACKAGES="
gcc make pkg-config binutils
libpam0g-dev libconfig-dev libcap-dev libcmocka-dev
pamtester libpam-modules libpam-modules-bin
util-linux login bsdutils iproute2 procps strace
man-db groff-base
sudo openssh-server openssh-client python3
debhelper dpkg-dev lintian fakeroot debootstrap
acl valgrind clang libclang-rt-14-dev clang-tools
slapd ldap-utils
nslcd libnss-ldapd
libnss-sss sssd-common sssd-ldap sssd-tools
cron at ansible libacl1-dev systemd nscd
frama-c-base why3 z3 cvc4 cvc5
"
# (frama-c-base, why3 and the three SMT solvers: make prove, the proof of
# the decision core; tests/prove/run.sh.)
# (nscd: for one test that starts it in its own namespace, where /run is
# private; the policy-rc.d below keeps it from starting on the host, and
# the check at the end says so.  On the host its socket would make glibc
# ask it first, in every test.)
# (SSSD: only the LDAP provider.  The "sssd" metapackage would add the
# AD, IPA and Kerberos providers and the Samba libraries, for nothing.
# sssd-common depends on libpam-sss, and that on libpam-pwquality: their
# PAM profiles are kept out of the host's stacks below.)

[ $# -eq 0 ] || PACKAGES="$*"

missing=""
for p in $PACKAGES; do
	status=$(dpkg-query -W -f='${db:Status-Status}' "$p" 2>/dev/null || true)
	[ "$status" = installed ] || missing="$missing $p"
done
[ -z "$missing" ] && exit 0

if [ "$(id -u)" != 0 ]; then
	echo "install-deps: missing packages:$missing (run as root, or install them)" >&2
	exit 1
fi
echo "install-deps: installing$missing"
export DEBIAN_FRONTEND=noninteractive
# The tests start their own sshd, slapd, nslcd and sssd in private
# namespaces; the packages must not start any on the host.  Deny service
# starts during the install, unless the machine already has its own
# policy-rc.d.
made_policy=
if [ ! -e /usr/sbin/policy-rc.d ]; then
	printf '#!/bin/sh\nexit 101\n' > /usr/sbin/policy-rc.d
	chmod 0755 /usr/sbin/policy-rc.d
	made_policy=1
fi
work=$(mktemp -d /tmp/install-deps.XXXXXX)
trap '[ -z "$made_policy" ] || rm -f /usr/sbin/policy-rc.d; rm -rf "$work"' EXIT

# What the install must leave as it found it.
cp -a /etc/nsswitch.conf "$work/nsswitch.conf"
cp -a /etc/pam.d "$work/pam.d"

# state FILE: every file, link and directory under /etc and /var/lib/pam,
# one line each (path, mode, owner, content hash or link target), to say
# afterwards what a step changed.
state() {
	find /etc /var/lib/pam -xdev -type f -print0 2>/dev/null |
		xargs -0 -r sha256sum 2>/dev/null > "$1.sum" || true
	{
		find /etc /var/lib/pam -xdev -type f -printf '%p %m %u:%g\n' |
			awk 'NR == FNR { sum[$2] = substr($1, 1, 16); next }
			     { print $0, sum[$1] }' "$1.sum" -
		find /etc /var/lib/pam -xdev -type l -printf '%p %m %u:%g ->%l\n'
		find /etc /var/lib/pam -xdev -type d -printf '%p/ %m %u:%g dir\n'
	} 2>/dev/null | sort > "$1"
}

# changes BEFORE AFTER LABEL: print what changed between two states.
changes() {
	awk -v label="$3" '
		NR == FNR { was[$1] = $0; next }
		!($1 in was) { print "install-deps: " label ": added   " $0; next }
		was[$1] != $0 { print "install-deps: " label ": changed " $0 " (was " was[$1] ")" }
		{ delete was[$1] }
		END { for (p in was) print "install-deps: " label ": removed " p }
	' "$1" "$2"
}

# Host daemons (in our own pid namespace: tests run theirs in others).
host_daemons() {
	for pid in $(for d in slapd nslcd sssd sssd_be sssd_nss sssd_pam nscd; do pgrep -x "$d"; done); do
		[ "$(readlink "/proc/$pid/ns/pid" 2>/dev/null)" = "$(readlink /proc/self/ns/pid)" ] &&
			echo "$pid"
	done | sort
	return 0
}
host_daemons > "$work/daemons.before"

# Preseed the questions of the directory packages, for those not yet
# installed: slapd makes no database, libnss-ldapd adds "ldap" to no
# line of /etc/nsswitch.conf, nslcd writes a harmless /etc/nslcd.conf
# (it is not running, and nothing looks it up) instead of guessing one
# from DNS.
preseed() {
	case " $missing " in
	*" slapd "*) echo 'slapd slapd/no_configuration boolean true' ;;
	esac
	case " $missing " in
	*" libnss-ldapd "*)
		echo 'libnss-ldapd libnss-ldapd/nsswitch multiselect'
		echo 'libnss-ldapd libnss-ldapd/clean_nsswitch boolean false'
		;;
	esac
	case " $missing " in
	*" nslcd "*)
		echo 'nslcd nslcd/ldap-uris string ldap://127.0.0.1/'
		echo 'nslcd nslcd/ldap-base string dc=dgtest,dc=invalid'
		echo 'nslcd nslcd/ldap-auth-type select none'
		echo 'nslcd nslcd/ldap-starttls boolean false'
		echo 'nslcd nslcd/ldap-reqcert select never'
		;;
	esac
}
preseed > "$work/preseed"
if [ -s "$work/preseed" ]; then
	sed 's/^/install-deps: preseed /' "$work/preseed"
	debconf-set-selections "$work/preseed"
fi

apt-get update -qq
# Everything this install needs, downloaded into a directory of its own:
# the .debs there are exactly the ones about to be installed.
mkdir -p "$work/archives/partial"
APT="apt-get -y -qq --no-install-recommends -o Dir::Cache::archives=$work/archives"
# shellcheck disable=SC2086
$APT install --download-only $missing

# A PAM profile (/usr/share/pam-configs) that comes with a package is
# added to the host's common-* stacks by the package's own
# "pam-auth-update --package", unless pam-auth-update has seen it before.
# Record each new one as seen, which is what "pam-auth-update --disable"
# records: the stacks stay as they are, now and on later upgrades.
for deb in "$work"/archives/*.deb; do
	[ -e "$deb" ] || continue
	dpkg-deb -c "$deb" | awk '{print $6}' | sed -n 's|^\./usr/share/pam-configs/\(..*\)$|\1|p'
done | sort -u > "$work/profiles"
if [ -s "$work/profiles" ] && [ -f /var/lib/pam/seen ]; then
	for prof in $(cat "$work/profiles"); do
		[ ! -e "/usr/share/pam-configs/$prof" ] || continue
		grep -qx "$prof" /var/lib/pam/seen && continue
		echo "$prof" >> /var/lib/pam/seen
		echo "install-deps: PAM profile $prof: recorded as seen in /var/lib/pam/seen, so that it stays out of the host's stacks"
	done
fi

state "$work/state.0"
step=0
# install LABEL PACKAGE...: one apt-get run, then what it changed.
install() {
	label=$1
	shift
	[ $# -gt 0 ] || return 0
	# shellcheck disable=SC2086
	$APT install "$@"
	step=$((step + 1))
	state "$work/state.$step"
	changes "$work/state.$((step - 1))" "$work/state.$step" "$label"
}

# The directory packages one group at a time, so that each change below
# is printed under the packages that made it.
only() { # only PACKAGE...: those of them that are missing
	for p in "$@"; do
		case " $missing " in *" $p "*) printf '%s ' "$p" ;; esac
	done
}
directory="slapd ldap-utils nslcd libnss-ldapd libnss-sss sssd-common sssd-ldap sssd-tools"
rest=""
for p in $missing; do
	case " $directory " in *" $p "*) ;; *) rest="$rest $p" ;; esac
done
# shellcheck disable=SC2086
install "other packages" $rest
# shellcheck disable=SC2046
install "slapd" $(only slapd ldap-utils)
# shellcheck disable=SC2046
install "nslcd" $(only nslcd libnss-ldapd)
# libnss-sss's preinst leaves a marker that makes its postinst append
# "sss" to the passwd, group, shadow, netgroup, services and automount
# lines of the host's /etc/nsswitch.conf.  Unpack it, drop the marker,
# then configure it: its postinst then only adds an empty "automount:"
# line, which the restore below takes back.
case " $missing " in
*" libnss-sss "*)
	dpkg --unpack "$work"/archives/libnss-sss_*.deb
	if [ -e /etc/nsswitch.conf.nss.libnss-sss-will-install ]; then
		echo "install-deps: libnss-sss: removed its marker /etc/nsswitch.conf.nss.libnss-sss-will-install (it would add sss to the host's nsswitch.conf)"
		rm -f /etc/nsswitch.conf.nss.libnss-sss-will-install
	fi
	dpkg --configure libnss-sss
	step=$((step + 1))
	state "$work/state.$step"
	changes "$work/state.$((step - 1))" "$work/state.$step" "libnss-sss"
	;;
esac
# shellcheck disable=SC2046
install "sssd" $(only sssd-common sssd-ldap sssd-tools)

# Put back what must not change, and prove it.
bad=
if ! cmp -s "$work/nsswitch.conf" /etc/nsswitch.conf; then
	echo "install-deps: the packages changed /etc/nsswitch.conf; restoring it:"
	diff -u "$work/nsswitch.conf" /etc/nsswitch.conf | sed 's/^/install-deps:   /' || true
	cat "$work/nsswitch.conf" > /etc/nsswitch.conf
	cmp -s "$work/nsswitch.conf" /etc/nsswitch.conf || bad="$bad /etc/nsswitch.conf"
fi
# A stack that a package brings for its own program (cron's, atd's) is
# new and stays; a stack that was already there must not change.
for f in /etc/pam.d/*; do
	[ -e "$work/pam.d/${f##*/}" ] || echo "install-deps: new PAM stack $f (from $(dpkg -S "$f" 2>/dev/null | cut -d: -f1)); kept"
done
if ! (cd "$work/pam.d" && for f in *; do cmp -s "$f" "/etc/pam.d/$f" || echo "$f"; done) > "$work/pam.diff" ||
	[ -s "$work/pam.diff" ]; then
	echo "install-deps: the packages changed /etc/pam.d; restoring it:"
	diff -ru "$work/pam.d" /etc/pam.d | grep -v '^Only in /etc/pam.d' | sed 's/^/install-deps:   /' || true
	cp -a "$work/pam.d/." /etc/pam.d/
	(cd "$work/pam.d" && for f in *; do cmp -s "$f" "/etc/pam.d/$f" || exit 1; done) || bad="$bad /etc/pam.d"
fi
host_daemons > "$work/daemons.after"
for pid in $(comm -13 "$work/daemons.before" "$work/daemons.after"); do
	echo "install-deps: a package started $(cat "/proc/$pid/comm" 2>/dev/null) (pid $pid) on the host; stopping it"
	kill "$pid" 2>/dev/null || true
	bad="$bad daemon:$pid"
done
if [ -n "$bad" ]; then
	echo "install-deps: FAILED: the install changed the host:$bad" >&2
	echo "install-deps: compare with the copies in $work (kept)" >&2
	trap '[ -z "$made_policy" ] || rm -f /usr/sbin/policy-rc.d' EXIT
	exit 1
fi
echo "install-deps: /etc/nsswitch.conf and /etc/pam.d are as they were; no slapd, nslcd, sssd or nscd runs on the host"
