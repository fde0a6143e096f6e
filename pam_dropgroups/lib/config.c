/* libconfig text -> struct dg_config.  No I/O and no NSS here: this is the
 * schema of dropgroups.conf(5), and every way a file can break it.
 *
 * The schema is two tables, one row per key (name, where it may appear,
 * whether it is required, the function that reads it): a new key is one
 * row and one function, and the unknown-key check reads the same rows. */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <libconfig.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arena.h"
#include "scan.h"
#include "strlist.h"
#include "suggest.h"
#include "syntax.h"

static void refs_free(struct dg_group_refs *r)
{
	for (size_t i = 0; i < r->n; i++)
		free(r->v[i].name);
	free(r->v);
	*r = (struct dg_group_refs){0};
}

static void rule_src_free(struct dg_rule_src *rule)
{
	free(rule->name);
	dg_strlist_free(&rule->services);
	dg_strlist_free(&rule->users);
	dg_strlist_free(&rule->users_optional);
	refs_free(&rule->groups);
}

void dg_config_free(struct dg_config *cfg)
{
	if (cfg->arena) {
		dg_arena_free(&cfg->arena);
		*cfg = (struct dg_config){0};
		return;
	}
	for (size_t i = 0; i < cfg->rules.n; i++)
		rule_src_free(&cfg->rules.v[i]);
	free(cfg->rules.v);
	refs_free(&cfg->restricting);
	free(cfg->include_dir);
	dg_strlist_free(&cfg->files);
	*cfg = (struct dg_config){0};
}

char *dg_config_rule_label(const struct dg_rule_src *rule)
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
	enum dg_file_role role;
	struct dg_diags *diags;
	struct dg_config *cfg;
	const char *where; /* "rule \"ssh\"" inside a rule, else NULL */
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

#define parse_error(p, line, ...)                                              \
	dg_diag_add((p)->diags, DG_ERROR, (p)->file, (line), __VA_ARGS__)
#define parse_warning(p, line, ...)                                            \
	dg_diag_add((p)->diags, DG_WARNING, (p)->file, (line), __VA_ARGS__)

/* The three printf arguments of "; did you mean \"KEY\"?" after a
 * message's "%s%s%s", or of nothing when there is no suggestion (key is
 * read three times: a variable, not a call). */
#define DID_YOU_MEAN(key)                                                      \
	(key) ? "; did you mean \"" : "", (key) ? (key) : "",                  \
		(key) ? "\"?" : ""

static void wrong_type(struct parser *p, const config_setting_t *s,
		       const char *what, const char *expected)
{
	parse_error(p, line_of(s), "%s must be %s, not %s", what, expected,
		    type_name(config_setting_type(s)));
}

static bool is_int(const config_setting_t *s)
{
	int type = config_setting_type(s);

	return type == CONFIG_TYPE_INT || type == CONFIG_TYPE_INT64;
}

/* --- values --- */

/* A scalar or each element of an array or list, handed to `each`. */
typedef int (*element_fn)(struct parser *p, const config_setting_t *elem,
			  const char *what, void *out);

static int for_each_value(struct parser *p, const config_setting_t *s,
			  const char *what, const char *expected,
			  element_fn each, void *out)
{
	int type = config_setting_type(s), r;

	if (type != CONFIG_TYPE_ARRAY && type != CONFIG_TYPE_LIST)
		return each(p, s, what, out);
	for (int i = 0; i < config_setting_length(s); i++) {
		const config_setting_t *e = config_setting_get_elem(s, (unsigned)i);
		int et = config_setting_type(e);

		if (et == CONFIG_TYPE_ARRAY || et == CONFIG_TYPE_LIST)
			wrong_type(p, e, what, expected);
		else if ((r = each(p, e, what, out)) < 0)
			return r;
	}
	return 0;
}

static int add_string(struct parser *p, const config_setting_t *e,
		      const char *what, void *out)
{
	const char *str;

	if (config_setting_type(e) != CONFIG_TYPE_STRING) {
		wrong_type(p, e, what, "a string");
		return 0;
	}
	str = config_setting_get_string(e);
	if (!str || !*str) {
		parse_error(p, line_of(e), "%s has an empty string", what);
		return 0;
	}
	return dg_strlist_add(out, str);
}

