#!/bin/sh
# Install the Debian packages that building, testing and the demo need,
# and nothing when they are all present.  Run as root on Debian 12.
set -eu

PACKAGES="
gcc make pkg-config binutils
libpam0g-dev libconfig-dev libcap-dev libcmocka-dev
pamtester libpam-modules libpam-modules-bin
util-linux login bsdutils iproute2 procps
man-db groff-base
"

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
apt-get update -qq
# shellcheck disable=SC2086
apt-get install -y -qq --no-install-recommends $missing
