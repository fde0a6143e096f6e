#include "nss.h"

#include <errno.h>
#include <grp.h>
#include <limits.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util.h"

/* Start from the size sysconf suggests and double on ERANGE: a group with
 * thousands of members does not fit any fixed buffer. */
static size_t initial_buffer(int which)
{
	long n = sysconf(which);

	return n > 0 && n < (1L << 20) ? (size_t)n : 4096;
}

#define DG_NSS_BUFFER_MAX (64u << 20)

/* POSIX lets "not found" come back as 0 with no result, or as one of a
 * few errnos; everything else means NSS could not answer. */
static bool is_not_found(int r)
{
	return r == 0 || r == ENOENT || r == ESRCH;
}

/* One group look-up, by name (name != NULL) or by gid.  0 with *gr filled
 * and *buf holding its strings (the caller frees it), -ENOENT when there
 * is no such group, or another -errno when NSS could not answer. */
static int get_group(const char *name, gid_t gid, struct group *gr,
		     char **buf)
{
	size_t size = initial_buffer(_SC_GETGR_R_SIZE_MAX);

	for (;;) {
		_cleanup_free_ char *b = malloc(size);
		struct group *res = NULL;
		int r;

		if (!b)
			return -ENOMEM;
		r = name ? getgrnam_r(name, gr, b, size, &res)
			 : getgrgid_r(gid, gr, b, size, &res);
		if (r == ERANGE && size < DG_NSS_BUFFER_MAX) {
			size *= 2;
			continue;
		}
		if (r == 0 && res) {
			*buf = DG_TAKE(b);
			return 0;
		}
		return is_not_found(r) ? -ENOENT : -r;
	}
}

/* The same for the password database, by name (name != NULL) or uid. */
static int get_user(const char *name, uid_t uid, struct passwd *pw,
		    char **buf)
{
	size_t size = initial_buffer(_SC_GETPW_R_SIZE_MAX);

	for (;;) {
		_cleanup_free_ char *b = malloc(size);
		struct passwd *res = NULL;
		int r;

		if (!b)
			return -ENOMEM;
		r = name ? getpwnam_r(name, pw, b, size, &res)
			 : getpwuid_r(uid, pw, b, size, &res);
		if (r == ERANGE && size < DG_NSS_BUFFER_MAX) {
			size *= 2;
			continue;
		}
		if (r == 0 && res) {
			*buf = DG_TAKE(b);
			return 0;
		}
		return is_not_found(r) ? -ENOENT : -r;
	}
}

static int group_by_name_once(const char *name, gid_t *gid)
{
	_cleanup_free_ char *buf = NULL;
	struct group gr;
	int r = get_group(name, 0, &gr, &buf);

	if (r == 0)
		*gid = gr.gr_gid;
	return r;
}

int dg_group_by_name(const char *name, gid_t *gid)
{
	int r = group_by_name_once(name, gid);

	/* glibc turns some failures inside a backend (the files backend
	 * failing to allocate while opening /etc/group) into a plain "not
	 * found", with no errno.  A restricting group that "does not exist"
	 * would then be dropped, so a not-found answer is confirmed by
	 * asking again: a passing failure answers differently. */
	if (r == -ENOENT)
		r = group_by_name_once(name, gid);
	return r;
}

char *dg_group_label(gid_t gid)
{
	_cleanup_free_ char *buf = NULL;
	char *label = NULL;
	struct group gr;
	int r;

	/* A label is for humans: without a name the number will do. */
	if (get_group(NULL, gid, &gr, &buf) == 0)
		r = asprintf(&label, "%s(%u)", gr.gr_name, (unsigned)gid);
	else
		r = asprintf(&label, "%u", (unsigned)gid);
	return r < 0 ? NULL : label;
}

static int user_groups(const char *name, gid_t primary, struct dg_gids *out)
{
	int n = 16;

	for (;;) {
		_cleanup_free_ gid_t *v = calloc((size_t)n, sizeof(*v));
		int want = n;

		if (!v)
			return -ENOMEM;
		if (getgrouplist(name, primary, v, &want) >= 0)
			return dg_gids_from(out, v, (size_t)want);
		if (want <= n) /* no progress: guard against a lying backend */
			want = n * 2;
		if (want > NGROUPS_MAX * 4)
			return -E2BIG;
		n = want;
	}
}

/* 0 if the user exists, -ENOENT if not, another -errno on NSS failure. */
static int user_exists(const char *name)
{
	_cleanup_free_ char *buf = NULL;
	struct passwd pw;

	return get_user(name, 0, &pw, &buf);
}

char *dg_user_name(uid_t uid)
{
	_cleanup_free_ char *buf = NULL;
	struct passwd pw;

	return get_user(NULL, uid, &pw, &buf) == 0 ? strdup(pw.pw_name) : NULL;
}

int dg_user_lookup(const char *name, bool with_groups, struct dg_user *out)
{
	_cleanup_free_ char *buf = NULL;
	struct dg_user user = {0};
	struct passwd pw;
	int r = get_user(name, 0, &pw, &buf);

	if (r < 0)
		return r;
	user.uid = pw.pw_uid;
	user.primary_gid = pw.pw_gid;
	if (!(user.name = strdup(pw.pw_name)))
		return -ENOMEM;
	if (with_groups &&
	    (r = user_groups(user.name, user.primary_gid, &user.groups)) < 0) {
		dg_user_free(&user);
		return r;
	}
	*out = user;
	return 0;
}

