/* pambench: what one login costs through pam_dropgroups, side by side
 * with pam_permit (the floor), pam_group (the peer) and the bare
 * getgroups+setgroups pair (the physical floor), in one process.
 *
 * As root, in a private mount namespace of its own: /etc/passwd,
 * /etc/group, /etc/nsswitch.conf are bind-mounted from throwaway files,
 * /etc/pam.d, /etc/security, /run (where the module keeps its compiled
 * policy) and /dev (for a /dev/log the bench reads back) are throwaway
 * tmpfs; the host's /etc, /run and /dev are never written.  See
 * docs/performance.md.
 *
 *   pambench MODULE.so                 the table (make bench)
 *   pambench MODULE.so G R PEER MODE   one login (make bench-callgrind:
 *                                      callgrind counts bench_login only)
 *
 * G is a number of groups, or G+E: G groups and E more lines in
 * /etc/group after them (other users' groups, none of the user's: a
 * stock-sized file whose session groups come first).
 * PEER: permit, group, dropgroups, bare, need (a pam_permit login and
 * the system calls the module's promises need: see need_calls()).
 * MODE: fresh (after one
 * uncounted fresh login, so that the compiled policy is in the cache, as
 * in every login but the first after an edit, and so that no peer's
 * count holds what only a process's first login does), cold (the cache
 * emptied first: the first login after an edit), live.
 * BENCH_REPS (default 5) repetitions, interleaved across the peers; each
 * figure is the median.  BENCH_CASES="G:R G+E:R ..." picks the cases.
 * BENCH_CLI=PATH/dropgroups also times `dropgroups check` and `explain`
 * on the largest policy of the cases, with the cache and without. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dirent.h>
#include <errno.h>
#include <grp.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <security/pam_appl.h>

#define USER "benchuser"
#define USER_GID 5000
#define FIRST_GID 10000
#define RESTR_GID 9999  /* "restr": restricting, in the starting list */
#define EXTRA_GID 9998  /* "extra": what pam_group adds */
#define EXTRA_FIRST_GID 200000 /* the extra lines of a G+E case */
#define POLICY "/etc/security/bench-dropgroups.conf"

/* P_COLD: pam_dropgroups with its cache emptied before each login
 * (fresh handles only).  P_NEED: no module of ours at all, but a fresh
 * pam_permit login plus the system calls that pam_dropgroups' promises
 * need, made by the bench itself (need_calls()): the floor under any
 * module that keeps them, whatever it computes (fresh handles only). */
enum peer { P_BARE, P_PERMIT, P_GROUP, P_DG, P_COLD, P_NEED, N_PEERS };
static const char *peer_name[N_PEERS] = {"bare",       "permit", "group",
					 "dropgroups", "cold",   "need"};
static const char *peer_service[N_PEERS] = {NULL,	    "bench-permit",
					    "bench-group",  "bench-dg",
					    "bench-dg",	    "bench-permit"};

static const char *module;
static gid_t *start;
static size_t n_start;
static gid_t *scratch;
static pam_handle_t *live[N_PEERS];
static int bad_rc[N_PEERS][2];
static int need_log = -1; /* P_NEED's socket, connected to /dev/log */

static void die(const char *what)
{
	perror(what);
	exit(1);
}

static int conv(int n, const struct pam_message **msg,
		struct pam_response **resp, void *data)
{
	(void)n, (void)msg, (void)data;
	*resp = NULL;
	return PAM_CONV_ERR;
}

static const struct pam_conv the_conv = {conv, NULL};

static void write_file(const char *path, const char *text, size_t len)
{
	FILE *f = fopen(path, "w");

	if (!f || fwrite(text, 1, len, f) != len || fclose(f) != 0)
		die(path);
}

/* A growing string. */
struct buf {
	char *s;
	size_t len;
	FILE *f;
};

static void buf_open(struct buf *b)
{
	if (!(b->f = open_memstream(&b->s, &b->len)))
		die("open_memstream");
}

