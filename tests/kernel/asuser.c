/* asuser: run a command with given credentials, in the kernel-check VM.
 *
 *   asuser [-n] [-d CAP] UID GID GROUPS -- CMD [ARG...]
 *
 * As root: set the supplementary groups to GROUPS (comma-separated gids,
 * "-" for none), then the real, effective and saved gid to GID and uid to
 * UID.  For a UID other than 0 that clears every capability, as login
 * programs leave a session; asuser checks that CAP_SETGID is really gone
 * before it runs CMD.
 *
 *   -n      set no_new_privs (prctl(PR_SET_NO_NEW_PRIVS)) before exec
 *   -d CAP  drop capability number CAP from the bounding, permitted,
 *           effective and inheritable sets (for UID 0: root without,
 *           say, CAP_SYS_ADMIN, which is 21)
 *
 * Exits 125 on its own errors, else execs CMD. */
#define _GNU_SOURCE
#include <errno.h>
#include <grp.h>
#include <linux/capability.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

static void die(const char *what)
{
	fprintf(stderr, "asuser: %s: %s\n", what, strerror(errno));
	exit(125);
}

static void usage(void)
{
	fprintf(stderr, "usage: asuser [-n] [-d CAP] UID GID GROUPS -- CMD [ARG...]\n");
	exit(125);
}

static unsigned long number(const char *s)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || end == s || *end)
		usage();
	return v;
}

static int parse_groups(char *s, gid_t *v, int max)
{
	int n = 0;

	if (strcmp(s, "-") == 0)
		return 0;
	for (char *tok = strtok(s, ","); tok; tok = strtok(NULL, ",")) {
		if (n == max)
			usage();
		v[n++] = (gid_t)number(tok);
	}
	return n;
}

static int get_caps(struct __user_cap_data_struct d[2])
{
	struct __user_cap_header_struct h = {_LINUX_CAPABILITY_VERSION_3, 0};

	return (int)syscall(SYS_capget, &h, d);
}

static int set_caps(struct __user_cap_data_struct d[2])
{
	struct __user_cap_header_struct h = {_LINUX_CAPABILITY_VERSION_3, 0};

	return (int)syscall(SYS_capset, &h, d);
}

int main(int argc, char **argv)
{
	struct __user_cap_data_struct caps[2];
	int nnp = 0, drop = -1, opt, n;
	gid_t groups[256];
	uid_t uid;
	gid_t gid;

	while ((opt = getopt(argc, argv, "+nd:")) != -1) {
		if (opt == 'n')
			nnp = 1;
		else if (opt == 'd')
			drop = (int)number(optarg);
		else
			usage();
	}
	if (argc - optind < 5 || strcmp(argv[optind + 3], "--") != 0)
		usage();
	uid = (uid_t)number(argv[optind]);
	gid = (gid_t)number(argv[optind + 1]);
	n = parse_groups(argv[optind + 2], groups, 256);

	if (setgroups((size_t)n, groups) < 0)
		die("setgroups");
	if (setresgid(gid, gid, gid) < 0)
		die("setresgid");
	if (setresuid(uid, uid, uid) < 0)
		die("setresuid");
	if (drop >= 0) {
		if (prctl(PR_CAPBSET_DROP, drop, 0, 0, 0) < 0)
			die("PR_CAPBSET_DROP");
		if (get_caps(caps) < 0)
			die("capget");
		caps[drop / 32].effective &= ~(1u << (drop % 32));
		caps[drop / 32].permitted &= ~(1u << (drop % 32));
		caps[drop / 32].inheritable &= ~(1u << (drop % 32));
		if (set_caps(caps) < 0)
			die("capset");
	}
	if (uid != 0) {
		if (get_caps(caps) < 0)
			die("capget");
		if (caps[0].effective & (1u << CAP_SETGID) ||
		    caps[0].permitted & (1u << CAP_SETGID)) {
			fprintf(stderr, "asuser: uid %u still has CAP_SETGID\n",
				(unsigned)uid);
			return 125;
		}
	}
	if (nnp && prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0)
		die("PR_SET_NO_NEW_PRIVS");
	execvp(argv[optind + 4], argv + optind + 4);
	die(argv[optind + 4]);
}
