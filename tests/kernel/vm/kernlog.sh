# The kernel's log after everything else: no oops, BUG, WARNING or
# sanitizer report.

dmesg > /tmp/dmesg
bad='BUG:|WARNING:|Oops|Call Trace|KASAN|UBSAN|circular locking|suspicious RCU usage|possible recursive locking|inconsistent lock state|unreferenced object'
expect "the kernel log has no oops, BUG, WARNING or sanitizer report" \
	sh -c "! grep -qE '$bad' /tmp/dmesg"
grep -E -B2 -A20 "$bad" /tmp/dmesg | head -n 60 | sed 's/^/#   /'

