#!/bin/bash
# Run every test_* function of tests/integration/*.sh, each in its own
# sandbox (private mount, network and pid namespaces), as root.
# Prints TAP-style lines and ends with "N passed, N failed".
#   tests/run-integration.sh [PATTERN]   only tests whose name matches
set -uo pipefail
TOP=$(cd "$(dirname "$0")/.." && pwd)
filter=${1:-.}
logdir=${DG_TEST_LOGDIR:-${BUILD:-$TOP/build}/test-logs}
mkdir -p "$logdir"

if [ "$(id -u)" != 0 ]; then
	echo "the integration suite needs root (it builds namespaces)" >&2
	exit 1
fi

pass=0 failed=0 skipped=0 n=0
for file in "$TOP"/tests/integration/*.sh; do
	for t in $(TOP=$TOP bash -c ". '$file'; declare -F" | awk '{print $3}' | grep '^test_' | grep -E -- "$filter"); do
		n=$((n + 1))
		log=$logdir/$t.log
		timeout "${DG_TEST_TIMEOUT:-240}" unshare --mount --net --pid --fork --mount-proc -- \
			bash "$TOP/tests/sandbox.sh" "$file" "$t" > "$log" 2>&1
		rc=$?
		if [ $rc -eq 0 ]; then
			pass=$((pass + 1))
			echo "ok $n - $t"
		elif [ $rc -eq 77 ]; then
			skipped=$((skipped + 1))
			echo "ok $n - $t # SKIP $(tail -n 1 "$log")"
		else
			failed=$((failed + 1))
			echo "not ok $n - $t"
			sed 's/^/#   /' "$log" | tail -n 40
		fi
	done
done
echo "integration: $pass passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