static void buf_write(struct buf *b, const char *path)
{
	if (fclose(b->f) != 0)
		die("fclose");
	write_file(path, b->s, b->len);
	free(b->s);
}

static char tmp[] = "/tmp/pambench.XXXXXX";

static void bind_file(const char *name, const char *target)
{
	char src[128];

	snprintf(src, sizeof(src), "%s/%s", tmp, name);
	if (mount(src, target, NULL, MS_BIND, NULL) < 0)
		die(target);
}

/* The mount point is a directory of the host's /tmp: leave none behind
 * (the mounts go with the namespace). */
static void cleanup_tmp(void)
{
	(void)umount2(tmp, MNT_DETACH);
	(void)rmdir(tmp);
}

/* The syslog socket, /dev/log, as a machine has it (journald's or
 * rsyslog's): glibc's syslog connects once per process and then sends
 * one datagram a line.  Without it, every line would pay a socket, a
 * failed connect and a close, which no machine that logs does.  Read
 * back as it comes by a process of its own, as journald reads it: glibc
 * sends on a blocking socket, and a login that logs more lines than the
 * queue holds (net.unix.max_dgram_qlen, 10 on Debian; one warning per
 * rule does) would block the bench itself for good if they were read
 * only between logins.  A process, not a thread: glibc takes its locks
 * only once a process has a second thread, which a login program has
 * not (about 3,000 instructions more in callgrind's 16:1). */
static void drain_log(int fd, pid_t parent)
{
	char c;

	/* the reader ends with the bench, whatever ends it */
	if (prctl(PR_SET_PDEATHSIG, SIGKILL) < 0 || getppid() != parent)
		_exit(0);
	/* a byte of each datagram; MSG_TRUNC drops the rest */
	for (;;)
		if (recv(fd, &c, 1, MSG_TRUNC) < 0 && errno != EINTR)
			_exit(1);
}

static void open_log(void)
{
	struct sockaddr_un a = {.sun_family = AF_UNIX, .sun_path = "/dev/log"};
	char path[128];
	pid_t parent = getpid(), pid;
	int fd;

	/* a tmpfs of our own on /dev, with the host's /dev/null carried
	 * over: the host's /dev is never written */
	snprintf(path, sizeof(path), "%s/null", tmp);
	write_file(path, "", 0);
	if (mount("/dev/null", path, NULL, MS_BIND, NULL) < 0)
		die("bind /dev/null");
	if (mount("tmpfs", "/dev", "tmpfs", 0, "mode=0755") < 0)
		die("mount tmpfs on /dev");
	write_file("/dev/null", "", 0);
	if (mount(path, "/dev/null", NULL, MS_BIND, NULL) < 0)
		die("bind /dev/null back");
	if ((fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0)) < 0 ||
	    bind(fd, (struct sockaddr *)&a, sizeof(a)) < 0)
		die("/dev/log");
	fflush(stdout);
	if ((pid = fork()) < 0)
		die("fork the /dev/log reader");
	if (pid == 0)
		drain_log(fd, parent);
	if (close(fd) < 0)
		die("close /dev/log");
	/* P_NEED's line: glibc's syslog connects once per process too */
	if ((need_log = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0)) < 0 ||
	    connect(need_log, (struct sockaddr *)&a, sizeof(a)) < 0)
		die("connect /dev/log");
}

