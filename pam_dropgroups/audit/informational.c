/* dropgroups audit: the informational uses of groups, judged from NSS
 * membership, which dropping a group does not defeat: sshd_config(5)
 * DenyGroups (and what it Includes), access.conf(5) "-:" lines (and
 * access.d), pam_succeed_if(8) "user notingroup" in /etc/pam.d.
 *
 * The report lists them so that an admin sees every negative use of a
 * group, marked as not defeated by dropping.  Like the sudoers reader,
 * this returns evidence and diagnostics and prints nothing. */
#include <errno.h>
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "informational.h"
#include "lines.h"
#include "nss.h"
#include "util.h"

#define MAX_DEPTH 32

/* What the readers share: where evidence goes, the problems so far, and
 * the files an sshd_config and its Includes may still name (a file that
 * includes its own directory's glob would otherwise be read a number of
 * times exponential in MAX_DEPTH). */
struct info {
	struct dg_evidence_store found; /* the caller's store gets it whole */
	struct dg_diags *diags;
	int first_error; /* -errno, or 0 */
	int sshd_files_left;
};

static void failed(struct info *in, int e)
{
	if (!in->first_error)
		in->first_error = -e;
}

/* Is name a group?  Through the project's reentrant look-up; an NSS
 * failure is an error, and not a group. */
static bool is_group(struct info *in, const char *name)
{
	gid_t g;
	int r = dg_nss_group_by_name(name, &g);

	if (r < 0) {
		dg_diag_add(in->diags, DG_ERROR, NULL, 0, "group %s: %s", name,
			    strerror(-r));
		failed(in, -r);
	}
	return r > 0;
}

/* Is name a user (pam_access reads a bare name as a user first)? */
static bool is_user(struct info *in, const char *name)
{
	struct dg_user u = {0};
	int r = dg_nss_user_lookup(name, &u);

	dg_policy_user_free(&u);
	if (r < 0) {
		dg_diag_add(in->diags, DG_ERROR, NULL, 0, "user %s: %s", name,
			    strerror(-r));
		failed(in, -r);
	}
	return r != 0; /* on a failure, do not call it a group */
}

typedef int line_fn(struct info *in, const char *path, char *text,
		    int lineno, int depth);

/* Each line of path, comments stripped, through fn.  A missing file is
 * skipped silently, another failure is an error unless quiet (quiet
 * also means: a symbolic link is not followed). */
static int read_each_line(struct info *in, const char *path, bool quiet,
			  int depth, line_fn *fn)
{
	_cleanup_lines_ struct dg_lines lines = {0};
	int r = dg_lines_read(path, quiet, &lines);

	if (r == -ENOMEM)
		return r;
	if (r < 0) {
		if (r != -ENOENT && !quiet) {
			dg_diag_add(in->diags, DG_ERROR, path, 0, "%s",
				    strerror(-r));
			failed(in, -r);
		}
		return 0;
	}
	for (size_t i = 0; i < lines.n && r >= 0; i++) {
		dg_lines_strip_comment(lines.v[i].text);
		r = fn(in, path, lines.v[i].text, lines.v[i].lineno, depth);
	}
	return r;
}

static int sshd_file(struct info *in, const char *path, int depth);

/* The rest of an Include line: each pattern, relative to /etc/ssh. */
static int sshd_include(struct info *in, char **save, int depth)
{
	int r = 0;

	for (char *a; r >= 0 && (a = strtok_r(NULL, " \t", save));) {
		_cleanup_free_ char *pat = NULL;
		glob_t g;

		if (a[0] == '/')
			pat = strdup(a);
		else if (asprintf(&pat, "/etc/ssh/%s", a) < 0)
			pat = NULL;
		if (!pat)
			return -ENOMEM;
		if (glob(pat, 0, NULL, &g) == 0) {
			for (size_t k = 0; k < g.gl_pathc && r >= 0; k++)
				r = sshd_file(in, g.gl_pathv[k], depth + 1);
			globfree(&g);
		}
	}
	return r;
}

static int sshd_line(struct info *in, const char *path, char *text,
		     int lineno, int depth)
{
	char *save = NULL, *kw = strtok_r(text, " \t=", &save);
	int r = 0;

	if (!kw)
		return 0;
	if (!strcasecmp(kw, "Include") && depth < MAX_DEPTH)
		return sshd_include(in, &save, depth);
	if (strcasecmp(kw, "DenyGroups"))
		return 0;
	for (char *a; r >= 0 && (a = strtok_r(NULL, " \t", &save));)
		r = dg_evidence_add_named(&in->found, a, DG_EV_SSHD, path, lineno);
	return r;
}

