/* The per-login plan: the policy, the user and the matching rule, and
 * the decision for a group list, naming through NSS the gids it would
 * drop when names matter. */
#include "plan.h"

#include <errno.h>
#include <string.h>

#include "load.h"
#include "nss.h"

/* Does any rule match users by "%group"?  Only then is the user's group
 * list needed to decide. */
static bool uses_user_groups(const struct dg_policy *policy)
{
	for (size_t i = 0; i < policy->n_rules; i++)
		if (policy->rules[i].user_groups.n)
			return true;
	return false;
}

int dg_plan_prepare(const char *path, const char *service,
		    const char *username, bool want_user_groups,
		    struct dg_plan *plan, struct dg_diags *diags)
{
	long i;
	int r;

	*plan = (struct dg_plan){0};
	r = dg_policy_load(path, NULL, NULL, false, &plan->config, &plan->policy,
			   diags);
	if (r < 0)
		return r;
	r = dg_user_lookup(username, &plan->user);
	if (r == -ENOMEM)
		return r;
	if (r == 0) {
		dg_diags_add(diags, DG_ERROR, NULL, 0,
			     "user \"%s\" does not exist", username);
		return -EINVAL;
	}
	if (r < 0) {
		dg_diags_add(diags, DG_ERROR, NULL, 0,
			     "looking up user \"%s\" failed: %s", username,
			     strerror(-r));
		return -EINVAL;
	}
	if (want_user_groups || uses_user_groups(&plan->policy)) {
		r = dg_user_groups(&plan->user, &plan->user.groups);
		if (r == -ENOMEM)
			return r;
		if (r < 0) {
			dg_diags_add(diags, DG_ERROR, NULL, 0,
				     "the group list of user \"%s\" is "
				     "incomplete: an NSS backend failed (%s)",
				     plan->user.name, strerror(-r));
			return -EINVAL;
		}
	}
	i = dg_policy_match(&plan->policy, service, &plan->user);
	plan->rule = i < 0 ? NULL : &plan->policy.rules[i];
	return 0;
}

/* The gids d drops that known does not name yet. */
static int unnamed_drops(const struct dg_decision *d,
			 const struct dg_gid_names *known, struct dg_gids *out)
{
	int r = dg_decision_dropped(d, out);
	size_t n = 0;

	if (r < 0)
		return r;
	for (size_t i = 0; i < out->n; i++)
		if (!dg_gid_names_find(known, out->v[i]))
			out->v[n++] = out->v[i];
	out->n = n;
	return 0;
}

int dg_plan_decide(const struct dg_plan *plan, const gid_t *current,
		   size_t n_current, const struct dg_gid_names *known,
		   struct dg_outcome *out, gid_t *failed)
{
	struct dg_outcome o = {0};
	struct dg_gids ask = {0};
	struct dg_gid_names asked = {0};
	int r;

	r = dg_decide(current, n_current, plan->user.primary_gid,
		      &plan->policy, plan->rule, known, &o.decision);
	if (r < 0 || !dg_decide_needs_names(&plan->policy, plan->rule))
		goto out;
	/* Names can only keep more: name what this pass drops, and decide
	 * again with every name known. */
	if ((r = unnamed_drops(&o.decision, known, &ask)) < 0 ||
	    (ask.n && (r = dg_nss_gid_names(&ask, &asked, failed)) < 0))
		goto out;
	if (!known || !known->n) {
		/* nothing to merge: the names just asked are all of them
		 * (sorted, as ask is), without copying 65,536 strings */
		o.names = asked;
		asked = (struct dg_gid_names){0};
	} else if ((r = dg_gid_names_merge(known, &asked, &o.names)) < 0) {
		goto out;
	}
	if (ask.n) {
		dg_decision_free(&o.decision);
		r = dg_decide(current, n_current, plan->user.primary_gid,
			      &plan->policy, plan->rule, &o.names, &o.decision);
	}
out:
	dg_gids_free(&ask);
	dg_gid_names_free(&asked);
	if (r < 0)
		dg_outcome_free(&o);
	else
		*out = o;
	return r;
}

void dg_outcome_free(struct dg_outcome *o)
{
	dg_decision_free(&o->decision);
	dg_gid_names_free(&o->names);
}

void dg_plan_free(struct dg_plan *plan)
{
	dg_user_free(&plan->user);
	dg_policy_free(&plan->policy);
	dg_config_free(&plan->config);
	*plan = (struct dg_plan){0};
}
