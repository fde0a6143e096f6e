/* The --json documents of dropgroups check, lint and explain
 * (dropgroups(8), JSON OUTPUT): an interface, versioned by its "format"
 * key.  Each is written from the same data the text form prints, so the
 * two cannot disagree; names go through audit's one JSON escape
 * (escape.c). */
#ifndef DG_JSON_H
#define DG_JSON_H

#include <stdbool.h>
#include <stdio.h>

#include "config.h"
#include "diag.h"
#include "plan.h"
#include "ways.h"

/* The version of every document: raised when a key changes meaning or
 * goes away (a new key does not raise it). */
#define DG_JSON_FORMAT 1

/* What explain found, step by step, for its text and its --json alike:
 * a step that failed (or was not reached) leaves its fields empty. */
struct dg_json_explain {
	const char *service;
	const struct dg_user *user; /* NULL: the plan could not be made */
	/* why the program runs no PAM stack (explain_not_run), and where */
	char *not_run, *not_run_file;
	int not_run_line;
	bool matched; /* the rule below was looked for */
	const struct dg_rule_src *rule; /* NULL: no rule matches */
	bool decided; /* outcome and labels hold the decision */
	struct dg_outcome outcome;
	char **labels; /* "name(gid)" of each verdict, NULL: unknown */
	bool ways_read; /* ways holds the ways back in */
	struct dg_ways ways;
};

void dg_json_explain_free(struct dg_json_explain *x);

/* Each writes one document and a newline to f: 0, or -EIO. */
int dg_json_check(FILE *f, const char *config, bool valid,
		  const struct dg_config *cfg, const struct dg_policy *policy,
		  const struct dg_diags *diags);
/* n_read: the stacks read, or -1 when the policy kept lint from
 * reading them. */
int dg_json_lint(FILE *f, const char *config, const char *pam_dir,
		 long n_read, size_t errors, size_t warnings,
		 const struct dg_diags *diags);
int dg_json_explain(FILE *f, const struct dg_json_explain *x,
		    const struct dg_diags *diags);

#endif
