#!/bin/bash
# check-series.sh [VERSION...]: every prefix of kernel/VERSION/series
# builds, and none is less safe than the stock kernel.
#
# For each VERSION (default: $KERNEL_VERSIONS, else 6.12) and each prefix
# 1..N of its series:
#
#  - builds: the VM's bzImage (build-kernel.sh VERSION patched I, in the
#    cache), and kernel/groups.o in a second config without SYSCTL,
#    USER_NS and UID16, so that the #ifdefs are exercised; a compiler
#    warning in a file the series touches fails the check;
#  - safety: boots that kernel (and the stock one, as the baseline) in
#    qemu with safety-probe.c as the only program, which makes the same
#    16 checks on every kernel and skips none.  With every sysctl at its
#    boot value, setgroups() and setgroups16() are refused as on stock,
#    with and without no_new_privs and in a user namespace with
#    setgroups "deny"; the drop cannot be turned on before the sticky
#    list is written, and never comes without it; where the sticky list
#    exists, it binds root of a user namespace whose maps a privileged
#    helper wrote (as newgidmap does), and where it does not, that root
#    drops a group as on stock; where the drop exists and is on, it is
#    refused without no_new_privs, for a list that adds a group, in a
#    "deny" namespace and for a sticky gid.  A prefix where any
#    unprivileged process can drop a group with the sysctls at their
#    defaults, or without no_new_privs, or a sticky one, fails.
#
# Trees, objects and logs are in $KERNEL_CACHE/series-check/VERSION/.
# Environment as for kernel-check.sh (KERNEL_CACHE, KERNEL_JOBS,
# KERNEL_SERIES_DIR to check another series, such as v1).
set -uo pipefail
kt_name="check-series"
# shellcheck source=tests/kernel/lib.sh
. "$(dirname "$0")/lib.sh"

read -r -a versions <<< "${*:-${KERNEL_VERSIONS:-6.12}}"
status=0
passed=0 failed=0
result() { # result GOOD WHAT
	if [ "$1" = 0 ]; then echo "ok - $2"; passed=$((passed + 1)); else
		echo "not ok - $2"; failed=$((failed + 1)); status=1; fi
}

# The probe's initramfs: busybox, safety-probe, an /init that runs it.
probe_initramfs() { # probe_initramfs WORK OUT
	local work=$1 root=$1/root
	rm -rf "$root"
	mkdir -p "$root/bin" "$root/proc" "$root/dev" "$root/tmp" "$root/etc"
	install -m 0755 /bin/busybox "$root/bin/busybox"
	for a in sh mount cat echo reboot sync; do ln -s busybox "$root/bin/$a"; done
	[ "$(id -u)" != 0 ] || mknod -m 0600 "$root/dev/console" c 5 1
	gcc -O2 -Wall -Wextra -Werror -static -o "$root/bin/safety-probe" "$kt_here/safety-probe.c" || return 1
	cat > "$root/init" <<-'EOF'
	#!/bin/sh
	mount -t proc proc /proc
	mount -t devtmpfs devtmpfs /dev
	exec < /dev/console > /dev/console 2>&1
	for arg in $(cat /proc/cmdline); do
		case $arg in dgname=*) name=${arg#dgname=} ;; esac
	done
	echo
	/bin/safety-probe "$name"
	echo "# safety-probe done rc=$?"
	sync
	reboot -f
	EOF
	chmod 0755 "$root/init"
	(cd "$root" && find . | LC_ALL=C sort | cpio -o -H newc -R 0:0 --quiet) | gzip -1 > "$2"
}

