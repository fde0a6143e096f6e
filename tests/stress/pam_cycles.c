/* pam_cycles SERVICE USER N MODE [EXPECT]: run N whole PAM conversations
 * in one process, for leak checkers (valgrind) and long-run tests.
 *
 *   MODE session:  pam_start, pam_open_session, pam_close_session, pam_end
 *   MODE setcred:  pam_start, pam_acct_mgmt, pam_setcred(PAM_ESTABLISH_CRED),
 *                  pam_setcred(PAM_DELETE_CRED), pam_end
 *
 * The program is linked with libpam only: the module under test is loaded
 * by libpam from the service's stack in /etc/pam.d, as in a login program.
 *
 * EXPECT is what the calls where the module acts must return
 * (pam_open_session; pam_acct_mgmt and pam_setcred(ESTABLISH)): a PAM code
 * by name (PAM_SESSION_ERR, or session_err) or number, or for setcred two
 * of them, "ACCT,CRED" (e.g. PAM_PERM_DENIED,PAM_CRED_ERR).  Default
 * PAM_SUCCESS.  In setcred mode every call of a cycle is made even when
 * an earlier one failed as expected, so that the failure path of each
 * entry point is cycled, and pam_setcred(DELETE) must always succeed; in
 * session mode pam_close_session is called (and must succeed) only after
 * a pam_open_session that succeeded.
 *
 * The module trims the groups of this very process, so the groups it
 * starts with are read once and set back (setgroups, as root) before every
 * cycle: each cycle then really drops groups.  After the acting call, the
 * groups must be a strict subset of the starting ones when EXPECT is
 * PAM_SUCCESS (the policy must drop something), and exactly the starting
 * ones otherwise (fail closed).
 *
 * The number of open file descriptors must be the same after the last
 * cycle as after the first (the first may open syslog's socket for good).
 *
 * Exit 0 when every call of every cycle returned what it should; 1 on the
 * first one that did not (with the cycle and the call on stderr); 2 on a
 * usage or setup error. */
#include <dirent.h>
#include <errno.h>
#include <grp.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include <security/pam_appl.h>

static const struct {
	const char *name;
	int code;
} codes[] = {
	{"SUCCESS", PAM_SUCCESS},	  {"IGNORE", PAM_IGNORE},
	{"SESSION_ERR", PAM_SESSION_ERR}, {"CRED_ERR", PAM_CRED_ERR},
	{"PERM_DENIED", PAM_PERM_DENIED}, {"SYSTEM_ERR", PAM_SYSTEM_ERR},
	{"AUTH_ERR", PAM_AUTH_ERR},	  {"USER_UNKNOWN", PAM_USER_UNKNOWN},
	{"BUF_ERR", PAM_BUF_ERR},	  {"ABORT", PAM_ABORT},
	{"ACCT_EXPIRED", PAM_ACCT_EXPIRED}, {"CRED_UNAVAIL", PAM_CRED_UNAVAIL},
};

/* "PAM_SESSION_ERR", "session_err" or "14" -> 14; -1 if unknown. */
static int parse_code(const char *s)
{
	char *end;
	long v;

	if (strncasecmp(s, "PAM_", 4) == 0)
		s += 4;
	for (size_t i = 0; i < sizeof(codes) / sizeof(codes[0]); i++)
		if (strcasecmp(s, codes[i].name) == 0)
			return codes[i].code;
	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < 0 || v > 255)
		return -1;
	return (int)v;
}

static const char *code_name(int code)
{
	for (size_t i = 0; i < sizeof(codes) / sizeof(codes[0]); i++)
		if (codes[i].code == code)
			return codes[i].name;
	return "?";
}

/* No module in the stacks under test asks anything. */
static int conv(int n, const struct pam_message **msg,
		struct pam_response **resp, void *data)
{
	(void)n, (void)msg, (void)resp, (void)data;
	return PAM_CONV_ERR;
}

static gid_t start[NGROUPS_MAX + 1];
static int n_start;

static bool in_start(gid_t g)
{
	for (int i = 0; i < n_start; i++)
		if (start[i] == g)
			return true;
	return false;
}

/* The groups must be the starting ones (want_trimmed false), or a strict
 * subset of them (true). */
static bool groups_ok(bool want_trimmed, long cycle, const char *after)
{
	static gid_t now[NGROUPS_MAX + 1];
	int n = getgroups(NGROUPS_MAX + 1, now);

	if (n < 0) {
		perror("pam_cycles: getgroups");
		return false;
	}
	for (int i = 0; i < n; i++)
		if (!in_start(now[i])) {
			fprintf(stderr, "pam_cycles: cycle %ld: after %s, gid %u "
					"is there but was not at the start\n",
				cycle, after, (unsigned)now[i]);
			return false;
		}
	/* A subset (no duplicates in either list, as the kernel keeps
	 * them): the same size means the same set. */
	if (want_trimmed && n >= n_start) {
		fprintf(stderr, "pam_cycles: cycle %ld: after %s, no group "
				"was dropped (%d groups)\n", cycle, after, n);
		return false;
	}
	if (!want_trimmed && n != n_start) {
		fprintf(stderr, "pam_cycles: cycle %ld: after %s, %d groups "
				"instead of the %d at the start\n",
			cycle, after, n, n_start);
		return false;
	}
	return true;
}