static bool all_digits(const char *s)
{
	return *s && strspn(s, "0123456789") == strlen(s);
}

/* A gid: libconfig keeps every integer the scanner let through exactly
 * (scan.c refuses the ones it would wrap), so only the range is left. */
static int read_gid(struct parser *p, const config_setting_t *e,
		    const char *what, gid_t *gid)
{
	long long v = config_setting_get_int64(e);

	/* (gid_t)-1 means "no change" to the kernel: never a group. */
	if (v < 0 || v >= (long long)UINT32_MAX) {
		parse_error(p, line_of(e),
			    "%s has gid %lld, which is out of range (0 to "
			    "4294967294)",
			    what, v);
		return -EINVAL;
	}
	*gid = (gid_t)v;
	return 0;
}

static int read_group_name(struct parser *p, const config_setting_t *e,
			   const char *what, char **name)
{
	const char *str = config_setting_get_string(e);

	if (!str || !*str) {
		parse_error(p, line_of(e), "%s has an empty group name", what);
		return 0;
	}
	if (all_digits(str))
		parse_warning(p, line_of(e),
			      "%s names the group \"%s\", a name made of "
			      "digits; for gid %s write it without quotes",
			      what, str, str);
	return (*name = strdup(str)) ? 0 : -ENOMEM;
}

/* { name = "x"; optional = true; }: a group that may not exist (yet),
 * whose absence is then a warning, not an error.  A restricting name, or
 * a "%group" entry in users.  *name is NULL where it was refused
 * (reported). */
static int read_optional(struct parser *p, const config_setting_t *g,
			 const char *what, char **name, bool *optional)
{
	const config_setting_t *n = config_setting_get_member(g, "name");
	const config_setting_t *opt = config_setting_get_member(g, "optional");

	for (int i = 0; i < config_setting_length(g); i++) {
		const config_setting_t *s = config_setting_get_elem(g, (unsigned)i);
		const char *key = config_setting_name(s);
		struct dg_suggest near;

		if (key && (!strcmp(key, "name") || !strcmp(key, "optional")))
			continue;
		dg_suggest_init(&near, key);
		dg_suggest_consider(&near, "name");
		dg_suggest_consider(&near, "optional");
		parse_error(p, line_of(s),
			    "unknown key \"%s\" in a %s entry (only "
			    "\"name\" and \"optional\")%s%s%s",
			    key ? key : "?", what, DID_YOU_MEAN(near.best));
	}
	if (!n || config_setting_type(n) != CONFIG_TYPE_STRING) {
		parse_error(p, line_of(g), "a %s entry { } needs name = \"%s\"",
			    what, strcmp(what, "users") ? "GROUP" : "%GROUP");
		return 0;
	}
	if (!opt || config_setting_type(opt) != CONFIG_TYPE_BOOL) {
		parse_error(p, line_of(g),
			    "a %s entry { } needs optional = true (or false)",
			    what);
		return 0;
	}
	*optional = config_setting_get_bool(opt);
	return read_group_name(p, n, what, name);
}

static int read_optional_ref(struct parser *p, const config_setting_t *g,
			     const char *what, struct dg_group_ref *ref)
{
	if (strcmp(what, "restricting") != 0) {
		wrong_type(p, g, what, "a group name or a gid");
		return 0;
	}
	return read_optional(p, g, what, &ref->name, &ref->optional);
}