/* The namespace and the files that do not depend on the case. */
static void sandbox(void)
{
	char path[128];

	if (unshare(CLONE_NEWNS) < 0)
		die("unshare(CLONE_NEWNS) (run as root)");
	if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0)
		die("mount --make-rprivate /");
	if (!mkdtemp(tmp))
		die("mkdtemp");
	atexit(cleanup_tmp);
	if (mount("tmpfs", tmp, "tmpfs", 0, "mode=0755") < 0)
		die("mount tmpfs");
	snprintf(path, sizeof(path), "%s/passwd", tmp);
	{
		static const char pw[] =
			"root:x:0:0:root:/root:/bin/bash\n"
			USER ":x:5000:5000::/nonexistent:/bin/false\n";
		write_file(path, pw, sizeof(pw) - 1);
	}
	snprintf(path, sizeof(path), "%s/nsswitch.conf", tmp);
	{
		static const char ns[] = "passwd: files\ngroup: files\n"
					 "shadow: files\n";
		write_file(path, ns, sizeof(ns) - 1);
	}
	bind_file("passwd", "/etc/passwd");
	bind_file("nsswitch.conf", "/etc/nsswitch.conf");
	/* an empty group file for now; the case writes its own */
	snprintf(path, sizeof(path), "%s/group", tmp);
	write_file(path, "", 0);
	bind_file("group", "/etc/group");
	if (mount("tmpfs", "/etc/pam.d", "tmpfs", 0, "mode=0755") < 0 ||
	    mount("tmpfs", "/etc/security", "tmpfs", 0, "mode=0755") < 0 ||
	    mount("tmpfs", "/run", "tmpfs", 0, "mode=0755") < 0)
		die("mount tmpfs on /etc/pam.d, /etc/security or /run");
	open_log();

	struct buf b;

	/* libpam reads "other" at every pam_start (and logs an error when
	 * there is none): a machine has one, and this is the safe one */
	buf_open(&b);
	fprintf(b.f, "auth required pam_deny.so\n"
		     "account required pam_deny.so\n"
		     "password required pam_deny.so\n"
		     "session required pam_deny.so\n");
	buf_write(&b, "/etc/pam.d/other");

	buf_open(&b);
	fprintf(b.f, "auth required pam_permit.so\n"
		     "account required pam_permit.so\n"
		     "session required pam_permit.so\n");
	buf_write(&b, "/etc/pam.d/bench-permit");
	buf_open(&b);
	fprintf(b.f, "auth required pam_group.so\n"
		     "account required pam_permit.so\n"
		     "session required pam_permit.so\n");
	buf_write(&b, "/etc/pam.d/bench-group");
	buf_open(&b);
	fprintf(b.f, "auth required %s config=%s\n"
		     "account required pam_permit.so\n"
		     "session required pam_permit.so\n",
		module, POLICY);
	buf_write(&b, "/etc/pam.d/bench-dg");
}

/* The case's /etc/group (written in place: the bind mount stays),
 * group.conf and policy: n_groups starting groups g0.. with names, then
 * n_extra lines of groups of other users, and n_rules rules each, the
 * matching one last. */
static void write_case(size_t n_groups, size_t n_extra, size_t n_rules)
{
	char path[128];
	struct buf b;

	buf_open(&b);
	fprintf(b.f, "root:x:0:\n" USER ":x:%d:\nrestr:x:%d:\nextra:x:%d:\n",
		USER_GID, RESTR_GID, EXTRA_GID);
	for (size_t i = 0; i + 1 < n_groups; i++)
		fprintf(b.f, "g%zu:x:%zu:" USER "\n", i, FIRST_GID + i);
	for (size_t i = 0; i < n_extra; i++)
		fprintf(b.f, "x%zu:x:%zu:nouser%zu\n", i, EXTRA_FIRST_GID + i,
			i);
	snprintf(path, sizeof(path), "%s/group", tmp);
	buf_write(&b, path);

	/* pam_group: the same number of lines, each for another user;
	 * the last adds "extra" to ours. */
	buf_open(&b);
	for (size_t i = 0; i + 1 < n_rules; i++)
		fprintf(b.f, "bench-group;*;nouser%zu;Al0000-2400;extra\n", i);
	fprintf(b.f, "bench-group;*;" USER ";Al0000-2400;extra\n");
	buf_write(&b, "/etc/security/group.conf");

	/* pam_dropgroups: rules for other users (each naming a group, as
	 * generated policies do), then ours: drop everything but the
	 * restricting group, named by name. */
	buf_open(&b);
	fprintf(b.f, "version = 1;\nrestricting = [ \"restr\" ];\n"
		     "rules = (\n");
	for (size_t i = 0; i + 1 < n_rules; i++)
		fprintf(b.f, "  { name = \"r%zu\"; services = [ \"bench-dg\" ]; "
			     "users = [ \"nouser%zu\" ]; drop = [ \"g%zu\" ]; },\n",
			i, i, i % (n_groups > 1 ? n_groups - 1 : 1));
	fprintf(b.f, "  { name = \"ours\"; services = [ \"bench-dg\" ]; "
		     "users = [ \"" USER "\" ]; drop = [ \"*\" ]; }\n);\n");
	buf_write(&b, POLICY);

	free(start);
	free(scratch);
	n_start = n_groups;
	if (!(start = calloc(n_groups, sizeof(*start))) ||
	    !(scratch = calloc(n_groups + 16, sizeof(*scratch))))
		die("calloc");
	start[0] = RESTR_GID;
	for (size_t i = 1; i < n_groups; i++)
		start[i] = (gid_t)(FIRST_GID + i - 1);
}

