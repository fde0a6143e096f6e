/* dropgroups audit --emit-dropin FILE (dropin.h): the groups found, as a
 * drop-in the policy reads (dropgroups.conf(5)).  The text is a pure
 * function of the rows, so that a unit test can read it; writing it is
 * apart, and careful: a new file beside FILE, renamed over it when
 * whole, so never written through a symbolic link, a hard link or a FIFO
 * that someone left at FILE, and never seen half-written. */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "dropin.h"
#include "util.h"

/* A row the drop-in lists: evidence that dropping its group defeats. */
static bool listed(const struct dg_group_row *r)
{
	return r->defeated;
}

/* Can the policy read name back from a string as it is?  Not with a
 * control character, which it refuses anywhere in its text. */
static bool writable_name(const char *name)
{
	for (const char *p = name; *p; p++)
		if (dg_util_control_len(p, true))
			return false;
	return true;
}

/* Text for a comment that ends the line: no byte can end it early, a
 * control character (UTF-8's C1 ones too) is written as '?'. */
static void comment_text(FILE *f, const char *text)
{
	for (const char *p = text; *p; p++) {
		size_t control = dg_util_control_len(p, true);

		fputc(control ? '?' : *p, f);
		p += control ? control - 1 : 0;
	}
}

/* name as a libconfig string, '"' and '\' escaped. */
static void string_name(FILE *f, const char *name)
{
	fputc('"', f);
	for (const char *p = name; *p; p++) {
		if (*p == '"' || *p == '\\')
			fputc('\\', f);
		fputc(*p, f);
	}
	fputc('"', f);
}

/* One entry of the list: a gid (row i), or the name of rows [i, j). */
struct entry {
	size_t i, j;
	bool name;
};

/* Rows i.. that share row i's name (the rows are sorted by name): the
 * end of the run. */
static size_t same_name(const struct dg_groups *g, size_t i)
{
	size_t j = i + 1;

	while (j < g->n && g->v[j].name && !strcmp(g->v[j].name, g->v[i].name))
		j++;
	return j;
}

/* Is some row of [i, j) listed? */
static bool any_listed(const struct dg_groups *g, size_t i, size_t j)
{
	for (; i < j; i++)
		if (listed(&g->v[i]))
			return true;
	return false;
}

/* The kinds of evidence of rows [i, j) that dropping would defeat, with
 * their counts, and one place. */
static void why(FILE *f, const struct dg_groups *g, size_t i, size_t j)
{
	bool any = false;

	for (int k = 0; k < DG_EV_KINDS; k++) {
		size_t count = 0;

		for (size_t r = i; r < j; r++)
			count += listed(&g->v[r]) ? g->v[r].counts[k] : 0;
		if (!count || !dg_evidence_defeated(k))
			continue;
		fprintf(f, "%s %s %zu", any ? "," : "",
			dg_evidence_kind_name(k), count);
		any = true;
	}
	for (size_t r = i; r < j; r++) {
		if (!listed(&g->v[r]) || !g->v[r].count)
			continue;
		fputs("; e.g. ", f);
		comment_text(f, g->v[r].ev[0].where);
		break;
	}
}

static void entry_comment(FILE *f, const struct dg_groups *g,
			  const struct entry *e)
{
	const struct dg_group_row *r = &g->v[e->i];

	fputs(" # ", f);
	if (e->name && !r->by_gid) {
		fputs("no group has this name now:", f);
		why(f, g, e->i, e->j);
	} else if (e->name) {
		fputs("every other gid of the name, which a directory may hold "
		      "without listing it",
		      f);
	} else {
		comment_text(f, r->name ? r->name : "(no name)");
		fputs(r->name && !writable_name(r->name)
			      ? " (a name with a control character):"
			      : ":",
		      f);
		why(f, g, e->i, e->i + 1);
	}
}

/* The entries, in the order of the rows: each gid the evidence names, so
 * that it is kept whatever NSS answers at login; then, for a name the
 * policy can read back, the name as optional, so that the policy keeps
 * every gid that carries it (sudo's !%group matches them all, and a
 * directory that does not list its groups can hold one the audit never
 * saw), without making logins wait on it: a name that does not resolve is
 * a warning.  A name no group has now goes in alone, for the day one
 * does.  *n entries, or NULL on ENOMEM. */
