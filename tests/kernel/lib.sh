# shellcheck shell=bash
# tests/kernel/lib.sh: sourced (bash) by the kernel harness scripts.
#
# The kernel versions the series is kept for, where each one's patches
# are, and where the cache is.  A VERSION is "6.1" or "6.12": Debian's
# linux-source-VERSION package, /usr/src/linux-source-VERSION.tar.xz.
#
#   KERNEL_CACHE       the cache (default /var/cache/dropgroups-kernel for
#                      root, else ${XDG_CACHE_HOME:-~/.cache}/dropgroups-kernel)
#   KERNEL_SERIES_DIR  the patches to use instead of kernel/VERSION (to
#                      run the harness on another series, such as v1)
#   KERNEL_JOBS        parallel compile jobs (default: nproc, at most 2)

KERNEL_VERSIONS_ALL="6.1 6.12"

kt_here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
kt_top=$(cd "$kt_here/../.." && pwd)
KERNEL_CACHE=${KERNEL_CACHE:-$( [ "$(id -u)" = 0 ] && echo /var/cache/dropgroups-kernel || echo "${XDG_CACHE_HOME:-$HOME/.cache}/dropgroups-kernel")}
export KERNEL_CACHE
# Other people build on this machine too: never more than 2 jobs unless
# asked for.
# shellcheck disable=SC2034 # for the scripts that source this file
kt_jobs=${KERNEL_JOBS:-$(n=$(nproc); [ "$n" -gt 2 ] && echo 2 || echo "$n")}

kt_say() { echo "${kt_name:-kernel}: $*" >&2; }
kt_die() { kt_say "$*"; exit 1; }

# kt_version VERSION: check it, and set kt_tarball, kt_pkg, kt_srcver,
# kt_series (the directory of its patches).
kt_version() {
	case ${1:-} in
	6.1|6.12) ;;
	*) kt_die "unknown kernel version \"${1:-}\" (one of: $KERNEL_VERSIONS_ALL)" ;;
	esac
	# shellcheck disable=SC2034 # for the scripts that source this file
	kt_ver=$1
	kt_pkg=linux-source-$1
	kt_tarball=/usr/src/$kt_pkg.tar.xz
	[ -r "$kt_tarball" ] || kt_die "$kt_tarball is missing (apt-get install $kt_pkg)"
	kt_srcver=$(dpkg-query -W -f='${Version}' "$kt_pkg")
	kt_series=${KERNEL_SERIES_DIR:-$kt_top/kernel/$1}
}

# kt_patches: the patches of $kt_series in order (its file "series", one
# name a line, # comments), into the array kt_patch_list.
kt_patches() {
	kt_patch_list=()
	[ -r "$kt_series/series" ] || kt_die "$kt_series/series is missing"
	local p
	while read -r p; do
		case $p in ''|'#'*) continue ;; esac
		[ -r "$kt_series/$p" ] || kt_die "$kt_series/series names $p, which is missing"
		kt_patch_list+=("$kt_series/$p")
	done < "$kt_series/series"
	[ ${#kt_patch_list[@]} -gt 0 ] || kt_die "$kt_series/series lists no patch"
}

# kt_pristine: extract the pristine tree once per package version (under
# the cache lock, which the caller holds), and print its path.
kt_pristine() {
	local dir=$KERNEL_CACHE/src/$kt_pkg-$kt_srcver
	if [ ! -e "$dir/.dg-extracted" ]; then
		kt_say "extracting $kt_tarball"
		rm -rf "$dir" "$dir.tmp"
		mkdir -p "$dir.tmp"
		tar -C "$dir.tmp" -xf "$kt_tarball"
		mv "$dir.tmp/$kt_pkg" "$dir"
		rmdir "$dir.tmp"
		touch "$dir/.dg-extracted"
	fi
	echo "$dir"
}

# kt_lock NAME: take $KERNEL_CACHE/NAME.lock on fd 9 for the rest of the
# script (waits for other runs that use the same cache).
kt_lock() {
	mkdir -p "$KERNEL_CACHE"
	exec 9> "$KERNEL_CACHE/$1.lock"
	flock 9
}

# kt_configure SRC OBJ FRAGMENT...: x86_64 tinyconfig plus the fragments;
# fails if an option a fragment asks for is not in the final .config
# (Kconfig silently drops an option whose dependencies are not met).
kt_configure() {
	local src=$1 obj=$2 f line missing=""
	shift 2
	mkdir -p "$obj"
	make -C "$src" O="$obj" ARCH=x86_64 tinyconfig &&
	"$src/scripts/kconfig/merge_config.sh" -m -O "$obj" "$obj/.config" "$@" &&
	make -C "$src" O="$obj" ARCH=x86_64 olddefconfig || return 1
	for f in "$@"; do
		while read -r line; do
			case $line in
			CONFIG_*=*) grep -qxF "$line" "$obj/.config" || missing="$missing $line" ;;
			'# CONFIG_'*' is not set')
				line=${line#\# }; line=${line%% *}
				! grep -q "^$line=" "$obj/.config" || missing="$missing $line=n" ;;
			esac
		done < "$f"
	done
	if [ -n "$missing" ]; then
		echo "kt_configure: the config lacks:$missing" >&2
		return 1
	fi
}
