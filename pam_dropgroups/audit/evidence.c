/* The evidence store of dropgroups audit (evidence.h): adding, merging
 * and sorting pieces of evidence.  The store is the one thing the
 * readers and the report share, so it lives apart from both. */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "evidence.h"
#include "util.h"

static const char *const kind_names[DG_EV_KINDS] = {
	"mode", "acl", "sudoers", "sshd-DenyGroups", "pam_access",
	"pam_succeed_if",
};

const char *dg_evidence_kind_name(enum dg_ev_kind k)
{
	return kind_names[k];
}

int dg_evidence_add(struct dg_evidence_store *s, bool by_gid, gid_t gid,
		    const char *name, enum dg_ev_kind kind, char *where)
{
	struct dg_evidence e = {.by_gid = by_gid, .gid = gid, .kind = kind,
				.where = where};

	if (name && !(e.name = strdup(name))) {
		free(where);
		return -ENOMEM;
	}
	/* gcc 12's analyzer loses the copy of e that DG_APPEND stores at
	 * the end of s->v, and calls e.name leaked when e goes out of
	 * scope (it reports the function's closing brace): the copy is
	 * s's, freed by dg_evidence_free. */
	DG_ANALYZER_IGNORE("-Wanalyzer-malloc-leak")
	if (DG_APPEND(s, e) < 0) {
		free(e.name);
		free(where);
		return -ENOMEM;
	}
	return 0;
}
DG_ANALYZER_END

int dg_evidence_add_named(struct dg_evidence_store *s, const char *name,
			  enum dg_ev_kind kind, const char *file, int line)
{
	char *where;
	bool by_gid = false;
	unsigned long g = 0;

	/* sudoers' %#gid */
	if (name[0] == '#' && name[1]) {
		char *end;
		errno = 0;
		g = strtoul(name + 1, &end, 10);
		by_gid = !*end && !errno && g < (gid_t)-1 && isdigit((unsigned char)name[1]);
	}
	if (asprintf(&where, "%s:%d", file, line) < 0)
		return -ENOMEM;
	return dg_evidence_add(s, by_gid, (gid_t)g, by_gid ? NULL : name, kind,
			       where);
}

int dg_evidence_merge(struct dg_evidence_store *into,
		      struct dg_evidence_store *from)
{
	if (from->n == 0)
		return 0;
	if (dg_util_grow((void **)&into->v, &into->cap, into->n + from->n,
			 sizeof(*into->v)) < 0)
		return -ENOMEM;
	memcpy(into->v + into->n, from->v, from->n * sizeof(*from->v));
	into->n += from->n;
	free(from->v);
	*from = (struct dg_evidence_store){0};
	return 0;
}

static int cmp_evidence(const void *a, const void *b)
{
	const struct dg_evidence *x = a, *y = b;

	if (x->by_gid != y->by_gid)
		return x->by_gid ? -1 : 1;
	if (x->by_gid && x->gid != y->gid)
		return x->gid < y->gid ? -1 : 1;
	if (!x->by_gid) {
		int c = strcmp(x->name, y->name);
		if (c)
			return c;
	}
	if (x->kind != y->kind)
		return (int)x->kind - (int)y->kind;
	return strcmp(x->where, y->where);
}

void dg_evidence_sort(struct dg_evidence_store *s)
{
	if (s->n > 0) /* qsort's base must not be NULL, even for 0 items */
		qsort(s->v, s->n, sizeof(*s->v), cmp_evidence);
}

void dg_evidence_free(struct dg_evidence_store *s)
{
	for (size_t i = 0; i < s->n; i++) {
		free(s->v[i].name);
		free(s->v[i].where);
	}
	free(s->v);
	*s = (struct dg_evidence_store){0};
}
