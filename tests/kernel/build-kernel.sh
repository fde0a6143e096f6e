#!/bin/bash
# build-kernel.sh stock|patched|source
#
# Print the path of a minimal x86_64 bzImage built from Debian's
# linux-source-6.1: "stock" as shipped, "patched" with the series in
# kernel/ (kernel/series gives the order) applied with patch -p1.  The
# config is `make tinyconfig` plus tests/kernel/kernel.config.
# "source" only extracts the pristine tree, and prints its path.
#
# Kernels are cached outside the tree, in $KERNEL_CACHE (default
# /var/cache/dropgroups-kernel for root, else
# ${XDG_CACHE_HOME:-~/.cache}/dropgroups-kernel), under kernels/FLAVOUR-KEY/, where KEY
# hashes everything that goes into the image: the linux-source-6.1
# package version, the compiler, kernel.config, this script, and for
# "patched" the series and every patch in it.  A cached kernel is
# returned at once; otherwise it is built (a few minutes on 2 cores),
# incrementally when an earlier build of the same flavour left its
# objects in obj/FLAVOUR.  Each kernel directory keeps bzImage, config
# and build.log.
set -euo pipefail

flavour=${1:?usage: build-kernel.sh stock|patched|source}
case $flavour in stock|patched|source) ;; *) echo "build-kernel.sh: unknown flavour $flavour" >&2; exit 2 ;; esac

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
cache=${KERNEL_CACHE:-$( [ "$(id -u)" = 0 ] && echo /var/cache/dropgroups-kernel || echo "${XDG_CACHE_HOME:-$HOME/.cache}/dropgroups-kernel")}
tarball=/usr/src/linux-source-6.1.tar.xz
fragment=$here/kernel.config
seriesdir=$top/kernel
jobs=${KERNEL_JOBS:-$(nproc)}

say() { echo "build-kernel: $*" >&2; }
die() { say "$*"; exit 1; }

[ -r "$tarball" ] || die "$tarball is missing (apt-get install linux-source-6.1)"
srcver=$(dpkg-query -W -f='${Version}' linux-source-6.1)

# The patches, in order: kernel/series, one file name a line, # comments.
patches=()
if [ "$flavour" = patched ]; then
	[ -r "$seriesdir/series" ] || die "$seriesdir/series is missing"
	while read -r p; do
		case $p in ''|'#'*) continue ;; esac
		[ -r "$seriesdir/$p" ] || die "kernel/series names $p, which is missing"
		patches+=("$seriesdir/$p")
	done < "$seriesdir/series"
	[ ${#patches[@]} -gt 0 ] || die "kernel/series lists no patch"
fi

key=$({
	echo "linux-source-6.1 $srcver"
	${CC:-gcc} --version | head -n1
	echo "flavour $flavour"
	sha256sum < "$fragment"
	sha256sum < "$0"
	for p in ${patches[@]+"${patches[@]}"}; do
		echo "patch $(basename "$p")"
		sha256sum < "$p"
	done
} | sha256sum | cut -c1-16)
out=$cache/kernels/$flavour-$key

if [ "$flavour" != source ] && [ -s "$out/bzImage" ]; then
	echo "$out/bzImage"
	exit 0
fi

mkdir -p "$cache/kernels" "$cache/src" "$cache/obj"
exec 9> "$cache/build.lock"
flock 9
if [ "$flavour" != source ] && [ -s "$out/bzImage" ]; then # built by another run while we waited
	echo "$out/bzImage"
	exit 0
fi

# The pristine tree, extracted once per package version.
stock=$cache/src/linux-source-6.1-$srcver
if [ ! -e "$stock/.dg-extracted" ]; then
	say "extracting $tarball"
	rm -rf "$stock" "$stock.tmp"
	mkdir -p "$stock.tmp"
	tar -C "$stock.tmp" -xf "$tarball"
	mv "$stock.tmp/linux-source-6.1" "$stock"
	rmdir "$stock.tmp"
	touch "$stock/.dg-extracted"
fi
if [ "$flavour" = source ]; then
	echo "$stock"
	exit 0
fi

if [ "$flavour" = stock ]; then
	src=$stock
else
	# One patched tree, reused: undo the files the previous series
	# touched (copy them back from the pristine tree, with a new mtime
	# so that make rebuilds what uses them), then apply this series.
	src=$cache/src/patched
	if [ ! -e "$src/.dg-base" ] || [ "$(cat "$src/.dg-base")" != "$srcver" ]; then
		say "copying the pristine tree to $src"
		rm -rf "$src"
		cp -a "$stock" "$src"
		echo "$srcver" > "$src/.dg-base"
		: > "$src/.dg-touched"
	fi
	while read -r f; do
		[ -n "$f" ] || continue
		if [ -e "$stock/$f" ]; then
			cp "$stock/$f" "$src/$f"
		else
			rm -f "$src/$f"
		fi
	done < <(sort -u "$src/.dg-touched")
	: > "$src/.dg-touched"
	for p in "${patches[@]}"; do
		sed -n 's|^+++ b/||p' "$p" >> "$src/.dg-touched"
		say "applying $(basename "$p")"
		patch -p1 -d "$src" --forward --batch --quiet < "$p" ||
			die "$(basename "$p") does not apply to linux-source-6.1 $srcver"
	done
fi

obj=$cache/obj/$flavour
mkdir -p "$obj" "$out.tmp"
log=$out.tmp/build.log
say "building $flavour kernel in $obj (log: $out/build.log)"
start=$(date +%s)
if ! {
	make -C "$src" O="$obj" ARCH=x86_64 tinyconfig &&
	"$src/scripts/kconfig/merge_config.sh" -m -O "$obj" "$obj/.config" "$fragment" &&
	make -C "$src" O="$obj" ARCH=x86_64 olddefconfig
} > "$log" 2>&1; then
	rm -rf "$out.failed"
	mv -T "$out.tmp" "$out.failed"
	die "configuring failed; see $out.failed/build.log"
fi
# Every option asked for must be in the final config: Kconfig silently
# drops one whose dependencies are not met.
missing=$(grep -E '^CONFIG_[A-Z0-9_]+=' "$fragment" | while read -r line; do
	grep -qxF "$line" "$obj/.config" || echo "$line"
done)
[ -z "$missing" ] || die "the kernel config lacks: $(echo "$missing" | paste -sd" ")"
if ! make -C "$src" O="$obj" ARCH=x86_64 -j"$jobs" bzImage >> "$log" 2>&1; then
	rm -rf "$out.failed"
	mv -T "$out.tmp" "$out.failed"
	tail -n 30 "$out.failed/build.log" >&2
	die "the $flavour kernel did not build; see $out.failed/build.log"
fi
echo "built in $(( $(date +%s) - start )) s" >> "$log"
cp "$obj/arch/x86/boot/bzImage" "$out.tmp/bzImage"
cp "$obj/.config" "$out.tmp/config"
rm -rf "$out"
mv -T "$out.tmp" "$out"
say "$flavour kernel built in $(( $(date +%s) - start )) s"
echo "$out/bzImage"
