/* Checked array growth and string lists. */
#include "util.h"

#include <errno.h>
#include <string.h>

int dg_grow(void **v, size_t *cap, size_t need, size_t elem)
{
	size_t ncap;
	void *nv;

	if (need <= *cap)
		return 0;
	ncap = *cap ? *cap : 8;
	while (ncap < need) {
		if (ncap > SIZE_MAX / 2)
			return -ENOMEM;
		ncap *= 2;
	}
	if (ncap > SIZE_MAX / elem)
		return -ENOMEM;
	nv = realloc(*v, ncap * elem);
	if (!nv)
		return -ENOMEM;
	*v = nv;
	*cap = ncap;
	return 0;
}

int dg_strings_add(struct dg_strings *s, const char *str)
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

void dg_strings_sort_unique(struct dg_strings *s)
{
	size_t out = 0;

	if (s->n < 2)
		return;
	qsort(s->v, s->n, sizeof(*s->v), cmp_str);
	for (size_t i = 0; i < s->n; i++) {
		if (out && strcmp(s->v[out - 1], s->v[i]) == 0)
			free(s->v[i]);
		else
			s->v[out++] = s->v[i];
	}
	s->n = out;
}

bool dg_strings_has_sorted(const struct dg_strings *s, const char *str)
{
	return s->n && bsearch(&str, s->v, s->n, sizeof(*s->v), cmp_str);
}

void dg_strings_free(struct dg_strings *s)
{
	for (size_t i = 0; i < s->n; i++)
		free(s->v[i]);
	free(s->v);
	*s = (struct dg_strings){0};
}
