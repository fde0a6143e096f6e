/* libnss_dgfault.so.2: an NSS module for the tests, a small "directory"
 * that can be made to fail the way real ones do.
 *
 * The sandbox lists it after files in its /etc/nsswitch.conf ("group:
 * files dgfault") and makes glibc find it through an overlay on the
 * library directory, so every program in the test, setuid ones
 * included, goes through glibc's own NSS dispatch: the module under test
 * sees exactly what glibc makes of each status and errno.
 *
 * It reads /run/dgfault.conf (on the sandbox's own /run) on every call, so a test can change it
 * between logins.  One directive per line:
 *
 *   group NAME GID [MEMBER,...]   a group it holds
 *   user NAME UID GID             a user it holds
 *   fail CALL KEY STATUS ERRNO    CALL getgrnam, getgrgid, getpwnam,
 *                                 getpwuid or initgroups; KEY a name, a
 *                                 number or *; STATUS unavail, notfound
 *                                 or tryagain; ERRNO ENOENT, EIO, EAGAIN,
 *                                 ETIMEDOUT or 0
 *
 *   slow CALL KEY MS              answer CALL for KEY after MS ms
 *   log                           append "CALL KEY" for every call to
 *                                 /run/dgfault.log
 *
 * "fail getgrnam * unavail ENOENT" is nss-pam-ldapd with nslcd down;
 * "fail getgrnam ldap-abusers notfound 0" is SSSD offline with a cold
 * cache. */
#include <errno.h>
#include <grp.h>
#include <nss.h>
#include <pwd.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <time.h>

#define CONF "/run/dgfault.conf"

enum nss_status _nss_dgfault_getgrnam_r(const char *, struct group *, char *,
					size_t, int *);
enum nss_status _nss_dgfault_getgrgid_r(gid_t, struct group *, char *, size_t,
					int *);
enum nss_status _nss_dgfault_getpwnam_r(const char *, struct passwd *, char *,
					size_t, int *);
enum nss_status _nss_dgfault_getpwuid_r(uid_t, struct passwd *, char *, size_t,
					int *);
enum nss_status _nss_dgfault_initgroups_dyn(const char *, gid_t, long *,
					    long *, gid_t **, long, int *);

static int errno_named(const char *s)
{
	if (!strcmp(s, "ENOENT")) return ENOENT;
	if (!strcmp(s, "EIO")) return EIO;
	if (!strcmp(s, "EAGAIN")) return EAGAIN;
	if (!strcmp(s, "ETIMEDOUT")) return ETIMEDOUT;
	return 0;
}

/* "log" and "slow" directives for call and key. */
static void log_and_wait(const char *call, const char *key)
{
	FILE *f = fopen(CONF, "re");
	char line[1024], c[64], k[256];
	unsigned ms;

	while (f && fgets(line, sizeof(line), f)) {
		if (strncmp(line, "log", 3) == 0 && (line[3] == '\n' || !line[3])) {
			FILE *l = fopen("/run/dgfault.log", "ae");

			if (l) {
				fprintf(l, "%s %s\n", call, key);
				fclose(l);
			}
		}
		if (sscanf(line, "slow %63s %255s %u", c, k, &ms) == 3 &&
		    !strcmp(c, call) && (!strcmp(k, "*") || !strcmp(k, key))) {
			struct timespec t = {ms / 1000, (long)(ms % 1000) * 1000000};

			nanosleep(&t, NULL);
		}
	}
	if (f)
		fclose(f);
}

/* A "fail" directive for call and key: true, with *status and *err. */
static bool failing(const char *call, const char *key, enum nss_status *status,
		    int *err)
{
	FILE *f;
	char line[1024], c[64], k[256], st[64], en[64];
	bool hit = false;

	log_and_wait(call, key);
	f = fopen(CONF, "re");
	while (f && !hit && fgets(line, sizeof(line), f))
		if (sscanf(line, "fail %63s %255s %63s %63s", c, k, st, en) == 4 &&
		    !strcmp(c, call) && (!strcmp(k, "*") || !strcmp(k, key))) {
			hit = true;
			*status = !strcmp(st, "notfound") ? NSS_STATUS_NOTFOUND
				  : !strcmp(st, "tryagain") ? NSS_STATUS_TRYAGAIN
							    : NSS_STATUS_UNAVAIL;
			*err = errno_named(en);
		}
	if (f)
		fclose(f);
	return hit;
}

/* Copy s into the caller's buffer. */
static char *put(char **buf, size_t *left, const char *s)
{
	size_t n = strlen(s) + 1;
	char *at = *buf;

	if (n > *left)
		return NULL;
	memcpy(at, s, n);
	*buf += n;
	*left -= n;
	return at;
}

static enum nss_status fill_group(const char *name, gid_t gid,
				  const char *members, struct group *gr,
				  char *buf, size_t size, int *errnop)
{
	size_t n = 1, left;
	char **mem;

	for (const char *m = members; *m; m++)
		n += *m == ',';
	/* member pointers first, aligned, then the strings */
	if (size < (n + 1) * sizeof(char *)) {
		*errnop = ERANGE;
		return NSS_STATUS_TRYAGAIN;
	}
	mem = (char **)(void *)buf;
	buf += (n + 1) * sizeof(char *);
	left = size - (n + 1) * sizeof(char *);
	gr->gr_name = put(&buf, &left, name);
	gr->gr_passwd = put(&buf, &left, "x");
	gr->gr_gid = gid;
	gr->gr_mem = mem;
	n = 0;
	for (const char *m = members; *m;) {
		size_t len = strcspn(m, ",");
		char one[256];

		snprintf(one, sizeof(one), "%.*s", (int)len, m);
		if (len && !(mem[n++] = put(&buf, &left, one)))
			break;
		m += len + (m[len] == ',');
	}
	mem[n] = NULL;
	if (!gr->gr_name || !gr->gr_passwd || (n && !mem[n - 1])) {
		*errnop = ERANGE;
		return NSS_STATUS_TRYAGAIN;
	}
	return NSS_STATUS_SUCCESS;
}

