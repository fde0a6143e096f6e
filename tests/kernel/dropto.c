/* dropto: one setgroups(2) call, in the kernel-check VM.
 *
 *   dropto LIST
 *
 * LIST: the new supplementary groups, comma-separated gids as the
 * caller's user namespace names them, or "-" for none.  Calls the raw
 * system call (glibc's setgroups() would make every thread call it) and
 * prints "setgroups: ok" or "setgroups: " and the error's name (EPERM,
 * EINVAL, ...).  Exits 0 if the call succeeded, 1 if it failed, 2 on a
 * usage error.  A process that an LSM kills for the call (SafeSetID
 * sends SIGKILL) prints nothing: the shell sees status 137. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#define MAXG 64

static const char *errname(int e)
{
	switch (e) {
	case EPERM: return "EPERM";
	case EINVAL: return "EINVAL";
	case EACCES: return "EACCES";
	case EFAULT: return "EFAULT";
	default: return strerror(e);
	}
}

int main(int argc, char **argv)
{
	gid_t list[MAXG];
	int n = 0;

	if (argc != 2) {
		fprintf(stderr, "usage: dropto LIST\n");
		return 2;
	}
	if (strcmp(argv[1], "-") != 0) {
		for (char *tok = strtok(argv[1], ","); tok; tok = strtok(NULL, ",")) {
			char *end;
			unsigned long v;

			errno = 0;
			v = strtoul(tok, &end, 10);
			if (errno || end == tok || *end || n == MAXG || v > 0xfffffffeUL) {
				fprintf(stderr, "dropto: bad gid list\n");
				return 2;
			}
			list[n++] = (gid_t)v;
		}
	}
	if (syscall(SYS_setgroups, n, list) != 0) {
		printf("setgroups: %s\n", errname(errno));
		return 1;
	}
	printf("setgroups: ok\n");
	return 0;
}
