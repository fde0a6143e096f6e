/* dropsteps: the test sequence from the 2014 patch ("groups: Allow
 * unprivileged processes to use setgroups to drop groups", 2014), as a
 * TAP-printing check for the kernel-check VM.
 *
 *   dropsteps [-n] [-u] [-3] [-r] [-g START] NAME STEP...
 *
 * As root, set the supplementary groups to START (default 1,2,3,4,5),
 * then drop to uid and gid 1 (setresgid, setresuid), which clears every
 * capability; check that CAP_SETGID is gone.  Then, unprivileged, call
 * setgroups for each STEP, "LIST:EXPECT": LIST is comma-separated gids
 * (empty for none), EXPECT is "ok" or an errno name (EPERM, EINVAL).
 * After each call the group list must be LIST if the call succeeded, and
 * unchanged if it failed.  The 2014 patch's own sequence is
 *
 *   dropsteps NAME 2,3,4:ok 1,2,3,4,5:EPERM
 *
 * (drop groups 1 and 5, then fail to get them back).
 *
 *   -n  set no_new_privs after dropping root, before the setgroups calls
 *   -u  then enter a new user namespace, write "deny" to its setgroups
 *       file and map uid 1 and gid 1 to themselves, as an unprivileged
 *       user must before writing a gid_map
 *   -3  call the 16-bit setgroups16 (i386 syscall 81, through int $0x80:
 *       IA32_EMULATION) instead of setgroups
 *   -r  stay root (with CAP_SETGID): the privileged path, for contrast
 *
 * Prints "ok - NAME: ..." or "not ok - NAME: ..." for each check; exits
 * with the number of failures. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <linux/capability.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#define MAXG 64

static const char *name;
static int failures;

static void check(int good, const char *fmt, ...)
{
	va_list ap;

	printf("%sok - %s: ", good ? "" : "not ", name);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
	if (!good)
		failures++;
}

static int parse_list(const char *s, gid_t *v)
{
	char *copy = strdup(s), *save = NULL;
	int n = 0;

	for (char *tok = strtok_r(copy, ",", &save); tok && n < MAXG;
	     tok = strtok_r(NULL, ",", &save))
		v[n++] = (gid_t)strtoul(tok, NULL, 10);
	free(copy);
	return n;
}

static int cmp_gid(const void *a, const void *b)
{
	gid_t x = *(const gid_t *)a, y = *(const gid_t *)b;

	return (x > y) - (x < y);
}

/* The list sorted, without duplicates, as "a,b,c" (the kernel keeps the
 * list sorted; duplicates compare as one). */
static void format(const gid_t *in, int n, char *out, size_t size)
{
	gid_t v[MAXG];
	size_t len = 0;

	memcpy(v, in, (size_t)n * sizeof(*v));
	qsort(v, (size_t)n, sizeof(*v), cmp_gid);
	out[0] = '\0';
	for (int i = 0; i < n; i++) {
		if (i && v[i] == v[i - 1])
			continue;
		len += (size_t)snprintf(out + len, size - len, "%s%u",
					len ? "," : "", (unsigned)v[i]);
	}
}

static void current(char *out, size_t size)
{
	gid_t v[MAXG];
	int n = getgroups(MAXG, v);

	if (n < 0)
		snprintf(out, size, "getgroups: %s", strerror(errno));
	else
		format(v, n, out, size);
}

static const char *errname(int e)
{
	switch (e) {
	case 0: return "ok";
	case EPERM: return "EPERM";
	case EINVAL: return "EINVAL";
	case EFAULT: return "EFAULT";
	case ENOSYS: return "ENOSYS";
	case ENOMEM: return "ENOMEM";
	default: return strerror(e);
	}
}

/* setgroups16 through the i386 system call table.  The list must be in
 * the low 4 GiB: a static array of a non-PIE program is. */
static unsigned short list16[MAXG];

static int setgroups16(int n, const gid_t *v)
{
	long r;

	for (int i = 0; i < n; i++)
		list16[i] = (unsigned short)v[i];
	__asm__ volatile("int $0x80"
			 : "=a"(r)
			 : "a"(81L), "b"((long)n), "c"((long)(unsigned long)list16)
			 : "memory");
	if (r < 0) {
		errno = (int)-r;
		return -1;
	}
	return 0;
}

