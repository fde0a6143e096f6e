/* The programs known to start a user's processes in a fresh login
 * context, and what a pam_dropgroups line in each facility of their
 * stack does, given where each calls initgroups(3).  One table
 * (programs.c), read by `dropgroups lint` and `explain`, and written out
 * for people in docs/ways-back.md, where each row
 * names the test that shows it. */
#ifndef DG_PROGRAMS_H
#define DG_PROGRAMS_H

#include <stdbool.h>
#include <stddef.h>

#include "pamstack.h"

/* What a pam_dropgroups line in one facility does for a program. */
enum dg_effect {
	DG_EFFECT_UNKNOWN = 0, /* not studied, or the program does not call it */
	DG_EFFECT_TRIMS,       /* runs after initgroups, in the process the
				* user's commands descend from; a failure
				* refuses the login */
	DG_EFFECT_FAILS_OPEN,  /* trims, but the program goes on when it fails */
	DG_EFFECT_UNDONE,      /* runs before initgroups, or in a process the
				* user's commands do not descend from */
	DG_EFFECT_CHECKS,      /* account: refuses a broken policy, trims nothing */
};

struct dg_program {
	const char *service;  /* its PAM service */
	const char *name;     /* what people call it */
	enum dg_effect effect[DG_PAM_FACILITIES];
	const char *order;    /* where it calls initgroups, in one clause */
	const char *fix;      /* the line(s) that trim, or NULL: none can */
	const char *instead;  /* what closes it when no line can */
	/* its session line counts only as PAM_SYSTEM_ERR (sudo) */
	bool session_needs_system_err;
	/* its auth line fails open after a key login without an account line
	 * (sshd) */
	bool needs_account;
	/* the user reaches it through a set-user-ID program, which
	 * no_new_privs disarms */
	bool setuid;
	/* a user can reach it without root's help */
	bool user_reaches;
	/* the service of the same program run another way (su for su -l):
	 * where that one has a stack and this one none, the program is
	 * installed, and libpam runs "other" for it */
	const char *same_program;
};

/* The table, in the order people meet the programs. */
const struct dg_program *dg_programs(size_t *n);
/* The row of service, or NULL. */
const struct dg_program *dg_programs_find(const char *service);

#endif