static struct entry *entries_of(const struct dg_groups *g, size_t *n)
{
	size_t most = 2 * g->n; /* a gid per row, a name per run */
	struct entry *v = dg_new0(struct entry, most);

	*n = 0;
	for (size_t i = 0; v && i < g->n;) {
		const struct dg_group_row *r = &g->v[i];
		size_t j = r->name ? same_name(g, i) : i + 1;

		for (size_t k = i; k < j; k++)
			if (listed(&g->v[k]) && g->v[k].by_gid)
				v[(*n)++] = (struct entry){k, k + 1, false};
		if (r->name && writable_name(r->name) && any_listed(g, i, j))
			v[(*n)++] = (struct entry){i, j, true};
		i = j;
	}
	return v;
}

static void entry_value(FILE *f, const struct dg_groups *g,
			const struct entry *e)
{
	const struct dg_group_row *r = &g->v[e->i];

	if (e->name) {
		fputs("{ name = ", f);
		string_name(f, r->name);
		fputs("; optional = true; }", f);
	} else {
		/* above INT32_MAX, libconfig reads a plain number as wrapped
		 * (check refuses it): the L suffix keeps it */
		fprintf(f, "%u%s", (unsigned)r->gid,
			r->gid > INT32_MAX ? "L" : "");
	}
}

int dg_dropin_format(FILE *f, const struct dg_groups *g)
{
	size_t n;
	_cleanup_free_ struct entry *v = entries_of(g, &n);

	if (!v)
		return -ENOMEM;
	fprintf(f, "# Written by dropgroups audit: the groups this system uses\n"
		   "# as negative credentials, which dropping would defeat: each\n"
		   "# gid found, and each name, so that every gid of the name is\n"
		   "# kept too.\n"
		   "version = 1;\nrestricting = (");
	for (size_t k = 0; k < n; k++) {
		fputs("\n  ", f);
		entry_value(f, g, &v[k]);
		fputs(k + 1 < n ? "," : "", f);
		entry_comment(f, g, &v[k]);
	}
	fprintf(f, "%s);\n", n ? "\n" : " ");
	return 0;
}

static int write_failed(struct dg_diags *diags, const char *path, int e)
{
	dg_diag_add(diags, DG_ERROR, path, 0, "%s", strerror(e));
	return -e;
}

/* The new file beside path, mode 0644, at *tmp (to be freed): a stream,
 * or NULL with the problem in diags. */
static FILE *open_beside(const char *path, char **tmp, struct dg_diags *diags)
{
	int fd, e;
	FILE *f;

	if (asprintf(tmp, "%s.XXXXXX", path) < 0) {
		*tmp = NULL;
		errno = ENOMEM;
		return NULL;
	}
	if ((fd = mkostemp(*tmp, O_CLOEXEC)) < 0) {
		write_failed(diags, *tmp, errno);
		return NULL;
	}
	if (fchmod(fd, 0644) < 0 || !(f = fdopen(fd, "w"))) {
		e = errno;
		close(fd);
		unlink(*tmp);
		write_failed(diags, path, e);
		return NULL;
	}
	return f;
}

int dg_dropin_write(const char *path, const struct dg_groups *g,
		    struct dg_diags *diags)
{
	_cleanup_free_ char *tmp = NULL;
	struct stat old;
	FILE *f;
	int e;

	/* a FILE that is there must be a file: a link or a FIFO is
	 * refused, not replaced */
	if (lstat(path, &old) == 0 && !S_ISREG(old.st_mode)) {
		dg_diag_add(diags, DG_ERROR, path, 0, "not a regular file");
		return -EINVAL;
	}
	if (!(f = open_beside(path, &tmp, diags)))
		return tmp ? -EIO : -ENOMEM;
	if ((e = -dg_dropin_format(f, g)) > 0 || fflush(f) != 0 ||
	    fsync(fileno(f)) < 0) {
		e = e > 0 ? e : errno;
		fclose(f);
		unlink(tmp);
		return write_failed(diags, path, e);
	}
	if (fclose(f) != 0 || rename(tmp, path) < 0) {
		e = errno;
		unlink(tmp);
		return write_failed(diags, path, e);
	}
	return 0;
}
