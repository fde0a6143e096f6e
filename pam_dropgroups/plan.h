/* From a policy path, a service and a user to a decision: the one path
 * that the module and `dropgroups check`/`explain` all take. */
#ifndef DG_PLAN_H
#define DG_PLAN_H

#include "config.h"
#include "diag.h"
#include "policy.h"

struct dg_plan {
	struct dg_config config;
	struct dg_policy policy;
	struct dg_user user;
	const struct dg_rule *rule; /* NULL: no rule matches */
};

/* Load, check and resolve the policy.  0, -EINVAL (errors are in diags)
 * or -ENOMEM.  config and policy are always initialised. */
int dg_policy_load(const char *path, struct dg_config *config,
		   struct dg_policy *policy, struct dg_diags *diags);

/* dg_policy_load, then look the user up and find the first matching rule.
 * plan->user.groups is filled when a rule matches by "%group", or when
 * want_user_groups (explain shows them).  Same return values; plan is
 * always initialised. */
int dg_plan_prepare(const char *path, const char *service,
		    const char *username, bool want_user_groups,
		    struct dg_plan *plan, struct dg_diags *diags);

/* The decision for a process holding `current` under plan->rule, which
 * must not be NULL.  0 or -ENOMEM. */
int dg_plan_decide(const struct dg_plan *plan, const gid_t *current,
		   size_t n_current, struct dg_decision *out);

void dg_plan_free(struct dg_plan *plan);

#endif
