/* safety-probe: is this kernel at least as safe as a stock one?  Run as
 * root by check-series.sh's VM on a kernel built from each prefix of the
 * series (and on the stock kernel, as the baseline), right after boot.
 *
 *   safety-probe NAME
 *
 * Prints 16 TAP lines "ok - NAME: ..." / "not ok - NAME: ...", the same
 * 16 on every kernel, and exits with the number of "not ok" lines.  No
 * check is skipped: where a sysctl is missing, its check says what the
 * kernel must do without it, and checks that.
 *
 * The unprivileged process is uid and gid 1000 with groups 1..5 and no
 * capabilities.  "An allow namespace" is a user namespace whose maps
 * this probe, as root, wrote for it, as the set-user-ID newgidmap does:
 * its setgroups file stays "allow", and its root holds CAP_SETGID there.
 *
 *   1-4   with the sysctls at their boot values, setgroups(1,2) is EPERM
 *         with and without no_new_privs, through setgroups16, and in a
 *         user namespace with setgroups "deny": as on stock.
 *   5     the knob cannot be turned on before the sticky list has been
 *         written: EBUSY (no knob at all passes).
 *   6     the knob never comes without the sticky list.
 *   7-9   with 3 in the sticky list (where there is one), root of an
 *         allow namespace cannot drop 3, mapped or not, and can drop 4;
 *         where there is no sticky list, it drops 3 as on stock (the
 *         subgid route the list closes), which shows the check can fail.
 *   10-15 with the knob at 1 (where there is one) and 3 sticky: EPERM
 *         without no_new_privs and for a list that adds a group (both
 *         keeping 3, so that the sticky check cannot be what refuses
 *         them), for a drop of 3 through setgroups and setgroups16; a
 *         drop of 4 and 5 works through both.
 *   16    with the knob at 1 and the list "none", EPERM in a "deny"
 *         namespace (which nothing sticky can explain).
 *         Where there is no knob, every one of 10-16 is EPERM. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#define KNOB "/proc/sys/kernel/setgroups_unprivileged_drop"
#define STICKY "/proc/sys/kernel/setgroups_sticky_gids"

enum how { PLAIN, NNP, NNP_USERNS, NNP_16, NS_ALLOW, NS_ALLOW_NO3 };

static const char *name;
static int failures;

static void result(int good, const char *what, const char *got)
{
	printf("%sok - %s: %s: %s\n", good ? "" : "not ", name, what, got);
	fflush(stdout);
	failures += !good;
}

static int write_file(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC), r = 0;

	if (fd < 0)
		return -1;
	if (write(fd, text, strlen(text)) != (ssize_t)strlen(text))
		r = -1;
	close(fd);
	return r;
}

static char *read_file(const char *path)
{
	static char buf[256];
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n = fd < 0 ? -1 : read(fd, buf, sizeof(buf) - 1);

	if (fd >= 0)
		close(fd);
	if (n < 0)
		return "(unreadable)";
	buf[n] = '\0';
	if (n && buf[n - 1] == '\n')
		buf[n - 1] = '\0';
	return buf;
}

static long setgroups16(int n, const gid_t *v)
{
	static unsigned short *l16;
	long r;

	if (!l16)
		l16 = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
			   MAP_32BIT | MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (l16 == MAP_FAILED)
		return -ENOMEM;
	for (int i = 0; i < n; i++)
		l16[i] = (unsigned short)v[i];
	__asm__ volatile("int $0x80" : "=a"(r)
			 : "a"(81L), "b"((long)n), "c"((long)(unsigned long)l16)
			 : "memory", "r8", "r9", "r10", "r11");
	return r;
}

/* In a child: become uid 1000 with groups 1..5, then setgroups(@list);
 * returns "ok" or the error's name ("crash" if the child died).  For the
 * allow namespaces, this process writes the child's maps as root. */
