# tests/bench/audit.sh: dropgroups audit against find(1) on the same tree
# of BENCH_FILES files (default 1,000,000), side by side in one run.
#
#   make bench-audit [BENCH_AUDIT_RUNS=N] [BENCH_FILES=N]
#
# Runs in the test sandbox (tests/lib/sandbox.sh: a private mount namespace),
# the tree in its private tmpfs.  The tree: 100 directories of 100
# directories of files (plus a few 705 files and ACLs, so that the audit
# has something to report).  Then BENCH_RUNS interleaved rounds, each
# timing in turn
#   find TREE -printf '%m %G\n' > /dev/null   (stats every file)
#   dropgroups audit TREE > /dev/null
# and prints the median wall time of each and their ratio.  Exits 1 when
# the audit's median is slower than find's.

BENCH_RUNS=${BENCH_RUNS:-5}
BENCH_FILES=${BENCH_FILES:-1000000}

now() { date +%s%N; }

median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

bench_audit() {
	local tree=$T/tree i t0 t1
	echo "building a tree of $BENCH_FILES files in $tree (tmpfs)"
	python3 - "$tree" "$BENCH_FILES" <<-'PY'
	import os, sys
	root, n = sys.argv[1], int(sys.argv[2])
	per = max(1, n // 10000)
	made = 0
	os.mkdir(root)
	for a in range(100):
	    for b in range(100):
	        d = f"{root}/{a:02d}/{b:02d}"
	        os.makedirs(d)
	        for c in range(per):
	            if made >= n:
	                break
	            os.close(os.open(f"{d}/f{c}", os.O_CREAT | os.O_WRONLY, 0o644))
	            made += 1
	# something to find
	for a in range(0, 100, 10):
	    p = f"{root}/{a:02d}/00/f0"
	    os.chown(p, 0, 2003)
	    os.chmod(p, 0o705)
	print(f"{made} files, 10,100 directories")
	PY
	setfacl -m g:plugdev:--- "$tree/50/50/f1"
	: > "$T/no-sudoers"
	# warm up both (dentries and inodes in memory)
	find "$tree" -printf '%m %G\n' > /dev/null
	"$DG" audit --sudoers "$T/no-sudoers" "$tree" > "$T/report" || [ $? -eq 1 ] ||
		fail "the audit failed"
	sed 's/^/  audit: /' "$T/report"
	: > "$T/find.times"
	: > "$T/audit.times"
	for i in $(seq "$BENCH_RUNS"); do
		t0=$(now)
		find "$tree" -printf '%m %G\n' > /dev/null
		t1=$(now)
		echo $(((t1 - t0) / 1000000)) >> "$T/find.times"
		t0=$(now)
		"$DG" audit --sudoers "$T/no-sudoers" "$tree" > /dev/null || [ $? -eq 1 ] ||
			fail "the audit failed"
		t1=$(now)
		echo $(((t1 - t0) / 1000000)) >> "$T/audit.times"
		echo "round $i: find $(tail -n1 "$T/find.times") ms, audit $(tail -n1 "$T/audit.times") ms"
	done
	local f a
	f=$(median < "$T/find.times")
	a=$(median < "$T/audit.times")
	echo "median of $BENCH_RUNS rounds, $BENCH_FILES files on tmpfs, $(nproc) CPUs:"
	echo "  find -printf '%m %G\\n': $f ms"
	echo "  dropgroups audit:       $a ms ($(awk -v a="$a" -v f="$f" 'BEGIN { printf "%.2f", a / f }') x find)"
	[ "$a" -le "$f" ] || fail "the audit is slower than find"
}
