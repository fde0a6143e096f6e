/* The decision: pure functions over the rules, the user and the gids a
 * process has (policy.h says what they promise; the sets of gids are
 * gids.c's). */
#include "policy.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "strlist.h"

/* Is name among the user names of a users list?  "%group" and "*"
 * entries are not names: a user called "%students" is not a student. */
static bool has_user_name(const struct dg_strlist *users, const char *name)
{
	for (size_t i = 0; i < users->n; i++)
		if (users->v[i][0] != '%' && strcmp(users->v[i], "*") != 0 &&
		    strcmp(users->v[i], name) == 0)
			return true;
	return false;
}

enum member_answer { MEMBER_NO, MEMBER_YES, MEMBER_UNKNOWN,
		    MEMBER_ASK_ENTRY, MEMBER_ASK_LIST };

/* Is user in g, as far as what is known of the user tells? */
static enum member_answer member_of(const struct dg_user *user,
				    const struct dg_user_group *g)
{
	const struct dg_membership *m = &user->member;

	if (g->status <= 0)
		return MEMBER_UNKNOWN; /* no gid to compare: no answer */
	if (g->gid == user->primary_gid)
		return MEMBER_YES; /* as initgroups(3) counts it */
	if (m->listed == DG_LISTED_NOT_ASKED)
		return MEMBER_ASK_LIST;
	if (dg_gids_contains(&user->groups, g->gid) ||
	    dg_gids_contains(&m->entry_lists, g->gid))
		return MEMBER_YES;
	if (dg_gids_contains(&m->entry_failed, g->gid))
		return MEMBER_UNKNOWN;
	/* A backend can answer a clean "none" for a user it does not know
	 * yet (a cold cache): the group's own entry is asked as well. */
	if (!dg_gids_contains(&m->entry_silent, g->gid))
		return MEMBER_ASK_ENTRY;
	return m->listed == DG_LISTED_WHOLE ? MEMBER_NO : MEMBER_UNKNOWN;
}

/* Does rule match service and user?  DG_MATCH_NONE or DG_MATCH_RULE
 * when that is known; else what must be asked first (*group: which
 * entry), or DG_MATCH_UNDECIDED (*group: the entry with no answer). */
static enum dg_match_kind rule_matches(const struct dg_rule *rule,
				       const char *service,
				       const struct dg_user *user,
				       const struct dg_user_group **group)
{
	const struct dg_rule_src *src = rule->src;
	enum dg_match_kind kind = DG_MATCH_NONE;

	if (!dg_strlist_has(&src->services, service) &&
	    !dg_strlist_has(&src->services, "*"))
		return DG_MATCH_NONE;
	if (rule->any_user || has_user_name(&src->users, user->name))
		return DG_MATCH_RULE;
	/* One entry that says yes decides; failing that, ask what can be
	 * asked (the list before any entry); only then is it undecided. */
	for (size_t i = 0; i < rule->n_user_groups; i++) {
		const struct dg_user_group *g = &rule->user_groups[i];

		switch (member_of(user, g)) {
		case MEMBER_YES:
			return DG_MATCH_RULE;
		case MEMBER_NO:
			break;
		case MEMBER_ASK_LIST:
			kind = DG_MATCH_ASK_LIST;
			break;
		case MEMBER_ASK_ENTRY:
			if (kind != DG_MATCH_ASK_LIST &&
			    kind != DG_MATCH_ASK_ENTRY) {
				kind = DG_MATCH_ASK_ENTRY;
				*group = g;
			}
			break;
		case MEMBER_UNKNOWN:
			if (kind == DG_MATCH_NONE) {
				kind = DG_MATCH_UNDECIDED;
				*group = g;
			}
			break;
		}
	}
	return kind;
}

void dg_policy_match(const struct dg_policy *policy, const char *service,
		     const struct dg_user *user, struct dg_match *out)
{
	*out = (struct dg_match){.kind = DG_MATCH_NONE};
	for (size_t i = 0; i < policy->n_rules; i++) {
		const struct dg_user_group *group = NULL;
		enum dg_match_kind kind = rule_matches(&policy->rules[i],
						       service, user, &group);

		if (kind != DG_MATCH_NONE) {
			*out = (struct dg_match){kind, i, group};
			return;
		}
	}
}

bool dg_policy_needs_names(const struct dg_policy *policy,
			   const struct dg_rule *rule)
{
	return policy->restricting_names.n > 0 ||
	       (rule->mode == DG_MODE_KEEP && rule->keep_names.n > 0);
}

/* What the decision core (decide.c) needs to know of gid: the look-ups
 * into the policy's sets and name lists, as DG_DECIDE_* bits.
 * asked: what NSS said of gid, or NULL when it was not asked. */
static unsigned char facts_of(gid_t gid, const struct dg_policy *policy,
			      const struct dg_rule *rule,
			      const struct dg_gid_name *asked)
{
	const char *name = asked ? asked->name : NULL;
	bool listed = dg_gids_contains(&rule->named, gid);
	unsigned char f = 0;

	if (listed)
		f |= DG_DECIDE_LISTED;
	if (rule->all || listed ||
	    (rule->mode == DG_MODE_KEEP && name &&
	     dg_strlist_has_nocase(&rule->keep_names, name)))
		f |= DG_DECIDE_NAMED;
	if (dg_gids_contains(&policy->restricting, gid))
		f |= DG_DECIDE_BY_GID;
	else if (name && dg_strlist_has_nocase(&policy->restricting_names, name))
		f |= DG_DECIDE_BY_NAME;
	if (asked && !name && policy->restricting_names.n)
		f |= DG_DECIDE_UNNAMED;
	return f;
}

