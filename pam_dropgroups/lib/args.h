/* The module's arguments (config=, debug, system_err, report_only): one
 * parser, used by the module on every call and by `dropgroups lint` on
 * every line it finds, so the two cannot disagree about which lines the
 * module refuses. */
#ifndef DG_ARGS_H
#define DG_ARGS_H

#include <stdbool.h>

struct dg_args {
	const char *config; /* points into argv, or DG_DEFAULT_CONFIG */
	bool debug;
	/* Fail with PAM_SYSTEM_ERR: sudo treats PAM_SESSION_ERR from
	 * pam_open_session as harmless and runs the command anyway. */
	bool system_err;
	/* Decide and log what would be dropped ("would drop ..."), change
	 * nothing, and never refuse, not even on a broken policy. */
	bool report_only;
};

/* Parse argv into *args.  0, or -EINVAL with *why set to a sentence
 * naming the argument (the caller frees it; NULL if even that failed for
 * lack of memory).  system_err is honoured even when another argument is
 * wrong, so that a typo elsewhere on a sudo line still fails in a way
 * sudo does not ignore; so is report_only, so that a typo on a line meant
 * to enforce nothing refuses no login. */
int dg_args_parse(int argc, const char *const *argv, struct dg_args *args,
		  char **why);

#endif