static const char *attempt(enum how how, int n, const gid_t *list)
{
	static const gid_t start[] = { 1, 2, 3, 4, 5 };
	static char out[64];
	int status, fds[2], go[2];
	pid_t pid;

	if (pipe(fds) || pipe(go))
		return "pipe";
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		long r = 0;
		int e = 0;
		char c;

		close(go[1]);
		if (setgroups(5, start) || setresgid(1000, 1000, 1000) ||
		    setresuid(1000, 1000, 1000))
			e = errno + 1000;
		if (!e && how != PLAIN && how < NS_ALLOW &&
		    prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0))
			e = errno + 1000;
		if (!e && how == NNP_USERNS &&
		    (prctl(PR_SET_DUMPABLE, 1, 0, 0, 0) || unshare(CLONE_NEWUSER) ||
		     write_file("/proc/self/setgroups", "deny") ||
		     write_file("/proc/self/uid_map", "1000 1000 1") ||
		     write_file("/proc/self/gid_map", "1000 1000 1")))
			e = errno + 1000;
		if (!e && how >= NS_ALLOW &&
		    (prctl(PR_SET_DUMPABLE, 1, 0, 0, 0) || unshare(CLONE_NEWUSER)))
			e = errno + 1000;
		if (how >= NS_ALLOW) {
			/* tell the parent, wait for the maps */
			if (write(fds[1], &e, sizeof(e)) != sizeof(e) ||
			    read(go[0], &c, 1) != 1 || c != 'g')
				_exit(1);
		}
		if (!e) {
			if (how == NNP_16)
				r = setgroups16(n, list);
			else
				r = syscall(SYS_setgroups, n, list) ? -errno : 0;
			e = r < 0 ? (int)-r : 0;
		}
		if (write(fds[1], &e, sizeof(e)) != sizeof(e))
			_exit(1);
		_exit(0);
	}
	close(fds[1]);
	close(go[0]);
	int e = -1;
	if (how >= NS_ALLOW) {
		char path[64], c = 'x';
		/* root in the parent namespace, as newgidmap: gid 1000 is 0
		 * inside, and 1..5 are themselves (but 3, for NS_ALLOW_NO3) */
		const char *gidmap = how == NS_ALLOW ? "0 1000 1\n1 1 5\n" :
						       "0 1000 1\n1 1 2\n4 4 2\n";

		if (read(fds[0], &e, sizeof(e)) == sizeof(e) && e == 0) {
			snprintf(path, sizeof(path), "/proc/%d/uid_map", (int)pid);
			if (!write_file(path, "0 1000 1\n")) {
				snprintf(path, sizeof(path), "/proc/%d/gid_map", (int)pid);
				if (!write_file(path, gidmap))
					c = 'g';
			}
			if (c != 'g')
				e = errno + 1000;
		}
		if (write(go[1], &c, 1) != 1)
			e = -1;
		if (c != 'g') {
			close(go[1]);
			close(fds[0]);
			waitpid(pid, &status, 0);
			goto out;
		}
		e = -1;
	}
	if (read(fds[0], &e, sizeof(e)) != sizeof(e))
		e = -1;
	close(go[1]);
	close(fds[0]);
	waitpid(pid, &status, 0);
out:
	if (e == -1)
		return "crash";
	if (e == 0)
		return "ok";
	if (e == EPERM)
		return "EPERM";
	snprintf(out, sizeof(out), "%s%s", e >= 1000 ? "setup: " : "",
		 strerror(e >= 1000 ? e - 1000 : e));
	return out;
}

static void expect(const char *want, const char *what, const char *got)
{
	result(!strcmp(got, want), what, got);
}

