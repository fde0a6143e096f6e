/* The policy decision, as pure functions over plain data.
 *
 * Nothing here calls NSS, PAM, libconfig or the kernel: given the groups a
 * process has, the user's primary gid, the resolved policy and the names
 * NSS gives the gids in question, it says which groups stay.  The module,
 * `dropgroups explain`/`run` and the unit tests all go through these same
 * functions, so they cannot disagree. */
#ifndef DG_POLICY_H
#define DG_POLICY_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "config.h"
#include "util.h"

/* A set of gids: sorted ascending, no duplicates. */
struct dg_gids {
	gid_t *v;
	size_t n;
};

/* A rule with every group name resolved to a gid.  Strings point into the
 * struct dg_config it was resolved from, except label_buf. */
struct dg_rule {
	const struct dg_rule_src *src;
	const char *label;          /* name, or FILE:LINE (in label_buf) */
	char *label_buf;
	bool any_user;              /* users absent, or "*" among them */
	struct dg_gids user_groups; /* from "%group" entries */
	enum dg_mode mode;
	bool all;                   /* "*" in drop or keep */
	struct dg_gids named;       /* the other drop/keep entries, by gid */
	/* keep only: the names it gives, sorted ignoring case.  A gid NSS
	 * calls by one of these names (in any case) is kept too, whatever gid
	 * the name resolved to: two groups can share a name (a local and a
	 * directory one). */
	struct dg_strings keep_names;
};

struct dg_policy {
	/* Restricting gids: those listed by number, and the gid each
	 * restricting name resolves to. */
	struct dg_gids restricting;
	/* Every restricting name, sorted ignoring case.  A gid that NSS
	 * calls by one of them is restricting too: sudoers' "!%name" matches
	 * by name (and by default ignoring case), and a second group of that
	 * name (say, from a directory) has another gid than getgrnam_r()
	 * returns. */
	struct dg_strings restricting_names;
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

/* What NSS calls some gids (getgrgid_r), sorted by gid.  A gid that is
 * absent was not asked about; one whose name is NULL was, and NSS said
 * it has no name. */
struct dg_gid_name {
	gid_t gid;
	char *name;
};

struct dg_gid_names {
	struct dg_gid_name *v;
	size_t n;
};

enum dg_reason {
	DG_REASON_RESTRICTING, /* kept: a negative credential */
	DG_REASON_PRIMARY,     /* kept: the user's primary group */
	DG_REASON_NAMED,       /* named by the rule (dropped, or kept by keep) */
	DG_REASON_NOT_NAMED,   /* not named (kept by drop, dropped by keep) */
	/* kept: the policy has restricting names, and NSS gave this gid
	 * none (an outage can look like that), so it might be one */
	DG_REASON_UNNAMED,
};

struct dg_verdict {
	gid_t gid;
	bool kept;
	enum dg_reason reason;
	/* Restricting because NSS calls this gid by a restricting name, not
	 * because the gid itself is listed or resolved. */
	bool by_name;
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

/* What NSS said of gid, or NULL when it was not asked. */
const struct dg_gid_name *dg_gid_names_find(const struct dg_gid_names *names,
					    gid_t gid);
/* The name NSS gave gid, or NULL (not asked, or no name). */
const char *dg_gid_names_get(const struct dg_gid_names *names, gid_t gid);
/* Every entry of a and of b (a's where both have one), copied, sorted:
 * 0 or -ENOMEM. */
int dg_gid_names_merge(const struct dg_gid_names *a,
		       const struct dg_gid_names *b, struct dg_gid_names *out);
void dg_gid_names_free(struct dg_gid_names *names);

/* Index of the first rule that matches service and user, or -1.  Service
 * and user names are compared exactly (Linux-PAM lowercases the service
 * name before any module sees it). */
long dg_policy_match(const struct dg_policy *policy, const char *service,
		     const struct dg_user *user);

/* Does deciding under rule depend on what NSS calls the gids?  Only when
 * the policy has restricting names or the rule keeps by name. */
bool dg_decide_needs_names(const struct dg_policy *policy,
			   const struct dg_rule *rule);

/* The new group list for a process with `current` groups under `rule`.
 * Never adds a gid, never drops a restricting gid (by gid, or by a name in
 * `names`) or primary_gid.  names may be NULL when no name is known: the
 * result can then only keep fewer groups, never more (so decide once
 * without names, name the gids it drops, and decide again).
 * Returns 0, or -ENOMEM with *out untouched. */
int dg_decide(const gid_t *current, size_t n_current, gid_t primary_gid,
	      const struct dg_policy *policy, const struct dg_rule *rule,
	      const struct dg_gid_names *names, struct dg_decision *out);

/* The gids that d drops, sorted: 0 or -ENOMEM. */
int dg_decision_dropped(const struct dg_decision *d, struct dg_gids *out);

const char *dg_reason_text(enum dg_reason reason);

void dg_decision_free(struct dg_decision *d);
void dg_rule_free(struct dg_rule *rule);
void dg_policy_free(struct dg_policy *policy);
void dg_user_free(struct dg_user *user);

#endif
