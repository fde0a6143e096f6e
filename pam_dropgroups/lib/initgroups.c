/* The user's groups from each NSS service, as glibc's initgroups asks
 * them (grp/initgroups.c): the services of the "initgroups" line, or of
 * the "group" line when there is none, or "files" when neither is
 * there; each called through its _nss_SERVICE_initgroups_dyn, and the
 * next one asked as the line's actions say.  "files" is read here
 * (nss.c), as nss_files reads it.  What differs from glibc is only what
 * is kept: every status, so that a list is called whole only when every
 * service asked answered it. */
#include "initgroups.h"

#include <dlfcn.h>
#include <errno.h>
#include <grp.h>
#include <limits.h>
#include <nss.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nss.h"
#include "nsswitch.h"
#include "util.h"

typedef enum nss_status (*initgroups_fn)(const char *user, gid_t group,
					 long *start, long *size,
					 gid_t **groups, long limit,
					 int *errnop);

/* The list as the services fill it: glibc's layout, the primary gid
 * first, the buffer malloc'd (a service may realloc it). */
struct list {
	gid_t *v;
	long n, size;
};

static int list_add(struct list *l, gid_t gid)
{
	if (l->n == l->size) {
		gid_t *v = realloc(l->v, (size_t)l->size * 2 * sizeof(*v));

		if (!v)
			return -ENOMEM;
		l->v = v;
		l->size *= 2;
	}
	l->v[l->n++] = gid;
	return 0;
}

/* What one service said, and why it does not count as an answer. */
struct said {
	enum dg_nss_status status;
	char *why; /* NULL: it answered */
};

