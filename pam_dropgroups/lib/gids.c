/* Sets of gids and their names (gids.h): sorted, without duplicates. */
#include "gids.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

static int cmp_gid(const void *a, const void *b)
{
	gid_t x = *(const gid_t *)a, y = *(const gid_t *)b;

	return (x > y) - (x < y);
}

size_t dg_gids_normalize(gid_t *v, size_t n)
{
	size_t out = 0, sorted = 1;

	/* the kernel hands out group lists sorted: check before sorting
	 * 65,536 of them again */
	while (sorted < n && v[sorted - 1] < v[sorted])
		sorted++;
	if (sorted >= n)
		return n;
	qsort(v, n, sizeof(*v), cmp_gid);
	for (size_t i = 0; i < n; i++)
		if (out == 0 || v[out - 1] != v[i])
			v[out++] = v[i];
	return out;
}

bool dg_gids_contains(const struct dg_gids *set, gid_t gid)
{
	size_t lo = 0, hi = set->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (set->v[mid] == gid)
			return true;
		if (set->v[mid] < gid)
			lo = mid + 1;
		else
			hi = mid;
	}
	return false;
}

bool dg_gids_is_set(const gid_t *v, size_t n)
{
	for (size_t i = 1; i < n; i++)
		if (v[i - 1] >= v[i])
			return false;
	return true;
}

int dg_gids_from(struct dg_gids *out, const gid_t *v, size_t n)
{
	gid_t *copy = dg_new0(gid_t, n);

	if (!copy)
		return -ENOMEM;
	if (n)
		memcpy(copy, v, n * sizeof(*copy));
	out->v = copy;
	out->n = dg_gids_normalize(copy, n);
	return 0;
}

void dg_gids_free(struct dg_gids *set)
{
	free(set->v);
	*set = (struct dg_gids){0};
}

const struct dg_gid_name *dg_gids_name_find(const struct dg_gid_names *names,
					    gid_t gid)
{
	size_t lo = 0, hi = names ? names->n : 0;

	/* bsearch, without a call through a pointer per step: this runs
	 * once per gid, twice per login, 65,536 gids at most */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (names->v[mid].gid == gid)
			return &names->v[mid];
		if (names->v[mid].gid < gid)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

const char *dg_gids_name_get(const struct dg_gid_names *names, gid_t gid)
{
	const struct dg_gid_name *e = dg_gids_name_find(names, gid);

	return e ? e->name : NULL;
}

static int names_take(struct dg_gid_names *out, const struct dg_gid_name *e)
{
	struct dg_gid_name *n = &out->v[out->n];

	n->gid = e->gid;
	/* gcc 12's analyzer loses the store into out->v at an index it
	 * cannot bound, and calls the copy leaked: it is out's, freed
	 * with it (dg_gids_names_merge, dg_gids_names_free). */
	DG_ANALYZER_IGNORE("-Wanalyzer-malloc-leak")
	if (e->name && !(n->name = strdup(e->name)))
		return -ENOMEM;
	DG_ANALYZER_END
	out->n++;
	return 0;
}

int dg_gids_names_merge(const struct dg_gid_names *a,
			const struct dg_gid_names *b, struct dg_gid_names *out)
{
	size_t na = a ? a->n : 0, nb = b ? b->n : 0, i = 0, j = 0;
	struct dg_gid_names m = {.v = dg_new0(struct dg_gid_name, na + nb)};
	int r = 0;

	if (!m.v)
		return -ENOMEM;
	while (r == 0 && (i < na || j < nb)) {
		if (j == nb || (i < na && a->v[i].gid <= b->v[j].gid)) {
			if (j < nb && a->v[i].gid == b->v[j].gid)
				j++;
			r = names_take(&m, &a->v[i++]);
		} else {
			r = names_take(&m, &b->v[j++]);
		}
	}
	if (r < 0) {
		dg_gids_names_free(&m);
		return r;
	}
	*out = m;
	return 0;
}

void dg_gids_names_free(struct dg_gid_names *names)
{
	for (size_t i = 0; !names->pool && i < names->n; i++)
		free(names->v[i].name);
	free(names->pool);
	free(names->v);
	*names = (struct dg_gid_names){0};
}

int dg_gids_add(struct dg_gids *set, gid_t gid)
{
	gid_t *v;
	size_t at = 0;

	if (dg_gids_contains(set, gid))
		return 0;
	if (!(v = realloc(set->v, (set->n + 1) * sizeof(*v))))
		return -ENOMEM;
	while (at < set->n && v[at] < gid)
		at++;
	memmove(v + at + 1, v + at, (set->n - at) * sizeof(*v));
	v[at] = gid;
	set->v = v;
	set->n++;
	return 0;
}
