/* The NSS edge: group and user look-ups, and resolving a written policy
 * into gids.  Reentrant (_r calls, buffers grown on ERANGE, no statics). */
#ifndef DG_NSS_H
#define DG_NSS_H

#include <stdbool.h>
#include <sys/types.h>

#include "config.h"
#include "diag.h"
#include "policy.h"

/* 0 and *gid set; -ENOENT when no such group; another -errno when NSS
 * itself failed (the answer is unknown, so callers must fail closed). */
int dg_group_by_name(const char *name, gid_t *gid);

/* "name(gid)", or "gid" when the gid has no name; NULL on ENOMEM. */
char *dg_group_label(gid_t gid);

/* 0; -ENOENT when no such user; another -errno on NSS failure.  The
 * user's group list (getgrouplist, as initgroups would set it) is looked
 * up only if with_groups: only "%group" matching and explain need it, and
 * against a directory server it is the costly part of a login. */
int dg_user_lookup(const char *name, bool with_groups, struct dg_user *out);

/* The name of the user with this uid (the caller frees it); NULL if
 * there is none, NSS failed, or memory ran out. */
char *dg_user_name(uid_t uid);

/* Resolve every name in cfg.  Unknown names are warnings and are left
 * out; an NSS failure is an error.  Also warns when a drop list names a
 * restricting group.  Returns 0 (look at diags) or -ENOMEM. */
int dg_policy_resolve(const struct dg_config *cfg, struct dg_policy *out,
		      struct dg_diags *diags);

#endif
