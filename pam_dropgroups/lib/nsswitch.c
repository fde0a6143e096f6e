/* One database's line of /etc/nsswitch.conf, read as glibc 2.33 and
 * later read it (nss_database.c, nss_action_parse.c): the line's name
 * ends at a blank or a colon, blanks and colons after it are skipped,
 * and the rest is services, each maybe followed by [ACTIONS].  glibc
 * strips no comments on such a line: "files ldap # old" names a service
 * "#", which it then fails to load.  Where glibc's reading depends on its
 * version (several lines for one database, a line without a colon, a
 * name that differs only in case) the text is refused here. */
#include "nsswitch.h"

#include <ctype.h>
#include <stdbool.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "util.h"

static const char *skip_blanks(const char *p, const char *end)
{
	while (p < end && isspace((unsigned char)*p))
		p++;
	return p;
}

/* A word of [ACTIONS]: up to a blank, '=' or ']'. */
static size_t word_len(const char *p, const char *end)
{
	size_t n = 0;

	while (p + n < end && !isspace((unsigned char)p[n]) && p[n] != '=' &&
	       p[n] != ']')
		n++;
	return n;
}

static bool word_is(const char *p, size_t n, const char *word)
{
	return n == strlen(word) && strncasecmp(p, word, n) == 0;
}

static int status_named(const char *p, size_t n)
{
	static const char *const names[DG_NSS_STATUSES] = {
		[DG_NSS_SUCCESS] = "success", [DG_NSS_NOTFOUND] = "notfound",
		[DG_NSS_UNAVAIL] = "unavail", [DG_NSS_TRYAGAIN] = "tryagain",
	};

	for (int s = 0; s < DG_NSS_STATUSES; s++)
		if (word_is(p, n, names[s]))
			return s;
	return -1;
}

static int action_named(const char *p, size_t n)
{
	if (word_is(p, n, "return"))
		return DG_NSS_RETURN;
	if (word_is(p, n, "continue"))
		return DG_NSS_CONTINUE;
	if (word_is(p, n, "merge"))
		return DG_NSS_MERGE;
	return -1;
}

/* "[!STATUS=ACTION ...]" at *pp (just past the '['), into after[].
 * 0, or -EINVAL where glibc refuses the line. */
static int parse_actions(const char **pp, const char *end,
			 enum dg_nss_action after[DG_NSS_STATUSES])
{
	const char *p = skip_blanks(*pp, end);

	do {
		bool not = p < end && *p == '!';
		size_t n;
		int status, action;

		p += not;
		n = word_len(p, end);
		if ((status = status_named(p, n)) < 0)
			return -EINVAL;
		p = skip_blanks(p + n, end);
		if (p == end || *p != '=')
			return -EINVAL;
		p = skip_blanks(p + 1, end);
		n = word_len(p, end);
		if ((action = action_named(p, n)) < 0)
			return -EINVAL;
		p = skip_blanks(p + n, end);
		if (not) {
			/* every other status takes the action */
			enum dg_nss_action keep = after[status];

			for (int s = 0; s < DG_NSS_STATUSES; s++)
				after[s] = (enum dg_nss_action)action;
			after[status] = keep;
		} else {
			after[status] = (enum dg_nss_action)action;
		}
	} while (p < end && *p != ']');
	if (p == end)
		return -EINVAL;
	*pp = p + 1;
	return 0;
}

/* The services after the line's name, [p, end). */
static int parse_services(const char *p, const char *end,
			  struct dg_nss_services *out)
{
	for (;;) {
		struct dg_nss_service s = {.after = {[DG_NSS_SUCCESS] = DG_NSS_RETURN}};
		const char *name;

		p = skip_blanks(p, end);
		name = p;
		while (p < end && !isspace((unsigned char)*p) && *p != '[')
			p++;
		if (p == name)
			return 0;
		if (!(s.name = strndup(name, (size_t)(p - name))))
			return -ENOMEM;
		p = skip_blanks(p, end);
		if (p < end && *p == '[') {
			p++;
			if (parse_actions(&p, end, s.after) < 0) {
				free(s.name);
				return -EINVAL;
			}
		}
		if (DG_APPEND(out, s) < 0) {
			free(s.name);
			return -ENOMEM;
		}
	}
}

/* The line [line, end) names database db: 1 with *rest at its services,
 * 0 when it names another, -EINVAL when it might name db in some glibc
 * version (case, or no colon). */
static int line_names(const char *line, const char *end, const char *db,
		      const char **rest)
{
	const char *p = skip_blanks(line, end), *name = p;
	size_t n, dblen = strlen(db);

	while (p < end && !isspace((unsigned char)*p) && *p != ':')
		p++;
	n = (size_t)(p - name);
	if (n != dblen || strncasecmp(name, db, dblen) != 0)
		return 0;
	if (strncmp(name, db, dblen) != 0)
		return -EINVAL;
	p = skip_blanks(p, end);
	if (p == end || *p != ':')
		return -EINVAL;
	while (p < end && (*p == ':' || isspace((unsigned char)*p)))
		p++;
	*rest = p;
	return 1;
}

int dg_nsswitch_services(const char *text, size_t len, const char *db,
			 struct dg_nss_services *out)
{
	const char *services = NULL, *services_end = NULL, *stop = text + len;
	int found = 0, r;

	*out = (struct dg_nss_services){0};
	/* glibc reads every line past a NUL byte, and each line only up to
	 * one: a reading that stopped there could miss the database's line */
	if (memchr(text, '\0', len))
		return -EINVAL;
	for (const char *line = text; line < stop;) {
		const char *end = memchr(line, '\n', (size_t)(stop - line)), *rest;

		if (!end)
			end = stop;

		r = line_names(line, end, db, &rest);
		if (r < 0 || (r > 0 && found++))
			return -EINVAL; /* glibc versions disagree on it */
		if (r > 0) {
			services = rest;
			services_end = end;
		}
		line = end + 1;
	}
	if (!found)
		return 0;
	if ((r = parse_services(services, services_end, out)) < 0) {
		dg_nsswitch_services_free(out);
		return r;
	}
	return 1;
}

void dg_nsswitch_services_free(struct dg_nss_services *s)
{
	for (size_t i = 0; i < s->n; i++)
		free(s->v[i].name);
	free(s->v);
	*s = (struct dg_nss_services){0};
}

/* glibc's defaults: return after SUCCESS, continue after the rest. */
static bool default_actions(const struct dg_nss_service *s)
{
	for (int i = 0; i < DG_NSS_STATUSES; i++)
		if (s->after[i] != (i == DG_NSS_SUCCESS ? DG_NSS_RETURN
							: DG_NSS_CONTINUE))
			return false;
	return true;
}

enum dg_nss_files_order
dg_nsswitch_files_order(const struct dg_nss_services *services)
{
	if (!services->n || strcmp(services->v[0].name, "files") != 0 ||
	    !default_actions(&services->v[0]))
		return DG_NSS_FILES_NOT_FIRST;
	return services->n == 1 ? DG_NSS_FILES_ONLY : DG_NSS_FILES_FIRST;
}