static int sshd_file(struct info *in, const char *path, int depth)
{
	if (--in->sshd_files_left < 0) {
		if (in->sshd_files_left == -1) {
			dg_diag_add(in->diags, DG_ERROR, path, 0,
				    "sshd_config Includes too many files");
			failed(in, ELOOP);
		}
		return 0;
	}
	return read_each_line(in, path, false, depth, sshd_line);
}

/* The group a token of an access.conf users field names, or NULL:
 * (group), @group (not a user@host), or a bare name that is not a user
 * but a group. */
static const char *access_group(struct info *in, char *tok)
{
	size_t tl = strlen(tok);

	if (tok[0] == '(' && tl > 2 && tok[tl - 1] == ')') {
		tok[tl - 1] = '\0';
		return tok + 1;
	}
	if (tok[0] == '@' && tok[1] && !strchr(tok + 1, '@') &&
	    is_group(in, tok + 1))
		return tok + 1;
	if (strcmp(tok, "ALL") && strcmp(tok, "LOCAL") && tok[0] != '@' &&
	    !is_user(in, tok) && is_group(in, tok))
		return tok;
	return NULL;
}

/* "-:users:origins": each group of users, up to EXCEPT. */
static int access_line(struct info *in, const char *path, char *text,
		       int lineno, int depth)
{
	char *l = dg_lines_trim(text), *save = NULL, *users, *colon;
	int r = 0;

	(void)depth;
	if (l[0] != '-')
		return 0;
	l = dg_lines_trim(l + 1);
	if (*l != ':')
		return 0;
	users = l + 1;
	if (!(colon = strchr(users, ':')))
		return 0;
	*colon = '\0';
	for (char *tok = strtok_r(users, " \t,", &save); tok && r >= 0;
	     tok = strtok_r(NULL, " \t,", &save)) {
		const char *g;

		if (!strcmp(tok, "EXCEPT"))
			break;
		if ((g = access_group(in, tok)))
			r = dg_evidence_add_named(&in->found, g, DG_EV_PAM_ACCESS,
						  path, lineno);
	}
	return r;
}

/* pam_succeed_if's "user notingroup g1:g2". */
static int pamd_line(struct info *in, const char *path, char *text,
		     int lineno, int depth)
{
	char *save = NULL, *prev2 = NULL, *prev = NULL;
	int r = 0;

	(void)depth;
	if (!strstr(text, "pam_succeed_if"))
		return 0;
	for (char *tok = strtok_r(text, " \t", &save); tok && r >= 0;
	     tok = strtok_r(NULL, " \t", &save)) {
		if (prev2 && prev && !strcmp(prev2, "user") &&
		    !strcmp(prev, "notingroup")) {
			char *s2 = NULL;
			for (char *g = strtok_r(tok, ":", &s2); g && r >= 0;
			     g = strtok_r(NULL, ":", &s2))
				r = dg_evidence_add_named(&in->found, g,
							  DG_EV_SUCCEED_IF, path,
							  lineno);
		}
		prev2 = prev;
		prev = tok;
	}
	return r;
}

/* Each file that pattern matches, through fn. */
static int read_glob(struct info *in, const char *pattern, bool quiet,
		     line_fn *fn)
{
	glob_t g;
	int r = 0;

	if (glob(pattern, 0, NULL, &g) != 0)
		return 0;
	for (size_t i = 0; i < g.gl_pathc && r >= 0; i++)
		r = read_each_line(in, g.gl_pathv[i], quiet, 0, fn);
	globfree(&g);
	return r;
}

int dg_informational_read(struct dg_evidence_store *ev, struct dg_diags *diags)
{
	struct info in = {.diags = diags, .sshd_files_left = 1000};
	int r;

	r = sshd_file(&in, "/etc/ssh/sshd_config", 0);
	if (r >= 0)
		r = read_each_line(&in, "/etc/security/access.conf", false, 0,
				   access_line);
	if (r >= 0)
		r = read_glob(&in, "/etc/security/access.d/*.conf", false,
			      access_line);
	/* quiet: a link or not a file is the stack reader's business */
	if (r >= 0)
		r = read_glob(&in, "/etc/pam.d/*", true, pamd_line);
	if (r >= 0)
		r = dg_evidence_merge(ev, &in.found);
	dg_evidence_free(&in.found);
	return r < 0 ? r : in.first_error;
}
