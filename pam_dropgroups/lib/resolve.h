/* From the policy as written to the policy as the decision uses it.
 *
 * Pure: the names are looked up elsewhere (nss.c), once each, and handed
 * in as answers.  Here every reference to a name gets its diagnostic
 * (FILE:LINE) from its answer, so unit tests can resolve a parsed policy
 * against answers made up by hand. */
#ifndef DG_RESOLVE_H
#define DG_RESOLVE_H

#include "config.h"
#include "diag.h"
#include "policy.h"
#include "strlist.h"

/* What NSS answered for one name. */
struct dg_name_answer {
	char *name;
	int status; /* 1 found; 0 no such name; -errno: NSS failed */
	gid_t gid;  /* groups, when found */
};

/* Sorted by name. */
struct dg_name_answers {
	struct dg_name_answer *v;
	size_t n;
};

/* The distinct group names that cfg names (restricting, drop, keep and
 * "%group" entries), sorted: what must be looked up.  0 or -ENOMEM. */
int dg_resolve_group_names(const struct dg_config *cfg, struct dg_strlist *out);

/* The distinct groups of its "%group" users entries, sorted: the names
 * whose "not found" is asked twice (dg_nss_groups_by_name's confirm),
 * since a wrong one could make a later rule match instead.  0 or
 * -ENOMEM. */
int dg_resolve_user_group_names(const struct dg_config *cfg,
				struct dg_strlist *out);

/* The distinct user names in users lists ("*" and "%group" aside). */
int dg_resolve_user_names(const struct dg_config *cfg, struct dg_strlist *out);

/* Build *out from cfg and the answers for its group names.  users: the
 * answers for its user names, or NULL when they are not checked (the
 * module matches user names as written and never looks them up).
 * Unknown names are warnings (restricting names: errors, unless marked
 * optional); NSS failures are errors.  Returns 0 (look at diags) or
 * -ENOMEM. */
int dg_resolve_policy(const struct dg_config *cfg,
		      const struct dg_name_answers *groups,
		      const struct dg_name_answers *users,
		      struct dg_policy *out, struct dg_diags *diags);

const struct dg_name_answer *
dg_resolve_answers_get(const struct dg_name_answers *a, const char *name);
void dg_resolve_answers_free(struct dg_name_answers *a);

#endif
