#!/bin/sh
# make prove: Frama-C WP proves the decision core (pam_dropgroups/lib/
# decide.c) against its ACSL contract in decide.h, with the run-time
# error goals of -wp-rte (no overflow, no access out of bounds), using
# Z3, CVC4 and cvc5 through Why3.  Fails unless every goal is proved.
#   tests/prove/run.sh OUTDIR
# OUTDIR (build/prove) gets the Why3 set-up (why3-setup.sh), the log and
# the JSON report; nothing is written to $HOME or the source tree.
set -eu
out=$1
top=$(cd "$(dirname "$0")/../.." && pwd)
# Fewer goals than this means the contract or the loop annotations lost
# something (an annotation Frama-C no longer reads is skipped with a
# warning, and proves nothing): raise it when you add goals.
MIN_GOALS=${PROVE_MIN_GOALS:-75}
TIMEOUT=${PROVE_TIMEOUT:-10}

for tool in frama-c why3 z3 cvc4 cvc5; do
	command -v "$tool" > /dev/null || {
		echo "prove: no $tool (make deps installs it: frama-c-base, why3, z3, cvc4, cvc5)" >&2
		exit 1
	}
done
mkdir -p "$out"
out=$(cd "$out" && pwd)
"$top/tests/prove/why3-setup.sh" "$out/why3"
export WHY3CONFIG="$out/why3/why3.conf" WHY3DATA="$out/why3/data"
rm -rf "$out/report.json" "$out/wp.log" "$out/session"
cd "$out"
# -warn-unsigned-*: unsigned wrap and narrowing conversions are run-time
# error goals too (C defines them, but here each would be a bug).
# -machdep gcc_x86_64: the sizes and the GNU C of the build (amd64).
# Any warning of the kernel (an annotation it cannot read, above all)
# stops the run: -kernel-warn-key '*=abort'.
status=0
frama-c -machdep gcc_x86_64 \
	-kernel-warn-key '*=abort' \
	-cpp-extra-args="-D_GNU_SOURCE -iquote $top/pam_dropgroups/lib" \
	-warn-unsigned-overflow -warn-unsigned-downcast \
	-wp -wp-rte -wp-prover z3,cvc4,cvc5 -wp-timeout "$TIMEOUT" -wp-par 2 \
	-wp-cache none \
	-wp-session "$out/session" -wp-report-json "$out/report.json" \
	"$top/pam_dropgroups/lib/decide.c" "$top/tests/prove/promises.c" \
	> "$out/wp.log" 2>&1 || status=$?
# the goals that failed, with each prover's answer (one prover: on the
# goal's line; several: on the lines after it)
grep -A4 '^\[wp\] \[\(Failed\|Unknown\|Timeout\|Stepout\)\]' "$out/wp.log" || true
grep '^\[wp\] \[.*\] Goal .* : \(Failed\|Unknown\|Timeout\|Stepout\)' "$out/wp.log" || true
grep -A3 '^\[[a-z:-]*\] \(Warning\|User Error\|Failure\)' "$out/wp.log" || true
sed -n '/Proved goals:/,$p' "$out/wp.log"
summary=$(sed -n 's/^\[wp\] Proved goals: *\([0-9]*\) \/ *\([0-9]*\)$/\1 \2/p' "$out/wp.log")
proved=${summary% *}
total=${summary#* }
if [ "$status" != 0 ] || [ -z "$summary" ]; then
	echo "prove: frama-c failed (exit $status); see $out/wp.log" >&2
	exit 1
fi
if grep -q '^\[[a-z:-]*\] Warning' "$out/wp.log"; then
	echo "prove: Frama-C warned (above); see $out/wp.log" >&2
	exit 1
fi
if [ "$proved" != "$total" ]; then
	echo "prove: $((total - proved)) of $total goals not proved; see $out/wp.log" >&2
	exit 1
fi
if [ "$total" -lt "$MIN_GOALS" ]; then
	echo "prove: only $total goals, expected at least $MIN_GOALS: an annotation was lost?" >&2
	exit 1
fi
echo "prove: all $total goals proved"
