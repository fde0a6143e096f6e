/* allocfail SERVICE USER MODE: fail each allocation in turn.
 *
 * Calls pam_open_session (MODE session), pam_setcred(ESTABLISH) (MODE
 * setcred) or pam_acct_mgmt (MODE account) on a real PAM handle for a
 * service whose stack holds pam_dropgroups.  A first run counts the
 * allocations that one call makes (the module, libconfig, NSS, libcap,
 * pam_syslog, libpam's dispatch: everything it causes).  Then, for
 * n = 1..count, a fresh handle and a fresh copy of the starting groups,
 * and the call again with the n-th allocation failing (and every other
 * one succeeding).  The injector replaces malloc, calloc and realloc for
 * the whole process, so it reaches every library the module calls.
 *
 * Every run must end in one of these states: success, with exactly the
 * groups of the clean run; or failure, with the starting groups
 * untouched; or (when an allocation in libpam fails after the module has
 * done its work) a failure other than the module's own code, with the
 * groups of the clean run: the program refuses the login either way.
 * Anything else (a crash, the module's failure code with changed groups,
 * any other group list) is a failure of the module.
 *
 * One exception, on purpose: allocations made by libconfig itself are
 * never failed.  libconfig 1.5 does not check them (config_init() and its
 * scanner write through the pointer it got), so failing one crashes in
 * libconfig, not in our code; SECURITY.md says so. */
#include <dlfcn.h>
#include <execinfo.h>
#include <grp.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <security/pam_appl.h>
#include <security/pam_modules.h>

/* The counting injector: active only between arm() and disarm(). */
static long alloc_count, fail_at;
static bool armed;

extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);

/* Where libconfig's code is mapped: its allocations are left alone. */
static uintptr_t skip_lo[8], skip_hi[8];
static int n_skip;

static void find_libconfig(void)
{
	FILE *f = fopen("/proc/self/maps", "r");
	char line[512];

	n_skip = 0;
	while (f && fgets(line, sizeof(line), f) && n_skip < 8) {
		unsigned long lo, hi;
		char perms[8];

		if (strstr(line, "libconfig.so") &&
		    sscanf(line, "%lx-%lx %7s", &lo, &hi, perms) == 3 &&
		    perms[2] == 'x') {
			skip_lo[n_skip] = lo;
			skip_hi[n_skip++] = hi;
		}
	}
	if (f)
		fclose(f);
}

static bool in_libconfig(uintptr_t pc)
{
	for (int i = 0; i < n_skip; i++)
		if (pc >= skip_lo[i] && pc < skip_hi[i])
			return true;
	return false;
}

/* libconfig also allocates through libc (strdup): look a few frames up
 * the stack, not only at the immediate caller. */
static bool should_fail(void)
{
	static __thread bool inside;
	void *frames[6];
	int n;

	if (!armed || inside)
		return false;
	inside = true; /* backtrace() may allocate on its first call */
	n = backtrace(frames, 6);
	inside = false;
	for (int i = 1; i < n; i++)
		if (in_libconfig((uintptr_t)frames[i]))
			return false;
	if (++alloc_count != fail_at)
		return false;
	if (getenv("ALLOCFAIL_TRACE")) {
		inside = true;
		backtrace_symbols_fd(frames, n, 2);
		inside = false;
	}
	return true;
}

void *malloc(size_t n) { return should_fail() ? NULL : __libc_malloc(n); }
void *calloc(size_t a, size_t b) { return should_fail() ? NULL : __libc_calloc(a, b); }
void *realloc(void *p, size_t n) { return should_fail() ? NULL : __libc_realloc(p, n); }

static int conv(int n, const struct pam_message **msg,
		struct pam_response **resp, void *data)
{
	(void)n, (void)msg, (void)resp, (void)data;
	return PAM_CONV_ERR;
}

struct run {
	int rc;
	gid_t groups[256];
	int n;
};

static int call(const char *mode, const char *service, const char *user,
		const gid_t *start, int n_start, long fail, struct run *out)
{
	struct pam_conv c = {conv, NULL};
	pam_handle_t *pamh = NULL;

	if (setgroups((size_t)n_start, start) < 0) {
		perror("setgroups");
		return -1;
	}
	if (pam_start(service, user, &c, &pamh) != PAM_SUCCESS) {
		fprintf(stderr, "pam_start failed\n");
		return -1;
	}
	alloc_count = 0;
	fail_at = fail;
	armed = true;
	if (!strcmp(mode, "session"))
		out->rc = pam_open_session(pamh, 0);
	else if (!strcmp(mode, "setcred"))
		out->rc = pam_setcred(pamh, PAM_ESTABLISH_CRED);
	else
		out->rc = pam_acct_mgmt(pamh, 0);
	armed = false;
	pam_end(pamh, out->rc);
	out->n = getgroups(256, out->groups);
	return out->n < 0 ? -1 : 0;
}

static bool same(const gid_t *a, int na, const gid_t *b, int nb)
{
	return na == nb && !memcmp(a, b, (size_t)na * sizeof(*a));
}

int main(int argc, char **argv)
{
	struct run clean, r;
	gid_t start[256];
	int n_start;
	long total, failed_closed = 0, succeeded = 0, failed_after = 0;
	int module_failure;

	if (argc != 4 || (strcmp(argv[3], "session") && strcmp(argv[3], "setcred") &&
			  strcmp(argv[3], "account"))) {
		fprintf(stderr, "usage: allocfail SERVICE USER session|setcred|account\n");
		return 2;
	}
	module_failure = !strcmp(argv[3], "session")	? PAM_SESSION_ERR
			 : !strcmp(argv[3], "setcred") ? PAM_CRED_ERR
						       : PAM_PERM_DENIED;
	n_start = getgroups(256, start);
	if (n_start < 0)
		return 2;
	/* Keep libconfig mapped at one address for the whole run (pam_end
	 * unloads the module, and would unload libconfig with it). */
	if (!dlopen("libconfig.so.9", RTLD_NOW | RTLD_NODELETE)) {
		fprintf(stderr, "dlopen libconfig: %s\n", dlerror());
		return 1;
	}
	find_libconfig();
	{
		void *warm[2];

		(void)backtrace(warm, 2); /* load the unwinder before arming */
	}
	if (n_skip == 0) {
		fprintf(stderr, "libconfig is not mapped: is the module in the stack?\n");
		return 1;
	}
	if (call(argv[3], argv[1], argv[2], start, n_start, 0, &clean) < 0 ||
	    clean.rc != PAM_SUCCESS) {
		fprintf(stderr, "the clean run failed (%d)\n", clean.rc);
		return 1;
	}
	total = alloc_count;
	printf("allocations in one call: %ld\n", total);
	for (long n = 1; n <= total + 2; n++) {
		if (call(argv[3], argv[1], argv[2], start, n_start, n, &r) < 0)
			return 1;
		if (r.rc == PAM_SUCCESS && same(r.groups, r.n, clean.groups, clean.n)) {
			succeeded++;
		} else if (r.rc != PAM_SUCCESS && same(r.groups, r.n, start, n_start)) {
			failed_closed++;
		} else if (r.rc != PAM_SUCCESS && r.rc != module_failure &&
			   same(r.groups, r.n, clean.groups, clean.n)) {
			failed_after++;
		} else {
			printf("allocation %ld: rc %d with %d groups: neither "
			       "the clean result nor untouched\n", n, r.rc, r.n);
			return 1;
		}
	}
	printf("succeeded %ld\nfailed-closed %ld\nfailed-in-libpam-after %ld\n",
	       succeeded, failed_closed, failed_after);
	return 0;
}