/* Empty the module's compiled-policy cache (in the namespace's /run). */
static void drop_cache(void)
{
	DIR *d = opendir("/run/dropgroups");
	struct dirent *de;

	if (!d)
		return;
	while ((de = readdir(d)))
		if (de->d_name[0] != '.' &&
		    unlinkat(dirfd(d), de->d_name, 0) < 0)
			die("unlink /run/dropgroups/*");
	closedir(d);
}

static void restore(void)
{
	if (setgroups(n_start, start) < 0)
		die("setgroups (restore)");
}

static double now_us(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1e6 + t.tv_nsec / 1e3;
}

/* Read a small file whole, as the module reads each: open (relative to
 * at when at >= 0, without following a link), fstat, read to a read of
 * nothing, close. */
static int need_read(int at, const char *path)
{
	struct stat st;
	char buf[65536];
	ssize_t n;
	int fd = at >= 0 ? openat(at, path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
			 : open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0 || fstat(fd, &st) < 0)
		return -1;
	do
		n = read(fd, buf, sizeof(buf));
	while (n > 0);
	return close(fd) < 0 || n < 0 ? -1 : 0;
}

/* The system calls a fresh login's promises need, and nothing else
 * (see docs/performance.md): the policy read and checked in its
 * checked directory, and its drop-in directory looked for; NSS asked as
 * glibc asks it (nscd's socket, nsswitch.conf) and /etc/group read once
 * to name the session's gids and the restricting names; the user's
 * primary gid from /etc/passwd; the group list read and set; the user
 * namespace told; the one log line sent.  The compiled-policy cache is
 * left out (it saves instructions, not calls), and so is every
 * instruction of the module: what is left is a floor.
 * tests/integration/12-bench.sh checks that the module's login makes
 * every one of these calls. */
