/* The user's group list, as initgroups(3) would set it, asked of each
 * NSS service in turn, with whether every service answered.
 *
 * getgrouplist(3) cannot say that a backend failed: a directory whose
 * membership search fails while its single look-ups answer just gives a
 * shorter list.  Here each service of nsswitch.conf's initgroups line
 * (or group line) is called as glibc calls it, and its status kept. */
#ifndef DG_INITGROUPS_H
#define DG_INITGROUPS_H

#include "policy.h"

/* Fill user->groups with the user's groups (the primary gid among them),
 * and user->member.listed with DG_LISTED_WHOLE when every service that
 * glibc would ask answered, or DG_LISTED_PARTIAL with member.why saying
 * which did not and how.  0 or -ENOMEM. */
int dg_initgroups(struct dg_user *user);

#endif
