#!/bin/bash
# make check: the unit tests (no root), the man pages, then the root-only
# integration suite.  Ends with one line: "N passed, N failed".
set -uo pipefail
TOP=$(cd "$(dirname "$0")/.." && pwd)
B=${BUILD:-$TOP/build}
export BUILD=$B
pass=0 failed=0 skipped=0

count_tap() { # count_tap OUTPUT-FILE
	local p f s
	p=$(grep '^ok ' "$1" | grep -vc '# SKIP' || true)
	s=$(grep '^ok ' "$1" | grep -c '# SKIP' || true)
	f=$(grep -c '^not ok ' "$1" || true)
	pass=$((pass + p))
	skipped=$((skipped + s))
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
	# (not our code: no sanitizer runtimes in groff)
	warnings=$(env -u LD_PRELOAD LC_ALL=C.UTF-8 MANROFFSEQ='' MANWIDTH=80 \
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

echo "== fuzz regressions (every seed and past crash through every fuzz target)"
if [ -n "${DG_SANITIZE:-}" ]; then
	echo "ok - fuzz-regress # SKIP the fuzz targets carry their own sanitizers"
	skipped=$((skipped + 1))
elif env -u LD_PRELOAD make -s -C "$TOP" fuzz-regress > "$B/fuzz-regress.out" 2>&1; then
	pass=$((pass + 1))
	echo "ok - fuzz-regress ($(grep -c '^Executed' "$B/fuzz-regress.out") inputs)"
else
	failed=$((failed + 1))
	echo "not ok - fuzz-regress"
	tail -n 30 "$B/fuzz-regress.out" | sed 's/^/#   /'
fi

echo "== integration tests"
"$TOP/tests/run-integration.sh" > "$B/integration.out" 2>&1
rc=$?
cat "$B/integration.out"
count_tap "$B/integration.out"
if [ $rc -ne 0 ] && ! grep -q '^not ok ' "$B/integration.out"; then
	failed=$((failed + 1))
	echo "not ok - integration suite exited $rc"
fi

if [ "$skipped" -gt 0 ]; then
	echo "$pass passed, $failed failed, $skipped skipped"
else
	echo "$pass passed, $failed failed"
fi
[ "$failed" -eq 0 ]
