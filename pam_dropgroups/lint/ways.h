/* The ways back in: which programs give a user the groups a rule drops,
 * found from the policy and the PAM stacks (pamstack.c) with the table
 * of programs (programs.c).  Pure: `dropgroups lint` and `explain` read
 * the files and hand them in. */
#ifndef DG_WAYS_H
#define DG_WAYS_H

#include "config.h"
#include "diag.h"
#include "pamstack.h"
#include "plan.h"
#include "programs.h"
#include "strlist.h"

/* One service's stack as read for lint or explain. */
struct dg_service_stack {
	char *service;
	/* 0: read; -ENOENT: the service has no file, and stack is
	 * "other"'s (which libpam then uses), or empty if it has none */
	int status;
	struct dg_pam_stack stack;
	/* why the program runs no PAM stack at all (sshd with "UsePAM
	 * no"), or may not: a clause, and where that is decided
	 * (not_run_line 0: the whole file).  NULL: it runs the stack. */
	char *not_run, *not_run_file;
	int not_run_line;
};

struct dg_service_stacks {
	struct dg_service_stack *v;
	size_t n, cap;
	/* pam_group(8) may add groups: its file (DG_PAM_GROUP_CONF) holds
	 * a line that is not a comment, or cannot be read.  Where its line
	 * runs after every line that trims, what it adds stays. */
	bool pam_group_grants;
};

/* The file pam_group(8) of Linux-PAM 1.5.2 reads: it takes no argument
 * that names another. */
#define DG_PAM_GROUP_CONF "/etc/security/group.conf"

/* The services to read: each one a rule names (not "*"), and each one
 * of the table of programs; sorted, each once.  0 or -ENOMEM. */
int dg_ways_lint_services(const struct dg_config *cfg, struct dg_strlist *out);

/* What is wrong with how the stacks carry out the policy at
 * policy_path (as read into cfg), into diags: errors where a line would
 * not do what the policy says, or would let a broken policy through;
 * the ways back in (no rule at a program, or one that keeps what a rule
 * drops), as warnings, or errors for a rule that sets no_new_privs.
 * 0 or -ENOMEM. */
int dg_ways_lint(const struct dg_config *cfg, const char *policy_path,
		 const struct dg_service_stacks *stacks,
		 struct dg_diags *diags);

/* One way back in that stays open, as explain shows it: "PROGRAM:
 * MESSAGE" in its text, each field in its --json (dropgroups(8)). */
struct dg_way {
	char *program; /* "sg, newgrp", or a program's name (programs.c) */
	/* why it is open, as one word: "no_new_privs_unset", "not_run",
	 * "undecided", "no_rule", "other_rule_undecided", "other_rule_keeps",
	 * "other_rule_no_new_privs", "cannot_trim", "report_only",
	 * "fails_open", "no_line", "pam_group", "other_policy" */
	const char *verdict;
	char *message;
	/* the gids it gives back (by the verdicts of the plan's own rule);
	 * back_known false when that cannot be told now (NSS) */
	bool back_known;
	struct dg_gids back;
};

struct dg_ways {
	struct dg_way *v;
	size_t n, cap;
};

/* The ways back in that stay open for plan's user in a session under
 * plan->rule (which must match), in out, where a program's own rule,
 * decided for the user's groups, keeping a group plan->rule drops counts
 * as open, and so does a program whose lines read another policy than
 * policy_path, the one plan was read from.
 * What NSS is asked to place the user (dg_plan_match) is kept in
 * plan->user.  0 or -ENOMEM. */
int dg_ways_open(struct dg_plan *plan, const char *policy_path,
		 const struct dg_service_stacks *stacks, struct dg_ways *out);

void dg_ways_free(struct dg_ways *w);

void dg_ways_stacks_free(struct dg_service_stacks *s);

#endif
