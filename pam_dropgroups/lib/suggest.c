/* The known name nearest to an unknown one, by edit distance, so that a
 * policy refused for "restricing" says what was meant.  The suggestion
 * only adds to the message: the policy is refused as before. */
#include "suggest.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static size_t min3(size_t a, size_t b, size_t c)
{
	size_t m = a < b ? a : b;

	return m < c ? m : c;
}

size_t dg_suggest_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), d;
	/* three rows of the table: i - 2, i - 1 and i */
	size_t *rows = calloc(3 * (lb + 1), sizeof(*rows));
	size_t *two, *one, *cur, *t;

	if (!rows)
		return SIZE_MAX;
	two = rows;
	one = rows + lb + 1;
	cur = rows + 2 * (lb + 1);
	for (size_t j = 0; j <= lb; j++)
		one[j] = j;
	for (size_t i = 1; i <= la; i++) {
		cur[0] = i;
		for (size_t j = 1; j <= lb; j++) {
			size_t cost = a[i - 1] != b[j - 1];

			cur[j] = min3(one[j] + 1, cur[j - 1] + 1,
				      one[j - 1] + cost);
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] &&
			    a[i - 2] == b[j - 1] && two[j - 2] + 1 < cur[j])
				cur[j] = two[j - 2] + 1;
		}
		/* rotate: the row just made is the next one's i - 1 */
		t = two;
		two = one;
		one = cur;
		cur = t;
	}
	d = one[lb];
	free(rows);
	return d;
}

void dg_suggest_init(struct dg_suggest *s, const char *word)
{
	*s = (struct dg_suggest){.word = word, .best_distance = SIZE_MAX};
}

void dg_suggest_consider(struct dg_suggest *s, const char *candidate)
{
	size_t most, d;

	if (!s->word || !candidate)
		return;
	/* a slip of the fingers: one edit in a short name, one in three in
	 * a longer one; more is another word, and a guess would mislead */
	most = strlen(s->word) / 3 > 1 ? strlen(s->word) / 3 : 1;
	d = dg_suggest_distance(s->word, candidate);
	if (d == 0 || d > most || d >= strlen(candidate) ||
	    d >= s->best_distance)
		return;
	s->best = candidate;
	s->best_distance = d;
}
