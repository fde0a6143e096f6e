#!/bin/sh
# install-deps.sh [VERSION...]: install the Debian packages that `make
# kernel-check` needs, and nothing when they are all present, through
# the project's tests/install-deps.sh.  Run as root on Debian 12.  Debian
# packages only: the kernel source is Debian's linux-source-VERSION, one
# per VERSION (default: 6.12).
set -eu

versions=${*:-6.12}
sources=""
for v in $versions; do sources="$sources linux-source-$v"; done

PACKAGES="
$sources
gcc make bc bison flex libelf-dev libssl-dev cpio xz-utils gzip util-linux
libc6-dev binutils pkg-config
qemu-system-x86
procps uidmap
busybox-static
pamtester libpam-modules libpam0g-dev libconfig-dev libcap-dev
codespell python3-ply python3-git
"

# shellcheck disable=SC2086 # one argument per package
exec "$(dirname "$0")/../install-deps.sh" $PACKAGES
