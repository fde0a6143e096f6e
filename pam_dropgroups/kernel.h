/* The kernel edge: the process's groups, no_new_privs, and whether it
 * holds CAP_SETGID.  Each returns 0 or a negative errno. */
#ifndef DG_KERNEL_H
#define DG_KERNEL_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

int dg_get_groups(gid_t **out, size_t *n);
int dg_set_groups(const gid_t *v, size_t n);
int dg_set_no_new_privs(void);
/* 1 if CAP_SETGID is in the effective set, 0 if not, -errno if unknown. */
int dg_has_cap_setgid(void);

#endif