int main(int argc, char **argv)
{
	static const gid_t drop[] = { 1, 2 }, add[] = { 1, 2, 3, 4, 5, 6 };
	static const gid_t no3[] = { 1, 2, 4, 5 }, no4[] = { 1, 2, 3, 5 };
	static const gid_t no45[] = { 1, 2, 3 };
	int knob = access(KNOB, F_OK) == 0, sticky = access(STICKY, F_OK) == 0;
	const char *r, *want;
	char got[128];

	name = argc > 1 ? argv[1] : "probe";
	setvbuf(stdout, NULL, _IOLBF, 0);

	/* 1-4: boot values */
	expect("EPERM", "sysctls at boot values, no_new_privs: setgroups(1,2) is EPERM",
	       attempt(NNP, 2, drop));
	expect("EPERM", "sysctls at boot values, no no_new_privs: setgroups(1,2) is EPERM",
	       attempt(PLAIN, 2, drop));
	expect("EPERM", "sysctls at boot values, no_new_privs: setgroups16(1,2) is EPERM",
	       attempt(NNP_16, 2, drop));
	expect("EPERM", "sysctls at boot values, user namespace with setgroups deny: setgroups() is EPERM",
	       attempt(NNP_USERNS, 0, drop));

	/* 5: the fail-closed default */
	if (knob) {
		int w = write_file(KNOB, "1");
		int e = errno;

		snprintf(got, sizeof(got), "write %s, knob reads %s",
			 w ? strerror(e) : "succeeded", read_file(KNOB));
		result(w && e == EBUSY && !strcmp(read_file(KNOB), "0"),
		       "sticky list never written: turning the knob on is refused with EBUSY", got);
		write_file(KNOB, "0");
	} else {
		result(1, "no knob: nothing can turn an unprivileged drop on", "no knob");
	}
	/* 6: the order of the series */
	snprintf(got, sizeof(got), "knob %s, sticky list %s",
		 knob ? "present" : "absent", sticky ? "present" : "absent");
	result(!knob || sticky, "the knob never comes without the sticky list", got);

	/* 7-9: the subgid route, root of an allow namespace */
	if (sticky && write_file(STICKY, "3\n")) {
		result(0, "writing 3 to kernel.setgroups_sticky_gids", strerror(errno));
		sticky = 0;
	}
	want = sticky ? "EPERM" : "ok";
	r = attempt(NS_ALLOW, 4, no3);
	snprintf(got, sizeof(got), "%s (%s)", r,
		 sticky ? "sticky 3 binds root of the namespace" : "no sticky list: as on stock");
	result(!strcmp(r, want), "root of an allow namespace drops 3: EPERM if 3 is sticky, else ok", got);
	r = attempt(NS_ALLOW_NO3, 4, no3);
	snprintf(got, sizeof(got), "%s (%s)", r,
		 sticky ? "sticky 3 binds root of the namespace" : "no sticky list: as on stock");
	result(!strcmp(r, want), "root of an allow namespace where 3 is unmapped drops it: EPERM if 3 is sticky, else ok", got);
	expect("ok", "root of an allow namespace drops 4, which is not sticky",
	       attempt(NS_ALLOW, 4, no4));

	/* 10-16: the unprivileged drop, on where there is a knob */
	if (knob && write_file(KNOB, "1")) {
		result(0, "turning kernel.setgroups_unprivileged_drop on after the list was written",
		       strerror(errno));
		knob = 0;
	}
	expect("EPERM", knob ? "knob 1, sticky 3, no no_new_privs: setgroups(1,2,3) is EPERM" :
			       "no knob, no no_new_privs: setgroups(1,2,3) is EPERM",
	       attempt(PLAIN, 3, no45));
	expect("EPERM", knob ? "knob 1, no_new_privs: setgroups(1..6), which adds 6 and keeps 3, is EPERM" :
			       "no knob, no_new_privs: setgroups(1..6) is EPERM",
	       attempt(NNP, 6, add));
	expect("EPERM", knob ? "knob 1, sticky 3, no_new_privs: setgroups(1,2,4,5) is EPERM" :
			       "no knob, no_new_privs: setgroups(1,2,4,5) is EPERM",
	       attempt(NNP, 4, no3));
	expect("EPERM", knob ? "knob 1, sticky 3, no_new_privs: setgroups16(1,2,4,5) is EPERM" :
			       "no knob, no_new_privs: setgroups16(1,2,4,5) is EPERM",
	       attempt(NNP_16, 4, no3));
	expect(knob ? "ok" : "EPERM",
	       knob ? "knob 1, sticky 3, no_new_privs: setgroups(1,2,3) drops 4 and 5" :
		      "no knob, no_new_privs: setgroups(1,2,3) is EPERM",
	       attempt(NNP, 3, no45));
	expect(knob ? "ok" : "EPERM",
	       knob ? "knob 1, sticky 3, no_new_privs: setgroups16(1,2,3) drops 4 and 5" :
		      "no knob, no_new_privs: setgroups16(1,2,3) is EPERM",
	       attempt(NNP_16, 3, no45));
	if (sticky && write_file(STICKY, "none\n")) {
		result(0, "writing none to kernel.setgroups_sticky_gids", strerror(errno));
		sticky = 0;
	}
	expect("EPERM", knob ? "knob 1, nothing sticky, user namespace with setgroups deny: setgroups() is EPERM" :
			       "no knob, user namespace with setgroups deny: setgroups() is EPERM",
	       attempt(NNP_USERNS, 0, drop));
	if (knob)
		write_file(KNOB, "0");
	return failures;
}