static int said_failed(struct said *s, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int said_failed(struct said *s, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	s->why = dg_util_vasprintf(fmt, ap);
	va_end(ap);
	return s->why ? 0 : -ENOMEM;
}

static int ask_files(const struct dg_user *user, struct list *l,
		     struct said *s)
{
	struct dg_gids found = {0};
	int r = dg_nss_files_groups_of(user->name, user->primary_gid, &found);

	/* as nss_files answers: SUCCESS when the file lists the user in a
	 * group (told before found is freed, which empties it) */
	s->status = found.n ? DG_NSS_SUCCESS : DG_NSS_NOTFOUND;
	for (size_t i = 0; r == 0 && i < found.n; i++)
		r = list_add(l, found.v[i]);
	dg_gids_free(&found);
	if (r == -ENOMEM)
		return r;
	if (r == -EBADMSG)
		return said_failed(s, "/etc/group has a comment line that lists "
				      "user \"%s\", which glibc's initgroups "
				      "reads as a group and its other look-ups "
				      "skip",
				   user->name);
	if (r < 0) {
		s->status = DG_NSS_UNAVAIL; /* nss_files, on a file it cannot read */
		return said_failed(s, "NSS service \"files\" could not read "
				      "/etc/group");
	}
	return 0;
}

static initgroups_fn find_initgroups(const char *service, struct said *s,
				     int *r)
{
	void *fn;

	switch ((*r = dg_nss_service_fn(service, "initgroups_dyn", &fn))) {
	case 0:
		return (initgroups_fn)fn;
	case DG_NSS_BAD_NAME:
		*r = said_failed(s, "NSS service \"%s\" is not a name a "
				    "library can have", service);
		break;
	case DG_NSS_NO_LIBRARY:
		*r = said_failed(s, "NSS service \"%s\" could not be loaded "
				    "(%s)", service, dlerror());
		break;
	case DG_NSS_NO_FUNCTION:
		*r = said_failed(s, "NSS service \"%s\" has no initgroups "
				    "function, so whether it answered cannot "
				    "be told", service);
		break;
	}
	return NULL;
}

static const char *status_text(enum dg_nss_status status)
{
	switch (status) {
	case DG_NSS_SUCCESS: return "success";
	case DG_NSS_NOTFOUND: return "notfound";
	case DG_NSS_UNAVAIL: return "unavail";
	case DG_NSS_TRYAGAIN: return "tryagain";
	case DG_NSS_STATUSES: break;
	}
	return "?";
}

static int ask_library(const char *service, const struct dg_user *user,
		       struct list *l, struct said *s)
{
	int r, err = 0;
	initgroups_fn fn = find_initgroups(service, s, &r);
	enum nss_status st;

	if (!fn) {
		s->status = DG_NSS_UNAVAIL; /* what glibc makes of it */
		return r;
	}
	st = fn(user->name, user->primary_gid, &l->n, &l->size, &l->v, -1,
		&err);
	switch (st) {
	case NSS_STATUS_SUCCESS: s->status = DG_NSS_SUCCESS; return 0;
	case NSS_STATUS_NOTFOUND: s->status = DG_NSS_NOTFOUND; return 0;
	case NSS_STATUS_UNAVAIL: s->status = DG_NSS_UNAVAIL; break;
	case NSS_STATUS_TRYAGAIN: s->status = DG_NSS_TRYAGAIN; break;
	default: s->status = DG_NSS_UNAVAIL; break;
	}
	if (err == ENOMEM)
		return -ENOMEM;
	/* systemd's userdb answers a user it knows no memberships of with
	 * UNAVAIL and ESRCH (systemd 252): that is its "none". */
	if (strcmp(service, "systemd") == 0 && st == NSS_STATUS_UNAVAIL &&
	    err == ESRCH)
		return 0;
	return said_failed(s, "NSS service \"%s\" did not answer for the "
			      "groups of user \"%s\" (%s: %s)",
			   service, user->name, status_text(s->status),
			   err ? strerror(err) : "no reason given");
}

/* The services to ask, and whether glibc honours "return" after a
 * success (only on an initgroups line: on a group line glibc goes on to
 * the next service whatever the first found).  1, or 0 with *why set
 * when nsswitch.conf cannot be read one way; -ENOMEM. */
static int services_to_ask(struct dg_nss_services *svc, bool *initgroups_line,
			   char **why)
{
	int r = dg_nss_read_nsswitch("initgroups", svc);

	*initgroups_line = r > 0;
	if (r == 0)
		r = dg_nss_read_nsswitch("group", svc);
	if (r == 0) {
		/* neither line: glibc's default, files alone */
		struct dg_nss_service files = {.after = {[DG_NSS_SUCCESS] = DG_NSS_RETURN}};

		/* gcc 12's analyzer loses the copy of files that DG_APPEND
		 * stores at the end of svc->v, and calls files.name leaked
		 * when files goes out of scope (it reports the function's
		 * closing brace, hence the reach of this): the copy is
		 * svc's, freed by dg_nsswitch_services_free. */
		DG_ANALYZER_IGNORE("-Wanalyzer-malloc-leak")
		if (!(files.name = strdup("files")) || DG_APPEND(svc, files) < 0) {
			free(files.name);
			return -ENOMEM;
		}
		return 1;
	}
	if (r == -ENOMEM)
		return r;
	if (r < 0 && asprintf(why, "/etc/nsswitch.conf cannot be read one "
				   "way (%s), so which services list a "
				   "user's groups cannot be told",
			      strerror(-r)) < 0)
		return -ENOMEM;
	return r > 0;
}
DG_ANALYZER_END

/* Ask each service in turn, as glibc would.  *why: the first that did
 * not answer (the rest are still asked: what they list counts). */
static int ask_services(const struct dg_user *user,
			const struct dg_nss_services *svc, bool initgroups_line,
			struct list *l, char **why)
{
	for (size_t i = 0; i < svc->n; i++) {
		struct said s = {0};
		int r = strcmp(svc->v[i].name, "files") == 0
				? ask_files(user, l, &s)
				: ask_library(svc->v[i].name, user, l, &s);

		if (r < 0) {
			free(s.why);
			return r;
		}
		if (s.why && !*why)
			*why = DG_TAKE(s.why);
		free(s.why);
		if ((initgroups_line || s.status != DG_NSS_SUCCESS) &&
		    svc->v[i].after[s.status] == DG_NSS_RETURN)
			break;
	}
	return 0;
}

/* What glibc itself answers (from nscd, when it runs): added to the
 * list, for the groups a session started now would get. */
static int ask_glibc(const struct dg_user *user, struct list *l)
{
	int n = 16;

	for (;;) {
		_cleanup_free_ gid_t *v = calloc((size_t)n, sizeof(*v));
		int want = n;

		if (!v)
			return -ENOMEM;
		if (getgrouplist(user->name, user->primary_gid, v, &want) >= 0) {
			for (int i = 0; i < want; i++)
				if (list_add(l, v[i]) < 0)
					return -ENOMEM;
			return 0;
		}
		if (want <= n) /* no progress: guard against a lying backend */
			want = n * 2;
		if (want > NGROUPS_MAX * 4)
			return 0; /* what the services listed stands */
		n = want;
	}
}

int dg_initgroups(struct dg_user *user)
{
	struct dg_nss_services svc = {0};
	struct list l = {.v = malloc(16 * sizeof(gid_t)), .n = 1, .size = 16};
	_cleanup_free_ char *why = NULL;
	bool initgroups_line = false;
	int r;

	if (!l.v)
		return -ENOMEM;
	l.v[0] = user->primary_gid;
	r = services_to_ask(&svc, &initgroups_line, &why);
	if (r > 0)
		r = ask_services(user, &svc, initgroups_line, &l, &why);
	if (r >= 0 && dg_nss_nscd_may_answer())
		r = ask_glibc(user, &l);
	dg_nsswitch_services_free(&svc);
	if (r >= 0) {
		dg_gids_free(&user->groups);
		r = dg_gids_from(&user->groups, l.v, (size_t)l.n);
	}
	free(l.v);
	if (r < 0)
		return r;
	free(user->member.why);
	user->member.why = DG_TAKE(why);
	user->member.listed = user->member.why ? DG_LISTED_PARTIAL
					       : DG_LISTED_WHOLE;
	return 0;
}
