/* dropgroups audit: from evidence to groups (groups.h).  The walk finds
 * gids, the configuration files names; the report speaks of groups.
 * This is the one place that asks NSS about them, after the readers are
 * done, so that each name and each gid is looked up once. */
#include <errno.h>
#include <grp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "groups.h"
#include "util.h"

/* Resolve a gid's name, or a name's gid, through NSS: 0, 1 (not found)
 * or -errno. */
static int nss_group(bool by_gid, gid_t *gid, const char *name, char **out)
{
	size_t size = 1024;

	for (;;) {
		_cleanup_free_ char *buf = malloc(size);
		struct group gr, *res = NULL;
		int e;

		if (!buf)
			return -ENOMEM;
		e = by_gid ? getgrgid_r(*gid, &gr, buf, size, &res)
			   : getgrnam_r(name, &gr, buf, size, &res);
		if (e == ERANGE && size < (1u << 24)) {
			size *= 2;
			continue;
		}
		if (e != 0) {
			int err = -e;

			/* e, an error number, is above 0, and *gid is set
			 * whenever this returns 0; clang 14 does not follow
			 * the sign through the negation */
			DG_ANALYZER_ASSUME(err < 0);
			return err;
		}
		if (!res)
			return 1;
		if (by_gid) {
			if (!(*out = strdup(gr.gr_name)))
				return -ENOMEM;
		} else {
			*gid = gr.gr_gid;
		}
		return 0;
	}
}

/* Names to gids, each name looked up once (after sorting, the equal
 * names are adjacent).  0, or the -errno of a look-up that failed. */
static int resolve_names(struct dg_evidence_store *s)
{
	struct dg_evidence *ev = s->v;
	int err = 0;

	dg_evidence_sort(s);
	for (size_t i = 0; i < s->n;) {
		size_t j = i;
		gid_t g;
		int r;

		if (ev[i].by_gid) {
			i++;
			continue;
		}
		while (j < s->n && !ev[j].by_gid && !strcmp(ev[j].name, ev[i].name))
			j++;
		r = nss_group(false, &g, ev[i].name, NULL);
		if (r < 0)
			err = r;
		for (size_t q = i; r == 0 && q < j; q++) {
			ev[q].gid = g;
			ev[q].by_gid = true;
		}
		i = j;
	}
	return err;
}

static bool sudoers_by_name(const struct dg_evidence *v)
{
	return v->kind == DG_EV_SUDOERS && v->name && v->name[0] != '#';
}

/* gr, one group of the enumeration: each of the first n pieces of
 * sudoers evidence whose name matches its name gets its gid; one that
 * has a gid already gets a copy with this one, in add. */
static int match_group(struct dg_evidence_store *all, size_t n,
		       const struct group *gr, struct dg_evidence_store *add)
{
	for (size_t i = 0; i < n; i++) {
		struct dg_evidence *v = &all->v[i];
		char *where;

		if (!sudoers_by_name(v) || strcasecmp(v->name, gr->gr_name) != 0 ||
		    (v->by_gid && v->gid == gr->gr_gid))
			continue;
		if (!v->by_gid) {
			v->by_gid = true;
			v->gid = gr->gr_gid;
			continue;
		}
		if (!(where = strdup(v->where)) ||
		    dg_evidence_add(add, true, gr->gr_gid, v->name, DG_EV_SUDOERS,
				    where) < 0)
			return -ENOMEM;
	}
	return 0;
}

/* The next group of the enumeration, into gr and *buf (grown on
 * ERANGE): 1, 0 at the end, or -errno. */
static int next_group(struct group *gr, char **buf, size_t *size)
{
	for (;;) {
		struct group *res = NULL;
		int e = getgrent_r(gr, *buf, *size, &res);

		if (e == ERANGE && *size < (1u << 24)) {
			char *b = realloc(*buf, *size * 2);
			if (!b)
				return -ENOMEM;
			*buf = b;
			*size *= 2;
			continue;
		}
		if (e == ENOENT || (e == 0 && !res))
			return 0;
		return e != 0 ? -e : 1;
	}
}

/* sudo matches "%group" against the names of the process's groups
 * ignoring case (its default case_insensitive_group), and one name may
 * belong to several gids (a local group and a directory group): every
 * group whose name matches a sudoers name, by an enumeration of the
 * groups, gets that evidence too.  A name nothing answered exactly takes
 * the first such gid.  0, or -errno (the enumeration failed). */
