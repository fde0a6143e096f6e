/* The written policy plus NSS's answers to the resolved policy, with a
 * diagnostic for every name that is missing or failed (pure). */
#include "resolve.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "strlist.h"

static int cmp_answer(const void *key, const void *elem)
{
	return strcmp(key, ((const struct dg_name_answer *)elem)->name);
}

const struct dg_name_answer *
dg_resolve_answers_get(const struct dg_name_answers *a, const char *name)
{
	if (!a || !a->n)
		return NULL;
	return bsearch(name, a->v, a->n, sizeof(*a->v), cmp_answer);
}

void dg_resolve_answers_free(struct dg_name_answers *a)
{
	for (size_t i = 0; i < a->n; i++)
		free(a->v[i].name);
	free(a->v);
	*a = (struct dg_name_answers){0};
}

/* Names are gathered as pointers into cfg, sorted, and copied once
 * each: a generated policy repeats the same few group names in
 * thousands of rules. */
struct gather {
	const char **v;
	size_t n;
};

static void gather_refs(const struct dg_group_refs *refs, struct gather *g)
{
	for (size_t i = 0; i < refs->n; i++)
		if (refs->v[i].name && strcmp(refs->v[i].name, "*") != 0)
			g->v[g->n++] = refs->v[i].name;
}

