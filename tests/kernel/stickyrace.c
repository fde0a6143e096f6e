/* stickyrace: writers of kernel.setgroups_sticky_gids against unprivileged
 * setgroups() drops and readers of the list, for the kernel-check VM (and
 * its KASAN/lockdep/kmemleak flavour).
 *
 *   stickyrace NAME SECONDS
 *
 * As root, with kernel.setgroups_unprivileged_drop at 1.  For SECONDS:
 *
 *  - a writer replaces the list, in turn, with "3", "3,4", a long list
 *    (3, 4 and gids 1000..2499, over 4 KiB) in one write, the same list
 *    in 1 KiB blocks (the first takes one byte, the rest is refused:
 *    nothing changes), and a list
 *    written in two pieces, the first of which is a whole value and
 *    installed, the second refused; every list it writes holds gid 3;
 *  - two readers read the list: each read must be one of those lists,
 *    whole (the two-piece list's first piece being one);
 *  - two droppers fork, again and again, a process with groups 1..5 that
 *    becomes uid 1000 with no_new_privs and tries to drop 3 (which must
 *    always fail), to drop 4 (which succeeds or not, depending on the
 *    list of the moment) and to drop 5 (which must always succeed).
 *
 * Prints 4 TAP lines ("ok - NAME: ..."), and exits with the number of
 * failures.  Leaves the list empty ("none"). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define STICKY "/proc/sys/kernel/setgroups_sticky_gids"

struct counts {
	long writes, write_errors, bad_write_results;
	long reads, bad_reads;
	long attempts, dropped3, dropped4, kept4, refused5, child_errors;
	char bad_read[96], bad_write[96];
};

static struct counts *c;
static char long_list[16384], piece_list[16384], partial[2048];
static size_t long_len, piece_len, piece_first;

static int put(const char *buf, size_t len, off_t off)
{
	int fd = open(STICKY, O_WRONLY | O_CLOEXEC), e = 0;
	ssize_t n;

	if (fd < 0)
		return errno;
	n = pwrite(fd, buf, len, off);
	if (n < 0)
		e = errno;
	else if ((size_t)n != len)
		e = EIO;
	close(fd);
	return e;
}

static void writer(time_t end)
{
	for (long i = 0; time(NULL) < end; i++) {
		int e, want = 0;

		switch (i % 5) {
		case 0: e = put("3\n", 2, 0); break;
		case 1: e = put("3,4", 3, 0); break;
		case 2: e = put(long_list, long_len, 0); break;
		case 3: {
			int fd = open(STICKY, O_WRONLY | O_CLOEXEC);

			/* the first block, a multiple of 1 KiB that does not
			 * end the line, could be the first piece of a longer
			 * value: it takes one byte and installs nothing, and
			 * the rest, at position 1, is refused */
			want = EINVAL;
			e = fd < 0 ? errno : 0;
			if (!e && write(fd, long_list, 1024) != 1)
				e = EPROTO;
			if (!e && write(fd, long_list + 1, 1023) >= 0)
				e = EPROTO;
			else if (!e)
				e = errno;
			if (fd >= 0)
				close(fd);
			break;
		}
		default: {
			/* the first piece is a value of its own (under 1 KiB,
			 * one write at 0) and is installed; the second, at an
			 * offset, is refused */
			int fd = open(STICKY, O_WRONLY | O_CLOEXEC);

			e = 0;
			if (fd < 0 || write(fd, piece_list, piece_first) != (ssize_t)piece_first)
				e = EIO;
			else if (write(fd, piece_list + piece_first,
				       piece_len - piece_first) >= 0 || errno != EINVAL)
				e = EPROTO;
			if (fd >= 0)
				close(fd);
			break;
		}
		}
		__atomic_add_fetch(&c->writes, 1, __ATOMIC_RELAXED);
		if (e != want) {
			c->bad_write_results++;
			snprintf(c->bad_write, sizeof(c->bad_write), "step %ld: %s", i % 5, strerror(e));
		}
	}
}

/* Is @s one of the lists the writer installs: whole, or the first piece
 * of the one it writes in two (a value of its own)? */
static int known(const char *s)
{
	return !strcmp(s, "3") || !strcmp(s, "3,4") ||
	       !strncmp(s, long_list, long_len - 1) || !strcmp(s, partial);
}

static void reader(time_t end)
{
	static char buf[32768];

	while (time(NULL) < end) {
		int fd = open(STICKY, O_RDONLY | O_CLOEXEC);
		ssize_t n = fd < 0 ? -1 : read(fd, buf, sizeof(buf) - 1);

		if (fd >= 0)
			close(fd);
		__atomic_add_fetch(&c->reads, 1, __ATOMIC_RELAXED);
		if (n <= 0) {
			__atomic_add_fetch(&c->bad_reads, 1, __ATOMIC_RELAXED);
			continue;
		}
		buf[n] = '\0';
		if (buf[n - 1] == '\n')
			buf[n - 1] = '\0';
		if (!known(buf)) {
			__atomic_add_fetch(&c->bad_reads, 1, __ATOMIC_RELAXED);
			snprintf(c->bad_read, sizeof(c->bad_read), "%.80s", buf);
		}
	}
}

