/* libconfig text -> struct dg_config.  No I/O and no NSS here: this is the
 * schema of dropgroups.conf(5), and every way a file can break it. */
#include "config.h"

#include <errno.h>
#include <libconfig.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

int dg_strings_add(struct dg_strings *s, const char *str)
{
	char *copy;

	if (dg_grow((void **)&s->v, &s->cap, s->n + 1, sizeof(*s->v)) < 0)
		return -ENOMEM;
	if (!(copy = strdup(str)))
		return -ENOMEM;
	s->v[s->n++] = copy;
	return 0;
}

void dg_strings_free(struct dg_strings *s)
{
	for (size_t i = 0; i < s->n; i++)
		free(s->v[i]);
	free(s->v);
	*s = (struct dg_strings){0};
}

static void refs_free(struct dg_group_refs *r)
{
	for (size_t i = 0; i < r->n; i++)
		free(r->v[i].name);
	free(r->v);
	*r = (struct dg_group_refs){0};
}

static void rule_free(struct dg_rule_src *rule)
{
	free(rule->name);
	dg_strings_free(&rule->services);
	dg_strings_free(&rule->users);
	refs_free(&rule->groups);
}

void dg_config_free(struct dg_config *cfg)
{
	for (size_t i = 0; i < cfg->n_rules; i++)
		rule_free(&cfg->rules[i]);
	free(cfg->rules);
	refs_free(&cfg->restricting);
	free(cfg->include_dir);
	dg_strings_free(&cfg->files);
	*cfg = (struct dg_config){0};
}

char *dg_rule_label(const struct dg_rule_src *rule)
{
	char *s = NULL;

	if (rule->name)
		return strdup(rule->name);
	if (asprintf(&s, "%s:%d", rule->file, rule->line) < 0)
		return NULL;
	return s;
}

/* State for parsing one file. */
struct parser {
	const char *file; /* owned by cfg->files */
	struct dg_diags *diags;
	int oom;
};

static int line_of(const config_setting_t *s)
{
	return (int)config_setting_source_line(s);
}

static const char *type_name(int type)
{
	switch (type) {
	case CONFIG_TYPE_GROUP: return "a group { }";
	case CONFIG_TYPE_INT:
	case CONFIG_TYPE_INT64: return "a number";
	case CONFIG_TYPE_FLOAT: return "a float";
	case CONFIG_TYPE_STRING: return "a string";
	case CONFIG_TYPE_BOOL: return "a boolean";
	case CONFIG_TYPE_ARRAY: return "an array [ ]";
	case CONFIG_TYPE_LIST: return "a list ( )";
	default: return "of an unknown type";
	}
}

static void wrong_type(struct parser *p, const config_setting_t *s,
		       const char *what, const char *expected)
{
	dg_diags_add(p->diags, DG_ERROR, p->file, line_of(s),
		     "%s must be %s, not %s", what, expected,
		     type_name(config_setting_type(s)));
}

/* Only keys from `allowed` (NULL-terminated) may appear in group g;
 * `context` (e.g. `rule "ssh"`) says where, or is NULL at the top level. */
static void reject_unknown_keys(struct parser *p, const config_setting_t *g,
				const char *const *allowed, const char *context)
{
	int n = config_setting_length(g);

	for (int i = 0; i < n; i++) {
		const config_setting_t *s = config_setting_get_elem(g, (unsigned)i);
		const char *name = config_setting_name(s);
		bool known = false;

		for (const char *const *a = allowed; *a; a++)
			if (name && strcmp(name, *a) == 0)
				known = true;
		if (!known)
			dg_diags_add(p->diags, DG_ERROR, p->file, line_of(s),
				     "unknown key \"%s\"%s%s", name ? name : "?",
				     context ? " in " : "", context ? context : "");
	}
}

/* A scalar or each element of an array or list, handed to `each`. */
typedef void (*element_fn)(struct parser *p, const config_setting_t *elem,
			   const char *what, void *out);

