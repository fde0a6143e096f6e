/* The written policy plus NSS's answers to the resolved policy, with a
 * diagnostic for every name that is missing or failed (pure). */
#include "resolve.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int cmp_answer(const void *key, const void *elem)
{
	return strcmp(key, ((const struct dg_name_answer *)elem)->name);
}

const struct dg_name_answer *dg_name_answers_get(const struct dg_name_answers *a,
						 const char *name)
{
	if (!a || !a->n)
		return NULL;
	return bsearch(name, a->v, a->n, sizeof(*a->v), cmp_answer);
}

void dg_name_answers_free(struct dg_name_answers *a)
{
	for (size_t i = 0; i < a->n; i++)
		free(a->v[i].name);
	free(a->v);
	*a = (struct dg_name_answers){0};
}

static int add_ref_names(const struct dg_group_refs *refs, struct dg_strings *out)
{
	for (size_t i = 0; i < refs->n; i++)
		if (refs->v[i].name && strcmp(refs->v[i].name, "*") != 0 &&
		    dg_strings_add(out, refs->v[i].name) < 0)
			return -ENOMEM;
	return 0;
}

int dg_config_group_names(const struct dg_config *cfg, struct dg_strings *out)
{
	*out = (struct dg_strings){0};
	if (add_ref_names(&cfg->restricting, out) < 0)
		goto oom;
	for (size_t i = 0; i < cfg->rules.n; i++) {
		const struct dg_rule_src *src = &cfg->rules.v[i];

		if (add_ref_names(&src->groups, out) < 0)
			goto oom;
		for (size_t j = 0; j < src->users.n; j++)
			if (src->users.v[j][0] == '%' && src->users.v[j][1] &&
			    dg_strings_add(out, src->users.v[j] + 1) < 0)
				goto oom;
	}
	dg_strings_sort_unique(out);
	return 0;
oom:
	dg_strings_free(out);
	return -ENOMEM;
}

int dg_config_user_names(const struct dg_config *cfg, struct dg_strings *out)
{
	*out = (struct dg_strings){0};
	for (size_t i = 0; i < cfg->rules.n; i++) {
		const struct dg_strings *users = &cfg->rules.v[i].users;

		for (size_t j = 0; j < users->n; j++)
			if (users->v[j][0] != '%' && strcmp(users->v[j], "*") &&
			    dg_strings_add(out, users->v[j]) < 0) {
				dg_strings_free(out);
				return -ENOMEM;
			}
	}
	dg_strings_sort_unique(out);
	return 0;
}

/* The answer for name, as a status: a name nobody looked up is an error,
 * never a silent "not found". */
