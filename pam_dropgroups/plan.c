#include "plan.h"

#include <errno.h>
#include <string.h>

#include "load.h"
#include "nss.h"
#include "resolve.h"

/* The "%group" names: a wrong "not found" for one of them could make a
 * later rule match instead, so a not-found answer is asked twice. */
static int percent_group_names(const struct dg_config *cfg,
			       struct dg_strings *out)
{
	*out = (struct dg_strings){0};
	for (size_t i = 0; i < cfg->rules.n; i++) {
		const struct dg_strings *users = &cfg->rules.v[i].users;

		for (size_t j = 0; j < users->n; j++)
			if (users->v[j][0] == '%' && users->v[j][1] &&
			    dg_strings_add(out, users->v[j] + 1) < 0) {
				dg_strings_free(out);
				return -ENOMEM;
			}
	}
	dg_strings_sort_unique(out);
	return 0;
}

int dg_policy_resolve(const struct dg_config *cfg, bool check_users,
		      struct dg_policy *policy, struct dg_diags *diags)
{
	struct dg_strings names = {0}, confirm = {0}, user_names = {0};
	struct dg_name_answers groups = {0}, users = {0};
	int r;

	if ((r = dg_config_group_names(cfg, &names)) < 0 ||
	    (r = percent_group_names(cfg, &confirm)) < 0 ||
	    (r = dg_nss_groups_by_name(&names, &confirm, &groups)) < 0)
		goto out;
	if (check_users && ((r = dg_config_user_names(cfg, &user_names)) < 0 ||
			    (r = dg_nss_users_exist(&user_names, &users)) < 0))
		goto out;
	r = dg_policy_build(cfg, &groups, check_users ? &users : NULL, policy,
			    diags);
out:
	dg_strings_free(&names);
	dg_strings_free(&confirm);
	dg_strings_free(&user_names);
	dg_name_answers_free(&groups);
	dg_name_answers_free(&users);
	return r;
}

int dg_policy_load(const char *path, bool check_users,
		   struct dg_config *config, struct dg_policy *policy,
		   struct dg_diags *diags)
{
	int r;

	*policy = (struct dg_policy){0};
	r = dg_config_load(path, config, diags);
	if (r < 0)
		return r;
	if (dg_diags_failed(diags))
		return -EINVAL;
	r = dg_policy_resolve(config, check_users, policy, diags);
	if (r < 0)
		return r;
	return dg_diags_failed(diags) ? -EINVAL : 0;
}

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
	r = dg_policy_load(path, false, &plan->config, &plan->policy, diags);
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

int dg_plan_decide(const struct dg_plan *plan, const gid_t *current,
		   size_t n_current, struct dg_outcome *out, gid_t *failed)
{
	struct dg_outcome o = {0};
	struct dg_gids dropped = {0};
	int r;

	r = dg_decide(current, n_current, plan->user.primary_gid,
		      &plan->policy, plan->rule, NULL, &o.decision);
	if (r < 0 || !o.decision.changed ||
	    !dg_decide_needs_names(&plan->policy, plan->rule))
		goto out;
	/* Names can only keep more: name what the first pass drops, and
	 * decide again with the names. */
	if ((r = dg_decision_dropped(&o.decision, &dropped)) < 0 ||
	    (r = dg_nss_gid_names(&dropped, &o.names, failed)) < 0)
		goto out;
	dg_decision_free(&o.decision);
	r = dg_decide(current, n_current, plan->user.primary_gid,
		      &plan->policy, plan->rule, &o.names, &o.decision);
out:
	dg_gids_free(&dropped);
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
