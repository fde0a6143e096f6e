/* The policy decision, as pure functions over plain data.
 *
 * Nothing here calls NSS, PAM, libconfig or the kernel: given the groups a
 * process has, the user's primary gid and the resolved rules, it says which
 * groups stay.  The module, `dropgroups explain` and the unit tests all go
 * through these same functions, so they cannot disagree. */
#ifndef DG_POLICY_H
#define DG_POLICY_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "config.h"

/* A set of gids: sorted ascending, no duplicates. */
struct dg_gids {
	gid_t *v;
	size_t n;
};

/* A rule with every group name resolved to a gid.  Strings point into the
 * struct dg_config it was resolved from. */
struct dg_rule {
	const struct dg_rule_src *src;
	char *label;         /* name, or FILE:LINE */
	bool any_user;       /* users absent, or "*" among them */
	struct dg_gids user_groups; /* from "%group" entries */
	enum dg_mode mode;
	bool all;            /* "*" in drop or keep */
	struct dg_gids named; /* the other drop/keep entries */
};

struct dg_policy {
	struct dg_gids restricting;
	struct dg_rule *rules;
	size_t n_rules;
};

/* Who is logging in, as NSS sees them. */
struct dg_user {
	char *name;
	uid_t uid;
	gid_t primary_gid;
	struct dg_gids groups; /* as initgroups(3) would set them */
};

enum dg_reason {
	DG_REASON_RESTRICTING, /* kept: a negative credential */
	DG_REASON_PRIMARY,     /* kept: the user's primary group */
	DG_REASON_NAMED,       /* named by the rule (dropped, or kept by keep) */
	DG_REASON_NOT_NAMED,   /* not named (kept by drop, dropped by keep) */
};

struct dg_verdict {
	gid_t gid;
	bool kept;
	enum dg_reason reason;
	/* Restricting, and a drop rule named it: kept anyway, worth a notice. */
	bool restricting_named;
};

struct dg_decision {
	struct dg_verdict *verdicts; /* one per distinct current gid, sorted */
	size_t n_verdicts;
	struct dg_gids groups;       /* the new list: the kept gids */
	bool changed;                /* some gid was dropped */
};

/* Sort and de-duplicate v in place; returns the new length. */
size_t dg_gids_normalize(gid_t *v, size_t n);
bool dg_gids_contains(const struct dg_gids *set, gid_t gid);
/* Copy v[0..n) into a normalized set; -ENOMEM on failure. */
int dg_gids_from(struct dg_gids *out, const gid_t *v, size_t n);
void dg_gids_free(struct dg_gids *set);

/* Index of the first rule that matches service and user, or -1. */
long dg_policy_match(const struct dg_policy *policy, const char *service,
		     const struct dg_user *user);

/* The new group list for a process with `current` groups under `rule`.
 * Never adds a gid, never drops a restricting gid or primary_gid.
 * Returns 0, or -ENOMEM with *out untouched. */
int dg_decide(const gid_t *current, size_t n_current, gid_t primary_gid,
	      const struct dg_gids *restricting, const struct dg_rule *rule,
	      struct dg_decision *out);

const char *dg_reason_text(enum dg_reason reason);

void dg_decision_free(struct dg_decision *d);
void dg_policy_free(struct dg_policy *policy);
void dg_user_free(struct dg_user *user);

#endif