static int cmp_name(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Drop the repeats from g, in place, through a hash set of the names
 * seen: sorting every name would cost n log n string compares, where
 * most are repeats.  0 or -ENOMEM. */
static int drop_repeats(struct gather *g)
{
	size_t size = 16, kept = 0;
	_cleanup_free_ const char **seen = NULL;

	while (size < 2 * g->n)
		size *= 2;
	if (!(seen = dg_new0(const char *, size)))
		return -ENOMEM;
	for (size_t i = 0; i < g->n; i++) {
		uint64_t h = 0xcbf29ce484222325ull;
		size_t slot;

		for (const unsigned char *c = (const unsigned char *)g->v[i];
		     *c; c++)
			h = (h ^ *c) * 0x100000001b3ull;
		for (slot = h & (size - 1); seen[slot];
		     slot = (slot + 1) & (size - 1))
			if (strcmp(seen[slot], g->v[i]) == 0)
				break;
		if (!seen[slot])
			g->v[kept++] = seen[slot] = g->v[i];
	}
	g->n = kept;
	return 0;
}

/* The distinct names of g, copied into out (sorted). */
static int copy_unique(struct gather *g, struct dg_strlist *out)
{
	*out = (struct dg_strlist){0};
	if (drop_repeats(g) < 0)
		return -ENOMEM;
	if (g->n > 1)
		qsort(g->v, g->n, sizeof(*g->v), cmp_name);
	for (size_t i = 0; i < g->n; i++)
		if (dg_strlist_add(out, g->v[i]) < 0) {
			dg_strlist_free(out);
			return -ENOMEM;
		}
	return 0;
}

/* Room for every name cfg gives: refs, and users of every rule. */
static size_t name_slots(const struct dg_config *cfg)
{
	size_t n = cfg->restricting.n;

	for (size_t i = 0; i < cfg->rules.n; i++)
		n += cfg->rules.v[i].groups.n + cfg->rules.v[i].users.n;
	return n;
}

/* The group of every "%group" entry in users lists (a bare "%" names
 * none).  With g->v NULL, only counts them in g->n. */
static void gather_user_groups(const struct dg_config *cfg, struct gather *g)
{
	for (size_t i = 0; i < cfg->rules.n; i++) {
		const struct dg_strlist *users = &cfg->rules.v[i].users;

		for (size_t j = 0; j < users->n; j++) {
			if (users->v[j][0] != '%' || !users->v[j][1])
				continue;
			if (g->v)
				g->v[g->n] = users->v[j] + 1;
			g->n++;
		}
	}
}

int dg_resolve_group_names(const struct dg_config *cfg, struct dg_strlist *out)
{
	_cleanup_free_ const char **v = dg_new0(const char *, name_slots(cfg));
	struct gather g = {v, 0};

	*out = (struct dg_strlist){0};
	if (!v)
		return -ENOMEM;
	gather_refs(&cfg->restricting, &g);
	for (size_t i = 0; i < cfg->rules.n; i++)
		gather_refs(&cfg->rules.v[i].groups, &g);
	gather_user_groups(cfg, &g);
	return copy_unique(&g, out);
}

int dg_resolve_user_group_names(const struct dg_config *cfg,
				struct dg_strlist *out)
{
	_cleanup_free_ const char **v = NULL;
	struct gather g = {NULL, 0};

	*out = (struct dg_strlist){0};
	gather_user_groups(cfg, &g);
	/* most policies name no "%group": nothing to allocate */
	if (!g.n)
		return 0;
	if (!(v = dg_new0(const char *, g.n)))
		return -ENOMEM;
	g = (struct gather){v, 0};
	gather_user_groups(cfg, &g);
	return copy_unique(&g, out);
}

int dg_resolve_user_names(const struct dg_config *cfg, struct dg_strlist *out)
{
	_cleanup_free_ const char **v = dg_new0(const char *, name_slots(cfg));
	struct gather g = {v, 0};

	*out = (struct dg_strlist){0};
	if (!v)
		return -ENOMEM;
	for (size_t i = 0; i < cfg->rules.n; i++) {
		const struct dg_strlist *users = &cfg->rules.v[i].users;

		for (size_t j = 0; j < users->n; j++)
			if (users->v[j][0] != '%' && strcmp(users->v[j], "*"))
				g.v[g.n++] = users->v[j];
	}
	return copy_unique(&g, out);
}

/* The answer for name, as a status: a name nobody looked up is an error,
 * never a silent "not found". */
static int answer_for(const struct dg_name_answers *a, const char *name,
		      gid_t *gid)
{
	const struct dg_name_answer *e = dg_resolve_answers_get(a, name);

	if (!e)
		return -ENOKEY;
	if (e->status > 0)
		*gid = e->gid;
	return e->status;
}

static void report_failure(int status, const char *kind, const char *name,
			   const char *where, const char *file, int line,
			   struct dg_diags *diags)
{
	dg_diag_add(diags, DG_ERROR, file, line,
		    "looking up %s \"%s\" in %s failed: %s", kind, name, where,
		    status == -ENOKEY ? "it was never looked up"
				      : strerror(-status));
}

/* A restricting name that cannot be found protects nothing by gid, and
 * an offline directory (SSSD with a cold cache) answers a clean "not
 * found" for a group that exists: refuse, unless the admin said that
 * the group may be missing. */
static int resolve_restricting(const struct dg_config *cfg,
			       const struct dg_name_answers *answers,
			       struct dg_policy *out, struct dg_diags *diags)
{
	const struct dg_group_refs *refs = &cfg->restricting;
	_cleanup_free_ gid_t *v = dg_new0(gid_t, refs->n);
	size_t n = 0;

	if (!v)
		return -ENOMEM;
	for (size_t i = 0; i < refs->n; i++) {
		const struct dg_group_ref *ref = &refs->v[i];
		int status;

		if (!ref->name) {
			v[n++] = ref->gid;
			continue;
		}
		/* The name protects by name whatever NSS says of it now. */
		if (dg_strlist_add(&out->restricting_names, ref->name) < 0)
			return -ENOMEM;
		status = answer_for(answers, ref->name, &v[n]);
		if (status > 0)
			n++;
		else if (status == 0 && ref->optional)
			dg_diag_add(diags, DG_WARNING, ref->file, ref->line,
				    "restricting group \"%s\" (optional) does "
				    "not exist; only a group of that name "
				    "would be kept",
				    ref->name);
		else if (status == 0)
			dg_diag_add(
				diags, DG_ERROR, ref->file, ref->line,
				"restricting group \"%s\" does not exist "
				"(or the directory that has it cannot say "
				"so); list it by gid, or as { name = \"%s\"; "
				"optional = true; } if it may be missing",
				ref->name, ref->name);
		else
			report_failure(status, "group", ref->name,
				       "restricting", ref->file, ref->line,
				       diags);
	}
	dg_strlist_sort_unique_nocase(&out->restricting_names);
	return dg_gids_from(&out->restricting, v, n);
}

/* Resolve a drop or keep list: names that do not exist are warnings. */
static int resolve_groups(const struct dg_rule_src *src,
			  const struct dg_name_answers *answers,
			  struct dg_rule *rule, struct dg_diags *diags)
{
	const char *what = src->mode == DG_MODE_DROP ? "drop" : "keep";
	_cleanup_free_ gid_t *v = NULL;
	size_t n = 0;

	for (size_t i = 0; i < src->groups.n; i++) {
		const struct dg_group_ref *ref = &src->groups.v[i];
		int status;

		if (ref->name && strcmp(ref->name, "*") == 0) {
			rule->all = true;
			continue;
		}
		/* a rule of drop = "*" alone allocates nothing */
		if (!v && !(v = dg_new0(gid_t, src->groups.n)))
			return -ENOMEM;
		if (!ref->name) {
			v[n++] = ref->gid;
			continue;
		}
		if (src->mode == DG_MODE_KEEP &&
		    dg_strlist_add(&rule->keep_names, ref->name) < 0)
			return -ENOMEM;
		status = answer_for(answers, ref->name, &v[n]);
		if (status > 0)
			n++;
		else if (status == 0)
			dg_diag_add(diags, DG_WARNING, ref->file, ref->line,
				    "group \"%s\" in %s does not exist; it is "
				    "ignored",
				    ref->name, what);
		else
			report_failure(status, "group", ref->name, what,
				       ref->file, ref->line, diags);
	}
	dg_strlist_sort_unique_nocase(&rule->keep_names);
	rule->named.n = dg_gids_normalize(v, n);
	rule->named.v = DG_TAKE(v);
	return 0;
}

/* A "%group" of users that did not resolve.  check reports it as an
 * error: the policy as written refuses whoever reaches the rule.  The
 * module and explain take it as a warning here, and refuse exactly the
 * users that reach the rule (dg_policy_match). */
static void report_user_group(const struct dg_rule_src *src,
			      const struct dg_rule *rule, const char *name,
			      int status, bool check, struct dg_diags *diags)
{
	int line = src->users_line ? src->users_line : src->line;
	enum dg_severity severity = check ? DG_ERROR : DG_WARNING;

	if (status == 0)
		dg_diag_add(diags, severity, src->file, line,
			    "group \"%s\" in users of rule \"%s\" does not "
			    "exist (or the directory that has it cannot say "
			    "so), so users that reach this rule are refused; "
			    "write it { name = \"%%%s\"; optional = true; } "
			    "if it may be missing",
			    name, rule->label, name);
	else
		dg_diag_add(diags, severity, src->file, line,
			    "looking up group \"%s\" in users of rule \"%s\" "
			    "failed: %s, so users that reach this rule are "
			    "refused",
			    name, rule->label,
			    status == -ENOKEY ? "it was never looked up"
					      : strerror(-status));
}

/* User names match as written: looked up only for check (users != NULL),
 * and only to warn of a typo. */
static void check_user_name(const struct dg_rule_src *src,
			    const struct dg_rule *rule, const char *u,
			    const struct dg_name_answers *users,
			    struct dg_diags *diags)
{
	int line = src->users_line ? src->users_line : src->line;
	int status;

	if (!users)
		return;
	status = answer_for(users, u, &(gid_t){0});
	if (status == 0)
		dg_diag_add(diags, DG_WARNING, src->file, line,
			    "user \"%s\" in users of rule \"%s\" does not "
			    "exist; it is ignored",
			    u, rule->label);
	else if (status < 0)
		dg_diag_add(diags, DG_WARNING, src->file, line,
			    "looking up user \"%s\" in users of rule \"%s\" "
			    "failed: %s; it could not be checked",
			    u, rule->label, strerror(-status));
}

static int resolve_users(const struct dg_rule_src *src,
			 const struct dg_name_answers *groups,
			 const struct dg_name_answers *users,
			 struct dg_rule *rule, struct dg_diags *diags)
{
	int line = src->users_line ? src->users_line : src->line;
	struct dg_user_group *v = NULL;
	size_t n = 0;

	rule->any_user = !src->users_given;
	for (size_t i = 0; i < src->users.n; i++) {
		const char *u = src->users.v[i];
		struct dg_user_group g = {.name = u + 1};

		if (strcmp(u, "*") == 0) {
			rule->any_user = true;
			continue;
		}
		if (u[0] != '%') {
			check_user_name(src, rule, u, users, diags);
			continue;
		}
		/* most rules name no "%group": allocate for the first */
		if (!v && !(v = dg_new0(struct dg_user_group, src->users.n)))
			return -ENOMEM;
		g.status = !*g.name ? 0 : answer_for(groups, g.name, &g.gid);
		if (g.status == 0 && dg_strlist_has(&src->users_optional, u)) {
			dg_diag_add(diags, DG_WARNING, src->file, line,
				    "group \"%s\" (optional) in users of rule "
				    "\"%s\" does not exist; it is ignored",
				    g.name, rule->label);
			continue;
		}
		if (g.status <= 0)
			report_user_group(src, rule, g.name, g.status,
					  users != NULL, diags);
		v[n++] = g;
	}
	rule->user_groups = v;
	rule->n_user_groups = n;
	return 0;
}

/* A drop list naming a restricting group has no effect on that group;
 * the admin probably meant something else, so say so. */
static void warn_restricting_named(const struct dg_rule *rule,
				   const struct dg_policy *policy,
				   const struct dg_name_answers *groups,
				   struct dg_diags *diags)
{
	const struct dg_rule_src *src = rule->src;
	bool by_gid = false;

	if (rule->mode != DG_MODE_DROP)
		return;
	/* rule->named holds every gid its refs resolved to: when none is
	 * restricting, only a restricting name can be, and the refs need
	 * not be looked up again (10,000 rules, each naming a group) */
	for (size_t i = 0; i < rule->named.n && !by_gid; i++)
		by_gid = dg_gids_contains(&policy->restricting, rule->named.v[i]);
	for (size_t i = 0; i < src->groups.n; i++) {
		const struct dg_group_ref *ref = &src->groups.v[i];
		bool by_name = ref->name &&
			       dg_strlist_has_nocase(&policy->restricting_names,
						     ref->name);
		gid_t gid = ref->gid;
		bool found;

		if ((ref->name && strcmp(ref->name, "*") == 0) ||
		    (!by_name && !by_gid))
			continue;
		found = !ref->name || answer_for(groups, ref->name, &gid) > 0;
		if (!by_name && !(found && dg_gids_contains(&policy->restricting, gid)))
			continue;
		if (ref->name && found)
			dg_diag_add(diags, DG_WARNING, ref->file, ref->line,
				    "rule \"%s\" names restricting group "
				    "%s(%u) in drop; it is never dropped",
				    rule->label, ref->name, (unsigned)gid);
		else if (ref->name)
			dg_diag_add(diags, DG_WARNING, ref->file, ref->line,
				    "rule \"%s\" names restricting group %s in "
				    "drop; it is never dropped",
				    rule->label, ref->name);
		else
			dg_diag_add(diags, DG_WARNING, ref->file, ref->line,
				    "rule \"%s\" names restricting gid %u in "
				    "drop; it is never dropped",
				    rule->label, (unsigned)gid);
	}
}

static int resolve_rule(const struct dg_rule_src *src,
			const struct dg_name_answers *groups,
			const struct dg_name_answers *users,
			const struct dg_policy *policy, struct dg_rule *rule,
			struct dg_diags *diags)
{
	int r;

	rule->src = src;
	rule->mode = src->mode;
	/* a named rule goes by its name, with no copy of it */
	if (!(rule->label = src->name) &&
	    !(rule->label = rule->label_buf = dg_config_rule_label(src)))
		return -ENOMEM;
	if ((r = resolve_users(src, groups, users, rule, diags)) < 0 ||
	    (r = resolve_groups(src, groups, rule, diags)) < 0)
		return r;
	warn_restricting_named(rule, policy, groups, diags);
	return 0;
}

int dg_resolve_policy(const struct dg_config *cfg,
		      const struct dg_name_answers *groups,
		      const struct dg_name_answers *users,
		      struct dg_policy *out, struct dg_diags *diags)
{
	struct dg_policy policy = {0};
	int r;

	if (!(policy.rules = dg_new0(struct dg_rule, cfg->rules.n)))
		return -ENOMEM;
	r = resolve_restricting(cfg, groups, &policy, diags);
	for (size_t i = 0; i < cfg->rules.n && r == 0; i++) {
		policy.n_rules = i + 1;
		r = resolve_rule(&cfg->rules.v[i], groups, users, &policy,
				 &policy.rules[i], diags);
	}
	if (r < 0) {
		dg_policy_free(&policy);
		return r;
	}
	*out = policy;
	return 0;
}