/* Record the answer r to looking up KIND "NAME" for WHERE: nothing when
 * found, a warning when it does not exist (it is then ignored), an error
 * when NSS failed.  1 if found, 0 if not, -ENOMEM to pass on. */
static int note_lookup(int r, const char *kind, const char *name,
		       const char *where, const char *file, int line,
		       struct dg_diags *diags)
{
	if (r == 0)
		return 1;
	if (r == -ENOMEM)
		return r;
	if (r == -ENOENT)
		dg_diags_add(diags, DG_WARNING, file, line,
			     "%s \"%s\" in %s does not exist; it is ignored",
			     kind, name, where);
	else
		dg_diags_add(diags, DG_ERROR, file, line,
			     "looking up %s \"%s\" in %s failed: %s", kind,
			     name, where, strerror(-r));
	return 0;
}

/* Resolve refs into a gid set.  "*" sets *all (when allowed). */
static int resolve_refs(const struct dg_group_refs *refs, const char *what,
			bool *all, struct dg_gids *out, struct dg_diags *diags)
{
	_cleanup_free_ gid_t *v = calloc(refs->n ? refs->n : 1, sizeof(*v));
	size_t n = 0;

	if (!v)
		return -ENOMEM;
	for (size_t i = 0; i < refs->n; i++) {
		const struct dg_group_ref *ref = &refs->v[i];
		int r;

		if (!ref->name) {
			v[n++] = ref->gid;
			continue;
		}
		if (strcmp(ref->name, "*") == 0) {
			if (all)
				*all = true;
			else
				dg_diags_add(diags, DG_ERROR, ref->file,
					     ref->line,
					     "\"*\" is not allowed in %s", what);
			continue;
		}
		r = note_lookup(dg_group_by_name(ref->name, &v[n]), "group",
				ref->name, what, ref->file, ref->line, diags);
		if (r < 0)
			return r;
		n += (size_t)r;
	}
	return dg_gids_from(out, v, n);
}

static int resolve_users(const struct dg_rule_src *src, struct dg_rule *rule,
			 struct dg_diags *diags)
{
	_cleanup_free_ gid_t *v = calloc(src->users.n ? src->users.n : 1,
					 sizeof(*v));
	_cleanup_free_ char *where = NULL;
	size_t n = 0;

	if (!v || asprintf(&where, "users of rule \"%s\"", rule->label) < 0)
		return -ENOMEM;
	rule->any_user = !src->users_given;
	for (size_t i = 0; i < src->users.n; i++) {
		const char *u = src->users.v[i];
		int r;

		if (strcmp(u, "*") == 0) {
			rule->any_user = true;
			continue;
		}
		if (u[0] != '%') {
			/* Matched by name as written; looked up only so that
			 * a typo gets a warning, and an NSS failure an error. */
			r = note_lookup(user_exists(u), "user", u, where,
					src->file, src->line, diags);
			if (r < 0)
				return r;
			continue;
		}
		r = note_lookup(u[1] ? dg_group_by_name(u + 1, &v[n]) : -ENOENT,
				"group", u + 1, where, src->file, src->line,
				diags);
		if (r < 0)
			return r;
		n += (size_t)r;
	}
	return dg_gids_from(&rule->user_groups, v, n);
}

/* A drop list naming a restricting group has no effect on that group;
 * the admin probably meant something else, so say so. */
static int warn_restricting_named(const struct dg_rule *rule,
				  const struct dg_gids *restricting,
				  struct dg_diags *diags)
{
	const struct dg_rule_src *src = rule->src;

	if (rule->mode != DG_MODE_DROP)
		return 0;
	for (size_t i = 0; i < rule->named.n; i++) {
		_cleanup_free_ char *label = NULL;

		if (!dg_gids_contains(restricting, rule->named.v[i]))
			continue;
		if (!(label = dg_group_label(rule->named.v[i])))
			return -ENOMEM;
		dg_diags_add(diags, DG_WARNING, src->file, src->line,
			     "rule \"%s\" names restricting group %s in drop; "
			     "it is never dropped", rule->label, label);
	}
	return 0;
}

int dg_policy_resolve(const struct dg_config *cfg, struct dg_policy *out,
		      struct dg_diags *diags)
{
	struct dg_policy policy = {0};
	int r;

	policy.rules = calloc(cfg->n_rules ? cfg->n_rules : 1,
			      sizeof(*policy.rules));
	if (!policy.rules)
		return -ENOMEM;
	r = resolve_refs(&cfg->restricting, "restricting", NULL,
			 &policy.restricting, diags);
	for (size_t i = 0; i < cfg->n_rules && r == 0; i++) {
		const struct dg_rule_src *src = &cfg->rules[i];
		struct dg_rule *rule = &policy.rules[i];
		const char *what = src->mode == DG_MODE_DROP ? "drop" : "keep";

		policy.n_rules = i + 1;
		rule->src = src;
		rule->mode = src->mode;
		if (!(rule->label = dg_rule_label(src)))
			r = -ENOMEM;
		if (r == 0)
			r = resolve_users(src, rule, diags);
		if (r == 0)
			r = resolve_refs(&src->groups, what, &rule->all,
					 &rule->named, diags);
		if (r == 0)
			r = warn_restricting_named(rule, &policy.restricting,
						   diags);
	}
	if (r < 0) {
		dg_policy_free(&policy);
		return r;
	}
	*out = policy;
	return 0;
}
