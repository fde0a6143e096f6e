#!/bin/bash
# kernel-check.sh: the VM test of the kernel series (issue 5).
#
# Builds (or takes from the cache) a stock and a patched bzImage
# (build-kernel.sh), builds the initramfs (mkinitramfs.sh) from BUILD
# (default build/, which must hold pam_dropgroups.so and dropgroups),
# boots each kernel under qemu-system-x86_64 with TCG, both at once, and
# collects the "ok - " / "not ok - " lines that /init (init.sh) prints on
# the serial console.  A VM that does not print its "done" line (timeout,
# panic, /init dying) counts as a failure.  Ends with "N passed, N
# failed" and exits non-zero on any failure.
#
# Environment: KERNEL_CACHE (default /var/cache/dropgroups-kernel for
# root, else ${XDG_CACHE_HOME:-~/.cache}/dropgroups-kernel),
# KERNEL_VM_TIMEOUT (seconds per VM, default 300), KERNEL_JOBS,
# KERNEL_QEMU_MEM (default 256M).  The serial logs stay in
# $KERNEL_CACHE/run/.
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
build=${BUILD:-$top/build}
export KERNEL_CACHE=${KERNEL_CACHE:-$( [ "$(id -u)" = 0 ] && echo /var/cache/dropgroups-kernel || echo "${XDG_CACHE_HOME:-$HOME/.cache}/dropgroups-kernel")}
timeout=${KERNEL_VM_TIMEOUT:-300}
mem=${KERNEL_QEMU_MEM:-256M}
run=$KERNEL_CACHE/run

t0=$(date +%s)
mkdir -p "$KERNEL_CACHE"
stock=$("$here/build-kernel.sh" stock) || { echo "kernel-check: the stock kernel did not build"; exit 1; }
patched=$("$here/build-kernel.sh" patched) || { echo "kernel-check: the patched kernel did not build"; exit 1; }
t1=$(date +%s)
echo "kernel-check: kernels ready in $((t1 - t0)) s:"
echo "  stock   $stock"
echo "  patched $patched"
echo "  (build logs: build.log next to each bzImage)"

# One run at a time per cache: the run directory is shared.
exec 8> "$KERNEL_CACHE/run.lock"
flock 8
rm -rf "$run"
mkdir -p "$run"
"$here/mkinitramfs.sh" "$run/initramfs.cpio.gz" "$build" "$run/initramfs" ||
	{ echo "kernel-check: the initramfs did not build"; exit 1; }

boot() { # boot FLAVOUR BZIMAGE
	timeout -k 10 "$timeout" qemu-system-x86_64 -accel tcg -m "$mem" -smp 1 \
		-nographic -no-reboot -nic none \
		-kernel "$2" -initrd "$run/initramfs.cpio.gz" \
		-append "console=ttyS0 panic=-1 quiet dgkernel=$1" \
		< /dev/null > "$run/serial-$1.log" 2> "$run/qemu-$1.log"
	echo $? > "$run/rc-$1"
}
boot stock "$stock" &
boot patched "$patched" &
wait
t2=$(date +%s)
echo "kernel-check: both VMs ran in $((t2 - t1)) s (TCG); serial logs in $run/"

passed=0 failed=0 skipped=0
for k in stock patched; do
	tr -d '\r' < "$run/serial-$k.log" > "$run/console-$k.log"
	grep -E '^(ok|not ok) - |^# (SKIP|kernel-check:) |^#   ' "$run/console-$k.log"
	p=$(grep -c '^ok - ' "$run/console-$k.log")
	f=$(grep -c '^not ok - ' "$run/console-$k.log")
	s=$(grep -c '^# SKIP ' "$run/console-$k.log")
	if ! grep -qx "# kernel-check: $k done" "$run/console-$k.log"; then
		echo "not ok - $k: the VM did not finish (qemu exit $(cat "$run/rc-$k"), 124 is the ${timeout} s timeout); last lines of $run/console-$k.log:"
		tail -n 15 "$run/console-$k.log" | sed 's/^/#   /'
		echo
		f=$((f + 1))
	elif [ "$p" = 0 ]; then
		echo "not ok - $k: the VM ran no check"
		f=$((f + 1))
	fi
	passed=$((passed + p)) failed=$((failed + f)) skipped=$((skipped + s))
done
echo "# $skipped skipped (checks that do not apply to a kernel, such as sticky gids on stock)"
echo "# total time $(( $(date +%s) - t0 )) s"
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