static void for_each_value(struct parser *p, const config_setting_t *s,
			   const char *what, const char *expected,
			   element_fn each, void *out)
{
	int type = config_setting_type(s);

	if (type != CONFIG_TYPE_ARRAY && type != CONFIG_TYPE_LIST) {
		each(p, s, what, out);
		return;
	}
	for (int i = 0; i < config_setting_length(s); i++) {
		const config_setting_t *e = config_setting_get_elem(s, (unsigned)i);
		int et = config_setting_type(e);

		if (et == CONFIG_TYPE_ARRAY || et == CONFIG_TYPE_LIST ||
		    et == CONFIG_TYPE_GROUP)
			wrong_type(p, e, what, expected);
		else
			each(p, e, what, out);
	}
}

static void add_string(struct parser *p, const config_setting_t *e,
		       const char *what, void *out)
{
	const char *str;

	if (config_setting_type(e) != CONFIG_TYPE_STRING) {
		wrong_type(p, e, what, "a string");
		return;
	}
	str = config_setting_get_string(e);
	if (!str || !*str) {
		dg_diags_add(p->diags, DG_ERROR, p->file, line_of(e),
			     "%s has an empty string", what);
		return;
	}
	if (dg_strings_add(out, str) < 0)
		p->oom = 1;
}

static void add_group_ref(struct parser *p, const config_setting_t *e,
			  const char *what, void *out)
{
	struct dg_group_refs *refs = out;
	struct dg_group_ref ref = {.file = p->file, .line = line_of(e)};
	int type = config_setting_type(e);

	if (type == CONFIG_TYPE_INT || type == CONFIG_TYPE_INT64) {
		long long v = config_setting_get_int64(e);

		/* (gid_t)-1 means "no change" to the kernel: never a group.
		 * libconfig 1.5 wraps an integer above 2^31-1 without an L
		 * suffix into a negative one: say how to write it. */
		if (v < 0 || v >= (long long)UINT32_MAX) {
			dg_diags_add(p->diags, DG_ERROR, p->file, ref.line,
				     "%s has gid %lld, which is out of range%s",
				     what, v,
				     v < 0 && type == CONFIG_TYPE_INT
					     ? " (write gids above 2147483647 "
					       "with an L suffix, as in "
					       "4294967294L)"
					     : "");
			return;
		}
		ref.gid = (gid_t)v;
	} else if (type == CONFIG_TYPE_STRING) {
		const char *str = config_setting_get_string(e);

		if (!str || !*str) {
			dg_diags_add(p->diags, DG_ERROR, p->file, ref.line,
				     "%s has an empty group name", what);
			return;
		}
		if (!(ref.name = strdup(str))) {
			p->oom = 1;
			return;
		}
	} else {
		wrong_type(p, e, what, "a group name or a gid");
		return;
	}
	if (dg_grow((void **)&refs->v, &refs->cap, refs->n + 1,
		    sizeof(*refs->v)) < 0) {
		free(ref.name);
		p->oom = 1;
		return;
	}
	refs->v[refs->n++] = ref;
}

static void parse_strings(struct parser *p, const config_setting_t *s,
			  const char *what, struct dg_strings *out)
{
	for_each_value(p, s, what, "a string", add_string, out);
}

static void parse_group_refs(struct parser *p, const config_setting_t *s,
			     const char *what, struct dg_group_refs *out)
{
	for_each_value(p, s, what, "a group name or a gid", add_group_ref, out);
}