static int need_calls(void)
{
	char line[508]; /* the length of the module's line at 16:1 */
	struct stat st;
	char link[64];
	int dir, dropins, n;

	memset(line, 'x', sizeof(line));
	if ((dir = open("/etc/security",
			O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0 ||
	    fstat(dir, &st) < 0 ||
	    need_read(dir, "bench-dropgroups.conf") < 0)
		return -1;
	dropins = openat(dir, "bench-dropgroups.d",
			 O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if ((dropins >= 0 && close(dropins) < 0) || close(dir) < 0)
		return -1;
	if ((lstat("/var/run/nscd/socket", &st) == 0) ||
	    need_read(-1, "/etc/nsswitch.conf") < 0 ||
	    need_read(-1, "/etc/group") < 0 || need_read(-1, "/etc/passwd") < 0)
		return -1;
	/* the list the module sets here: the case's rule keeps the
	 * restricting group alone (a list of n would cost what the bare
	 * pair costs, not what the module's setgroups costs) */
	if ((n = getgroups((int)n_start + 16, scratch)) < 0 ||
	    readlink("/proc/self/ns/user", link, sizeof(link)) < 0 ||
	    (n > 0 && setgroups(1, &start[0]) < 0))
		return -1;
	return send(need_log, line, sizeof(line), MSG_NOSIGNAL) < 0 ? -1 : 0;
}

/* One login of peer; fresh: a handle of its own. */
static __attribute__((noinline)) int login_once(enum peer p, int fresh)
{
	pam_handle_t *h;
	int r;

	if ((p == P_COLD || p == P_NEED) && !fresh)
		return 0; /* a live handle keeps its plan: no cold case */
	if (p == P_BARE) {
		int n = getgroups((int)n_start + 16, scratch);

		return n < 0 || setgroups((size_t)n, scratch) < 0 ? -1 : 0;
	}
	if (!fresh) {
		if (!live[p] && pam_start(peer_service[p], USER, &the_conv,
					  &live[p]) != PAM_SUCCESS)
			return -1;
		return pam_setcred(live[p], PAM_ESTABLISH_CRED);
	}
	if (pam_start(peer_service[p], USER, &the_conv, &h) != PAM_SUCCESS)
		return -1;
	r = pam_setcred(h, PAM_ESTABLISH_CRED);
	if (r == PAM_SUCCESS && p == P_NEED && need_calls() < 0)
		r = -1;
	pam_end(h, r);
	return r;
}

/* The timed login.  Not static and never inlined: callgrind counts this
 * function alone (--toggle-collect), so a warm-up through login_once
 * is not counted. */
__attribute__((noinline)) int bench_login(enum peer p, int fresh);
__attribute__((noinline)) int bench_login(enum peer p, int fresh)
{
	return login_once(p, fresh);
}

static void end_live(void)
{
	for (int p = 0; p < N_PEERS; p++)
		if (live[p]) {
			pam_end(live[p], PAM_SUCCESS);
			live[p] = NULL;
		}
}

/* Mean µs per login over iters logins, each from the starting list. */
static double measure(enum peer p, int fresh, int iters)
{
	double total = 0;

	for (int i = 0; i < iters; i++) {
		double t0;
		int r;

		restore();
		if (p == P_COLD && fresh)
			drop_cache();
		t0 = now_us();
		r = bench_login(p, fresh);
		total += now_us() - t0;
		if (r != 0)
			bad_rc[p][fresh] = r;
	}
	return total / iters;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

#define MAX_REPS 64

static double run_case(size_t g, size_t e, size_t r,
		       double *fig /* [2][N_PEERS] */)
{
	int reps = getenv("BENCH_REPS") ? atoi(getenv("BENCH_REPS")) : 5;
	double v[2][N_PEERS][MAX_REPS];
	int iters[2][N_PEERS];

	if (reps < 5)
		reps = 5;
	if (reps > MAX_REPS)
		reps = MAX_REPS;
	write_case(g, e, r);
	end_live();
	/* enough logins per figure for ~20 ms (at least 1, at most 200) */
	for (int fresh = 0; fresh < 2; fresh++)
		for (int p = 0; p < N_PEERS; p++) {
			double t = measure(p, fresh, 1);
			int n = (int)(20000 / (t > 1 ? t : 1));

			iters[fresh][p] = n < 1 ? 1 : n > 200 ? 200 : n;
		}
	for (int k = 0; k < reps; k++)
		for (int fresh = 0; fresh < 2; fresh++)
			for (int i = 0; i < N_PEERS; i++) {
				/* a different order each round */
				int p = (i + k) % N_PEERS;

				v[fresh][p][k] = measure(p, fresh,
							 iters[fresh][p]);
			}
	for (int fresh = 0; fresh < 2; fresh++)
		for (int p = 0; p < N_PEERS; p++)
			fig[fresh * N_PEERS + p] = median(v[fresh][p], reps);
	/* R: the median over repetitions of the per-round ratio */
	{
		double ratio[MAX_REPS];

		for (int k = 0; k < reps; k++)
			ratio[k] = v[1][P_DG][k] / v[1][P_GROUP][k];
		return median(ratio, reps);
	}
}

/* ms for one run of the CLI (its output discarded); cold: with the
 * cache emptied first. */
static double cli_ms(char *const argv[], int cold)
{
	double t0;
	pid_t pid;
	int status;

	if (cold)
		drop_cache();
	t0 = now_us();
	if ((pid = fork()) < 0)
		die("fork");
	if (pid == 0) {
		if (!freopen("/dev/null", "w", stdout) ||
		    !freopen("/dev/null", "w", stderr))
			_exit(127);
		execv(argv[0], argv);
		_exit(127);
	}
	if (waitpid(pid, &status, 0) < 0)
		die("waitpid");
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		fprintf(stderr, "pambench: %s %s failed (status %d)\n", argv[0],
			argv[1], status);
		exit(1);
	}
	return (now_us() - t0) / 1000;
}

/* `dropgroups check` and `explain` on the policy of the given case:
 * medians of BENCH_REPS, interleaved. */
static void time_cli(const char *cli, size_t g, size_t r)
{
	char *check[] = {(char *)cli, (char *)"check", (char *)"-c",
			 (char *)POLICY, NULL};
	char *explain[] = {(char *)cli, (char *)"explain", (char *)"-c",
			   (char *)POLICY, (char *)"bench-dg", (char *)USER,
			   NULL};
	char *const *argvs[2] = {check, explain};
	int reps = getenv("BENCH_REPS") ? atoi(getenv("BENCH_REPS")) : 5;
	double v[2][2][MAX_REPS];

	if (reps < 5)
		reps = 5;
	if (reps > MAX_REPS)
		reps = MAX_REPS;
	write_case(g, 0, r);
	(void)cli_ms(check, 1); /* one untimed run: the files are cached */
	for (int k = 0; k < reps; k++)
		for (int c = 0; c < 2; c++)
			for (int cold = 0; cold < 2; cold++)
				v[c][cold][k] = cli_ms(argvs[c], cold);
	for (int c = 0; c < 2; c++)
		printf("# dropgroups %s, %zu rules: %.1f ms (cold: %.1f ms)\n",
		       c ? "explain" : "check", r, median(v[c][0], reps),
		       median(v[c][1], reps));
}

/* "G" or "G+E": 0, or -1 when it is neither. */
static int parse_groups(const char *s, size_t *g, size_t *e)
{
	char *end;

	*g = strtoul(s, &end, 10);
	*e = 0;
	if (end == s)
		return -1;
	if (*end == '+') {
		s = end + 1;
		*e = strtoul(s, &end, 10);
		if (end == s)
			return -1;
	}
	return *end ? -1 : 0;
}

int main(int argc, char **argv)
{
	/* groups, extra /etc/group lines, rules */
	static const size_t def_cases[][3] = {
		{16, 0, 1},       {16, 0, 10},       {16, 2000, 1},
		{16, 2000, 10},   {1024, 0, 1},      {65536, 0, 1},
		{16, 0, 100},     {1024, 0, 100},    {65536, 0, 100},
		{16, 0, 10000},   {1024, 0, 10000},  {65536, 0, 10000},
	};
	size_t cases[32][3], n_cases = 0, cli_rules = 0, cli_groups = 0;
	double headline = -1;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc != 2 && argc != 6) {
		fprintf(stderr, "usage: pambench MODULE.so [G R PEER MODE]\n");
		return 2;
	}
	module = argv[1];
	if (geteuid() != 0) {
		fprintf(stderr, "pambench: needs root (a mount namespace)\n");
		return 77;
	}
	sandbox();

	if (argc == 6) { /* one login, for callgrind */
		int p, fresh = strcmp(argv[5], "fresh") == 0, r;

		for (p = 0; p < N_PEERS; p++)
			if (strcmp(argv[4], peer_name[p]) == 0)
				break;
		if (p == N_PEERS)
			return 2;
		size_t g, e;

		if (parse_groups(argv[2], &g, &e) < 0)
			return 2;
		write_case(g, e, strtoul(argv[3], NULL, 10));
		if (!fresh || p != P_BARE) {
			/* warm the handle, or the cache: count the second.
			 * Every peer, not only ours: a process's first
			 * login pays once what every later one is spared
			 * (libaudit's readlink of /proc/self/exe, glibc's
			 * first NSS lookup: about 17,000 instructions of
			 * pam_group's), as the table's peers are spared it
			 * too; counting the module's second login against
			 * the others' first flattered the module. */
			restore();
			login_once(p, fresh);
		}
		restore();
		if (p == P_COLD)
			drop_cache();
		r = bench_login(p, fresh);
		end_live();
		return r == 0 || p == P_GROUP ? 0 : 1;
	}

	if (getenv("BENCH_CASES")) {
		char *s = strdup(getenv("BENCH_CASES")), *save = NULL;

		for (char *t = strtok_r(s, " ,", &save); t && n_cases < 32;
		     t = strtok_r(NULL, " ,", &save)) {
			char *colon = strchr(t, ':');

			if (!colon)
				continue;
			*colon = '\0';
			if (parse_groups(t, &cases[n_cases][0],
					 &cases[n_cases][1]) == 0) {
				cases[n_cases][2] = strtoul(colon + 1, NULL,
							    10);
				n_cases++;
			}
		}
		free(s);
	} else {
		n_cases = sizeof(def_cases) / sizeof(def_cases[0]);
		memcpy(cases, def_cases, sizeof(def_cases));
	}

	printf("# µs per login, median of >=5 interleaved repetitions; "
	       "fresh = pam_start..pam_setcred..pam_end, live = pam_setcred "
	       "on one handle\n");
	printf("# dropgrp: every login but the first after an edit (the "
	       "compiled policy in its cache); cold: that first login (the "
	       "cache emptied before each)\n");
	printf("%-7s %-6s %-5s %10s %10s %10s %10s %8s %9s %9s %10s %8s\n",
	       "groups", "rules", "mode", "bare", "permit", "group", "dropgrp",
	       "dg/group", "dg/floor", "dg-permit", "cold", "need");
	for (size_t c = 0; c < n_cases; c++) {
		double fig[2 * N_PEERS];
		size_t g = cases[c][0], e = cases[c][1], r = cases[c][2];
		double R = run_case(g, e, r, fig);
		char gtext[48];

		if (e)
			snprintf(gtext, sizeof(gtext), "%zu+%zu", g, e);
		else
			snprintf(gtext, sizeof(gtext), "%zu", g);

		for (int fresh = 1; fresh >= 0; fresh--) {
			double *f = fig + fresh * N_PEERS;

			printf("%-7s %-6zu %-5s %10.1f %10.1f %10.1f %10.1f "
			       "%8.2f %9.2f %9.1f",
			       gtext, r, fresh ? "fresh" : "live", f[P_BARE],
			       f[P_PERMIT], f[P_GROUP], f[P_DG],
			       f[P_DG] / f[P_GROUP],
			       f[P_DG] / (f[P_BARE] + f[P_PERMIT]),
			       f[P_DG] - f[P_PERMIT]);
			if (fresh)
				printf(" %10.1f %8.1f\n", f[P_COLD],
				       f[P_NEED]);
			else
				printf(" %10s %8s\n", "-", "-");
		}
		if (r > cli_rules && !e) {
			cli_rules = r;
			cli_groups = g;
		}
		if (g == 16 && !e && r == 100)
			headline = R;
	}
	for (int p = 0; p < N_PEERS; p++)
		for (int fresh = 0; fresh < 2; fresh++)
			if (bad_rc[p][fresh])
				printf("# note: %s (%s) returned %d in some "
				       "login%s\n",
				       peer_name[p], fresh ? "fresh" : "live",
				       bad_rc[p][fresh],
				       p == P_GROUP ? " (pam_group cannot add "
						      "a group past 65,536)"
						    : "");
	if (headline < 0) {
		double fig[2 * N_PEERS];

		headline = run_case(16, 0, 100, fig);
	}
	end_live();
	if (getenv("BENCH_CLI") && cli_rules)
		time_cli(getenv("BENCH_CLI"), cli_groups, cli_rules);
	printf("dropgroups_vs_pam_group_ratio: %.2f\n", headline);
	return 0;
}
