/* The gid map of a user namespace, parsed, and whether a group list
 * holds a gid the namespace cannot show as it is (pure). */
#include "idmap.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

/* Could the kernel have written range?  It refuses a range whose first
 * id plus count passes 2^32 - 1, inside or outside.  sscanf's %llu takes
 * "-1" as 2^64 - 1 without a word, and such a count would map every gid:
 * a map the kernel never wrote is refused, not read as one that shows
 * every gid as it is. */
static bool kernel_could_write(const char *text, int used,
			       const struct dg_idmap_range *range)
{
	const unsigned long long top = 4294967295ULL;

	return !memchr(text, '-', (size_t)used) && range->count <= top &&
	       range->inside <= top - range->count &&
	       range->outside <= top - range->count;
}

/* The initial namespace's map as the kernel writes it ("%10u %10u
 * %10u\n"; its newline, or not, as read): what nearly every login
 * reads, and what sscanf would read as the one range below, at a tenth
 * of its cost. */
static const char identity_text[] = "         0          0 4294967295";

static bool is_identity_text(const char *text)
{
	size_t n = sizeof(identity_text) - 1;

	return strncmp(text, identity_text, n) == 0 &&
	       (text[n] == '\0' || strcmp(text + n, "\n") == 0);
}

int dg_idmap_parse(const char *text, struct dg_idmap *out)
{
	struct dg_idmap map = {0};
	const char *p = text;

	if (is_identity_text(text)) {
		if (DG_APPEND(&map, ((struct dg_idmap_range){
					   .inside = 0, .outside = 0,
					   .count = 4294967295ULL})) < 0)
			return -ENOMEM;
		*out = map;
		return 0;
	}
	while (*p) {
		struct dg_idmap_range range;
		int used = 0;

		if (sscanf(p, " %llu %llu %llu%n", &range.inside,
			   &range.outside, &range.count, &used) != 3) {
			/* trailing blank space is fine, anything else not */
			while (*p == ' ' || *p == '\n')
				p++;
			if (*p)
				goto invalid;
			break;
		}
		if (!kernel_could_write(p, used, &range))
			goto invalid;
		if (DG_APPEND(&map, range) < 0) {
			dg_idmap_free(&map);
			return -ENOMEM;
		}
		p += used;
	}
	*out = map;
	return 0;
invalid:
	dg_idmap_free(&map);
	return -EINVAL;
}

bool dg_idmap_is_identity(const struct dg_idmap *map)
{
	return map->n == 1 && map->v[0].inside == 0 && map->v[0].outside == 0 &&
	       map->v[0].count == 4294967295ULL;
}

static bool mapped(const struct dg_idmap *map, gid_t g)
{
	for (size_t i = 0; i < map->n; i++)
		if (g >= map->v[i].inside &&
		    g - map->v[i].inside < map->v[i].count)
			return true;
	return false;
}

int dg_idmap_check(const struct dg_idmap *map, gid_t overflow,
		   const gid_t *v, size_t n, gid_t *bad)
{
	if (dg_idmap_is_identity(map))
		return 0;
	for (size_t i = 0; i < n; i++)
		if (v[i] == overflow || !mapped(map, v[i])) {
			*bad = v[i];
			return -EOVERFLOW;
		}
	return 0;
}

void dg_idmap_free(struct dg_idmap *map)
{
	free(map->v);
	*map = (struct dg_idmap){0};
}
