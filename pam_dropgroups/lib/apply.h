/* Applying a plan to the calling process: the one apply path that the
 * module and `dropgroups run` share.
 *
 * Read the groups, check them, decide, set no_new_privs, setgroups, and
 * read the groups back, as one step serialised within the process: two
 * threads that open sessions at once cannot undo each other's drop
 * between the getgroups and the setgroups. */
#ifndef DG_APPLY_H
#define DG_APPLY_H

#include <stdbool.h>

#include "plan.h"

enum dg_apply_step {
	DG_STEP_GETGROUPS, /* reading the process's groups */
	DG_STEP_USERNS,    /* a gid this user namespace cannot show */
	DG_STEP_NAMES,     /* naming a gid through NSS */
	DG_STEP_DECIDE,    /* out of memory while deciding */
	DG_STEP_NNP,       /* prctl(PR_SET_NO_NEW_PRIVS) */
	DG_STEP_SETGROUPS, /* setgroups(2) */
	DG_STEP_VERIFY,    /* the groups read back are not the ones set */
};

/* Why dg_apply failed. */
struct dg_apply_error {
	enum dg_apply_step step;
	int err;         /* negative errno */
	gid_t gid;       /* the gid in question (USERNS, NAMES) */
	bool restored;   /* VERIFY: the old list could be set back */
	bool foreseen;   /* SETGROUPS: not called, only foreseen (preview) */
};

/* Apply plan (whose rule must match) to the calling process.
 * always_no_new_privs sets no_new_privs whatever the rule says; known
 * (or NULL) holds names of gids looked up already, by an earlier call on
 * the same PAM handle; probe is the call's (nss.h), or NULL.  0 with
 * *out holding the decision applied, or
 * -errno with *why filled; then the groups are as they were (unless
 * why->step is DG_STEP_VERIFY and !why->restored), though no_new_privs,
 * once set, stays set. */
int dg_apply(const struct dg_plan *plan, bool always_no_new_privs,
	     const struct dg_gid_names *known, struct dg_nss_probe *probe,
	     struct dg_outcome *out, struct dg_apply_error *why);

/* What dg_apply would do, doing none of it (report_only): read the
 * groups, check them against the user namespace and decide, with the
 * same results and errors, but set neither no_new_privs nor the
 * groups.  A setgroups that would surely fail here (no CAP_SETGID, on a
 * kernel that allows no unprivileged drop of this kind) is that error,
 * with why->foreseen set; one that may fail is not foreseen. */
int dg_apply_preview(const struct dg_plan *plan,
		     const struct dg_gid_names *known,
		     struct dg_nss_probe *probe, struct dg_outcome *out,
		     struct dg_apply_error *why);

/* The failure in words for one log line or one message, without the
 * outcome; NULL on ENOMEM. */
char *dg_apply_error_text(const struct dg_apply_error *why);

/* Why a setgroups(2) failed, from the process and the kernel: whether it
 * has CAP_SETGID, and if not, what this kernel allows.  NULL on ENOMEM. */
char *dg_apply_setgroups_failure_text(int err);

/* Why this kernel refuses a setgroups from a process without CAP_SETGID,
 * from its sysctls and no_new_privs, in words (a static string). */
const char *dg_apply_unprivileged_hint(void);

#endif
