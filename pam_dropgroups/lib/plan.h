/* From a policy path, a service and a user to a decision: the one path
 * that the module and `dropgroups check`, `explain` and `run` all take. */
#ifndef DG_PLAN_H
#define DG_PLAN_H

#include "config.h"
#include "diag.h"
#include "load.h"
#include "policy.h"

struct dg_plan {
	struct dg_config config;
	struct dg_policy policy;
	struct dg_user user;
	const struct dg_rule *rule; /* NULL: no rule matches */
};

/* dg_load_policy, then look the user up and find the rule that applies
 * (dg_plan_match).  plan->user.groups is filled when a "%group" entry
 * needs it, or when want_user_groups (explain shows them).  A rule that
 * cannot be decided for the user is an error (-EINVAL, in diags): the
 * session is refused.  Same return values; plan is always
 * initialised.  probe: the call's (nss.h), or NULL; never kept in the
 * plan, which may outlive the call. */
int dg_plan_prepare(const char *path, const char *service,
		    const char *username, bool want_user_groups,
		    struct dg_nss_probe *probe, struct dg_plan *plan,
		    struct dg_diags *diags);

/* dg_policy_match, asking NSS what it says it must know (the user's
 * group list, a group's entry) until it can say: m->kind is then
 * DG_MATCH_NONE, DG_MATCH_RULE or DG_MATCH_UNDECIDED.  0 or -ENOMEM. */
int dg_plan_match(const struct dg_policy *policy, const char *service,
		  struct dg_user *user, struct dg_match *m);

/* A decision, with what NSS calls the gids it would drop. */
struct dg_outcome {
	struct dg_decision decision;
	struct dg_gid_names names;
};

/* The decision for a process holding `current` under plan->rule, which
 * must not be NULL.  When the decision depends on names (restricting
 * names, keep names), every gid it would drop is named through NSS,
 * except those `known` already names (it may be NULL), and the decision
 * made again; out->names then holds every name used.  probe: the
 * call's (nss.h), or NULL.  0, -ENOMEM, or another -errno when NSS could
 * not name *failed. */
int dg_plan_decide(const struct dg_plan *plan, const gid_t *current,
		   size_t n_current, const struct dg_gid_names *known,
		   struct dg_nss_probe *probe, struct dg_outcome *out,
		   gid_t *failed);

/* dg_plan_decide, with known the caller's to give: when every gid to
 * name is named already, out->names takes known's strings (and known is
 * left empty) rather than a copy of each.  known is still the caller's
 * to free. */
int dg_plan_decide_taking(const struct dg_plan *plan, const gid_t *current,
			  size_t n_current, struct dg_gid_names *known,
			  struct dg_nss_probe *probe, struct dg_outcome *out,
			  gid_t *failed);

/* The names dg_plan_decide would hand out in out->names, without the
 * decision made again with them: names can only keep more, so the gids
 * a second decision drops are named already.  For the look-up ahead of
 * an apply, which decides again itself.  0, or as dg_plan_decide. */
int dg_plan_names(const struct dg_plan *plan, const gid_t *current,
		  size_t n_current, const struct dg_gid_names *known,
		  struct dg_nss_probe *probe, struct dg_gid_names *out,
		  gid_t *failed);

void dg_plan_outcome_free(struct dg_outcome *o);
void dg_plan_free(struct dg_plan *plan);

#endif
