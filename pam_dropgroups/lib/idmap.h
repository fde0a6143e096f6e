/* User namespaces: which gids of a group list this process can really
 * see.  Pure: the text of /proc/self/gid_map is read in kernel.c.
 *
 * Inside a user namespace, getgroups(2) shows a gid that is not mapped
 * into the namespace as the overflow gid (65534 by default).  Handing
 * that list back to setgroups(2) would remove the real gid, a restricting
 * one perhaps, and add the overflow gid if the namespace maps it. */
#ifndef DG_IDMAP_H
#define DG_IDMAP_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

struct dg_idmap_range {
	unsigned long long inside, outside, count;
};

struct dg_idmap {
	struct dg_idmap_range *v;
	size_t n, cap;
};

/* Parse the text of /proc/PID/gid_map.  0, -EINVAL, or -ENOMEM. */
int dg_idmap_parse(const char *text, struct dg_idmap *out);

/* Does the map cover every gid one to one (the initial namespace)? */
bool dg_idmap_is_identity(const struct dg_idmap *map);

/* 0 when every gid of v is one this process really has; otherwise
 * -EOVERFLOW with *bad set: a gid outside the map, or the overflow gid
 * in a namespace that does not map every gid (it may stand for any
 * unmapped one). */
int dg_idmap_check(const struct dg_idmap *map, gid_t overflow,
		   const gid_t *v, size_t n, gid_t *bad);

void dg_idmap_free(struct dg_idmap *map);

#endif
