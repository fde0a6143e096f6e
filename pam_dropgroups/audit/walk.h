/* The file tree walk of dropgroups audit (walk.c). */
#ifndef DG_WALK_H
#define DG_WALK_H

#include <stdbool.h>
#include <stddef.h>

#include "diag.h"
#include "evidence.h"

/* Walk each of the n paths: every inode whose mode or POSIX ACLs give a
 * group less than other added to ev by gid.  xdev: stay on each path's
 * file system.  An unreadable directory is a warning in diags, or with
 * strict an error; another failure an error.  Returns 0; or the -errno
 * of the first error, ev still getting what was found; or -ENOMEM (then
 * ev gets nothing). */
int dg_walk_paths(const char *const *paths, size_t n, bool xdev, bool strict,
		  struct dg_evidence_store *ev, struct dg_diags *diags);

#endif
