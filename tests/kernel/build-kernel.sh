#!/bin/bash
# build-kernel.sh VERSION stock|patched [N]
#
# Print the directory of a minimal x86_64 kernel built from Debian's
# linux-source-VERSION (6.1 or 6.12): "stock" as shipped, "patched" with
# the first N patches of kernel/VERSION/series applied (all of them
# without N).  The directory holds bzImage, config and build.log, and for
# a series that has the kselftest (tools/testing/selftests/groups), the
# test built static from the patched tree, kselftest/setgroups_drop.
#
# The config is `make tinyconfig` plus tests/kernel/kernel.config, and,
# with KERNEL_DEBUG=1, tests/kernel/kernel.debug.config too (KASAN,
# lockdep, PROVE_RCU, kmemleak).  Every option asked for must be in the
# final config.
#
# Kernels are cached in $KERNEL_CACHE/kernels/VERSION-VARIANT-NAME-KEY/
# (VARIANT is vm or debug), where KEY hashes everything that goes into
# the image: the package version, the compiler, the config fragments,
# each patch applied, and $recipe below (bump it when this script
# changes how a kernel is built).  A cached kernel is returned at once.
# Otherwise it is built in one tree per version and variant
# ($KERNEL_CACHE/work/VERSION-VARIANT/{src,obj}): the patches are applied
# to copies of the files they touch, and only the files whose content
# differs from the tree's are copied in, so make rebuilds only what
# changed.  v2 of the series touches kernel/groups.c, kernel/uid16.[ch]
# and files outside the kernel build, so after one full build a stock or
# patched kernel of the same version and variant costs a few objects and
# the link.
set -euo pipefail
kt_name="build-kernel"
# shellcheck source=tests/kernel/lib.sh
. "$(dirname "$0")/lib.sh"

usage="usage: build-kernel.sh VERSION stock|patched [N]"
kt_version "${1:?$usage}"
flavour=${2:?$usage}
count=${3:-}
case $flavour in stock|patched) ;; *) kt_die "$usage" ;; esac

fragments=("$kt_here/kernel.config")
variant=vm
if [ "${KERNEL_DEBUG:-0}" = 1 ]; then
	fragments+=("$kt_here/kernel.debug.config")
	variant=debug
fi

patches=()
if [ "$flavour" = patched ]; then
	kt_patches
	patches=("${kt_patch_list[@]}")
	if [ -n "$count" ]; then
		[ "$count" -ge 0 ] && [ "$count" -le ${#patches[@]} ] ||
			kt_die "N must be 0..${#patches[@]}"
		patches=("${patches[@]:0:$count}")
	fi
fi

recipe=2 # tinyconfig + fragments, make bzImage, the kselftest's Makefile
key=$({
	echo "$kt_pkg $kt_srcver $variant recipe $recipe"
	${CC:-gcc} --version | sed -n 1p # sed reads all: no SIGPIPE under pipefail
	for f in "${fragments[@]}"; do sha256sum < "$f"; done
	for p in ${patches[@]+"${patches[@]}"}; do sha256sum < "$p"; done
} | sha256sum | cut -c1-16)
name=$flavour
[ "$flavour" = stock ] || name=patched${count:+-$count}
out=$KERNEL_CACHE/kernels/$kt_ver-$variant-$name-$key

if [ -s "$out/bzImage" ]; then
	echo "$out"
	exit 0
fi
kt_lock build
if [ -s "$out/bzImage" ]; then # built by another run while we waited
	echo "$out"
	exit 0
fi

pristine=$(kt_pristine)
work=$KERNEL_CACHE/work/$kt_ver-$variant
src=$work/src
obj=$work/obj
mkdir -p "$work" "$KERNEL_CACHE/kernels"
if [ ! -e "$src/.dg-base" ] || [ "$(cat "$src/.dg-base")" != "$kt_srcver" ]; then
	kt_say "copying the pristine tree to $src"
	rm -rf "$src" "$obj"
	cp -a "$pristine" "$src"
	echo "$kt_srcver" > "$src/.dg-base"
	: > "$src/.dg-touched"
fi
# The files this build patches and the ones the last build patched: put
# their pristine versions in a staging directory, apply the patches
# there, and copy into the tree only what differs from it, so that a
# file whose content does not change keeps its mtime and make does not
# rebuild what uses it.
stage=$work/stage
rm -rf "$stage"
mkdir -p "$stage"
for p in ${patches[@]+"${patches[@]}"}; do sed -n 's|^+++ b/||p' "$p"; done > "$work/touched.new"
sort -u "$src/.dg-touched" "$work/touched.new" > "$work/touched.all"
while read -r f; do
	[ -n "$f" ] && [ -e "$pristine/$f" ] || continue
	mkdir -p "$stage/$(dirname "$f")"
	cp "$pristine/$f" "$stage/$f"
done < "$work/touched.all"
for p in ${patches[@]+"${patches[@]}"}; do
	kt_say "applying $(basename "$p")"
	patch -p1 -d "$stage" --forward --batch --quiet < "$p" ||
		kt_die "$(basename "$p") does not apply to $kt_pkg $kt_srcver"
done
while read -r f; do
	[ -n "$f" ] || continue
	if [ -e "$stage/$f" ]; then
		if ! cmp -s "$stage/$f" "$src/$f"; then
			mkdir -p "$src/$(dirname "$f")"
			cp "$stage/$f" "$src/$f"
		fi
	else
		rm -f "$src/$f"
	fi
done < "$work/touched.all"
sort -u "$work/touched.new" > "$src/.dg-touched"

rm -rf "$out.tmp"
mkdir -p "$out.tmp"
log=$out.tmp/build.log
kt_say "building $kt_ver $variant $name in $obj (log: $out/build.log)"
start=$(date +%s)
fail() {
	rm -rf "$out.failed"
	mv -T "$out.tmp" "$out.failed"
	tail -n 30 "$out.failed/build.log" >&2
	kt_die "$1; see $out.failed/build.log"
}
kt_configure "$src" "$obj" "${fragments[@]}" > "$log" 2>&1 || fail "configuring failed"
make -C "$src" O="$obj" ARCH=x86_64 -j"$kt_jobs" bzImage >> "$log" 2>&1 ||
	fail "the $kt_ver $name kernel did not build"
cp "$obj/arch/x86/boot/bzImage" "$out.tmp/bzImage"
cp "$obj/.config" "$out.tmp/config"

# The kselftest, with the series' own Makefile, linked static for the VM.
if [ -e "$src/tools/testing/selftests/groups/Makefile" ]; then
	mkdir -p "$out.tmp/kselftest"
	make -C "$src/tools/testing/selftests/groups" OUTPUT="$out.tmp/kselftest" \
		USERLDFLAGS=-static >> "$log" 2>&1 || fail "the kselftest did not build"
fi
echo "built in $(( $(date +%s) - start )) s" >> "$log"
rm -rf "$out"
mv -T "$out.tmp" "$out"
kt_say "$kt_ver $variant $name built in $(( $(date +%s) - start )) s"
echo "$out"
