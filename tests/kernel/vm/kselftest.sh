# The series' kselftest (tools/testing/selftests/groups), built static
# from the patched tree.  It runs first, while the sysctls still have
# their boot values.  Each of its TAP results becomes a check here; on
# stock every test must skip (no sysctls), on the patched kernel none.

KS=/usr/local/bin/setgroups_drop
PLAN=25
if [ ! -x "$KS" ]; then
	notok "kselftest: $KS is missing"
	return 1
fi
echo "# plan kselftest $PLAN"
"$KS" > /tmp/ks.out 2>&1
rc=$?
sed -n 's/^ok [0-9]* \(.*\)$/ok - '"$K"': kselftest: \1/p; s/^not ok [0-9]* \(.*\)$/not ok - '"$K"': kselftest: \1/p' /tmp/ks.out
n=$(grep -cE '^(not )?ok [0-9]+ ' /tmp/ks.out)
skipped=$(grep -cE '^ok [0-9]+ .*# SKIP' /tmp/ks.out)
expect "kselftest: TAP plan $(grep -m1 '^1\.\.' /tmp/ks.out), $n results, where the plan is $PLAN" \
	[ "$(grep -m1 '^1\.\.' /tmp/ks.out)/$n" = "1..$PLAN/$PLAN" ]
if [ "$K" = stock ]; then
	expect "kselftest: every test skipped ($skipped), exit status $rc" \
		[ "$skipped/$rc" = "$PLAN/0" ]
else
	expect "kselftest: no test skipped ($skipped), exit status $rc" [ "$skipped/$rc" = "0/0" ]
fi
if [ "$rc" != 0 ] || grep -q '^not ok' /tmp/ks.out; then
	sed 's/^/#   /' /tmp/ks.out
fi
