/* The groups that the evidence of dropgroups audit names (groups.c):
 * one row per group, what the report and the drop-in are written from. */
#ifndef DG_GROUPS_H
#define DG_GROUPS_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "diag.h"
#include "evidence.h"

struct dg_group_row {
	bool by_gid; /* false: a name no group has */
	gid_t gid;
	char *name; /* NULL: a gid without a name */
	const struct dg_evidence *ev; /* its evidence, in the store */
	size_t count;
	size_t counts[DG_EV_KINDS];
	bool defeated; /* some of it is defeated by dropping the group */
};

struct dg_groups {
	struct dg_group_row *v;
	size_t n;
};

/* Resolve the names of ev to gids and its gids to names, through NSS,
 * each once; give sudoers' names every gid whose name matches ignoring
 * case (as sudo matches them); then sort ev and gather it into *out,
 * one row per group, sorted by name.  The rows point into ev, which must
 * stay as it is while they are used.  Returns 0; or the -errno of a
 * look-up that failed, *out whole without its answer; or -ENOMEM with
 * *out empty. */
int dg_groups_build(struct dg_evidence_store *ev, struct dg_groups *out,
		    struct dg_diags *diags);
/* The row's name, or its gid written into buf. */
const char *dg_groups_row_key(const struct dg_group_row *r, char buf[32]);
/* Does any row hold evidence that dropping its group defeats? */
bool dg_groups_any_defeated(const struct dg_groups *g);
void dg_groups_free(struct dg_groups *g);

#endif
