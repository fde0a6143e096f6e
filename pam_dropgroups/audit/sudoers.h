/* The sudoers reader of dropgroups audit (sudoers.c). */
#ifndef DG_SUDOERS_H
#define DG_SUDOERS_H

#include <stdbool.h>
#include <stddef.h>

#include "diag.h"
#include "evidence.h"

/* How to read the sudoers files. */
struct dg_sudoers_how {
	/* The paths were given on the command line, so a missing or
	 * unreadable one is an error; else they are the default files,
	 * and a missing one is skipped, an unreadable one a warning. */
	bool explicit;
	/* A file that cannot be read is an error even where it would be a
	 * warning: what the audit writes must rest on every file. */
	bool strict;
	/* The short host name, for "%h" in an include's path (as sudo 1.9
	 * expands it); NULL: a path with "%h" is an error. */
	const char *shost;
};

/* Read the sudoers files (paths: files or include directories, n of
 * them) and add to ev each %group that a list excludes with '!'.  Every
 * problem goes to diags as FILE[:LINE]: message.  Returns 0; or the
 * -errno of the first error, ev still getting the evidence of every
 * file that was read (the report lists it); or -ENOMEM with ev
 * unchanged. */
int dg_sudoers_read(const char *const *paths, size_t n,
		    const struct dg_sudoers_how *how,
		    struct dg_evidence_store *ev, struct dg_diags *diags);

/* Where sudoers turns pam_session off: sudo then opens no PAM session,
 * and no session line of its stack runs. */
struct dg_sudoers_session {
	/* where; NULL: pam_session is on for every session */
	char *file;
	int line;
	/* "Defaults" and its binding as written ("Defaults:bob") */
	char *defaults;
	/* 0: off for every session (the last Defaults line without a
	 * binding that sets pam_session turns it off); else off for some,
	 * the binding's ':' (users), '>' (runas users), '@' (hosts) or '!'
	 * (commands), at the first such line */
	char scope;
};

/* Read the sudoers files as dg_sudoers_read does, and find where they
 * turn pam_session off ("Defaults !pam_session", each of its scoped
 * forms) into *out, which is empty where they do not.  Returns 0; or the
 * -errno of the first error (in diags), *out holding what the files
 * that were read say; or -ENOMEM with *out empty.  Free *out with
 * dg_sudoers_session_free. */
int dg_sudoers_pam_session(const char *const *paths, size_t n,
			   const struct dg_sudoers_how *how,
			   struct dg_sudoers_session *out,
			   struct dg_diags *diags);

void dg_sudoers_session_free(struct dg_sudoers_session *s);

/* The short host name, as sudo expands "%h" in an include's path (the
 * node name up to its first dot), into uts (whose nodename it
 * shortens), or NULL. */
struct utsname;
const char *dg_sudoers_short_host(struct utsname *uts);

#endif
