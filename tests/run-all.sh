#!/bin/bash
# make check: the unit tests (no root), the man pages, then the root-only
# integration suite.  Ends with one line: "N passed, N failed".
set -uo pipefail
TOP=$(cd "$(dirname "$0")/.." && pwd)
B=$TOP/build
pass=0 failed=0

count_tap() { # count_tap OUTPUT-FILE
	local p f
	p=$(grep -c '^ok ' "$1" || true)
	f=$(grep -c '^not ok ' "$1" || true)
	pass=$((pass + p))
	failed=$((failed + f))
}

echo "== unit tests"
for t in "$B"/test_*; do
	[ -x "$t" ] || continue
	CMOCKA_MESSAGE_OUTPUT=TAP "$t" > "$B/unit.out" 2>&1
	rc=$?
	cat "$B/unit.out"
	count_tap "$B/unit.out"
	# a crash prints no "not ok": count it
	if [ $rc -ne 0 ] && ! grep -q '^not ok ' "$B/unit.out"; then
		failed=$((failed + 1))
		echo "not ok - $(basename "$t") exited $rc"
	fi
done

echo "== man pages"
for page in "$TOP"/man/*.[0-9]; do
	warnings=$(LC_ALL=C.UTF-8 MANROFFSEQ='' MANWIDTH=80 \
		man --warnings -E UTF-8 -l -Tutf8 -Z "$page" 2>&1 > /dev/null)
	if [ -z "$warnings" ]; then
		pass=$((pass + 1))
		echo "ok - man --warnings $(basename "$page")"
	else
		failed=$((failed + 1))
		echo "not ok - man --warnings $(basename "$page")"
		echo "$warnings" | sed 's/^/#   /'
	fi
done

echo "== integration tests"
"$TOP/tests/run-integration.sh" > "$B/integration.out" 2>&1
rc=$?
cat "$B/integration.out"
count_tap "$B/integration.out"
if [ $rc -ne 0 ] && ! grep -q '^not ok ' "$B/integration.out"; then
	failed=$((failed + 1))
	echo "not ok - integration suite exited $rc"
fi

echo "$pass passed, $failed failed"
[ "$failed" -eq 0 ]