static int write_file(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	ssize_t len = (ssize_t)strlen(text);
	int r = 0;

	if (fd < 0)
		return -1;
	if (write(fd, text, (size_t)len) != len)
		r = -1;
	close(fd);
	return r;
}

static int has_cap_setgid(void)
{
	struct __user_cap_header_struct h = {_LINUX_CAPABILITY_VERSION_3, 0};
	struct __user_cap_data_struct d[2];

	if (syscall(SYS_capget, &h, d) < 0)
		return -1;
	return (d[0].effective | d[0].permitted) & (1u << CAP_SETGID) ? 1 : 0;
}

int main(int argc, char **argv)
{
	const char *start = "1,2,3,4,5";
	int nnp = 0, userns = 0, use16 = 0, stay_root = 0, opt;
	gid_t v[MAXG];
	char before[512], after[512], want[512];
	int n;

	setvbuf(stdout, NULL, _IOLBF, 0);
	while ((opt = getopt(argc, argv, "+nu3rg:")) != -1) {
		switch (opt) {
		case 'n': nnp = 1; break;
		case 'u': userns = 1; break;
		case '3': use16 = 1; break;
		case 'r': stay_root = 1; break;
		case 'g': start = optarg; break;
		default:
			fprintf(stderr, "usage: dropsteps [-n] [-u] [-3] [-r] [-g START] NAME STEP...\n");
			return 125;
		}
	}
	if (optind >= argc) {
		fprintf(stderr, "dropsteps: no NAME\n");
		return 125;
	}
	name = argv[optind++];

	/* The 2014 sequence's first part, as root. */
	n = parse_list(start, v);
	if (setgroups((size_t)n, v) < 0) {
		check(0, "setgroups(%s) as root: %s", start, strerror(errno));
		return failures;
	}
	if (!stay_root && (setresgid(1, 1, 1) < 0 || setresuid(1, 1, 1) < 0)) {
		check(0, "dropping to uid/gid 1: %s", strerror(errno));
		return failures;
	}
	current(before, sizeof(before));
	format(v, n, want, sizeof(want));
	if (stay_root)
		check(strcmp(before, want) == 0 && has_cap_setgid() == 1,
		      "root, groups %s, with CAP_SETGID", before);
	else
		check(strcmp(before, want) == 0 && has_cap_setgid() == 0,
		      "uid 1, gid 1, groups %s, no CAP_SETGID", before);

	if (nnp && prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0)
		check(0, "PR_SET_NO_NEW_PRIVS: %s", strerror(errno));
	if (userns) {
		/* Changing uids made the process non-dumpable, which makes
		 * its /proc/self files root's: make them its own again. */
		int r = prctl(PR_SET_DUMPABLE, 1, 0, 0, 0);

		if (r == 0)
			r = unshare(CLONE_NEWUSER);

		if (r == 0)
			r = write_file("/proc/self/setgroups", "deny");
		if (r == 0)
			r = write_file("/proc/self/uid_map", "1 1 1");
		if (r == 0)
			r = write_file("/proc/self/gid_map", "1 1 1");
		check(r == 0, "in a new user namespace with setgroups \"deny\"%s%s",
		      r ? ": " : "", r ? strerror(errno) : "");
	}

	/* The unprivileged part: each step. */
	for (; optind < argc; optind++) {
		char *step = strdup(argv[optind]), *colon = strrchr(step, ':');
		const char *expect, *got;
		int r;

		if (!colon) {
			fprintf(stderr, "dropsteps: bad step %s\n", step);
			return 125;
		}
		*colon = '\0';
		expect = colon + 1;
		n = parse_list(step, v);
		current(before, sizeof(before));
		errno = 0;
		r = use16 ? setgroups16(n, v) : setgroups((size_t)n, v);
		got = errname(r < 0 ? errno : 0);
		current(after, sizeof(after));
		format(v, n, want, sizeof(want));
		check(strcmp(got, expect) == 0 &&
			      strcmp(after, r < 0 ? before : want) == 0,
		      "%s(%s) -> %s (want %s); groups %s -> %s",
		      use16 ? "setgroups16" : "setgroups", step, got, expect,
		      before, after);
		free(step);
	}
	return failures;
}
