#!/bin/bash
# tests/package/root.sh TARBALL: a minimal Debian 12 root made by
# debootstrap, packed as TARBALL, for `make check-package`.  It needs the
# network (deb.debian.org, or DG_DEBIAN_MIRROR), so it runs before the
# tests, which run without one; a TARBALL already there is kept.
set -euo pipefail
tarball=$1
[ -s "$tarball" ] && exit 0
mirror=${DG_DEBIAN_MIRROR:-http://deb.debian.org/debian}
work=$(mktemp -d /tmp/dg-debootstrap.XXXXXX)
trap 'rm -rf "$work"' EXIT
# libconfig9: the package's one dependency minbase lacks;
# openssh-server and -client: the logins the test makes.
debootstrap --variant=minbase \
	--include=libconfig9,openssh-server,openssh-client \
	bookworm "$work/root" "$mirror" > "$work/log" 2>&1 ||
	{ tail -n 20 "$work/log"; exit 1; }
mkdir -p "$(dirname "$tarball")"
tar -C "$work/root" --numeric-owner -cf "$tarball.tmp" .
mv "$tarball.tmp" "$tarball"