static int add_group_ref(struct parser *p, const config_setting_t *e,
			 const char *what, void *out)
{
	struct dg_group_refs *refs = out;
	struct dg_group_ref ref = {.file = p->file, .line = line_of(e)};
	int type = config_setting_type(e), r = 0;

	if (is_int(e)) {
		if (read_gid(p, e, what, &ref.gid) < 0)
			return 0;
	} else if (type == CONFIG_TYPE_STRING) {
		r = read_group_name(p, e, what, &ref.name);
	} else if (type == CONFIG_TYPE_GROUP) {
		r = read_optional_ref(p, e, what, &ref);
	} else {
		wrong_type(p, e, what, "a group name or a gid");
		return 0;
	}
	if (r < 0)
		return r;
	if (type != CONFIG_TYPE_INT && type != CONFIG_TYPE_INT64 && !ref.name)
		return 0; /* reported */
	if (ref.name && strcmp(ref.name, "*") == 0 &&
	    strcmp(what, "restricting") == 0) {
		parse_error(p, ref.line, "\"*\" is not allowed in %s", what);
		free(ref.name);
		return 0;
	}
	if (DG_APPEND(refs, ref) < 0) {
		free(ref.name);
		return -ENOMEM;
	}
	return 0;
}

static int parse_strings(struct parser *p, const config_setting_t *s,
			 const char *what, struct dg_strlist *out)
{
	return for_each_value(p, s, what, "a string", add_string, out);
}

static int parse_group_refs(struct parser *p, const config_setting_t *s,
			    const char *what, struct dg_group_refs *out)
{
	return for_each_value(p, s, what, "a group name or a gid",
			      add_group_ref, out);
}

/* --- the schema --- */

enum { IN_MAIN = 1, IN_DROP_IN = 2, IN_BOTH = IN_MAIN | IN_DROP_IN };

struct key {
	const char *name;
	unsigned allowed;  /* IN_*: where the key may appear */
	unsigned required; /* IN_*: where it must */
	const char *hint;  /* added to the "missing" message */
	int (*parse)(struct parser *p, const config_setting_t *s, void *target);
};

static unsigned role_bit(enum dg_file_role role)
{
	return role == DG_MAIN_FILE ? IN_MAIN : IN_DROP_IN;
}

static const struct key *find_key(const struct key *keys, size_t n,
				  const char *name)
{
	for (size_t i = 0; name && i < n; i++)
		if (strcmp(keys[i].name, name) == 0)
			return &keys[i];
	return NULL;
}

/* The key of the table allowed in role nearest to an unknown name, or
 * NULL when none is near enough to be what was meant. */
static const char *nearest_key(const struct key *keys, size_t n,
			       unsigned role, const char *name)
{
	struct dg_suggest near;

	dg_suggest_init(&near, name);
	for (size_t i = 0; i < n; i++)
		if (keys[i].allowed & role)
			dg_suggest_consider(&near, keys[i].name);
	return near.best;
}

/* Read every member of group g through the table; report unknown keys,
 * keys out of place and missing required keys.  0 or -ENOMEM. */
static int parse_keys(struct parser *p, const config_setting_t *g,
		      const struct key *keys, size_t n_keys, int group_line,
		      const char *skip, void *target)
{
	unsigned role = role_bit(p->role);
	int r;

	for (int i = 0; i < config_setting_length(g); i++) {
		const config_setting_t *s = config_setting_get_elem(g, (unsigned)i);
		const char *name = config_setting_name(s);
		const struct key *k = find_key(keys, n_keys, name);
		const char *near;

		if (skip && name && strcmp(name, skip) == 0)
			continue;
		if (!k) {
			near = nearest_key(keys, n_keys, role, name);
			parse_error(p, line_of(s),
				    "unknown key \"%s\"%s%s%s%s%s",
				    name ? name : "?", p->where ? " in " : "",
				    p->where ? p->where : "",
				    DID_YOU_MEAN(near));
		} else if (!(k->allowed & role))
			parse_error(p, line_of(s),
				    "%s is allowed only in the main file",
				    k->name);
		else if ((r = k->parse(p, s, target)) < 0)
			return r;
	}
	for (size_t i = 0; i < n_keys; i++) {
		if (!(keys[i].required & role) ||
		    config_setting_get_member(g, keys[i].name))
			continue;
		if (p->where)
			parse_error(p, group_line, "%s has no \"%s\"", p->where,
				    keys[i].name);
		else
			parse_error(p, group_line,
				    "required setting \"%s\" is missing%s",
				    keys[i].name, keys[i].hint ? keys[i].hint : "");
	}
	return 0;
}

/* --- rules --- */