static int sudoers_name_matches(struct dg_evidence_store *all)
{
	struct dg_evidence_store add = {0};
	size_t size = 1024, n = all->n;
	_cleanup_free_ char *buf = NULL;
	struct group gr;
	bool any = false;
	int r = 0;

	for (size_t i = 0; i < n; i++)
		any = any || sudoers_by_name(&all->v[i]);
	if (!any)
		return 0;
	if (!(buf = malloc(size)))
		return -ENOMEM;
	setgrent();
	while (r >= 0 && (r = next_group(&gr, &buf, &size)) > 0)
		r = match_group(all, n, &gr, &add);
	endgrent();
	if (r >= 0)
		r = dg_evidence_merge(all, &add);
	dg_evidence_free(&add);
	return r;
}

static bool same_group(const struct dg_evidence *a, const struct dg_evidence *b)
{
	return a->by_gid == b->by_gid &&
	       (a->by_gid ? a->gid == b->gid : !strcmp(a->name, b->name));
}

/* The row of the group of s->v[i]: its evidence counted.  The index
 * past its evidence. */
static size_t gather_row(const struct dg_evidence_store *s, size_t i,
			 struct dg_group_row *row)
{
	const struct dg_evidence *ev = s->v;
	size_t j = i;

	row->by_gid = ev[i].by_gid;
	row->gid = ev[i].gid;
	row->ev = &ev[i];
	for (; j < s->n && same_group(&ev[i], &ev[j]); j++) {
		row->counts[ev[j].kind]++;
		if (dg_evidence_defeated(ev[j].kind))
			row->defeated = true;
	}
	row->count = j - i;
	return j;
}

/* The row's name: its gid's, each gid resolved once; a name that was
 * looked up keeps its spelling.  0, -ENOMEM, or a look-up's -errno. */
static int name_row(struct dg_group_row *row)
{
	int e;

	if (!row->by_gid)
		return (row->name = strdup(row->ev[0].name)) ? 0 : -ENOMEM;
	e = nss_group(true, &row->gid, NULL, &row->name);
	if (e != 0 && row->ev[0].name && !(row->name = strdup(row->ev[0].name)))
		return -ENOMEM;
	return e < 0 ? e : 0;
}

const char *dg_groups_row_key(const struct dg_group_row *r, char buf[32])
{
	if (r->name)
		return r->name;
	snprintf(buf, 32, "%u", (unsigned)r->gid);
	return buf;
}

static int cmp_row(const void *a, const void *b)
{
	const struct dg_group_row *x = a, *y = b;
	char bx[32], by[32];
	int c = strcmp(dg_groups_row_key(x, bx), dg_groups_row_key(y, by));

	if (c)
		return c;
	return x->gid < y->gid ? -1 : x->gid > y->gid;
}

/* The rows of the sorted store s: 0, a look-up's -errno, or -ENOMEM. */
static int make_rows(const struct dg_evidence_store *s, struct dg_groups *out)
{
	struct dg_groups g = {.v = dg_new0(struct dg_group_row, s->n)};
	int err = 0;

	if (!g.v)
		return -ENOMEM;
	for (size_t i = 0; i < s->n;) {
		struct dg_group_row *row = &g.v[g.n++];
		int r;

		i = gather_row(s, i, row);
		if ((r = name_row(row)) == -ENOMEM) {
			dg_groups_free(&g);
			return r;
		}
		if (r < 0)
			err = r;
	}
	if (g.n > 0)
		qsort(g.v, g.n, sizeof(*g.v), cmp_row);
	*out = g;
	return err;
}

int dg_groups_build(struct dg_evidence_store *ev, struct dg_groups *out,
		    struct dg_diags *diags)
{
	int err = resolve_names(ev), r;

	*out = (struct dg_groups){0};
	if (err == -ENOMEM)
		return err;
	r = sudoers_name_matches(ev);
	if (r == -ENOMEM)
		return r;
	if (r < 0) {
		dg_diag_add(diags, DG_ERROR, NULL, 0, "listing the groups: %s",
			    strerror(-r));
		err = r;
	}
	dg_evidence_sort(ev);
	r = make_rows(ev, out);
	return r < 0 ? r : err;
}

bool dg_groups_any_defeated(const struct dg_groups *g)
{
	for (size_t i = 0; i < g->n; i++)
		if (g->v[i].defeated)
			return true;
	return false;
}

void dg_groups_free(struct dg_groups *g)
{
	for (size_t i = 0; i < g->n; i++)
		free(g->v[i].name);
	free(g->v);
	*g = (struct dg_groups){0};
}
