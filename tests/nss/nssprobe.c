/*
 * nssprobe: what the NSS look-ups that pam_dropgroups makes answer, and
 * how long they take, for the directory tests (tests/lib/directory.sh) and
 * the outage experiments.
 *
 *   nssprobe OP ARG [OP ARG]...
 *     grnam NAME    getgrnam_r
 *     grgid GID     getgrgid_r
 *     pwnam NAME    getpwnam_r
 *     grouplist USER[:GID]   getgrouplist (GID: the user's primary group
 *                            from getpwnam when not given)
 *
 * One line per call:
 *   OP(ARG) rc=N(NAME) result=NULL|found(...) errno=N(NAME) ms=N.N
 * errno is set to 0 before each call, so a non-zero errno was set by it.
 * For getgrouplist: ret is the return value, n the count it reported.
 * The exit status is 0; the lines are the answer.
 */
#include <errno.h>
#include <grp.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static const char *ename(int e)
{
	static char buf[32];

	switch (e) {
	case 0: return "0";
	case ENOENT: return "ENOENT";
	case ESRCH: return "ESRCH";
	case EBADF: return "EBADF";
	case EPERM: return "EPERM";
	case ERANGE: return "ERANGE";
	case EAGAIN: return "EAGAIN";
	case ETIMEDOUT: return "ETIMEDOUT";
	case ECONNREFUSED: return "ECONNREFUSED";
	case EINTR: return "EINTR";
	case EIO: return "EIO";
	case ENOMEM: return "ENOMEM";
	case EPIPE: return "EPIPE";
	case ECONNRESET: return "ECONNRESET";
	case ENOTCONN: return "ENOTCONN";
	case EHOSTDOWN: return "EHOSTDOWN";
	default:
		snprintf(buf, sizeof(buf), "E%d", e);
		return buf;
	}
}

static void grnam(const char *name)
{
	struct group gr, *res = NULL;
	char buf[1 << 20];
	double t;
	int rc, e;

	errno = 0;
	t = now_ms();
	rc = getgrnam_r(name, &gr, buf, sizeof(buf), &res);
	e = errno;
	t = now_ms() - t;
	printf("grnam(%s) rc=%d(%s) ", name, rc, ename(rc));
	if (res) {
		int n = 0;

		while (gr.gr_mem[n])
			n++;
		printf("result=found(gid=%u,members=%d) ", (unsigned)gr.gr_gid, n);
	} else
		printf("result=NULL ");
	printf("errno=%d(%s) ms=%.1f\n", e, ename(e), t);
}

static void grgid(const char *arg)
{
	struct group gr, *res = NULL;
	char buf[1 << 20];
	gid_t gid = (gid_t)strtoul(arg, NULL, 10);
	double t;
	int rc, e;

	errno = 0;
	t = now_ms();
	rc = getgrgid_r(gid, &gr, buf, sizeof(buf), &res);
	e = errno;
	t = now_ms() - t;
	printf("grgid(%s) rc=%d(%s) ", arg, rc, ename(rc));
	if (res)
		printf("result=found(%s) ", gr.gr_name);
	else
		printf("result=NULL ");
	printf("errno=%d(%s) ms=%.1f\n", e, ename(e), t);
}

static void pwnam(const char *name)
{
	struct passwd pw, *res = NULL;
	char buf[1 << 16];
	double t;
	int rc, e;

	errno = 0;
	t = now_ms();
	rc = getpwnam_r(name, &pw, buf, sizeof(buf), &res);
	e = errno;
	t = now_ms() - t;
	printf("pwnam(%s) rc=%d(%s) ", name, rc, ename(rc));
	if (res)
		printf("result=found(uid=%u,gid=%u) ", (unsigned)pw.pw_uid,
		       (unsigned)pw.pw_gid);
	else
		printf("result=NULL ");
	printf("errno=%d(%s) ms=%.1f\n", e, ename(e), t);
}

static void grouplist(const char *arg)
{
	char user[256];
	const char *colon = strchr(arg, ':');
	gid_t gid = 65534;
	static gid_t groups[70000];
	int n = (int)(sizeof(groups) / sizeof(groups[0]));
	double t;
	int ret, e;

	snprintf(user, sizeof(user), "%.*s", colon ? (int)(colon - arg) : 255, arg);
	if (colon)
		gid = (gid_t)strtoul(colon + 1, NULL, 10);
	else {
		struct passwd pw, *res = NULL;
		char buf[1 << 16];

		if (getpwnam_r(user, &pw, buf, sizeof(buf), &res) == 0 && res)
			gid = pw.pw_gid;
	}
	errno = 0;
	t = now_ms();
	ret = getgrouplist(user, gid, groups, &n);
	e = errno;
	t = now_ms() - t;
	printf("grouplist(%s,%u) ret=%d n=%d errno=%d(%s) ms=%.1f groups=",
	       user, (unsigned)gid, ret, n, e, ename(e), t);
	for (int i = 0; i < n && i < 12 && ret >= 0; i++)
		printf("%s%u", i ? "," : "", (unsigned)groups[i]);
	if (ret >= 0 && n > 12)
		printf(",...");
	printf("\n");
}

int main(int argc, char **argv)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc < 3 || argc % 2 == 0) {
		fprintf(stderr, "usage: nssprobe OP ARG [OP ARG]...  (OP: grnam grgid pwnam grouplist)\n");
		return 2;
	}
	for (int i = 1; i + 1 < argc; i += 2) {
		if (!strcmp(argv[i], "grnam"))
			grnam(argv[i + 1]);
		else if (!strcmp(argv[i], "grgid"))
			grgid(argv[i + 1]);
		else if (!strcmp(argv[i], "pwnam"))
			pwnam(argv[i + 1]);
		else if (!strcmp(argv[i], "grouplist"))
			grouplist(argv[i + 1]);
		else {
			fprintf(stderr, "nssprobe: unknown op %s\n", argv[i]);
			return 2;
		}
	}
	return 0;
}