static int rule_name(struct parser *p, const config_setting_t *s, void *t)
{
	(void)p, (void)s, (void)t;
	return 0; /* read first, by parse_rule: every message names the rule */
}

/* Linux-PAM lowercases the service name before a module sees it. */
static void warn_upper_case(struct parser *p, const struct dg_strlist *services,
			    int line)
{
	for (size_t i = 0; i < services->n; i++) {
		const char *c = services->v[i];

		while (*c && !isupper((unsigned char)*c))
			c++;
		if (*c)
			parse_warning(p, line,
				      "service \"%s\" in %s has upper-case "
				      "letters; Linux-PAM lowercases service "
				      "names, so it never matches",
				      services->v[i], p->where);
	}
}

static int rule_services(struct parser *p, const config_setting_t *s, void *t)
{
	struct dg_rule_src *rule = t;
	size_t errors = p->diags->n;
	int r = parse_strings(p, s, "services", &rule->services);

	if (r < 0)
		return r;
	if (rule->services.n == 0 && p->diags->n == errors)
		parse_error(p, line_of(s), "\"services\" is empty in %s",
			    p->where);
	warn_upper_case(p, &rule->services, line_of(s));
	return 0;
}

/* One entry of users: a user name, "%group", "*", or
 * { name = "%group"; optional = true; }. */
static int add_user(struct parser *p, const config_setting_t *e,
		    const char *what, void *out)
{
	struct dg_rule_src *rule = out;
	_cleanup_free_ char *name = NULL;
	bool optional = false;
	int r;

	if (config_setting_type(e) != CONFIG_TYPE_GROUP)
		return add_string(p, e, what, &rule->users);
	if ((r = read_optional(p, e, what, &name, &optional)) < 0 || !name)
		return r;
	if (name[0] != '%' || !name[1]) {
		parse_error(p, line_of(e),
			    "only a \"%%group\" entry of users can be "
			    "optional, not \"%s\"",
			    name);
		return 0;
	}
	if (dg_strlist_add(&rule->users, name) < 0 ||
	    (optional && dg_strlist_add(&rule->users_optional, name) < 0))
		return -ENOMEM;
	return 0;
}

static int rule_users(struct parser *p, const config_setting_t *s, void *t)
{
	struct dg_rule_src *rule = t;
	size_t errors = p->diags->n;
	int r = for_each_value(p, s, "users", "a string", add_user, rule);

	rule->users_given = true;
	rule->users_line = line_of(s);
	if (r < 0)
		return r;
	/* optional is said of a name: written a second time without it,
	 * the reader could not tell which was meant */
	for (size_t i = 0; i < rule->users_optional.n; i++) {
		size_t seen = 0;

		for (size_t j = 0; j < rule->users.n; j++)
			seen += strcmp(rule->users.v[j], rule->users_optional.v[i]) == 0;
		if (seen > 1)
			parse_error(p, line_of(s),
				    "\"%s\" is in users of %s more than once, "
				    "once as optional",
				    rule->users_optional.v[i], p->where);
	}
	if (rule->users.n == 0 && p->diags->n == errors)
		parse_warning(p, line_of(s),
			      "\"users\" is empty in %s, so it matches nobody",
			      p->where);
	return 0;
}

static int rule_drop(struct parser *p, const config_setting_t *s, void *t)
{
	struct dg_rule_src *rule = t;

	rule->has_drop = true;
	rule->mode = rule->has_keep ? rule->mode : DG_MODE_DROP;
	return parse_group_refs(p, s, "drop", &rule->groups);
}

static int rule_keep(struct parser *p, const config_setting_t *s, void *t)
{
	struct dg_rule_src *rule = t;

	rule->has_keep = true;
	rule->mode = rule->has_drop ? rule->mode : DG_MODE_KEEP;
	return parse_group_refs(p, s, "keep", &rule->groups);
}

static int rule_no_new_privs(struct parser *p, const config_setting_t *s,
			     void *t)
{
	struct dg_rule_src *rule = t;

	if (config_setting_type(s) != CONFIG_TYPE_BOOL)
		wrong_type(p, s, "no_new_privs", "a boolean");
	else
		rule->no_new_privs = config_setting_get_bool(s);
	return 0;
}