static void parse_rule(struct parser *p, struct dg_config *cfg,
		       const config_setting_t *g, int index)
{
	static const char *const keys[] = {"name", "services", "users", "drop",
					   "keep", "no_new_privs", NULL};
	struct dg_rule_src rule = {.file = p->file, .line = line_of(g)};
	const config_setting_t *s, *drop, *keep;
	_cleanup_free_ char *where = NULL;
	size_t errors_before = p->diags->n;

	if (config_setting_type(g) != CONFIG_TYPE_GROUP) {
		wrong_type(p, g, "each rule", "a group { }");
		return;
	}
	if ((s = config_setting_get_member(g, "name"))) {
		if (config_setting_type(s) != CONFIG_TYPE_STRING)
			wrong_type(p, s, "name", "a string");
		else if (!(rule.name = strdup(config_setting_get_string(s))))
			p->oom = 1;
	}
	if (rule.name)
		(void)!asprintf(&where, "rule \"%s\"", rule.name);
	else
		(void)!asprintf(&where, "rule %d", index + 1);
	if (!where) {
		p->oom = 1;
		rule_free(&rule);
		return;
	}
	reject_unknown_keys(p, g, keys, where);

	if ((s = config_setting_get_member(g, "services")))
		parse_strings(p, s, "services", &rule.services);
	if (!s)
		dg_diags_add(p->diags, DG_ERROR, p->file, rule.line,
			     "%s has no \"services\"", where);
	else if (rule.services.n == 0 && p->diags->n == errors_before &&
		 !p->oom)
		dg_diags_add(p->diags, DG_ERROR, p->file, line_of(s),
			     "\"services\" is empty in %s", where);

	if ((s = config_setting_get_member(g, "users"))) {
		rule.users_given = true;
		parse_strings(p, s, "users", &rule.users);
		if (rule.users.n == 0 && p->diags->n == errors_before &&
		    !p->oom)
			dg_diags_add(p->diags, DG_WARNING, p->file, line_of(s),
				     "\"users\" is empty in %s, so it matches nobody",
				     where);
	}

	drop = config_setting_get_member(g, "drop");
	keep = config_setting_get_member(g, "keep");
	if (drop && keep)
		dg_diags_add(p->diags, DG_ERROR, p->file, rule.line,
			     "%s has both \"drop\" and \"keep\"; give one",
			     where);
	else if (!drop && !keep)
		dg_diags_add(p->diags, DG_ERROR, p->file, rule.line,
			     "%s has neither \"drop\" nor \"keep\"", where);
	else if (drop)
		parse_group_refs(p, drop, "drop", &rule.groups);
	else {
		rule.mode = DG_MODE_KEEP;
		parse_group_refs(p, keep, "keep", &rule.groups);
	}

	if ((s = config_setting_get_member(g, "no_new_privs"))) {
		if (config_setting_type(s) != CONFIG_TYPE_BOOL)
			wrong_type(p, s, "no_new_privs", "a boolean");
		else
			rule.no_new_privs = config_setting_get_bool(s);
	}

	if (dg_grow((void **)&cfg->rules, &cfg->cap_rules, cfg->n_rules + 1,
		    sizeof(*cfg->rules)) < 0) {
		p->oom = 1;
		rule_free(&rule);
		return;
	}
	cfg->rules[cfg->n_rules++] = rule;
}

static void parse_rules(struct parser *p, struct dg_config *cfg,
			const config_setting_t *s)
{
	if (config_setting_type(s) != CONFIG_TYPE_LIST) {
		wrong_type(p, s, "rules", "a list ( ) of groups");
		return;
	}
	for (int i = 0; i < config_setting_length(s) && !p->oom; i++)
		parse_rule(p, cfg, config_setting_get_elem(s, (unsigned)i), i);
}

static void parse_version(struct parser *p, const config_setting_t *root)
{
	const config_setting_t *s = config_setting_get_member(root, "version");
	int type;

	if (!s) {
		dg_diags_add(p->diags, DG_ERROR, p->file, 0,
			     "required setting \"version\" is missing");
		return;
	}
	type = config_setting_type(s);
	if (type != CONFIG_TYPE_INT && type != CONFIG_TYPE_INT64)
		wrong_type(p, s, "version", "a number");
	else if (config_setting_get_int64(s) != 1)
		dg_diags_add(p->diags, DG_ERROR, p->file, line_of(s),
			     "version %lld is not supported; only 1 is",
			     (long long)config_setting_get_int64(s));
}

