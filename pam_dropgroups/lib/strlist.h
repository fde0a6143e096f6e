/* A list of owned strings (strlist.c). */
#ifndef DG_STRLIST_H
#define DG_STRLIST_H

#include <stdbool.h>
#include <stddef.h>

/* A list of owned strings. */
struct dg_strlist {
	char **v;
	size_t n, cap;
};

int dg_strlist_add(struct dg_strlist *s, const char *str);
/* Sort (C locale) and drop duplicates, in place. */
void dg_strlist_sort_unique(struct dg_strlist *s);
/* Is str in s (in any order)? */
bool dg_strlist_has(const struct dg_strlist *s, const char *str);
/* Is str in s?  s must be sorted (dg_strlist_sort_unique). */
bool dg_strlist_has_sorted(const struct dg_strlist *s, const char *str);
/* The same two, with names compared ignoring (ASCII) case: sudo matches
 * group names that way by default (case_insensitive_group). */
void dg_strlist_sort_unique_nocase(struct dg_strlist *s);
bool dg_strlist_has_nocase(const struct dg_strlist *s, const char *str);
void dg_strlist_free(struct dg_strlist *s);

#endif
