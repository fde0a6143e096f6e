/* Where two policies as written (struct dg_config) differ, field by
 * field: the one comparison of the unit tests (test_cache.c) and the
 * fuzzers (fuzz_load.c), which both check that a config read back from
 * the compiled-policy cache is the one that was parsed.
 *
 * A field added to struct dg_config, dg_rule_src or dg_group_ref must be
 * added here and to cache.c's encoder; static assertions next to the
 * encoder stop the build until it is. */
#ifndef DG_TEST_CONFIG_EQUAL_H
#define DG_TEST_CONFIG_EQUAL_H

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "config.h"
#include "strlist.h"

static inline bool dg_test_same_str(const char *a, const char *b)
{
	return a == b || (a && b && strcmp(a, b) == 0);
}

static inline bool dg_test_same_strings(const struct dg_strlist *a,
					const struct dg_strlist *b)
{
	if (a->n != b->n)
		return false;
	for (size_t i = 0; i < a->n; i++)
		if (strcmp(a->v[i], b->v[i]) != 0)
			return false;
	return true;
}

static inline bool dg_test_same_refs(const struct dg_group_refs *a,
				     const struct dg_group_refs *b)
{
	if (a->n != b->n)
		return false;
	for (size_t i = 0; i < a->n; i++) {
		const struct dg_group_ref *x = &a->v[i], *y = &b->v[i];

		if (!dg_test_same_str(x->name, y->name) ||
		    (!x->name && x->gid != y->gid) ||
		    x->optional != y->optional ||
		    !dg_test_same_str(x->file, y->file) || x->line != y->line)
			return false;
	}
	return true;
}

/* The first field of rule x that differs from y's, or NULL. */
static inline const char *dg_test_rule_diff(const struct dg_rule_src *x,
					    const struct dg_rule_src *y)
{
	if (!dg_test_same_str(x->name, y->name))
		return "name";
	if (!dg_test_same_str(x->file, y->file) || x->line != y->line)
		return "file or line";
	if (!dg_test_same_strings(&x->services, &y->services))
		return "services";
	if (x->users_given != y->users_given ||
	    !dg_test_same_strings(&x->users, &y->users) ||
	    x->users_line != y->users_line)
		return "users";
	if (!dg_test_same_strings(&x->users_optional, &y->users_optional))
		return "users_optional";
	if (x->mode != y->mode || x->has_drop != y->has_drop ||
	    x->has_keep != y->has_keep)
		return "mode, drop or keep";
	if (!dg_test_same_refs(&x->groups, &y->groups))
		return "the drop or keep groups";
	if (x->no_new_privs != y->no_new_privs)
		return "no_new_privs";
	return NULL;
}

/* NULL when a and b are the same policy; else the first difference, in
 * buf ("rule 2: users_optional"). */
static inline const char *dg_test_config_diff(const struct dg_config *a,
					      const struct dg_config *b,
					      char *buf, size_t size)
{
	if (!dg_test_same_strings(&a->files, &b->files))
		return "files";
	if (!dg_test_same_str(a->include_dir, b->include_dir))
		return "include_dir";
	if (!dg_test_same_refs(&a->restricting, &b->restricting))
		return "restricting";
	if (a->rules.n != b->rules.n)
		return "the number of rules";
	for (size_t i = 0; i < a->rules.n; i++) {
		const char *what = dg_test_rule_diff(&a->rules.v[i],
						     &b->rules.v[i]);

		if (what) {
			snprintf(buf, size, "rule %zu: %s", i + 1, what);
			return buf;
		}
	}
	return NULL;
}

#endif
