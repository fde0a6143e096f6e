#!/bin/bash
# check-series.sh: each patch of kernel/series, applied in order with
# patch -p1 to Debian's linux-source-6.1, must build on its own.
#
# For each prefix 0001, 0001+0002, ...: build the VM's bzImage
# (tinyconfig + kernel.config: sysctls, user namespaces, setgroups16),
# and kernel/groups.o in a second config without sysctl, /proc, user
# namespaces or the 16-bit syscalls, so that the #ifdefs are exercised.
# Any compiler warning in the files the series touches fails the check.
# Trees, objects and logs are in $KERNEL_CACHE/series-check/; the
# pristine tree comes from build-kernel.sh's cache.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
cache=${KERNEL_CACHE:-$( [ "$(id -u)" = 0 ] && echo /var/cache/dropgroups-kernel || echo "${XDG_CACHE_HOME:-$HOME/.cache}/dropgroups-kernel")}
jobs=${KERNEL_JOBS:-$(nproc)}
work=$cache/series-check

# The pristine tree, extracted by build-kernel.sh (once per version).
pristine=$("$here/build-kernel.sh" source)

patches=()
while read -r p; do
	case $p in ''|'#'*) continue ;; esac
	patches+=("$top/kernel/$p")
done < "$top/kernel/series"

exec 9> "$cache/build.lock"
flock 9
mkdir -p "$work"
src=$work/src
rm -rf "$src"
cp -a "$pristine" "$src"
# Objects may be left from an earlier run with more patches applied:
# make every file the series touches newer than them.
touched=$(sed -n 's|^+++ b/||p' "${patches[@]}" | sort -u)
for f in $touched; do [ -e "$src/$f" ] && touch "$src/$f"; done

configure() { # configure OBJDIR FRAGMENT...
	local obj=$1
	shift
	mkdir -p "$obj"
	make -C "$src" O="$obj" ARCH=x86_64 tinyconfig
	"$src/scripts/kconfig/merge_config.sh" -m -O "$obj" "$obj/.config" "$@"
	make -C "$src" O="$obj" ARCH=x86_64 olddefconfig
}
printf 'CONFIG_64BIT=y\nCONFIG_MULTIUSER=y\n' > "$work/minimal.config"

warnings() { # warnings LOG: compiler warnings in the touched files
	local re
	re=$(echo "$touched" | grep '\.[ch]$' | sed 's/\./\\./g' | paste -sd'|')
	grep -E "($re):[0-9]+:[0-9]+: (warning|error)" "$1" || true
}

status=0
i=0
for p in "${patches[@]}"; do
	i=$((i + 1))
	name=$(basename "$p")
	log=$work/$(printf '%02d' "$i").log
	if ! patch -p1 -d "$src" --forward --batch --quiet < "$p" > "$log" 2>&1; then
		echo "not ok - $name does not apply after the ones before it (see $log)"
		status=1
		break
	fi
	start=$(date +%s)
	if { configure "$work/obj-vm" "$here/kernel.config" &&
	     make -C "$src" O="$work/obj-vm" ARCH=x86_64 -j"$jobs" bzImage; } >> "$log" 2>&1 &&
	   [ -z "$(warnings "$log")" ]; then
		echo "ok - with patches 1..$i ($name): the VM kernel builds, no warnings ($(( $(date +%s) - start )) s)"
	else
		echo "not ok - with patches 1..$i ($name): the VM kernel does not build cleanly (see $log)"
		warnings "$log"
		status=1
	fi
	start=$(date +%s)
	if { configure "$work/obj-minimal" "$work/minimal.config" &&
	     make -C "$src" O="$work/obj-minimal" ARCH=x86_64 -j"$jobs" kernel/groups.o; } >> "$log" 2>&1 &&
	   [ -z "$(warnings "$log")" ] &&
	   ! grep -qE '^CONFIG_(SYSCTL|USER_NS|UID16)=y' "$work/obj-minimal/.config"; then
		echo "ok - with patches 1..$i ($name): kernel/groups.o builds without SYSCTL, USER_NS and UID16 ($(( $(date +%s) - start )) s)"
	else
		echo "not ok - with patches 1..$i ($name): kernel/groups.o without SYSCTL, USER_NS and UID16 (see $log)"
		warnings "$log"
		status=1
	fi
done
exit $status