/* libconfig would open @include'd files itself, past every ownership
 * check in load.c, so the directive is refused before libconfig sees it.
 * Its scanner only honours @include at the start of a line (after blanks);
 * refusing every such line is a superset of that. */
static int find_include(const char *text)
{
	int line = 1;

	for (const char *l = text; l && *l; line++) {
		const char *c = l;

		while (*c == ' ' || *c == '\t' || *c == '\r' || *c == '\f' ||
		       *c == '\v')
			c++;
		if (strncmp(c, "@include", 8) == 0)
			return line;
		l = strchr(l, '\n');
		if (l)
			l++;
	}
	return 0;
}

int dg_config_parse(struct dg_config *cfg, const char *file, const char *text,
		    enum dg_file_role role, struct dg_diags *diags)
{
	static const char *const main_keys[] = {"version", "restricting",
						"include_dir", "rules", NULL};
	static const char *const drop_in_keys[] = {"version", "restricting",
						   "rules", "include_dir", NULL};
	struct parser p = {.diags = diags};
	const config_setting_t *root, *s;
	config_t lc;
	int line;

	if (dg_strings_add(&cfg->files, file) < 0)
		return -ENOMEM;
	p.file = cfg->files.v[cfg->files.n - 1];

	if ((line = find_include(text))) {
		dg_diags_add(diags, DG_ERROR, p.file, line,
			     "@include is not allowed; put extra policy in the "
			     "include_dir, where each file is checked");
		return 0;
	}

	/* libconfig 1.5's config_init() does not check the one allocation
	 * it makes, and would crash the login program when memory runs
	 * out.  Allocate and free a block of that size first: if that
	 * fails we fail closed, and if it works, the allocator hands the
	 * same block straight back to config_init(). */
	{
		void *probe = calloc(1, sizeof(config_setting_t));

		if (!probe)
			return -ENOMEM;
		free(probe);
	}
	config_init(&lc);
	if (config_read_string(&lc, text) != CONFIG_TRUE) {
		const char *why = config_error_text(&lc);

		dg_diags_add(diags, DG_ERROR, p.file, config_error_line(&lc),
			     "%s", why ? why : "syntax error");
		config_destroy(&lc);
		return 0;
	}
	root = config_root_setting(&lc);
	reject_unknown_keys(&p, root,
			    role == DG_MAIN_FILE ? main_keys : drop_in_keys,
			    NULL);
	if (role == DG_DROP_IN &&
	    (s = config_setting_get_member(root, "include_dir")))
		dg_diags_add(diags, DG_ERROR, p.file, line_of(s),
			     "include_dir is allowed only in the main file");
	parse_version(&p, root);

	if ((s = config_setting_get_member(root, "restricting")))
		parse_group_refs(&p, s, "restricting", &cfg->restricting);
	else if (role == DG_MAIN_FILE)
		dg_diags_add(diags, DG_ERROR, p.file, 0,
			     "required setting \"restricting\" is missing "
			     "(write restricting = ( ); if no group restricts)");

	if (role == DG_MAIN_FILE &&
	    (s = config_setting_get_member(root, "include_dir"))) {
		const char *dir = config_setting_type(s) == CONFIG_TYPE_STRING
					  ? config_setting_get_string(s)
					  : NULL;
		if (!dir)
			wrong_type(&p, s, "include_dir", "a string");
		else if (!*dir)
			dg_diags_add(diags, DG_ERROR, p.file, line_of(s),
				     "include_dir is empty");
		else if (!(cfg->include_dir = strdup(dir)))
			p.oom = 1;
	}

	if ((s = config_setting_get_member(root, "rules")) && !p.oom)
		parse_rules(&p, cfg, s);

	config_destroy(&lc);
	return p.oom ? -ENOMEM : 0;
}
