/* The informational readers of dropgroups audit (informational.c). */
#ifndef DG_INFORMATIONAL_H
#define DG_INFORMATIONAL_H

#include "diag.h"
#include "evidence.h"

/* sshd_config DenyGroups (and its Includes), access.conf and access.d
 * "-:" lines, and pam_succeed_if "user notingroup" in /etc/pam.d: each
 * group they name added to ev.  Every problem goes to diags.  Returns 0;
 * or the -errno of the first error, ev still getting what was found; or
 * -ENOMEM with ev unchanged. */
int dg_informational_read(struct dg_evidence_store *ev,
			  struct dg_diags *diags);

#endif
