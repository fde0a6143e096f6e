# The harness itself: the runner (run-integration.sh) and lib.sh's
# assertions, on throwaway test files, so that a test that cannot fail,
# or a test that silently vanishes, is itself a failure.

# (The throwaway tests are written with printf, not in here-documents:
# this file's own definitions must be the only lines that start a test.)

# harness_tree: a scratch copy of the runner and the sandbox in $H, with
# an empty tests/integration for the test to fill.
harness_tree() {
	H=$T/tree
	mkdir -p "$H/tests/integration" "$H/tests/lib"
	cp "$TOP/tests/run-integration.sh" "$H/tests/"
	cp "$TOP/tests/lib/lib.sh" "$TOP/tests/lib/sandbox.sh" "$H/tests/lib/"
	printf '%s\n' 'test_one() { :; }' 'test_two() { :; }' \
		> "$H/tests/integration/10-good.sh"
}

run_harness() {
	capture env DG_TEST_LOGDIR="$T/logs" BUILD="$BUILD" "$H/tests/run-integration.sh" "$1"
}

# A syntax error in one file must fail the run: sourcing a broken file
# drops every test after the error (one file once went from 10 tests to
# 6, and make check still said "0 failed").
test_runner_fails_a_file_that_does_not_parse() {
	harness_tree
	run_harness '^test_(one|four)$'
	assert_exit 0
	assert_in out '^integration: 1 passed, 0 failed'
	printf '%s\n' 'test_three() { :; }' 'if then' 'test_four() { :; }' \
		> "$H/tests/integration/20-broken.sh"
	run_harness '^test_(one|four)$'
	[ "$rc" -ne 0 ] || fail "the runner passed a file that does not parse"
	assert_in out '^ok [0-9]+ - test_one$'
	assert_in out '^not ok [0-9]+ - 20-broken.sh parses$'
	assert_in out '^not ok [0-9]+ - test_four$'
	# and make check counts it: run-all.sh adds up the "not ok" lines
	grep -c '^not ok ' "$T/out" | grep -qx 2 || fail "want 2 failures counted"
}

# Tests are counted a second way: a test defined in another form (which
# the runner's reader would not see), or twice (bash keeps the second
# body), fails the run.
test_runner_fails_a_test_it_cannot_count() {
	harness_tree
	printf '%s\n' 'function test_five {' ':' '}' 'test_six () { :; }' \
		> "$H/tests/integration/30-forms.sh"
	run_harness '^test_one$'
	[ "$rc" -ne 0 ] || fail "the runner missed a test in another form"
	assert_in out '^not ok [0-9]+ - 30-forms.sh defines every test as NAME\(\) \{$'
	rm "$H/tests/integration/30-forms.sh"
	printf '%s\n' 'test_seven() { false; }' 'test_seven() { :; }' \
		> "$H/tests/integration/40-twice.sh"
	run_harness '^test_one$'
	[ "$rc" -ne 0 ] || fail "the runner missed a test defined twice"
	assert_in out '^not ok [0-9]+ - 40-twice.sh defines each test once$'
}

# assert_log COUNT ERE: EVERY line must match, not just one of them.
test_assert_log_requires_every_line_to_match() {
	local tag='pamtester: pam_dropgroups(dgtest:session)'
	env -u LD_PRELOAD logger -u /dev/log -p authpriv.warning -t x "$tag: first warning"
	env -u LD_PRELOAD logger -u /dev/log -p authpriv.warning -t x "$tag: second warning"
	(assert_log warning 2 'warning$') || fail "assert_log refused two matching lines"
	if (assert_log warning 2 'first'); then
		fail "assert_log passed with a line that does not match"
	fi
	if (assert_log warning 1 'warning$'); then
		fail "assert_log passed with the wrong count"
	fi
}

# make mutate's planted bugs, outside the subset CI runs, rotted unseen
# when the code they edit moved on (three did).  Every edit of every
# mutation must still find its text exactly once; and a stanza whose
# text is gone fails the check.
test_every_mutation_still_applies() {
	capture "$TOP/tests/mutate/run.sh" --check-set
	assert_exit 0
	assert_in out '^mutations: [0-9]+ stanzas, every edit applies$'
	sed 's/^from: \(.*\)$/from: \1 (moved on)/' "$TOP/tests/mutate/mutations" > "$T/stale"
	capture env MUTATE_LIST="$T/stale" "$TOP/tests/mutate/run.sh" --check-set
	assert_exit 2
	assert_in out 'edit not found exactly once \(0 times\)'
}
