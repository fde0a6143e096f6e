#!/bin/sh
# Install the Debian packages that building, testing and the demo need,
# and nothing when they are all present.  Run as root on Debian 12.
#   tests/install-deps.sh [PACKAGE...]   these instead of the default list
set -eu

PACKAGES="
gcc make pkg-config binutils
libpam0g-dev libconfig-dev libcap-dev libcmocka-dev
pamtester libpam-modules libpam-modules-bin
util-linux login bsdutils iproute2 procps
man-db groff-base
sudo openssh-server openssh-client python3
debhelper dpkg-dev lintian fakeroot
acl valgrind clang libclang-rt-14-dev
"

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
# The tests start their own sshd in a private namespace; the package must
# not start one on the host.  Deny service starts during the install,
# unless the machine already has its own policy-rc.d.
made_policy=
if [ ! -e /usr/sbin/policy-rc.d ]; then
	printf '#!/bin/sh\nexit 101\n' > /usr/sbin/policy-rc.d
	chmod 0755 /usr/sbin/policy-rc.d
	made_policy=1
fi
trap '[ -z "$made_policy" ] || rm -f /usr/sbin/policy-rc.d' EXIT
apt-get update -qq
# shellcheck disable=SC2086
apt-get install -y -qq --no-install-recommends $missing