/* In a fresh child: groups 1..5, uid 1000, no_new_privs, then the drops. */
static int drop_once(void)
{
	static const gid_t start[] = { 1, 2, 3, 4, 5 };
	static const gid_t no3[] = { 1, 2, 4, 5 }, no4[] = { 1, 2, 3, 5 };
	static const gid_t no5[] = { 1, 2, 3, 4 }, no45[] = { 1, 2, 3 };
	int status, r = 0;
	pid_t pid = fork();

	if (pid == 0) {
		if (setgroups(5, start) || setresgid(1000, 1000, 1000) ||
		    setresuid(1000, 1000, 1000) || prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0))
			_exit(100);
		/* bit 0: 3 dropped; bit 1: 4 dropped; bit 2: 5 refused */
		if (syscall(SYS_setgroups, 4, no3) == 0)
			_exit(1);
		if (syscall(SYS_setgroups, 4, no4) == 0)
			r |= 2;
		/* then 5: from 1,2,3,5 or from 1,2,3,4,5 */
		if (syscall(SYS_setgroups, r & 2 ? 3 : 4, r & 2 ? no45 : no5) != 0)
			r |= 4;
		_exit(r);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return 100;
	return WEXITSTATUS(status);
}

static void dropper(time_t end)
{
	while (time(NULL) < end) {
		int r = drop_once();

		__atomic_add_fetch(&c->attempts, 1, __ATOMIC_RELAXED);
		if (r >= 100) {
			__atomic_add_fetch(&c->child_errors, 1, __ATOMIC_RELAXED);
			continue;
		}
		if (r & 1)
			__atomic_add_fetch(&c->dropped3, 1, __ATOMIC_RELAXED);
		if (r & 2)
			__atomic_add_fetch(&c->dropped4, 1, __ATOMIC_RELAXED);
		else
			__atomic_add_fetch(&c->kept4, 1, __ATOMIC_RELAXED);
		if (r & 4)
			__atomic_add_fetch(&c->refused5, 1, __ATOMIC_RELAXED);
	}
}

int main(int argc, char **argv)
{
	const char *name = argc > 1 ? argv[1] : "stickyrace";
	int seconds = argc > 2 ? atoi(argv[2]) : 10, failures = 0, good;
	void (*roles[])(time_t) = { writer, reader, reader, dropper, dropper };
	pid_t pids[5];
	time_t end;

	setvbuf(stdout, NULL, _IOLBF, 0);
	c = mmap(NULL, sizeof(*c), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (c == MAP_FAILED)
		return 125;
	long_len = (size_t)snprintf(long_list, sizeof(long_list), "3,4");
	for (int g = 1000; g < 2500; g++)
		long_len += (size_t)snprintf(long_list + long_len, sizeof(long_list) - long_len, ",%d", g);
	long_list[long_len++] = '\n';
	long_list[long_len] = '\0';
	/* a list of 3 and gids 5000.., sent as 900 bytes and then the rest */
	piece_len = (size_t)snprintf(piece_list, sizeof(piece_list), "3");
	for (int g = 5000; piece_len < 2000; g++)
		piece_len += (size_t)snprintf(piece_list + piece_len, sizeof(piece_list) - piece_len, ",%d", g);
	piece_list[piece_len++] = '\n';
	piece_first = 900;
	/* what the first piece alone installs, as the list reads back */
	if (put(piece_list, piece_first, 0) == 0) {
		int fd = open(STICKY, O_RDONLY | O_CLOEXEC);
		ssize_t n = fd < 0 ? -1 : read(fd, partial, sizeof(partial) - 1);

		if (n > 0)
			partial[n - 1] = '\0';
		if (fd >= 0)
			close(fd);
	}
	/* every list from now on holds 3, the first one too */
	put("3\n", 2, 0);

	end = time(NULL) + seconds;
	for (int i = 0; i < 5; i++) {
		pids[i] = fork();
		if (pids[i] == 0) {
			roles[i](end);
			_exit(0);
		}
	}
	for (int i = 0; i < 5; i++)
		waitpid(pids[i], NULL, 0);
	good = c->writes >= 10 && !c->bad_write_results;
	failures += !good;
	printf("%sok - %s: writer: %ld writes, %ld with an unexpected result%s%s\n", good ? "" : "not ",
	       name, c->writes, c->bad_write_results, c->bad_write[0] ? ", last: " : "", c->bad_write);
	good = c->reads >= 10 && !c->bad_reads;
	failures += !good;
	printf("%sok - %s: readers: %ld reads, %ld not a list the writer wrote%s%s\n", good ? "" : "not ",
	       name, c->reads, c->bad_reads, c->bad_read[0] ? ", e.g. " : "", c->bad_read);
	good = c->attempts >= 10 && !c->dropped3 && !c->child_errors;
	failures += !good;
	printf("%sok - %s: droppers: %ld processes, gid 3 (always sticky) dropped %ld times, %ld errors; "
	       "gid 4 dropped %ld times, kept %ld times\n", good ? "" : "not ", name, c->attempts,
	       c->dropped3, c->child_errors, c->dropped4, c->kept4);
	good = !c->refused5;
	failures += !good;
	printf("%sok - %s: droppers: dropping gid 5 (never sticky) refused %ld times\n",
	       good ? "" : "not ", name, c->refused5);
	put("none\n", 5, 0);
	return failures;
}