/* The number of open descriptors, or -1. */
static int count_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	int n = 0;

	if (!d)
		return -1;
	while (readdir(d))
		n++;
	closedir(d);
	return n;
}

static bool check(long cycle, const char *call, int got, int want)
{
	if (got == want)
		return true;
	fprintf(stderr, "pam_cycles: cycle %ld: %s returned %d (%s), "
			"want %d (PAM_%s)\n",
		cycle, call, got, code_name(got), want, code_name(want));
	return false;
}

int main(int argc, char **argv)
{
	const struct pam_conv c = {conv, NULL};
	const char *service, *user, *mode;
	int want_acct = PAM_SUCCESS, want_cred = PAM_SUCCESS;
	int groups_after = -1, fds_first = -1, fds_last = -1;
	bool session;
	char *end;
	long n;

	if (argc < 5 || argc > 6) {
		fprintf(stderr, "usage: pam_cycles SERVICE USER N session|setcred "
				"[EXPECT[,EXPECT]]\n");
		return 2;
	}
	service = argv[1];
	user = argv[2];
	errno = 0;
	n = strtol(argv[3], &end, 10);
	mode = argv[4];
	if (errno || end == argv[3] || *end || n < 1) {
		fprintf(stderr, "pam_cycles: N must be a positive number\n");
		return 2;
	}
	if (strcmp(mode, "session") != 0 && strcmp(mode, "setcred") != 0) {
		fprintf(stderr, "pam_cycles: MODE must be session or setcred\n");
		return 2;
	}
	session = strcmp(mode, "session") == 0;
	if (argc == 6) {
		char *copy = strdup(argv[5]), *comma;

		if (!copy)
			return 2;
		if ((comma = strchr(copy, ',')))
			*comma++ = '\0';
		want_acct = parse_code(copy);
		want_cred = comma ? parse_code(comma) : want_acct;
		free(copy);
		if (want_acct < 0 || want_cred < 0 || (comma && session)) {
			fprintf(stderr, "pam_cycles: bad EXPECT \"%s\"\n",
				argv[5]);
			return 2;
		}
	}

	n_start = getgroups(NGROUPS_MAX + 1, start);
	if (n_start < 0) {
		perror("pam_cycles: getgroups");
		return 2;
	}

	for (long i = 1; i <= n; i++) {
		pam_handle_t *pamh = NULL;
		int r, status = PAM_SUCCESS;

		/* Back to the starting groups, so this cycle drops them again. */
		if (setgroups((size_t)n_start, start) < 0) {
			perror("pam_cycles: setgroups");
			return 2;
		}
		r = pam_start(service, user, &c, &pamh);
		if (!check(i, "pam_start", r, PAM_SUCCESS))
			return 1;
		if (session) {
			r = pam_open_session(pamh, 0);
			if (!check(i, "pam_open_session", r, want_acct) ||
			    !groups_ok(want_acct == PAM_SUCCESS, i,
				       "pam_open_session"))
				goto bad;
			status = r;
			/* As login programs do, close only a session that
			 * opened: libpam replays the open's outcome (a frozen
			 * chain) in pam_close_session, which then fails. */
			if (r == PAM_SUCCESS) {
				r = pam_close_session(pamh, 0);
				if (!check(i, "pam_close_session", r,
					   PAM_SUCCESS))
					goto bad;
			}
		} else {
			r = pam_acct_mgmt(pamh, 0);
			/* Account management checks, and changes nothing. */
			if (!check(i, "pam_acct_mgmt", r, want_acct) ||
			    !groups_ok(false, i, "pam_acct_mgmt"))
				goto bad;
			status = r;
			r = pam_setcred(pamh, PAM_ESTABLISH_CRED);
			if (!check(i, "pam_setcred(PAM_ESTABLISH_CRED)", r,
				   want_cred) ||
			    !groups_ok(want_cred == PAM_SUCCESS, i,
				       "pam_setcred(PAM_ESTABLISH_CRED)"))
				goto bad;
			if (r != PAM_SUCCESS)
				status = r;
			r = pam_setcred(pamh, PAM_DELETE_CRED);
			if (!check(i, "pam_setcred(PAM_DELETE_CRED)", r,
				   PAM_SUCCESS))
				goto bad;
		}
		if (i == n)
			groups_after = getgroups(0, NULL);
		r = pam_end(pamh, status);
		if (!check(i, "pam_end", r, PAM_SUCCESS))
			return 1;
		if (i == 1)
			fds_first = count_fds();
		if (i == n)
			fds_last = count_fds();
		continue;
bad:
		pam_end(pamh, r == PAM_SUCCESS ? PAM_ABORT : r);
		return 1;
	}
	if (fds_first < 0 || fds_last != fds_first) {
		fprintf(stderr, "pam_cycles: %d descriptors open after the first "
				"cycle, %d after the last\n", fds_first, fds_last);
		return 1;
	}
	if (session)
		printf("pam_cycles: %ld %s cycles: pam_open_session PAM_%s, "
		       "groups %d -> %d\n",
		       n, mode, code_name(want_acct), n_start, groups_after);
	else
		printf("pam_cycles: %ld %s cycles: pam_acct_mgmt PAM_%s, "
		       "pam_setcred(PAM_ESTABLISH_CRED) PAM_%s, groups %d -> %d\n",
		       n, mode, code_name(want_acct), code_name(want_cred),
		       n_start, groups_after);
	return 0;
}
