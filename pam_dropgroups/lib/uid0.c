/* Is a user name surely uid 0, whichever NSS service a program asked?
 *
 * The module knows the session's user by name (PAM_USER), and the login
 * program may have reached that name from a uid: "sudo -u '#5000'" asks
 * getpwuid_r(5000), and a directory after "files" may call uid 5000
 * "root", while getpwnam_r("root") stops at /etc/passwd's uid 0.  So a
 * name is taken for uid 0 only when every service of the passwd line that
 * knows the name says 0 (each asked on its own, whatever the line's
 * actions: a getpwuid_r may reach any of them), at least one knows it,
 * and glibc's own answer (through nscd, when it runs) says 0 too.  A
 * service that does not answer, a line that cannot be read, or a library
 * whose function is missing is "cannot tell": not uid 0.  (An outage is
 * no exception: a user who can make a directory time out could
 * otherwise choose when the check passes.)  A library that does not
 * load at all cannot answer getpwuid_r either, so it knows no name.
 *
 * Two services answer a name differently from a uid, and are read
 * apart: "compat" answers a name from /etc/passwd's own line and a uid
 * through a "+" line's other services, so it is "cannot tell"; and
 * "systemd" answers "root" and "nobody" itself, before userdb, whose
 * drop-in records getpwuid_r still reaches, so a record in a userdb
 * directory that may be of the name is "cannot tell" too. */
#include "uid0.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <nss.h>
#include <pwd.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "nss.h"
#include "nsswitch.h"
#include "util.h"

#define PASSWD_FILE "/etc/passwd"
/* A passwd entry larger than this is no answer. */
#define ENTRY_MAX (1u << 20)

/* What one service said of the name. */
enum said { NOT_KNOWN, UID_0, OTHER_UID, CANNOT_TELL };

static enum said merge(enum said a, enum said b)
{
	return a > b ? a : b; /* CANNOT_TELL > OTHER_UID > UID_0 > NOT_KNOWN */
}

/* Every entry of /etc/passwd with the name, as nss_files would read
 * each (fgetpwent_r skips what it cannot parse, as nss_files does). */
static int ask_files(const char *name, enum said *said)
{
	_cleanup_fclose_ FILE *f = fopen(PASSWD_FILE, "re");
	_cleanup_free_ char *buf = NULL;
	size_t size = 1024;
	struct passwd pw, *res;
	int r;

	*said = NOT_KNOWN;
	if (!f) {
		if (errno == ENOENT)
			return 0;
		*said = CANNOT_TELL;
		return errno == ENOMEM ? -ENOMEM : 0;
	}
	if (!(buf = malloc(size)))
		return -ENOMEM;
	for (;;) {
		r = fgetpwent_r(f, &pw, buf, size, &res);
		if (r == ERANGE) {
			/* the entry is read again with a larger buffer: back
			 * to where it started is not possible with stdio,
			 * so the whole file is read again */
			char *n;

			if (size >= ENTRY_MAX) {
				*said = CANNOT_TELL;
				return 0;
			}
			size *= 2;
			if (!(n = realloc(buf, size)))
				return -ENOMEM;
			buf = n;
			rewind(f);
			*said = NOT_KNOWN;
			continue;
		}
		if (r == ENOENT)
			return 0; /* the end */
		if (r != 0) {
			*said = CANNOT_TELL;
			return r == ENOMEM ? -ENOMEM : 0;
		}
		if (strcmp(pw.pw_name, name) == 0)
			*said = merge(*said, pw.pw_uid == 0 ? UID_0 : OTHER_UID);
	}
}

typedef enum nss_status (*getpwnam_fn)(const char *name, struct passwd *pw,
				       char *buf, size_t size, int *errnop);

/* The directories systemd's userdb reads its drop-in records from
 * (systemd 252: NAME.user, and UID.user for the same record or another;
 * /lib/userdb where /usr is not merged). */
static const char *const userdb_dirs[] = {
	"/etc/userdb", "/run/userdb", "/run/host/userdb",
	"/usr/local/lib/userdb", "/usr/lib/userdb", "/lib/userdb",
};

/* A record file larger than this is read as one that may hold the name. */
#define USERDB_RECORD_MAX (1u << 20)

/* Might this record file be a user of the name?  A record's userName
 * need not match its file's name (5000.user may call itself "root"), so
 * the text is searched for the name in quotes; a record that cannot be
 * read whole may hold any name.  (A record that merely mentions the
 * name elsewhere counts too: a doubt, never a pass.) */
