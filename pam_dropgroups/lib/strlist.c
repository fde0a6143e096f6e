/* A list of owned strings: append, sort and drop duplicates, search.
 * The policy's names, the services lint reads and the files the audit
 * is given all are such lists. */
#include "strlist.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "util.h"

int dg_strlist_add(struct dg_strlist *s, const char *str)
{
	_cleanup_free_ char *copy = strdup(str);

	if (!copy || DG_APPEND(s, copy) < 0)
		return -ENOMEM;
	copy = NULL;
	return 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int cmp_str_nocase(const void *a, const void *b)
{
	return strcasecmp(*(char *const *)a, *(char *const *)b);
}

static void sort_unique(struct dg_strlist *s,
			int (*cmp)(const void *, const void *))
{
	size_t out = 0;

	if (s->n < 2)
		return;
	qsort(s->v, s->n, sizeof(*s->v), cmp);
	for (size_t i = 0; i < s->n; i++) {
		if (out && cmp(&s->v[out - 1], &s->v[i]) == 0)
			free(s->v[i]);
		else
			s->v[out++] = s->v[i];
	}
	s->n = out;
}

void dg_strlist_sort_unique(struct dg_strlist *s)
{
	sort_unique(s, cmp_str);
}

void dg_strlist_sort_unique_nocase(struct dg_strlist *s)
{
	sort_unique(s, cmp_str_nocase);
}

bool dg_strlist_has(const struct dg_strlist *s, const char *str)
{
	for (size_t i = 0; i < s->n; i++)
		if (strcmp(s->v[i], str) == 0)
			return true;
	return false;
}

bool dg_strlist_has_sorted(const struct dg_strlist *s, const char *str)
{
	return s->n && bsearch(&str, s->v, s->n, sizeof(*s->v), cmp_str);
}

bool dg_strlist_has_nocase(const struct dg_strlist *s, const char *str)
{
	return s->n && bsearch(&str, s->v, s->n, sizeof(*s->v), cmp_str_nocase);
}

void dg_strlist_free(struct dg_strlist *s)
{
	for (size_t i = 0; i < s->n; i++)
		free(s->v[i]);
	free(s->v);
	*s = (struct dg_strlist){0};
}
