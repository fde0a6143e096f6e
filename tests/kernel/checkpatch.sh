#!/bin/bash
# checkpatch.sh [VERSION...]: scripts/checkpatch.pl --strict --codespell
# of that version's pristine tree on every patch of kernel/VERSION, the
# cover letter aside.  Prints checkpatch's total line for each, and
# fails on any error, warning or check but the expected ones:
#
#   MISSING_SIGN_OFF   on every patch: the patches carry no Signed-off-by,
#                      because no real person has given one; whoever
#                      submits them adds their own (kernel/README)
#   FILE_PATH_CHANGES  on a patch that adds a file ("does MAINTAINERS need
#                      updating?"): the new tools/testing/selftests/groups
#                      is under KERNEL SELFTEST FRAMEWORK's F: line, and the
#                      series names no maintainer for kernel/groups.c
#
# Each expected complaint must appear exactly where it is expected: a
# patch that gains a sign-off, or loses its new file, fails too, so that
# this list is changed with the series.
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
			--show-types --codespellfile="$dict" "$p" 2>&1)
		total=$(echo "$out" | grep '^total:')
		echo "$v $(basename "$p"): $total"
		expected="ERROR:MISSING_SIGN_OFF"
		if grep -q '^new file mode' "$p"; then
			expected="$expected WARNING:FILE_PATH_CHANGES"
		fi
		got=$(echo "$out" | sed -n 's/^\(ERROR\|WARNING\|CHECK\):\([A-Z0-9_]*\):.*/\1:\2/p' |
			LC_ALL=C sort | paste -sd' ')
		want=$(echo "$expected" | tr ' ' '\n' | LC_ALL=C sort | paste -sd' ')
		if [ "$got" = "$want" ]; then
			echo "#   only the expected: $got"
		else
			echo "#   expected exactly: $want"
			echo "$out" | grep -E '^(ERROR|WARNING|CHECK)|^#[0-9]+:' | sed 's/^/#   /'
			status=1
		fi
	done
done
exit $status
