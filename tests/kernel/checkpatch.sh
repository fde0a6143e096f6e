#!/bin/bash
# checkpatch.sh [VERSION...]: scripts/checkpatch.pl --strict --codespell
# of that version's pristine tree on every patch of kernel/VERSION, the
# cover letter aside.  Prints checkpatch's total line for each, and
# fails on any error, warning or check.
#
# Needs codespell (its dictionary) and python3-ply and python3-git (for
# checkpatch's SPDX check), from Debian; /usr/bin comes first in PATH so
# that checkpatch's helpers find the system python3 and its modules.
set -uo pipefail
kt_name="checkpatch"
# shellcheck source=tests/kernel/lib.sh
. "$(dirname "$0")/lib.sh"

dict=/usr/lib/python3/dist-packages/codespell_lib/data/dictionary.txt
[ -r "$dict" ] || kt_die "$dict is missing (apt-get install codespell)"
export PATH=/usr/sbin:/usr/bin:/sbin:/bin

read -r -a versions <<< "${*:-${KERNEL_VERSIONS:-6.12 6.1}}"
status=0
for v in "${versions[@]}"; do
	kt_version "$v"
	kt_patches
	tree=$( kt_lock build; kt_pristine )
	for p in "${kt_patch_list[@]}"; do
		out=$(cd "$tree" && ./scripts/checkpatch.pl --strict --codespell \
			--codespellfile="$dict" "$p" 2>&1)
		total=$(echo "$out" | grep '^total:')
		echo "$v $(basename "$p"): $total"
		if [ "$total" != "${total#total: 0 errors, 0 warnings, 0 checks}" ]; then
			:
		else
			echo "$out" | grep -E '^(ERROR|WARNING|CHECK)|^#[0-9]+:' | sed 's/^/#   /'
			status=1
		fi
	done
done
exit $status