static int answer_for(const struct dg_name_answers *a, const char *name,
		      gid_t *gid)
{
	const struct dg_name_answer *e = dg_name_answers_get(a, name);

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
	dg_diags_add(diags, DG_ERROR, file, line,
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
		if (dg_strings_add(&out->restricting_names, ref->name) < 0)
			return -ENOMEM;
		status = answer_for(answers, ref->name, &v[n]);
		if (status > 0)
			n++;
		else if (status == 0 && ref->optional)
			dg_diags_add(diags, DG_WARNING, ref->file, ref->line,
				     "restricting group \"%s\" (optional) does "
				     "not exist; only a group of that name "
				     "would be kept",
				     ref->name);
		else if (status == 0)
			dg_diags_add(diags, DG_ERROR, ref->file, ref->line,
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
	dg_strings_sort_unique_nocase(&out->restricting_names);
	return dg_gids_from(&out->restricting, v, n);
}

/* Resolve a drop or keep list: names that do not exist are warnings. */
static int resolve_groups(const struct dg_rule_src *src,
			  const struct dg_name_answers *answers,
			  struct dg_rule *rule, struct dg_diags *diags)
{
	const char *what = src->mode == DG_MODE_DROP ? "drop" : "keep";
	_cleanup_free_ gid_t *v = dg_new0(gid_t, src->groups.n);
	size_t n = 0;

	if (!v)
		return -ENOMEM;
	for (size_t i = 0; i < src->groups.n; i++) {
		const struct dg_group_ref *ref = &src->groups.v[i];
		int status;

		if (!ref->name) {
			v[n++] = ref->gid;
			continue;
		}
		if (strcmp(ref->name, "*") == 0) {
			rule->all = true;
			continue;
		}
		if (src->mode == DG_MODE_KEEP &&
		    dg_strings_add(&rule->keep_names, ref->name) < 0)
			return -ENOMEM;
		status = answer_for(answers, ref->name, &v[n]);
		if (status > 0)
			n++;
		else if (status == 0)
			dg_diags_add(diags, DG_WARNING, ref->file, ref->line,
				     "group \"%s\" in %s does not exist; it is "
				     "ignored",
				     ref->name, what);
		else
			report_failure(status, "group", ref->name, what,
				       ref->file, ref->line, diags);
	}
	dg_strings_sort_unique_nocase(&rule->keep_names);
	return dg_gids_from(&rule->named, v, n);
}

static int resolve_users(const struct dg_rule_src *src,
			 const struct dg_name_answers *groups,
			 const struct dg_name_answers *users,
			 struct dg_rule *rule, struct dg_diags *diags)
{
	_cleanup_free_ gid_t *v = dg_new0(gid_t, src->users.n);
	_cleanup_free_ char *where = NULL;
	int line = src->users_line ? src->users_line : src->line;
	size_t n = 0;

	if (!v || asprintf(&where, "users of rule \"%s\"", rule->label) < 0)
		return -ENOMEM;
	rule->any_user = !src->users_given;
	for (size_t i = 0; i < src->users.n; i++) {
		const char *u = src->users.v[i];
		const char *kind = u[0] == '%' ? "group" : "user";
		const char *name = u[0] == '%' ? u + 1 : u;
		int status;

		if (strcmp(u, "*") == 0) {
			rule->any_user = true;
			continue;
		}
		/* User names match as written: looked up only for check. */
		if (u[0] != '%' && !users)
			continue;
		status = !*name ? 0
			 : answer_for(u[0] == '%' ? groups : users, name, &v[n]);
		if (status > 0)
			n += u[0] == '%';
		else if (status == 0)
			dg_diags_add(diags, DG_WARNING, src->file, line,
				     "%s \"%s\" in %s does not exist; it is "
				     "ignored",
				     kind, name, where);
		else if (u[0] != '%')
			/* only a hint for check: the module never asks */
			dg_diags_add(diags, DG_WARNING, src->file, line,
				     "looking up user \"%s\" in %s failed: %s; "
				     "it could not be checked",
				     name, where, strerror(-status));
		else
			report_failure(status, kind, name, where, src->file,
				       line, diags);
	}
	return dg_gids_from(&rule->user_groups, v, n);
}

/* A drop list naming a restricting group has no effect on that group;
 * the admin probably meant something else, so say so. */
static void warn_restricting_named(const struct dg_rule *rule,
				   const struct dg_policy *policy,
				   const struct dg_name_answers *groups,
				   struct dg_diags *diags)
{
	const struct dg_rule_src *src = rule->src;

	if (rule->mode != DG_MODE_DROP)
		return;
	for (size_t i = 0; i < src->groups.n; i++) {
		const struct dg_group_ref *ref = &src->groups.v[i];
		gid_t gid = ref->gid;
		bool found = !ref->name || answer_for(groups, ref->name, &gid) > 0;

		if (ref->name && strcmp(ref->name, "*") == 0)
			continue;
		if (!(ref->name && dg_strings_has_nocase(&policy->restricting_names,
							 ref->name)) &&
		    !(found && dg_gids_contains(&policy->restricting, gid)))
			continue;
		if (ref->name && found)
			dg_diags_add(diags, DG_WARNING, ref->file, ref->line,
				     "rule \"%s\" names restricting group "
				     "%s(%u) in drop; it is never dropped",
				     rule->label, ref->name, (unsigned)gid);
		else if (ref->name)
			dg_diags_add(diags, DG_WARNING, ref->file, ref->line,
				     "rule \"%s\" names restricting group %s in "
				     "drop; it is never dropped",
				     rule->label, ref->name);
		else
			dg_diags_add(diags, DG_WARNING, ref->file, ref->line,
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
	if (!(rule->label = dg_rule_label(src)))
		return -ENOMEM;
	if ((r = resolve_users(src, groups, users, rule, diags)) < 0 ||
	    (r = resolve_groups(src, groups, rule, diags)) < 0)
		return r;
	warn_restricting_named(rule, policy, groups, diags);
	return 0;
}

int dg_policy_build(const struct dg_config *cfg,
		    const struct dg_name_answers *groups,
		    const struct dg_name_answers *users, struct dg_policy *out,
		    struct dg_diags *diags)
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
