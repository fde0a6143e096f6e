# The kernel's log after everything else: no oops, BUG, WARNING or
# sanitizer report; with the debug kernel (dgdebug=1), KASAN, lockdep
# and kmemleak are there, and kmemleak finds no leak.

dmesg > /tmp/dmesg
bad='BUG:|WARNING:|Oops|Call Trace|KASAN|UBSAN|circular locking|suspicious RCU usage|possible recursive locking|inconsistent lock state|unreferenced object'
expect "the kernel log has no oops, BUG, WARNING or sanitizer report" \
	sh -c "! grep -qE '$bad' /tmp/dmesg"
grep -E -B2 -A20 "$bad" /tmp/dmesg | head -n 60 | sed 's/^/#   /'

if [ "${DEBUG:-0}" = 1 ]; then
	# debug_locks goes to 0 when lockdep turns itself off after a report
	expect "debug kernel: KASAN and lockdep are on, and lockdep still is at the end" \
		sh -c 'grep -q "KernelAddressSanitizer initialized" /tmp/dmesg &&
		       grep -qE "debug_locks: +1" /proc/lockdep_stats'
	mount -t debugfs debugfs /sys/kernel/debug 2>/dev/null
	if [ -e /sys/kernel/debug/kmemleak ]; then
		# two scans: an object is reported only once it has been
		# unreferenced for a whole scan
		echo scan > /sys/kernel/debug/kmemleak
		sleep 6
		echo scan > /sys/kernel/debug/kmemleak
		cat /sys/kernel/debug/kmemleak > /tmp/leaks
		expect "kmemleak: no leak ($(grep -c 'unreferenced object' /tmp/leaks) reported)" \
			[ ! -s /tmp/leaks ]
		head -n 40 /tmp/leaks | sed 's/^/#   /'
	else
		notok "kmemleak: /sys/kernel/debug/kmemleak is missing"
	fi
fi
