/* The report of dropgroups audit (report.c): text or JSON, from the
 * rows of groups.c.  The caller checks f for a write error. */
#ifndef DG_REPORT_H
#define DG_REPORT_H

#include <stdio.h>

#include "groups.h"

/* One line per group: "NAME gid GID: KIND N, ...; e.g. WHERE, ...". */
void dg_report_text(FILE *f, const struct dg_groups *g);
/* {"groups": [...]}, every piece of evidence of every group. */
void dg_report_json(FILE *f, const struct dg_groups *g);

#endif
