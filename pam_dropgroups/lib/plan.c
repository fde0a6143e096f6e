/* The per-login plan: the policy, the user and the matching rule, and
 * the decision for a group list, naming through NSS the gids it would
 * drop when names matter. */
#include "plan.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "initgroups.h"
#include "load.h"
#include "nss.h"

/* Read the entry of group gid for the user (dg_policy_match asked). */
static int ask_entry(struct dg_user *user, gid_t gid)
{
	struct dg_membership *m = &user->member;
	int r = dg_nss_group_entry_lists(gid, user->name);

	if (r == -ENOMEM)
		return r;
	if (r < 0)
		m->entry_err = r;
	return dg_gids_add(r > 0 ? &m->entry_lists
			   : r == 0 ? &m->entry_silent
				    : &m->entry_failed,
			   gid);
}

int dg_plan_match(const struct dg_policy *policy, const char *service,
		  struct dg_user *user, struct dg_match *m)
{
	int r = 0;

	/* Each round learns one thing dg_policy_match lacked, and it never
	 * asks for the same thing twice: a handful of rounds at most. */
	for (;;) {
		dg_policy_match(policy, service, user, m);
		if (m->kind == DG_MATCH_ASK_LIST)
			r = dg_initgroups(user);
		else if (m->kind == DG_MATCH_ASK_ENTRY)
			r = ask_entry(user, m->group->gid);
		else
			return 0;
		if (r < 0)
			return r;
	}
}

/* Why whether user is in group g cannot be told. */
static char *undecided_why(const struct dg_user *user,
			   const struct dg_user_group *g)
{
	const struct dg_membership *m = &user->member;
	char *s = NULL;
	int r;

	if (g->status == 0)
		r = asprintf(&s, "the group does not exist (or the directory "
				 "that has it cannot say so); write it { name "
				 "= \"%%%s\"; optional = true; } if it may be "
				 "missing",
			     g->name);
	else if (g->status < 0)
		r = asprintf(&s, "looking the group up failed: %s",
			     strerror(-g->status));
	else if (dg_gids_contains(&m->entry_failed, g->gid))
		r = asprintf(&s, "reading the group's entry failed: %s",
			     strerror(-m->entry_err));
	else
		r = asprintf(&s, "%s, and the group's entry does not list "
				 "the user",
			     m->why ? m->why : "the group list is incomplete");
	return r < 0 ? NULL : s;
}

static int report_undecided(const struct dg_plan *plan,
			    const struct dg_match *m, struct dg_diags *diags)
{
	const struct dg_rule *rule = &plan->policy.rules[m->rule];
	const struct dg_rule_src *src = rule->src;
	_cleanup_free_ char *why = undecided_why(&plan->user, m->group);

	if (!why)
		return -ENOMEM;
	dg_diag_add(diags, DG_ERROR, src->file,
		    src->users_line ? src->users_line : src->line,
		    "cannot tell whether user \"%s\" is in group \"%s\" "
		    "of rule \"%s\": %s; the session is refused rather than "
		    "given a later rule",
		    plan->user.name, m->group->name, rule->label, why);
	return -EINVAL;
}

int dg_plan_prepare(const char *path, const char *service,
		    const char *username, bool want_user_groups,
		    struct dg_nss_probe *probe, struct dg_plan *plan,
		    struct dg_diags *diags)
{
	const char *tampered;
	struct dg_match m;
	int r;

	*plan = (struct dg_plan){0};
	if ((tampered = dg_nss_env_tampered())) {
		dg_diag_add(diags, DG_ERROR, NULL, 0,
			    "the environment sets %s, which makes an NSS "
			    "module answer \"not found\" to every look-up, so "
			    "no answer of NSS can be trusted",
			    tampered);
		return -EINVAL;
	}
	r = dg_load_policy_as(path, &(struct dg_load_as){.probe = probe}, false,
			      &plan->config, &plan->policy, diags);
	if (r < 0)
		return r;
	r = dg_nss_user_lookup(username, &plan->user);
	if (r == -ENOMEM)
		return r;
	if (r == 0) {
		dg_diag_add(diags, DG_ERROR, NULL, 0,
			    "user \"%s\" does not exist", username);
		return -EINVAL;
	}
	if (r < 0) {
		dg_diag_add(diags, DG_ERROR, NULL, 0,
			    "looking up user \"%s\" failed: %s", username,
			    strerror(-r));
		return -EINVAL;
	}
	if (want_user_groups && (r = dg_initgroups(&plan->user)) < 0)
		return r;
	if ((r = dg_plan_match(&plan->policy, service, &plan->user, &m)) < 0)
		return r;
	if (m.kind == DG_MATCH_UNDECIDED)
		return report_undecided(plan, &m, diags);
	plan->rule = m.kind == DG_MATCH_RULE ? &plan->policy.rules[m.rule]
					     : NULL;
	return 0;
}

