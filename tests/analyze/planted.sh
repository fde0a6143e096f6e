#!/bin/bash
# make analyze must fail on the bugs it is there for, and say where.
# In a scratch copy of the tree, each analyzer first passes over the files
# below as they are; then each bug is planted in turn, and the analyzer
# that must catch it has to fail, naming the file, the kind of finding and
# the planted line (in its message or in the path it prints).
#
#   tests/analyze/planted.sh     (no root; seconds: one file per run)
#
# ANALYZE_SCRATCH=DIR: the scratch copy (default build/analyze-planted,
# wiped first).  A plant whose "from" text no longer occurs fails the
# test: fix the plant with the code.
set -euo pipefail
cd "$(dirname "$0")/../.."
top=$PWD
scratch=${ANALYZE_SCRATCH:-$top/build/analyze-planted}

rm -rf "$scratch"
mkdir -p "$scratch"
# the tree as it is now, committed or not, without build outputs
tar -C "$top" --exclude=./build --exclude=./build-asan --exclude=./.git \
	-cf - . | tar -C "$scratch" -xf -
cd "$scratch"

passed=0
failed=0
ok() { echo "ok: $*"; passed=$((passed + 1)); }
not_ok() { echo "FAIL: $*"; failed=$((failed + 1)); }

# run TARGET FILE LOG: the analyzer over FILE alone; its exit status.
run() {
	make -s --no-print-directory "$1" ANALYZE_SRCS="$2" > "$3" 2>&1
}

# plant FILE FROM TO: replace the one occurrence of FROM (python escapes
# \n, \t) in FILE by TO.
plant() {
	python3 - "$@" <<'EOF'
import sys
path, old, new = sys.argv[1], *(bytes(a, "utf-8").decode("unicode_escape")
                                 for a in sys.argv[2:4])
text = open(path).read()
if text.count(old) != 1:
    sys.exit("planted.sh: %s: the text to replace occurs %d times, not once"
             " (fix the plant with the code):\n%s" % (path, text.count(old), old))
open(path, "w").write(text.replace(old, new))
EOF
}

# expect_caught NAME TARGET FILE KIND: TARGET must fail over FILE, with a
# finding of KIND (a regex) reported in FILE, and the line marked
# "planted" named in the output.
expect_caught() {
	local name=$1 target=$2 file=$3 kind=$4 log line
	log=$scratch/$name.$target.log
	line=$(grep -n 'planted' "$file" | head -1 | cut -d: -f1)
	if run "$target" "$file" "$log"; then
		not_ok "$name: make $target passed over the planted bug ($log)"
	elif ! grep -Eq "^$file:[0-9]+:[0-9]+: (error|warning): .*$kind" "$log"; then
		not_ok "$name: make $target failed, but without a $kind finding in $file ($log)"
	elif ! grep -Eq "^$file:$line:|^ *\|? *$line \|" "$log"; then
		not_ok "$name: make $target did not name the planted line $file:$line ($log)"
	else
		ok "$name: make $target fails, at $file:$line"
	fi
}

clean_files="pam_dropgroups/lib/config.c pam_dropgroups/lib/kernel.c"
for target in analyze-gcc analyze-clang; do
	if run "$target" "$clean_files" "$scratch/clean.$target.log"; then
		ok "make $target passes over the clean copy"
	else
		not_ok "make $target fails over the clean copy ($scratch/clean.$target.log)"
	fi
done

# 1. A leak on an error path: the copied name not freed when it cannot be
#    appended.  gcc's to catch (clang's leak checker is off: analyze.mk).
plant pam_dropgroups/lib/config.c \
	'\tif (DG_APPEND(refs, ref) < 0) {\n\t\tfree(ref.name);\n\t\treturn -ENOMEM;' \
	'\tif (DG_APPEND(refs, ref) < 0) {\n\t\treturn -ENOMEM; /* planted */'
expect_caught leak analyze-gcc pam_dropgroups/lib/config.c 'leak of'

# 2. An error path that returns a value it never set: a short write left
#    err unset.  Both analyzers must catch it.
plant pam_dropgroups/lib/kernel.c \
	'\t\tint err = n < 0 ? errno : EIO;\n' \
	'\t\tint err;\n\n\t\tif (n < 0)\n\t\t\terr = errno;\n'
plant pam_dropgroups/lib/kernel.c \
	'\t\tclose(fd);\n\t\treturn -err;' \
	'\t\tclose(fd);\n\t\treturn -err; /* planted */'
expect_caught uninit analyze-gcc pam_dropgroups/lib/kernel.c 'uninitiali[sz]ed'
expect_caught uninit analyze-clang pam_dropgroups/lib/kernel.c 'garbage'

echo "analyze-planted: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
