/* safety-probe: is this kernel at least as safe as a stock one?  Run as
 * root by check-series.sh's VM on a kernel built from each prefix of the
 * series (and on the stock kernel, as the baseline).
 *
 *   safety-probe NAME
 *
 * Prints 9 TAP lines "ok - NAME: ..." / "not ok - NAME: ...", and exits
 * with the number of "not ok" lines.
 *
 * A stock kernel refuses setgroups() to every process without CAP_SETGID.
 * A prefix of the series may let such a process drop groups only when the
 * administrator turned kernel.setgroups_unprivileged_drop on, only with
 * no_new_privs, only to a subset, never in a user namespace with
 * setgroups "deny", and never a gid of kernel.setgroups_sticky_gids.  So:
 *
 *   1-4  with every sysctl at its boot value (not touched), an unprivileged
 *        process (uid 1000, groups 1..5, no capabilities) gets EPERM from
 *        setgroups(1,2), with and without no_new_privs, from setgroups16,
 *        and in a user namespace with setgroups "deny": as on stock.
 *   5-8  if the knob exists, with it at 1: EPERM without no_new_privs, for
 *        a list that adds a group, and in a "deny" user namespace; and the
 *        drop itself works with no_new_privs (the feature is there).
 *   9    if the sticky list exists, with 3 in it: EPERM for a drop of 3.
 *
 * Where the knob or the list does not exist, 5-9 are "ok ... # SKIP". */
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

enum how { PLAIN, NNP, NNP_USERNS, NNP_16 };

static const char *name;
static int failures;

static void result(int good, const char *skip, const char *fmt, const char *what, const char *got)
{
	printf("%sok - %s: ", good ? "" : "not ", name);
	printf(fmt, what, got);
	if (skip)
		printf(" # SKIP %s", skip);
	printf("\n");
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
 * returns "ok" or the error's name ("crash" if the child died). */
static const char *attempt(enum how how, int n, const gid_t *list)
{
	static const gid_t start[] = { 1, 2, 3, 4, 5 };
	static char out[64];
	int status, fds[2];
	pid_t pid;

	if (pipe(fds))
		return "pipe";
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		long r = 0;
		int e = 0;

		if (setgroups(5, start) || setresgid(1000, 1000, 1000) ||
		    setresuid(1000, 1000, 1000))
			e = errno + 1000;
		if (!e && how != PLAIN && prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0))
			e = errno + 1000;
		if (!e && how == NNP_USERNS &&
		    (prctl(PR_SET_DUMPABLE, 1, 0, 0, 0) || unshare(CLONE_NEWUSER) ||
		     write_file("/proc/self/setgroups", "deny") ||
		     write_file("/proc/self/uid_map", "1000 1000 1") ||
		     write_file("/proc/self/gid_map", "1000 1000 1")))
			e = errno + 1000;
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
	int e = -1;
	if (read(fds[0], &e, sizeof(e)) != sizeof(e))
		e = -1;
	close(fds[0]);
	waitpid(pid, &status, 0);
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

int main(int argc, char **argv)
{
	static const gid_t drop[] = { 1, 2 }, add[] = { 1, 2, 6 }, no3[] = { 1, 2, 4, 5 };
	const char *fmt = "%s: %s";
	int knob = access(KNOB, F_OK) == 0, sticky = access(STICKY, F_OK) == 0;
	const char *r;

	name = argc > 1 ? argv[1] : "probe";
	setvbuf(stdout, NULL, _IOLBF, 0);

	r = attempt(NNP, 2, drop);
	result(!strcmp(r, "EPERM"), NULL, fmt, "sysctls at boot values, no_new_privs: setgroups(1,2) is EPERM", r);
	r = attempt(PLAIN, 2, drop);
	result(!strcmp(r, "EPERM"), NULL, fmt, "sysctls at boot values, no no_new_privs: setgroups(1,2) is EPERM", r);
	r = attempt(NNP_16, 2, drop);
	result(!strcmp(r, "EPERM"), NULL, fmt, "sysctls at boot values, no_new_privs: setgroups16(1,2) is EPERM", r);
	r = attempt(NNP_USERNS, 0, drop);
	result(!strcmp(r, "EPERM"), NULL, fmt, "sysctls at boot values, user namespace with setgroups deny: setgroups() is EPERM", r);

	if (knob && write_file(KNOB, "1")) {
		result(0, NULL, fmt, "turning kernel.setgroups_unprivileged_drop on", strerror(errno));
		knob = 0;
	}
	r = knob ? attempt(PLAIN, 2, drop) : "-";
	result(!knob || !strcmp(r, "EPERM"), knob ? NULL : "no knob", fmt, "knob 1, no no_new_privs: setgroups(1,2) is EPERM", r);
	r = knob ? attempt(NNP, 3, add) : "-";
	result(!knob || !strcmp(r, "EPERM"), knob ? NULL : "no knob", fmt, "knob 1, no_new_privs: setgroups(1,2,6), which adds 6, is EPERM", r);
	r = knob ? attempt(NNP_USERNS, 0, drop) : "-";
	result(!knob || !strcmp(r, "EPERM"), knob ? NULL : "no knob", fmt, "knob 1, user namespace with setgroups deny: setgroups() is EPERM", r);
	r = knob ? attempt(NNP, 2, drop) : "-";
	result(!knob || !strcmp(r, "ok"), knob ? NULL : "no knob", fmt, "knob 1, no_new_privs: setgroups(1,2) drops 3, 4 and 5", r);

	if (sticky && write_file(STICKY, "3")) {
		result(0, NULL, fmt, "writing 3 to kernel.setgroups_sticky_gids", strerror(errno));
		sticky = 0;
	} else {
		r = knob && sticky ? attempt(NNP, 4, no3) : "-";
		result(!(knob && sticky) || !strcmp(r, "EPERM"), knob && sticky ? NULL : "no sticky list",
		       fmt, "knob 1, sticky 3, no_new_privs: setgroups(1,2,4,5) is EPERM", r);
	}
	if (knob)
		write_file(KNOB, "0");
	if (sticky)
		write_file(STICKY, "\n");
	return failures;
}
