/* Sets of gids and what NSS calls them: sorted arrays, searched by
 * bisection (gids.c).  Pure: the decision (policy.c) and every caller
 * that holds gids use these. */
#ifndef DG_GIDS_H
#define DG_GIDS_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/* A set of gids: sorted ascending, no duplicates. */
struct dg_gids {
	gid_t *v;
	size_t n;
};

/* What NSS calls some gids (getgrgid_r), sorted by gid.  A gid that is
 * absent was not asked about; one whose name is NULL was, and NSS said
 * it has no name. */
struct dg_gid_name {
	gid_t gid;
	char *name;
};

struct dg_gid_names {
	struct dg_gid_name *v;
	size_t n;
	/* NULL: each name is its own allocation.  Else one block that
	 * holds every name of v (dg_nss_gid_names: a name is a few bytes,
	 * and a malloc and a free for each cost a small login more than
	 * naming its gids), freed whole. */
	char *pool;
};

/* Sort and de-duplicate v in place; returns the new length. */
size_t dg_gids_normalize(gid_t *v, size_t n);
bool dg_gids_contains(const struct dg_gids *set, gid_t gid);
/* Is v[0..n) a set already (sorted ascending, no duplicates)? */
bool dg_gids_is_set(const gid_t *v, size_t n);
/* Copy v[0..n) into a normalized set; -ENOMEM on failure. */
int dg_gids_from(struct dg_gids *out, const gid_t *v, size_t n);
void dg_gids_free(struct dg_gids *set);

/* What NSS said of gid, or NULL when it was not asked. */
const struct dg_gid_name *dg_gids_name_find(const struct dg_gid_names *names,
					    gid_t gid);
/* The name NSS gave gid, or NULL (not asked, or no name). */
const char *dg_gids_name_get(const struct dg_gid_names *names, gid_t gid);
/* Every entry of a and of b (a's where both have one), copied, sorted:
 * 0 or -ENOMEM. */
int dg_gids_names_merge(const struct dg_gid_names *a,
			const struct dg_gid_names *b, struct dg_gid_names *out);
void dg_gids_names_free(struct dg_gid_names *names);

/* Add gid to set (sorted): 0 or -ENOMEM. */
int dg_gids_add(struct dg_gids *set, gid_t gid);

#endif