static bool record_may_name(int dirfd, const char *file, const char *quoted)
{
	_cleanup_close_ int fd = openat(dirfd, file, O_RDONLY | O_CLOEXEC);
	_cleanup_free_ char *text = NULL;
	size_t len = 0;
	struct stat st;

	if (fd < 0 || fstat(fd, &st) < 0)
		return true;
	if (!S_ISREG(st.st_mode))
		return false; /* not a record userdb reads */
	if (dg_util_read_whole(fd, (size_t)st.st_size, USERDB_RECORD_MAX,
			       &text, &len) < 0)
		return true;
	return memmem(text, len, quoted, strlen(quoted)) != NULL;
}

/* Is there a userdb drop-in record that may be a user of the name?
 * Any directory that exists but cannot be read counts as one. */
static int userdb_has(const char *name, bool *has)
{
	_cleanup_free_ char *quoted = NULL;

	*has = false;
	if (asprintf(&quoted, "\"%s\"", name) < 0) {
		quoted = NULL; /* undefined after a failed asprintf */
		return -ENOMEM;
	}
	for (size_t i = 0;
	     !*has && i < sizeof(userdb_dirs) / sizeof(*userdb_dirs); i++) {
		DIR *d = opendir(userdb_dirs[i]);
		struct dirent *e;

		if (!d) {
			*has = errno != ENOENT && errno != ENOTDIR;
			continue;
		}
		errno = 0;
		while (!*has && (e = readdir(d))) {
			size_t n = strlen(e->d_name);

			if (n > 5 && strcmp(e->d_name + n - 5, ".user") == 0)
				*has = record_may_name(dirfd(d), e->d_name,
						       quoted);
			errno = 0;
		}
		if (errno)
			*has = true; /* the listing broke off */
		closedir(d);
	}
	return 0;
}

/* Another service, through its own library, as glibc would load it. */
static int ask_library(const char *service, const char *name,
		       enum said *said)
{
	_cleanup_free_ char *buf = NULL;
	getpwnam_fn fn;
	void *p;
	int r;

	*said = CANNOT_TELL;
	if (strcmp(service, "compat") == 0)
		return 0;
	if (strcmp(service, "systemd") == 0) {
		bool has;

		if ((r = userdb_has(name, &has)) < 0 || has)
			return r;
	}
	r = dg_nss_service_fn(service, "getpwnam_r", &p);
	if (r == DG_NSS_NO_LIBRARY) {
		/* glibc skips it too: no look-up reaches it */
		*said = NOT_KNOWN;
		return 0;
	}
	if (r != 0)
		return r == -ENOMEM ? r : 0;
	fn = (getpwnam_fn)p;
	for (size_t size = 1024; size <= ENTRY_MAX; size *= 2) {
		struct passwd pw;
		enum nss_status st;
		int err = 0;

		free(buf);
		if (!(buf = malloc(size)))
			return -ENOMEM;
		st = fn(name, &pw, buf, size, &err);
		if (st == NSS_STATUS_TRYAGAIN && err == ERANGE)
			continue;
		if (st == NSS_STATUS_SUCCESS)
			*said = pw.pw_uid == 0 ? UID_0 : OTHER_UID;
		else if (st == NSS_STATUS_NOTFOUND)
			*said = NOT_KNOWN;
		return err == ENOMEM ? -ENOMEM : 0;
	}
	return 0;
}

int dg_uid0_sure(const char *name)
{
	struct dg_nss_services svc = {0};
	struct dg_user u = {0};
	enum said all = NOT_KNOWN;
	int r = dg_nss_read_nsswitch("passwd", &svc);

	if (r < 0) {
		dg_nsswitch_services_free(&svc);
		return r == -ENOMEM ? r : 0;
	}
	for (size_t i = 0; r > 0 && i < svc.n && all != CANNOT_TELL; i++) {
		enum said s;
		int e = strcmp(svc.v[i].name, "files") == 0
				? ask_files(name, &s)
				: ask_library(svc.v[i].name, name, &s);

		if (e < 0) {
			dg_nsswitch_services_free(&svc);
			return e;
		}
		all = merge(all, s);
	}
	dg_nsswitch_services_free(&svc);
	if (r == 0) { /* no passwd line: glibc asks files alone */
		enum said s;
		int e = ask_files(name, &s);

		if (e < 0)
			return e;
		all = s;
	}
	if (all != UID_0)
		return 0;
	/* and what the login program itself was told, nscd's cache too */
	r = dg_nss_user_lookup(name, &u);
	all = r > 0 && u.uid == 0 ? UID_0 : CANNOT_TELL;
	dg_policy_user_free(&u);
	if (r == -ENOMEM)
		return r;
	return all == UID_0;
}
