#!/bin/bash
# kernel-check.sh [VERSION...]: the VM test of the kernel series.
#
# For each VERSION (default: $KERNEL_VERSIONS, else 6.12): builds (or
# takes from the cache) a stock and a patched bzImage (build-kernel.sh),
# builds an initramfs (mkinitramfs.sh) from BUILD (default build/, which
# must hold pam_dropgroups.so and dropgroups) with the series' kselftest,
# boots each kernel under qemu-system-x86_64 with TCG, two VMs at a time,
# and checks what /init (vm/init) prints on the serial console against
# the plan (tests/kernel/plan): every section of the plan must begin, end
# and report exactly its number of checks, and the VM must print its
# "done" line.  A crash, a timeout or a test program that stops early
# fails the run instead of shrinking it.  Ends with "N passed, N failed"
# and exits non-zero on any failure.
#
# KERNEL_DEBUG=1: only the patched kernel, built with KASAN, lockdep,
# PROVE_RCU and kmemleak (kernel.debug.config), two CPUs, running the
# plan's "debug" sections: the kselftest, a race of sticky-list writers
# against drops for KERNEL_RACE_SECONDS (default 120), and a scan of the
# kernel log and of kmemleak.
#
# Environment: KERNEL_CACHE, KERNEL_JOBS (see lib.sh), KERNEL_VM_TIMEOUT
# (seconds per VM, default 900, 3600 with KERNEL_DEBUG),
# KERNEL_QEMU_MEM (default 256M, 1G with KERNEL_DEBUG).  The serial logs
# stay in $KERNEL_CACHE/run/VERSION/.
set -uo pipefail
kt_name="kernel-check"
# shellcheck source=tests/kernel/lib.sh
. "$(dirname "$0")/lib.sh"

build=${BUILD:-$kt_top/build}
read -r -a versions <<< "${*:-${KERNEL_VERSIONS:-6.12}}"
debug=${KERNEL_DEBUG:-0}
if [ "$debug" = 1 ]; then
	flavours=(patched) modes=(debug) timeout=${KERNEL_VM_TIMEOUT:-3600}
	mem=${KERNEL_QEMU_MEM:-1G} smp=2 race=${KERNEL_RACE_SECONDS:-120}
else
	flavours=(stock patched) modes=(stock patched) timeout=${KERNEL_VM_TIMEOUT:-900}
	mem=${KERNEL_QEMU_MEM:-256M} smp=1 race=${KERNEL_RACE_SECONDS:-5}
fi
plan=$kt_here/plan

t0=$(date +%s)
declare -A kernel=()
for v in "${versions[@]}"; do
	kt_version "$v"
	for f in "${flavours[@]}"; do
		kernel[$v/$f]=$("$kt_here/build-kernel.sh" "$v" "$f") ||
			{ echo "not ok - $v $f: the kernel did not build"; echo "0 passed, 1 failed"; exit 1; }
	done
done
t1=$(date +%s)
echo "kernel-check: kernels ready in $((t1 - t0)) s:"
for k in "${!kernel[@]}"; do echo "  $k ${kernel[$k]}"; done | sort

# One run at a time per cache: the run directories are shared.
exec 8> "$KERNEL_CACHE/run.lock"
flock 8

# sections MODE: the plan's sections for MODE, in order, comma-separated.
sections() { awk -v m="$1" '$1 == m { printf "%s%s", n++ ? "," : "", $2 }' "$plan"; }

# One initramfs per version: the kselftest comes from its patched tree.
jobs=()
for v in "${versions[@]}"; do
	run=$KERNEL_CACHE/run/$v
	rm -rf "$run"
	mkdir -p "$run"
	ks=${kernel[$v/patched]}/kselftest/setgroups_drop
	[ -x "$ks" ] || ks=""
	"$kt_here/mkinitramfs.sh" "$run/initramfs.cpio.gz" "$build" "$run/initramfs" ${ks:+"$ks"} ||
		{ echo "not ok - $v: the initramfs did not build"; echo "0 passed, 1 failed"; exit 1; }
	for i in "${!flavours[@]}"; do
		jobs+=("$v ${flavours[$i]} ${modes[$i]}")
	done
done

