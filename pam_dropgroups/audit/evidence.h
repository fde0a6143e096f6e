/* The evidence store of dropgroups audit: each piece of evidence that a
 * group is used to take access away, kept as data.  The readers (walk.c,
 * sudoers.c, informational.c) only add to a store, and the report
 * (groups.c, report.c, dropin.c) only reads one, so none of them calls
 * another: every file of audit/ includes this header, which includes
 * none of theirs. */
#ifndef DG_EVIDENCE_H
#define DG_EVIDENCE_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

enum dg_ev_kind {
	DG_EV_MODE,	    /* group bits grant less than other */
	DG_EV_ACL,	    /* an ACL group entry grants less than other */
	DG_EV_SUDOERS,	    /* sudoers excludes %group with ! */
	DG_EV_SSHD,	    /* sshd DenyGroups (informational) */
	DG_EV_PAM_ACCESS,   /* access.conf -: line (informational) */
	DG_EV_SUCCEED_IF,   /* pam_succeed_if notingroup (informational) */
	DG_EV_KINDS,
};

/* Does dropping the group defeat this kind of evidence? */
static inline bool dg_evidence_defeated(enum dg_ev_kind k)
{
	return k <= DG_EV_SUDOERS;
}

/* The kind as the report names it: "mode", "sshd-DenyGroups", ... */
const char *dg_evidence_kind_name(enum dg_ev_kind k);

struct dg_evidence {
	bool by_gid;
	gid_t gid;
	char *name; /* by name (sudoers, informational), or NULL */
	enum dg_ev_kind kind;
	char *where; /* a path, or file:line */
};

/* Not thread-safe: each thread of the walk fills a store of its own. */
struct dg_evidence_store {
	struct dg_evidence *v;
	size_t n, cap;
};

/* Add one piece: by gid, or by name (name copied).  where is taken, and
 * freed on failure.  0 or -ENOMEM. */
int dg_evidence_add(struct dg_evidence_store *s, bool by_gid, gid_t gid,
		    const char *name, enum dg_ev_kind kind, char *where);
/* Add one piece about a group named by name (or "#gid", as sudoers
 * writes a gid), found at file:line.  0 or -ENOMEM. */
int dg_evidence_add_named(struct dg_evidence_store *s, const char *name,
			  enum dg_ev_kind kind, const char *file, int line);
/* Move every piece of from into into, leaving from empty: 0, or -ENOMEM
 * with both unchanged. */
int dg_evidence_merge(struct dg_evidence_store *into,
		      struct dg_evidence_store *from);
/* Sort: by gid first, then by name, kind and where. */
void dg_evidence_sort(struct dg_evidence_store *s);
void dg_evidence_free(struct dg_evidence_store *s);

#endif
