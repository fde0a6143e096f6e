/* "did you mean": the known name nearest to a misspelt one.  Pure,
 * unit-tested. */
#ifndef DG_SUGGEST_H
#define DG_SUGGEST_H

#include <stddef.h>

struct dg_suggest {
	const char *word; /* the unknown name */
	const char *best; /* the nearest candidate close enough, or NULL */
	size_t best_distance;
};

void dg_suggest_init(struct dg_suggest *s, const char *word);
/* Weigh one known name: it becomes s->best when it is nearer than every
 * earlier one and close enough for a typing slip. */
void dg_suggest_consider(struct dg_suggest *s, const char *candidate);
/* The optimal string alignment distance (Damerau-Levenshtein where no
 * substring is edited twice): insertions, deletions, substitutions and
 * swaps of two adjacent bytes.  SIZE_MAX when memory runs out. */
size_t dg_suggest_distance(const char *a, const char *b);

#endif