boot() { # boot VERSION FLAVOUR MODE
	local run=$KERNEL_CACHE/run/$1 append
	append="console=ttyS0 panic=-1 quiet dgkernel=$2 dgsections=$(sections "$3") dgrace=$race"
	[ "$3" = debug ] && append="$append dgdebug=1 kmemleak=on"
	timeout -k 10 "$timeout" qemu-system-x86_64 -accel tcg -m "$mem" -smp "$smp" \
		-nographic -no-reboot -nic none \
		-kernel "${kernel[$1/$2]}/bzImage" -initrd "$run/initramfs.cpio.gz" \
		-append "$append" \
		< /dev/null > "$run/serial-$3.log" 2> "$run/qemu-$3.log"
	echo $? > "$run/rc-$3"
}
# Two VMs at a time (each is one TCG thread), in the order of $jobs.
running=0
for j in "${jobs[@]}"; do
	# shellcheck disable=SC2086 # VERSION FLAVOUR MODE
	boot $j &
	running=$((running + 1))
	if [ "$running" -ge 2 ]; then
		wait -n
		running=$((running - 1))
	fi
done
wait
t2=$(date +%s)
echo "kernel-check: ${#jobs[@]} VMs ran in $((t2 - t1)) s (TCG); serial logs in $KERNEL_CACHE/run/"

# check VERSION MODE: the console against the plan; prints the checks
# and adds to passed, failed, skipped.
passed=0 failed=0 skipped=0
check() {
	local v=$1 m=$2 run=$KERNEL_CACHE/run/$1 log counts
	log=$run/console-$m.log
	tr -d '\r' < "$run/serial-$m.log" > "$log"
	echo "# $v $m"
	grep -E '^(ok|not ok) - |^# (SKIP|kernel-check:|plan|begin|end) |^#   ' "$log" | sed "s/^/$v /"
	# per section: begin, end, ok, not ok, ok # SKIP
	counts=$(awk '
		/^# begin / { s = $3; seen[s] = 1; next }
		/^# end / { ended[$3] = 1; s = ""; next }
		/^ok - .* # SKIP/ { skip[s]++; next }
		/^ok - / { ok[s]++; next }
		/^not ok - / { nok[s]++; next }
		END { for (x in seen) printf "%s %d %d %d %d\n", x, ended[x], ok[x], nok[x], skip[x]
		      printf "- 1 %d %d %d\n", ok[""], nok[""], skip[""] }' "$log")
	local s want line e o n k
	while read -r _ s want; do
		line=$(echo "$counts" | awk -v s="$s" '$1 == s')
		if [ -z "$line" ]; then
			echo "not ok - $v $m: section $s did not run"
			failed=$((failed + 1))
			continue
		fi
		read -r _ e o n k <<< "$line"
		passed=$((passed + o)) failed=$((failed + n)) skipped=$((skipped + k))
		if [ "$e" != 1 ]; then
			echo "not ok - $v $m: section $s did not finish"
			failed=$((failed + 1))
		elif [ $((o + n + k)) != "$want" ]; then
			echo "not ok - $v $m: section $s reported $((o + n + k)) checks, where the plan is $want"
			failed=$((failed + 1))
		fi
	done < <(awk -v m="$m" '$1 == m' "$plan")
	read -r _ _ o n k <<< "$(echo "$counts" | awk '$1 == "-"')"
	if [ $((o + n + k)) != 0 ]; then
		echo "not ok - $v $m: $((o + n + k)) checks outside any section"
		passed=$((passed + o)) failed=$((failed + n + 1))
	fi
	if ! grep -qx "# kernel-check: $(echo "$m" | sed 's/debug/patched/') done" "$log"; then
		echo "not ok - $v $m: the VM did not finish (qemu exit $(cat "$run/rc-$m"), 124 is the ${timeout} s timeout); last lines of $log:"
		tail -n 15 "$log" | sed 's/^/#   /'
		failed=$((failed + 1))
	fi
}
for j in "${jobs[@]}"; do
	read -r v _ m <<< "$j"
	check "$v" "$m"
done
echo "# $skipped skipped (kselftest results that do not apply to the stock kernel)"
echo "# versions ${versions[*]}, total time $(( $(date +%s) - t0 )) s"
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
