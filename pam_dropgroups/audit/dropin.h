/* The drop-in of dropgroups audit --emit-dropin (dropin.c). */
#ifndef DG_DROPIN_H
#define DG_DROPIN_H

#include <stdio.h>

#include "diag.h"
#include "groups.h"

/* The drop-in's text, to f: a restricting list of every group whose
 * evidence dropping would defeat, by name (once for all its gids), or
 * by gid where it has no name that can be written; each entry's
 * comment says why it is there.  Pure: 0, or -ENOMEM; the caller checks
 * f for a write error. */
int dg_dropin_format(FILE *f, const struct dg_groups *g);
/* Write that text to path: as a new file beside it, renamed over it
 * when whole.  A path that is there and is not a regular file is
 * refused.  0, or -errno with the problem in diags. */
int dg_dropin_write(const char *path, const struct dg_groups *g,
		    struct dg_diags *diags);

#endif
