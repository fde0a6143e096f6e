/* dropgroups audit: find the groups a system uses as negative
 * credentials (dropgroups(8), audit).  audit.c walks file trees and
 * reports; sudoers.c reads sudoers, sshd, pam_access and pam_succeed_if. */
#ifndef DG_AUDIT_H
#define DG_AUDIT_H

#include <stdbool.h>
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
static inline bool dg_ev_defeated(enum dg_ev_kind k)
{
	return k <= DG_EV_SUDOERS;
}

/* The evidence found so far, owned by dg_audit_main (audit.c) and
 * passed down, so that nothing lives in static storage. */
struct dg_audit_ev;

/* Record one piece of evidence about a group named by name (or "#gid",
 * as sudoers writes a gid).  0 or -ENOMEM.  Not thread-safe: only the
 * readers of sudoers and the informational files call it, after the
 * walk's threads have ended (they keep evidence of their own). */
int dg_audit_add_named(struct dg_audit_ev *ev, const char *name,
		       enum dg_ev_kind kind, const char *file, int line);

/* Read the sudoers files (paths: files or include directories; NULL
 * terminated) and record their evidence.  explicit: the paths were
 * given on the command line (a missing one is an error).  Returns the
 * number of errors (I/O), warnings printed on stderr. */
int dg_audit_sudoers(struct dg_audit_ev *ev, const char *const *paths,
		     size_t n, bool explicit);
/* sshd_config DenyGroups, access.conf, /etc/pam.d pam_succeed_if.
 * Returns the number of errors, as dg_audit_sudoers does. */
int dg_audit_informational(struct dg_audit_ev *ev);

int dg_audit_main(int argc, char **argv);

#endif