/* Find a group by name (name != NULL) or gid. */
static enum nss_status find_group(const char *name, gid_t gid,
				  struct group *gr, char *buf, size_t size,
				  int *errnop)
{
	FILE *f = fopen(CONF, "re");
	char line[4096], n[256], members[3072];
	unsigned long g;
	enum nss_status st = NSS_STATUS_NOTFOUND;

	while (f && st == NSS_STATUS_NOTFOUND && fgets(line, sizeof(line), f)) {
		members[0] = '\0';
		if (sscanf(line, "group %255s %lu %3071s", n, &g, members) < 2)
			continue;
		if (name ? !strcmp(n, name) : g == gid)
			st = fill_group(n, (gid_t)g, members, gr, buf, size,
					errnop);
	}
	if (f)
		fclose(f);
	return st;
}

static enum nss_status find_user(const char *name, uid_t uid,
				 struct passwd *pw, char *buf, size_t size,
				 int *errnop)
{
	FILE *f = fopen(CONF, "re");
	char line[1024], n[256];
	unsigned long u, g;
	enum nss_status st = NSS_STATUS_NOTFOUND;

	while (f && st == NSS_STATUS_NOTFOUND && fgets(line, sizeof(line), f)) {
		size_t left = size;

		if (sscanf(line, "user %255s %lu %lu", n, &u, &g) != 3 ||
		    (name ? strcmp(n, name) != 0 : u != uid))
			continue;
		pw->pw_name = put(&buf, &left, n);
		pw->pw_passwd = put(&buf, &left, "x");
		pw->pw_gecos = put(&buf, &left, "");
		pw->pw_dir = put(&buf, &left, "/");
		pw->pw_shell = put(&buf, &left, "/bin/sh");
		pw->pw_uid = (uid_t)u;
		pw->pw_gid = (gid_t)g;
		st = pw->pw_shell ? NSS_STATUS_SUCCESS : NSS_STATUS_TRYAGAIN;
		if (st == NSS_STATUS_TRYAGAIN)
			*errnop = ERANGE;
	}
	if (f)
		fclose(f);
	return st;
}

enum nss_status _nss_dgfault_getgrnam_r(const char *name, struct group *gr,
					char *buf, size_t size, int *errnop)
{
	enum nss_status st;
	int err;

	if (failing("getgrnam", name, &st, &err)) {
		*errnop = err;
		return st;
	}
	return find_group(name, 0, gr, buf, size, errnop);
}

enum nss_status _nss_dgfault_getgrgid_r(gid_t gid, struct group *gr,
					char *buf, size_t size, int *errnop)
{
	char key[32];
	enum nss_status st;
	int err;

	snprintf(key, sizeof(key), "%u", (unsigned)gid);
	if (failing("getgrgid", key, &st, &err)) {
		*errnop = err;
		return st;
	}
	return find_group(NULL, gid, gr, buf, size, errnop);
}

enum nss_status _nss_dgfault_getpwnam_r(const char *name, struct passwd *pw,
					char *buf, size_t size, int *errnop)
{
	enum nss_status st;
	int err;

	if (failing("getpwnam", name, &st, &err)) {
		*errnop = err;
		return st;
	}
	return find_user(name, 0, pw, buf, size, errnop);
}

enum nss_status _nss_dgfault_getpwuid_r(uid_t uid, struct passwd *pw,
					char *buf, size_t size, int *errnop)
{
	char key[32];
	enum nss_status st;
	int err;

	snprintf(key, sizeof(key), "%u", (unsigned)uid);
	if (failing("getpwuid", key, &st, &err)) {
		*errnop = err;
		return st;
	}
	return find_user(NULL, uid, pw, buf, size, errnop);
}

/* Add each group that lists user as a member, as initgroups does. */
enum nss_status _nss_dgfault_initgroups_dyn(const char *user, gid_t skip,
					    long *start, long *size,
					    gid_t **groups, long limit,
					    int *errnop)
{
	FILE *f;
	char line[4096], n[256], members[3072];
	unsigned long g;
	enum nss_status st;
	int err;

	if (failing("initgroups", user, &st, &err)) {
		*errnop = err;
		return st;
	}
	if (!(f = fopen(CONF, "re")))
		return NSS_STATUS_NOTFOUND;
	while (fgets(line, sizeof(line), f)) {
		char *m, *save = NULL;

		members[0] = '\0';
		if (sscanf(line, "group %255s %lu %3071s", n, &g, members) < 3 ||
		    (gid_t)g == skip)
			continue;
		for (m = strtok_r(members, ",", &save); m;
		     m = strtok_r(NULL, ",", &save)) {
			if (strcmp(m, user) != 0)
				continue;
			if (*start == *size) {
				long nsize = *size * 2;
				gid_t *ng;

				if (limit > 0 && nsize > limit)
					nsize = limit;
				if (nsize <= *size)
					break;
				ng = realloc(*groups, (size_t)nsize * sizeof(gid_t));
				if (!ng) {
					fclose(f);
					*errnop = ENOMEM;
					return NSS_STATUS_TRYAGAIN;
				}
				*groups = ng;
				*size = nsize;
			}
			(*groups)[(*start)++] = (gid_t)g;
		}
	}
	fclose(f);
	return NSS_STATUS_SUCCESS;
}
