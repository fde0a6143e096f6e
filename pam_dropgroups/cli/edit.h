/* dropgroups edit: edit the policy, or one drop-in, as visudo edits
 * sudoers: under a lock, in a private copy, installed only when the whole
 * policy with the edit in place passes the check the module's loader
 * makes (edit.c). */
#ifndef DG_EDIT_H
#define DG_EDIT_H

#include "diag.h"

/* How dg_edit_run ends: the exit status dropgroups(8) gives. */
enum dg_edit_status {
	DG_EDIT_OK = 0,      /* installed, or unchanged */
	DG_EDIT_REFUSED = 1, /* check refused it, discarded, or busy */
	DG_EDIT_SYSTEM = 3,  /* the system failed us */
};

/* Edit the main policy at config (drop_in NULL), or the drop-in named
 * drop_in (a name the module reads, dg_load_is_drop_in_name) in its
 * include directory.  print_diags prints the check's diagnostics. */
enum dg_edit_status dg_edit_run(const char *config, const char *drop_in,
				void (*print_diags)(const struct dg_diags *));

#endif