/* The gids d drops that known does not name yet. */
static int unnamed_drops(const struct dg_decision *d,
			 const struct dg_gid_names *known, struct dg_gids *out)
{
	int r = dg_policy_dropped(d, out);
	size_t n = 0;

	if (r < 0)
		return r;
	for (size_t i = 0; i < out->n; i++)
		if (!dg_gids_name_find(known, out->v[i]))
			out->v[n++] = out->v[i];
	out->n = n;
	return 0;
}

/* dg_plan_decide; without again, the decision is the first one, made
 * before the names were asked (for a caller that wants the names).
 * take: NULL, or known, the caller's to give (dg_plan_decide_taking). */
static int plan_decide(const struct dg_plan *plan, const gid_t *current,
		       size_t n_current, const struct dg_gid_names *known,
		       struct dg_gid_names *take, bool again,
		       struct dg_nss_probe *probe, struct dg_outcome *out,
		       gid_t *failed)
{
	struct dg_outcome o = {0};
	struct dg_gids ask = {0};
	struct dg_gid_names asked = {0};
	int r;

	r = dg_policy_decide(current, n_current, plan->user.primary_gid,
			     &plan->policy, plan->rule, known, &o.decision);
	if (r < 0 || !dg_policy_needs_names(&plan->policy, plan->rule))
		goto out;
	/* Names can only keep more: name what this pass drops, and decide
	 * again with every name known. */
	if ((r = unnamed_drops(&o.decision, known, &ask)) < 0 ||
	    (ask.n && (r = dg_nss_gid_names(&ask, probe, &asked, failed)) < 0))
		goto out;
	if (!known || !known->n) {
		/* nothing to merge: the names just asked are all of them
		 * (sorted, as ask is), without copying 65,536 strings */
		o.names = asked;
		asked = (struct dg_gid_names){0};
	} else if (!ask.n && take) {
		/* nothing new: known's strings, not a copy of each */
		o.names = *take;
		*take = (struct dg_gid_names){0};
	} else if ((r = dg_gids_names_merge(known, &asked, &o.names)) < 0) {
		goto out;
	}
	if (ask.n && again) {
		dg_policy_decision_free(&o.decision);
		r = dg_policy_decide(current, n_current, plan->user.primary_gid,
				     &plan->policy, plan->rule, &o.names,
				     &o.decision);
	}
out:
	dg_gids_free(&ask);
	dg_gids_names_free(&asked);
	if (r < 0)
		dg_plan_outcome_free(&o);
	else
		*out = o;
	return r;
}

int dg_plan_decide(const struct dg_plan *plan, const gid_t *current,
		   size_t n_current, const struct dg_gid_names *known,
		   struct dg_nss_probe *probe, struct dg_outcome *out,
		   gid_t *failed)
{
	return plan_decide(plan, current, n_current, known, NULL, true, probe,
			   out, failed);
}

int dg_plan_decide_taking(const struct dg_plan *plan, const gid_t *current,
			  size_t n_current, struct dg_gid_names *known,
			  struct dg_nss_probe *probe, struct dg_outcome *out,
			  gid_t *failed)
{
	return plan_decide(plan, current, n_current, known, known, true, probe,
			   out, failed);
}

int dg_plan_names(const struct dg_plan *plan, const gid_t *current,
		  size_t n_current, const struct dg_gid_names *known,
		  struct dg_nss_probe *probe, struct dg_gid_names *out,
		  gid_t *failed)
{
	struct dg_outcome o = {0};
	int r = plan_decide(plan, current, n_current, known, NULL, false,
			    probe, &o, failed);

	if (r < 0)
		return r;
	*out = o.names;
	o.names = (struct dg_gid_names){0};
	dg_plan_outcome_free(&o);
	return 0;
}

void dg_plan_outcome_free(struct dg_outcome *o)
{
	dg_policy_decision_free(&o->decision);
	dg_gids_names_free(&o->names);
}

void dg_plan_free(struct dg_plan *plan)
{
	dg_policy_user_free(&plan->user);
	dg_policy_free(&plan->policy);
	dg_config_free(&plan->config);
	*plan = (struct dg_plan){0};
}
