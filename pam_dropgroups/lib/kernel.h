/* The kernel edge: the process's groups, no_new_privs, whether it holds
 * CAP_SETGID, its user namespace's gid map, and the sysctls of the
 * kernel series.  Each returns 0 (or a value) or a negative errno. */
#ifndef DG_KERNEL_H
#define DG_KERNEL_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

int dg_kernel_get_groups(gid_t **out, size_t *n);
int dg_kernel_set_groups(const gid_t *v, size_t n);
int dg_kernel_set_no_new_privs(void);
/* 1 if CAP_SETGID is in the effective set, 0 if not, -errno if unknown. */
int dg_kernel_has_cap_setgid(void);
/* Clear every capability of the calling process (permitted, effective,
 * inheritable): what probe does in its child to be unprivileged. */
int dg_kernel_drop_all_caps(void);
int dg_kernel_no_new_privs(void); /* 1, 0, or -errno */

/* The sysctls of the unprivileged-drop kernel series (kernel/). */
#define DG_SYSCTL_DROP "/proc/sys/kernel/setgroups_unprivileged_drop"
#define DG_SYSCTL_STICKY "/proc/sys/kernel/setgroups_sticky_gids"

/* Read a sysctl's value, without the trailing newline, into *out (the
 * caller frees it).  0, -ENOENT when the kernel lacks it, or -errno. */
int dg_kernel_sysctl_read(const char *path, char **out);
int dg_kernel_sysctl_write(const char *path, const char *value);

/* The gid map of this process's user namespace, and the overflow gid
 * the kernel shows for unmapped gids (left at 65534, unread, with the
 * identity map, which dg_idmap_check never asks it for).  A kernel
 * without user namespaces gives the identity map.  0, or -errno when
 * /proc cannot tell. */
struct dg_idmap;
int dg_kernel_read_gid_map(struct dg_idmap *map, gid_t *overflow);

#endif
