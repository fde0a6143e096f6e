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
#include "decide.h" /* enum dg_reason */
#include "gids.h"
#include "strlist.h"
#include "util.h"

/* A "%group" entry of a rule's users, as NSS answered for its name. */
struct dg_user_group {
	const char *name; /* without the '%', in the struct dg_config */
	gid_t gid;        /* status 1 */
	/* 1: found.  0: no such group, and the entry is not optional (an
	 * optional one that is missing is left out).  -errno: NSS failed.
	 * Only status 1 can ever say that a user is, or is not, a member. */
	int status;
};

/* A rule with every group name resolved to a gid.  Strings point into the
 * struct dg_config it was resolved from, except label_buf. */
struct dg_rule {
	const struct dg_rule_src *src;
	const char *label;          /* name, or FILE:LINE (in label_buf) */
	char *label_buf;
	bool any_user;              /* users absent, or "*" among them */
	/* the "%group" entries of users, in the order written */
	struct dg_user_group *user_groups;
	size_t n_user_groups;
	enum dg_mode mode;
	bool all;                   /* "*" in drop or keep */
	struct dg_gids named;       /* the other drop/keep entries, by gid */
	/* keep only: the names it gives, sorted ignoring case.  A gid NSS
	 * calls by one of these names (in any case) is kept too, whatever gid
	 * the name resolved to: two groups can share a name (a local and a
	 * directory one). */
	struct dg_strlist keep_names;
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
	struct dg_strlist restricting_names;
	struct dg_rule *rules;
	size_t n_rules;
};

/* How far the user's group list is known (struct dg_user). */
enum dg_listed {
	DG_LISTED_NOT_ASKED, /* not asked yet: nothing is known */
	DG_LISTED_WHOLE,     /* every NSS service answered */
	DG_LISTED_PARTIAL,   /* some service did not: a gid missing from the
			      * list may still be one of the user's */
};

/* What is known of the user's membership in the groups that "%group"
 * entries name, gathered only as far as choosing a rule needs it
 * (plan.c asks what dg_policy_match says it must know). */
struct dg_membership {
	enum dg_listed listed; /* of struct dg_user's groups */
	char *why;             /* DG_LISTED_PARTIAL: which service, and how */
	/* gids whose group entry (getgrgid_r) was read for the user: */
	struct dg_gids entry_lists;  /* it lists the user as a member */
	struct dg_gids entry_silent; /* it does not */
	struct dg_gids entry_failed; /* NSS failed (entry_err) */
	int entry_err;
};

/* Who is logging in, as NSS sees them. */
struct dg_user {
	char *name;
	uid_t uid;
	gid_t primary_gid;
	struct dg_gids groups; /* as initgroups(3) would set them */
	struct dg_membership member;
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

/* Which rule applies to service and user, as far as what is known of
 * the user decides it (pure: the caller asks NSS what this says it must
 * know, and asks again).  Rules are tried in order; the first that
 * matches applies.  Service and user names are compared exactly
 * (Linux-PAM lowercases the service name before any module sees it).
 *
 * A "%group" entry matches when the user is in the group: its gid is the
 * primary one, or the user's group list has it, or the group's entry
 * lists the user.  It does not match only when the entry was read and
 * does not list the user, and the list is whole.  Anything less, and the
 * rule and every rule after it are undecided: a user is never moved to a
 * later rule on an answer that may be short. */
enum dg_match_kind {
	DG_MATCH_NONE,       /* no rule matches */
	DG_MATCH_RULE,       /* rule applies */
	DG_MATCH_ASK_LIST,   /* rule needs the user's group list */
	DG_MATCH_ASK_ENTRY,  /* rule needs group's entry read for the user */
	DG_MATCH_UNDECIDED,  /* rule cannot be decided for group: refuse */
};

struct dg_match {
	enum dg_match_kind kind;
	size_t rule;                       /* all but DG_MATCH_NONE */
	const struct dg_user_group *group; /* ASK_ENTRY, UNDECIDED */
};

void dg_policy_match(const struct dg_policy *policy, const char *service,
		     const struct dg_user *user, struct dg_match *out);

/* Does deciding under rule depend on what NSS calls the gids?  Only when
 * the policy has restricting names or the rule keeps by name. */
bool dg_policy_needs_names(const struct dg_policy *policy,
			   const struct dg_rule *rule);

/* The new group list for a process with `current` groups under `rule`.
 * Never adds a gid, never drops a restricting gid (by gid, or by a name in
 * `names`) or primary_gid.  names may be NULL when no name is known: the
 * result can then only keep fewer groups, never more (so decide once
 * without names, name the gids it drops, and decide again).
 * Returns 0, or -ENOMEM with *out untouched. */
int dg_policy_decide(const gid_t *current, size_t n_current, gid_t primary_gid,
		     const struct dg_policy *policy, const struct dg_rule *rule,
		     const struct dg_gid_names *names, struct dg_decision *out);

/* The gids that d drops, sorted: 0 or -ENOMEM. */
int dg_policy_dropped(const struct dg_decision *d, struct dg_gids *out);

const char *dg_policy_reason_text(enum dg_reason reason);

void dg_policy_decision_free(struct dg_decision *d);
void dg_policy_rule_free(struct dg_rule *rule);
void dg_policy_free(struct dg_policy *policy);
void dg_policy_user_free(struct dg_user *user);

#endif
