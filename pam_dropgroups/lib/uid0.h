/* Whether a user name is surely uid 0 (uid0.c): for the module's rule
 * that a failure never locks root out. */
#ifndef DG_UID0_H
#define DG_UID0_H

/* 1 when every NSS passwd service that knows name says uid 0, at least
 * one knows it, and glibc's own answer says 0 too; 0 when not, or when
 * that cannot be told; -ENOMEM. */
int dg_uid0_sure(const char *name);

#endif
