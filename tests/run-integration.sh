#!/bin/bash
# Run every test_* function of tests/integration/*.sh, each in its own
# sandbox (private mount, network and pid namespaces), as root.
# Prints TAP-style lines and ends with "N passed, N failed".
#   tests/run-integration.sh [PATTERN]   only tests whose name matches
# DG_TEST_DIR=tests/package runs the tests of that directory instead
# (`make check-package`).
#
# Tests are found by reading the files, never by running them: a file
# that does not parse is a failure of its own (and its tests then fail
# when run), so a syntax error can never make tests vanish.  A name
# defined twice (bash keeps only the second body) is a failure too.
set -uo pipefail
TOP=$(cd "$(dirname "$0")/.." && pwd)
filter=${1:-.}
logdir=${DG_TEST_LOGDIR:-${BUILD:-$TOP/build}/test-logs}
mkdir -p "$logdir"

if [ "$(id -u)" != 0 ]; then
	echo "the integration suite needs root (it builds namespaces)" >&2
	exit 1
fi

# The Debian package, built by the first test of this run that needs it
# and kept here for the others (tests/lib/debian.sh): a build takes
# minutes.
DG_DEB_CACHE=$(mktemp -d /tmp/dgdeb.XXXXXX) || exit 1
export DG_DEB_CACHE
trap 'rm -rf "$DG_DEB_CACHE"' EXIT

pass=0 failed=0 skipped=0 n=0

result() { # result RC NAME [LOG]
	n=$((n + 1))
	if [ "$1" -eq 0 ]; then
		pass=$((pass + 1))
		echo "ok $n - $2"
	elif [ "$1" -eq 77 ]; then
		skipped=$((skipped + 1))
		echo "ok $n - $2 # SKIP $(tail -n 1 "$3")"
	else
		failed=$((failed + 1))
		echo "not ok $n - $2"
		[ -z "${3:-}" ] || sed 's/^/#   /' "$3" | tail -n 40
	fi
}

# The test functions a file defines, in file order.
tests_of() {
	sed -n 's/^\(test_[A-Za-z0-9_]*\)[[:space:]]*()[[:space:]]*{.*$/\1/p' "$1"
}

for file in "${DG_TEST_DIR:-$TOP/tests/integration}"/*.sh; do
	name=$(basename "$file")
	if ! bash -n "$file" 2> "$logdir/$name.syntax"; then
		result 1 "$name parses" "$logdir/$name.syntax"
	fi
	# counted a second way: every line that starts a test_ definition,
	# whatever its form, must be one the runner reads
	if [ "$(grep -cE '^[[:space:]]*(function[[:space:]]+)?test_[A-Za-z0-9_]+' "$file")" \
		-ne "$(tests_of "$file" | wc -l)" ]; then
		grep -nE '^[[:space:]]*(function[[:space:]]+)?test_[A-Za-z0-9_]+' "$file" |
			grep -vE ':test_[A-Za-z0-9_]*[[:space:]]*\(\)[[:space:]]*\{' > "$logdir/$name.forms"
		result 1 "$name defines every test as NAME() {" "$logdir/$name.forms"
	fi
	dups=$(tests_of "$file" | sort | uniq -d | xargs)
	if [ -n "$dups" ]; then
		echo "defined more than once: $dups" > "$logdir/$name.dups"
		result 1 "$name defines each test once" "$logdir/$name.dups"
	fi
	for t in $(tests_of "$file" | grep -E -- "$filter"); do
		log=$logdir/$t.log
		timeout "${DG_TEST_TIMEOUT:-240}" unshare --mount --net --pid --fork --mount-proc -- \
			bash "$TOP/tests/lib/sandbox.sh" "$file" "$t" > "$log" 2>&1
		result $? "$t" "$log"
	done
done
echo "integration: $pass passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