static const struct key rule_keys[] = {
	{"name", IN_BOTH, 0, NULL, rule_name},
	{"services", IN_BOTH, IN_BOTH, NULL, rule_services},
	{"users", IN_BOTH, 0, NULL, rule_users},
	{"drop", IN_BOTH, 0, NULL, rule_drop},
	{"keep", IN_BOTH, 0, NULL, rule_keep},
	{"no_new_privs", IN_BOTH, 0, NULL, rule_no_new_privs},
};

/* `rule "NAME"` or `rule N`, for messages; NULL on ENOMEM. */
static char *rule_where(struct parser *p, const config_setting_t *g,
			int index, char **name)
{
	const config_setting_t *s = config_setting_get_member(g, "name");
	const char *value;
	char *where = NULL;

	if (s && config_setting_type(s) != CONFIG_TYPE_STRING)
		wrong_type(p, s, "name", "a string");
	/* (libconfig leaves a string NULL when its own strdup failed) */
	else if (s && (!(value = config_setting_get_string(s)) ||
		       !(*name = strdup(value))))
		return NULL;
	if ((*name ? asprintf(&where, "rule \"%s\"", *name)
		   : asprintf(&where, "rule %d", index + 1)) < 0)
		return NULL;
	return where;
}

static int parse_rule(struct parser *p, const config_setting_t *g, int index)
{
	struct dg_rule_src rule = {.file = p->file, .line = line_of(g)};
	_cleanup_free_ char *where = NULL;
	int r;

	if (config_setting_type(g) != CONFIG_TYPE_GROUP) {
		wrong_type(p, g, "each rule", "a group { }");
		return 0;
	}
	if (!(where = rule_where(p, g, index, &rule.name))) {
		free(rule.name);
		return -ENOMEM;
	}
	p->where = where;
	r = parse_keys(p, g, rule_keys, sizeof(rule_keys) / sizeof(*rule_keys),
		       rule.line, NULL, &rule);
	p->where = NULL;
	if (r == 0 && rule.has_drop && rule.has_keep)
		parse_error(p, rule.line,
			    "%s has both \"drop\" and \"keep\"; give one", where);
	else if (r == 0 && !rule.has_drop && !rule.has_keep)
		parse_error(p, rule.line, "%s has neither \"drop\" nor \"keep\"",
			    where);
	if (r < 0 || DG_APPEND(&p->cfg->rules, rule) < 0) {
		rule_src_free(&rule);
		return -ENOMEM;
	}
	return 0;
}

/* --- the top level --- */

static int top_version(struct parser *p, const config_setting_t *s, void *t)
{
	(void)t;
	if (!is_int(s))
		wrong_type(p, s, "version", "a number");
	else if (config_setting_get_int64(s) != 1)
		parse_error(p, line_of(s), "version %lld is not supported; only 1 is",
			    (long long)config_setting_get_int64(s));
	return 0;
}

static int top_restricting(struct parser *p, const config_setting_t *s,
			   void *t)
{
	struct dg_config *cfg = t;

	return parse_group_refs(p, s, "restricting", &cfg->restricting);
}

static int top_include_dir(struct parser *p, const config_setting_t *s,
			   void *t)
{
	struct dg_config *cfg = t;
	const char *dir = config_setting_type(s) == CONFIG_TYPE_STRING
				  ? config_setting_get_string(s)
				  : NULL;

	if (!dir)
		wrong_type(p, s, "include_dir", "a string");
	else if (!*dir)
		parse_error(p, line_of(s), "include_dir is empty");
	else if (!(cfg->include_dir = strdup(dir)))
		return -ENOMEM;
	return 0;
}

static int top_rules(struct parser *p, const config_setting_t *s, void *t)
{
	int r = 0;

	(void)t;
	if (config_setting_type(s) != CONFIG_TYPE_LIST) {
		wrong_type(p, s, "rules", "a list ( ) of groups");
		return 0;
	}
	for (int i = 0; i < config_setting_length(s) && r == 0; i++)
		r = parse_rule(p, config_setting_get_elem(s, (unsigned)i), i);
	return r;
}

