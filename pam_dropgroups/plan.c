#include "plan.h"

#include <errno.h>
#include <string.h>

#include "load.h"
#include "nss.h"

int dg_policy_load(const char *path, struct dg_config *config,
		   struct dg_policy *policy, struct dg_diags *diags)
{
	int r;

	*policy = (struct dg_policy){0};
	r = dg_config_load(path, config, diags);
	if (r < 0)
		return r;
	if (dg_diags_failed(diags))
		return -EINVAL;
	r = dg_policy_resolve(config, policy, diags);
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
	r = dg_policy_load(path, &plan->config, &plan->policy, diags);
	if (r < 0)
		return r;
	r = dg_user_lookup(username,
			   want_user_groups || uses_user_groups(&plan->policy),
			   &plan->user);
	if (r == -ENOMEM)
		return r;
	if (r == -ENOENT) {
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
	i = dg_policy_match(&plan->policy, service, &plan->user);
	plan->rule = i < 0 ? NULL : &plan->policy.rules[i];
	return 0;
}

int dg_plan_decide(const struct dg_plan *plan, const gid_t *current,
		   size_t n_current, struct dg_decision *out)
{
	return dg_decide(current, n_current, plan->user.primary_gid,
			 &plan->policy.restricting, plan->rule, out);
}

void dg_plan_free(struct dg_plan *plan)
{
	dg_user_free(&plan->user);
	dg_policy_free(&plan->policy);
	dg_config_free(&plan->config);
	*plan = (struct dg_plan){0};
}