/* The core's verdict for gid, with what the admin is told besides. */
static struct dg_verdict verdict_of(gid_t gid, unsigned char facts,
				    unsigned char verdict, enum dg_mode mode)
{
	struct dg_verdict v = {
		.gid = gid,
		.kept = verdict & DG_DECIDE_KEPT,
		.reason = verdict & ~DG_DECIDE_KEPT,
	};

	if (v.reason == DG_REASON_RESTRICTING) {
		v.by_name = !(facts & DG_DECIDE_BY_GID);
		/* "*" covers every group by design; only an explicit gid in
		 * a drop list is a mistake worth telling the admin about. */
		v.restricting_named = mode == DG_MODE_DROP &&
				      (facts & DG_DECIDE_LISTED);
	}
	return v;
}

int dg_policy_decide(const gid_t *current, size_t n_current, gid_t primary_gid,
		     const struct dg_policy *policy, const struct dg_rule *rule,
		     const struct dg_gid_names *names, struct dg_decision *out)
{
	_cleanup_free_ struct dg_verdict *verdicts = NULL;
	_cleanup_free_ gid_t *kept = NULL;
	/* the core's scratch (from, then facts and judged) in one
	 * allocation: a login decides twice, and each piece was its own */
	_cleanup_free_ size_t *from = NULL;
	unsigned char *facts, *judged;
	/* the distinct gids of current, sorted: current itself, as the
	 * kernel hands it out, or else a sorted copy (made, then freed) */
	struct dg_gids copy = {0};
	const gid_t *start = current;
	size_t n = n_current, n_kept, at = 0, n_names = names ? names->n : 0;

	if (!dg_gids_is_set(current, n_current)) {
		if (dg_gids_from(&copy, current, n_current) < 0)
			return -ENOMEM;
		start = copy.v;
		n = copy.n;
	}
	verdicts = dg_new0(struct dg_verdict, n);
	kept = dg_new0(gid_t, n);
	/* (n gids are in memory already: the sum cannot wrap) */
	from = dg_new0(size_t, n + (2 * n + sizeof(*from) - 1) / sizeof(*from));
	if (!verdicts || !kept || !from) {
		dg_gids_free(&copy);
		return -ENOMEM;
	}
	facts = (unsigned char *)(from + n);
	judged = facts + n;
	for (size_t i = 0; i < n; i++) {
		gid_t g = start[i];

		/* start and names are both sorted by gid: walk them together */
		while (at < n_names && names->v[at].gid < g)
			at++;
		facts[i] = facts_of(g, policy, rule,
				    at < n_names && names->v[at].gid == g
					    ? &names->v[at]
					    : NULL);
	}
	/* The core keeps a subset of start, in its order: whatever the
	 * rule says, nothing outside `current` can reach the new list. */
	n_kept = dg_decide_gids(start, facts, n, primary_gid,
				rule->mode == DG_MODE_KEEP, judged, kept, from);
	for (size_t i = 0; i < n; i++)
		verdicts[i] = verdict_of(start[i], facts[i], judged[i],
					 rule->mode);
	*out = (struct dg_decision){
		.verdicts = DG_TAKE(verdicts),
		.n_verdicts = n,
		.groups = {.v = DG_TAKE(kept), .n = n_kept},
		.changed = n_kept != n,
	};
	dg_gids_free(&copy);
	return 0;
}

int dg_policy_dropped(const struct dg_decision *d, struct dg_gids *out)
{
	gid_t *v = dg_new0(gid_t, d->n_verdicts);
	size_t n = 0;

	if (!v)
		return -ENOMEM;
	for (size_t i = 0; i < d->n_verdicts; i++)
		if (!d->verdicts[i].kept)
			v[n++] = d->verdicts[i].gid;
	*out = (struct dg_gids){.v = v, .n = n}; /* verdicts are sorted */
	return 0;
}

const char *dg_policy_reason_text(enum dg_reason reason)
{
	switch (reason) {
	case DG_REASON_RESTRICTING: return "restricting";
	case DG_REASON_PRIMARY: return "primary";
	case DG_REASON_NAMED: return "named";
	case DG_REASON_NOT_NAMED: return "not named";
	case DG_REASON_UNNAMED: return "no name from NSS";
	}
	return "?";
}

void dg_policy_decision_free(struct dg_decision *d)
{
	free(d->verdicts);
	dg_gids_free(&d->groups);
	*d = (struct dg_decision){0};
}

void dg_policy_rule_free(struct dg_rule *rule)
{
	free(rule->label_buf);
	free(rule->user_groups);
	dg_gids_free(&rule->named);
	dg_strlist_free(&rule->keep_names);
	*rule = (struct dg_rule){0};
}

void dg_policy_free(struct dg_policy *policy)
{
	for (size_t i = 0; i < policy->n_rules; i++)
		dg_policy_rule_free(&policy->rules[i]);
	free(policy->rules);
	dg_gids_free(&policy->restricting);
	dg_strlist_free(&policy->restricting_names);
	*policy = (struct dg_policy){0};
}

void dg_policy_user_free(struct dg_user *user)
{
	free(user->name);
	dg_gids_free(&user->groups);
	free(user->member.why);
	dg_gids_free(&user->member.entry_lists);
	dg_gids_free(&user->member.entry_silent);
	dg_gids_free(&user->member.entry_failed);
	*user = (struct dg_user){0};
}