static const struct key top_keys[] = {
	{"version", IN_BOTH, IN_BOTH, NULL, top_version},
	{"restricting", IN_BOTH, IN_MAIN,
	 " (write restricting = ( ); if no group restricts)", top_restricting},
	{"include_dir", IN_MAIN, 0, NULL, top_include_dir},
	{"rules", IN_BOTH, 0, NULL, top_rules},
};

/* --- reading the whole text --- */

/* libconfig 1.5 silently stops at an unterminated comment, and might at
 * some other construct nobody has found yet.  So a setting is appended
 * after the text, and a file counts as read only when libconfig returns
 * it: the text was then parsed to its very end.  Its name is one that
 * does not occur in the text.  NULL on ENOMEM. */
static char *sentinel_name(const char *text)
{
	char *name = NULL;

	for (unsigned i = 0;; i++) {
		free(name);
		if (asprintf(&name, "dropgroups_end_of_file_%u", i) < 0)
			return NULL;
		if (!strstr(text, name))
			return name;
	}
}

static int count_lines(const char *text)
{
	int n = 1;

	for (const char *c = text; *c; c++)
		n += *c == '\n';
	return n;
}

/* Run libconfig over text + sentinel.  0 with *lc ready (the caller
 * destroys it), -EINVAL when reported, -ENOMEM. */
static int read_text(struct parser *p, const char *text, config_t *lc,
		     char **sentinel)
{
	_cleanup_free_ char *full = NULL;
	int last = count_lines(text);

	if (!(*sentinel = sentinel_name(text)))
		return -ENOMEM;
	if (asprintf(&full, "%s\n%s = true;\n", text, *sentinel) < 0) {
		full = NULL; /* undefined after a failed asprintf */
		return -ENOMEM;
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
	config_init(lc);
	if (config_read_string(lc, full) != CONFIG_TRUE) {
		const char *why = config_error_text(lc);
		int line = config_error_line(lc);

		/* libconfig names a line only: the column of the token it
		 * stopped at, for a syntax error inside the file's text (an
		 * error in the sentinel is the end of the file's text) */
		int column = why && strcmp(why, "syntax error") == 0 &&
					     line <= last
				     ? dg_syntax_column(full, line)
				     : 0;

		dg_diag_add_at(p->diags, DG_ERROR, p->file,
			       line > last ? last : line, column, "%s%s",
			       why ? why : "syntax error",
			       line > last ? " at the end of the file" : "");
		config_destroy(lc);
		return -EINVAL;
	}
	if (!config_lookup(lc, *sentinel)) {
		parse_error(p, last,
			    "libconfig stopped reading before the end of the "
			    "file (an unterminated comment?); the file is "
			    "refused");
		config_destroy(lc);
		return -EINVAL;
	}
	return 0;
}

int dg_config_parse(struct dg_config *cfg, const char *file, const char *text,
		    enum dg_file_role role, struct dg_diags *diags)
{
	struct parser p = {.role = role, .diags = diags, .cfg = cfg};
	_cleanup_free_ char *sentinel = NULL;
	config_t lc;
	int r;

	if (dg_strlist_add(&cfg->files, file) < 0)
		return -ENOMEM;
	p.file = cfg->files.v[cfg->files.n - 1];

	/* libconfig would open an @include'd file itself, past every
	 * check in load.c: it must never see one. */
	if (dg_scan_find_include(p.file, text, diags) < 0)
		return 0;
	/* What the scanner finds is reported; libconfig still reads the
	 * text, and the sentinel still checks it, so that each safeguard
	 * shows where the other would have missed. */
	(void)dg_scan_text(p.file, text, diags);
	r = read_text(&p, text, &lc, &sentinel);
	if (r < 0)
		return r == -ENOMEM ? r : 0;
	r = parse_keys(&p, config_root_setting(&lc), top_keys,
		       sizeof(top_keys) / sizeof(*top_keys), 0, sentinel, cfg);
	config_destroy(&lc);
	return r;
}