for v in "${versions[@]}"; do
	kt_version "$v"
	kt_patches
	n=${#kt_patch_list[@]}
	work=$KERNEL_CACHE/series-check/$v
	mkdir -p "$work"
	touched=$(sed -n 's|^+++ b/||p' "${kt_patch_list[@]}" | sort -u)
	re=$(echo "$touched" | grep '\.[ch]$' | sed 's/\./\\./g' | paste -sd'|')
	warnings() { grep -E "($re):[0-9]+:[0-9]+: (warning|error)" "$1" || true; }
	echo "# $v: $n patches in $kt_series"

	# The minimal config's tree: pristine, then one patch at a time.
	(
		kt_lock build
		pristine=$(kt_pristine)
		rm -rf "$work/src"
		cp -a "$pristine" "$work/src"
		# objects may be left from a run with other patches
		for f in $touched; do [ -e "$work/src/$f" ] && touch "$work/src/$f"; done
		printf 'CONFIG_64BIT=y\nCONFIG_MULTIUSER=y\n# CONFIG_SYSCTL is not set\n# CONFIG_USER_NS is not set\n# CONFIG_UID16 is not set\n' > "$work/minimal.config"
	) || exit 1

	declare -A image=()
	image[0]=$("$kt_here/build-kernel.sh" "$v" stock) || { result 1 "$v: the stock kernel builds"; continue; }
	for i in $(seq 1 "$n"); do
		p=${kt_patch_list[$((i - 1))]}
		name="$v 1..$i ($(basename "$p" .patch))"
		start=$(date +%s)
		if dir=$("$kt_here/build-kernel.sh" "$v" patched "$i" 2> "$work/$i.err"); then
			image[$i]=$dir
			w=$(warnings "$dir/build.log")
			result "$([ -z "$w" ] && echo 0 || echo 1)" "$name: the VM kernel builds, no warnings in the files the series touches ($(( $(date +%s) - start )) s)"
			[ -z "$w" ] || echo "$w" | sed 's/^/#   /'
		else
			result 1 "$name: the VM kernel builds"
			tail -n 20 "$work/$i.err" | sed 's/^/#   /'
		fi
		start=$(date +%s)
		log=$work/minimal-$i.log
		if (kt_lock build
		    patch -p1 -d "$work/src" --forward --batch --quiet < "$p" &&
		    kt_configure "$work/src" "$work/obj-minimal" "$work/minimal.config" &&
		    make -C "$work/src" O="$work/obj-minimal" ARCH=x86_64 -j"$kt_jobs" kernel/groups.o
		   ) > "$log" 2>&1 && [ -z "$(warnings "$log")" ]; then
			result 0 "$name: kernel/groups.o builds without SYSCTL, USER_NS and UID16 ($(( $(date +%s) - start )) s)"
		else
			result 1 "$name: kernel/groups.o builds without SYSCTL, USER_NS and UID16 (see $log)"
			warnings "$log" | sed 's/^/#   /'
		fi
	done

	# Boot each prefix with the probe, two at a time.
	probe_initramfs "$work/probe" "$work/probe.cpio.gz" || { result 1 "$v: the probe builds"; continue; }
	boot() { # boot I
		timeout -k 10 "${KERNEL_VM_TIMEOUT:-300}" qemu-system-x86_64 -accel tcg -m 256M -smp 1 \
			-nographic -no-reboot -nic none \
			-kernel "${image[$1]}/bzImage" -initrd "$work/probe.cpio.gz" \
			-append "console=ttyS0 panic=-1 quiet dgname=$v-$1" \
			< /dev/null 2> /dev/null | tr -d '\r' > "$work/probe-$1.log"
	}
	running=0
	for i in $(seq 0 "$n"); do
		[ -n "${image[$i]:-}" ] || continue
		boot "$i" &
		running=$((running + 1))
		if [ "$running" -ge 2 ]; then wait -n; running=$((running - 1)); fi
	done
	wait
	for i in $(seq 0 "$n"); do
		[ -n "${image[$i]:-}" ] || continue
		if [ "$i" = 0 ]; then name="$v stock"; else
			name="$v 1..$i ($(basename "${kt_patch_list[$((i - 1))]}" .patch))"; fi
		log=$work/probe-$i.log
		grep -E '^(ok|not ok) - ' "$log" | sed 's/^/#   /'
		good=$(grep -c '^ok - ' "$log") bad=$(grep -c '^not ok - ' "$log")
		result "$([ "$good" = 16 ] && [ "$bad" = 0 ] && grep -qx '# safety-probe done rc=0' "$log" && echo 0 || echo 1)" \
			"$name: at least as safe as stock ($good of 16 probe checks ok, $bad not ok)"
	done
	unset image
done
echo "$passed passed, $failed failed"
exit $status
