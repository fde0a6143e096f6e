#!/bin/bash
# mkinitramfs.sh OUT.cpio.gz BUILD_DIR WORK_DIR [KSELFTEST]
#
# The kernel-check VM's initramfs: busybox (static), the module and the
# CLI from BUILD_DIR, pamtester, libpam and the PAM modules the test
# stacks use, procps' sysctl (as sysctl.procps: it writes through stdio,
# where busybox's sysctl makes one write), the C helpers (dropsteps,
# asuser, piecewrite, stickyrace, built static here), the series'
# kselftest binary KSELFTEST if given, every shared library those need
# (found with ldd), a test /etc, /init and the sections it runs
# (tests/kernel/vm/).  Everything is owned by root in the archive.
# WORK_DIR is scratch space (outside the repository).
set -euo pipefail

out=${1:?usage: mkinitramfs.sh OUT.cpio.gz BUILD_DIR WORK_DIR [KSELFTEST]}
build=${2:?}
work=${3:?}
kselftest=${4:-}
here=$(cd "$(dirname "$0")" && pwd)
cc=${CC:-gcc}
multiarch=$($cc -print-multiarch)
pamlib=/usr/lib/$multiarch/security

die() { echo "mkinitramfs: $*" >&2; exit 1; }

for f in "$build/pam_dropgroups.so" "$build/dropgroups"; do
	[ -r "$f" ] || die "$f is missing (make all)"
done
# The applet list is captured first: busybox writes it one name per
# write(2), so "busybox --list | grep -q" under pipefail fails whenever
# grep quits at "sh" before busybox has written the rest (SIGPIPE).
if ! [ -x /bin/busybox ] || ! applets=$(/bin/busybox --list) ||
	! grep -qx sh <<< "$applets"; then
	die "/bin/busybox is missing (apt-get install busybox-static)"
fi
ldd /bin/busybox > /dev/null 2>&1 &&
	die "/bin/busybox is dynamically linked; install busybox-static"

rm -rf "$work"
root=$work/root
mkdir -p "$work/helpers" "$root"
chmod 0755 "$root"
(
	cd "$root"
	mkdir -p bin dev proc sys tmp root tests etc/pam.d etc/security/dropgroups.d \
		var/log home/alice usr/bin usr/lib/"$multiarch"/security usr/lib64 \
		usr/local/bin usr/local/sbin usr/local/lib/security
	ln -s usr/lib lib
	ln -s usr/lib64 lib64
	chmod 1777 tmp
	chmod 0700 root
)
# The kernel opens /dev/console for /init before /init can mount devtmpfs.
if [ "$(id -u)" = 0 ]; then
	mknod -m 0600 "$root/dev/console" c 5 1
fi

# busybox, with a link for each applet.
install -m 0755 /bin/busybox "$root/bin/busybox"
for applet in $(/bin/busybox --list); do
	[ -e "$root/bin/$applet" ] || ln -s busybox "$root/bin/$applet"
done

# The C helpers: static, so that they do not depend on the libraries
# below; dropsteps without PIE, for its int $0x80 setgroups16 call.
ccflags="-O2 -Wall -Wextra -Werror -static"
# shellcheck disable=SC2086
$cc $ccflags -no-pie -o "$work/helpers/dropsteps" "$here/dropsteps.c"
for h in asuser piecewrite stickyrace dropto nsmapped; do
	# shellcheck disable=SC2086
	$cc $ccflags -o "$work/helpers/$h" "$here/$h.c"
done
for h in dropsteps asuser piecewrite stickyrace dropto nsmapped; do
	install -m 0755 "$work/helpers/$h" "$root/usr/local/bin/"
done
install -m 0755 "$here/vm/record-groups" "$root/usr/local/bin/record-groups"
if [ -n "$kselftest" ]; then
	install -m 0755 "$kselftest" "$root/usr/local/bin/setgroups_drop"
fi

# The project's module and CLI, pamtester and the PAM modules.
install -m 0644 "$build/pam_dropgroups.so" "$root/usr/local/lib/security/"
install -m 0755 "$build/dropgroups" "$root/usr/local/sbin/"
install -m 0755 /usr/bin/pamtester "$root/usr/bin/"
install -m 0755 /usr/sbin/sysctl "$root/usr/bin/sysctl.procps"
# The other writers of the sticky list that an administrator uses:
# Debian's boot-time sysctl.d (systemd-sysctl), bash's echo and printf.
install -m 0755 /lib/systemd/systemd-sysctl "$root/usr/bin/systemd-sysctl"
install -m 0755 /bin/bash "$root/usr/bin/bash"
# shadow's set-user-ID newuidmap and newgidmap (uidmap), which write a
# user namespace's maps from /etc/subuid and /etc/subgid
for h in newuidmap newgidmap; do
	install -m 4755 "/usr/bin/$h" "$root/usr/bin/$h"
done
for m in pam_permit pam_deny pam_exec; do
	install -m 0644 "$pamlib/$m.so" "$root/usr/lib/$multiarch/security/"
done

# Every shared library they need, at the path the dynamic linker looks
# for it (the archive has /lib -> usr/lib, as a merged-/usr host does).
elves=("$root/usr/local/lib/security/pam_dropgroups.so"
	"$root/usr/local/sbin/dropgroups" "$root/usr/bin/pamtester"
	"$root/usr/bin/sysctl.procps" "$root/usr/bin/systemd-sysctl"
	"$root/usr/bin/bash" "$root/usr/bin/newuidmap" "$root/usr/bin/newgidmap")
for m in "$root/usr/lib/$multiarch/security/"*.so; do elves+=("$m"); done
declare -A seen=()
for elf in "${elves[@]}"; do
	ldd "$elf" > "$work/ldd.out" || die "ldd $elf failed"
	grep -q 'not found' "$work/ldd.out" && die "ldd $elf: $(grep 'not found' "$work/ldd.out")"
	# shellcheck disable=SC2013 # words: the paths, which have no spaces
	for lib in $(grep -o '/[^ ]*' "$work/ldd.out"); do
		[ -z "${seen[$lib]:-}" ] || continue
		seen[$lib]=1
		dir=$(realpath "$(dirname "$lib")")
		mkdir -p "$root$dir"
		cp -L "$lib" "$root$dir/$(basename "$lib")"
	done
done
[ -n "$(ls "$root"/usr/lib64/ld-linux-x86-64.so.* 2>/dev/null)" ] ||
	die "the dynamic linker was not collected"

# The test /etc: users, groups, NSS, the PAM services, the policy.
for f in passwd group nsswitch.conf subuid subgid; do
	install -m 0644 "$here/vm/etc/$f" "$root/etc/$f"
done
for s in dg dg-nnp dg-all dg-plugdev; do
	install -m 0644 "$here/vm/etc/pam.d/dg-service" "$root/etc/pam.d/$s"
done
install -m 0644 "$here/vm/etc/security/dropgroups.conf" "$root/etc/security/dropgroups.conf"
chmod 0755 "$root/etc" "$root/etc/security" "$root/etc/security/dropgroups.d" "$root/etc/pam.d"

install -m 0755 "$here/vm/init" "$root/init"
install -m 0644 "$here"/vm/*.sh "$root/tests/"

(cd "$root" && find . | LC_ALL=C sort | cpio -o -H newc -R 0:0 --quiet) |
	gzip -1 > "$out.tmp"
mv "$out.tmp" "$out"
echo "mkinitramfs: $out ($(du -k "$out" | cut -f1) KiB, $(find "$root" | wc -l) files)" >&2
