/* The NSS edge: group and user look-ups.  Reentrant (_r calls, buffers
 * grown on ERANGE, no statics).
 *
 * Only a clean "not found" is not found: for glibc that is the return
 * value 0 with a NULL result.  Every other answer means NSS could not
 * answer (nss-pam-ldapd reports an unreachable nslcd as ENOENT), and
 * callers fail closed on it. */
#ifndef DG_NSS_H
#define DG_NSS_H

#include <stdbool.h>
#include <sys/types.h>

#include "nsswitch.h"
#include "policy.h"
#include "resolve.h"
#include "strlist.h"

/* 1 and *gid set; 0 when there is no such group; -errno when NSS itself
 * failed (the answer is unknown, so callers must fail closed). */
int dg_nss_group_by_name(const char *name, gid_t *gid);

/* Whether /etc/group may be read in one files-first pass (nscd is not
 * there, and /etc/nsswitch.conf asks "files" first), asked once for all
 * the passes of one call: a login that resolves the policy's group
 * names and then names its gids read nsswitch.conf and probed nscd's
 * socket for each.  Zero one at the start of a call (PAM's, or a
 * command's), and never keep it longer: a plan kept with a PAM handle
 * outlives an edit of nsswitch.conf, or nscd's start, and the next call
 * must see them.  Where a function takes one, NULL asks every time. */
struct dg_nss_probe {
	bool asked;
	enum dg_nss_files_order group;
	/* /etc/group as the call's first files-first pass read it, for its
	 * later passes: the names of the policy's groups, then of the
	 * session's gids, from one read (a small login's policy names one
	 * group, which alone glibc would read the file for).  Freed by
	 * dg_nss_probe_release at the end of the call, like the rest. */
	bool group_read;
	int group_err; /* that read's -errno, or 0 */
	char *group_text;
	size_t group_len;
};

/* Free what probe holds, and zero it for another call. */
void dg_nss_probe_release(struct dg_nss_probe *probe);

/* Look up each of names (sorted, distinct) once, into *out (sorted by
 * name).  A name in confirm that is not found is asked a second time:
 * glibc turns some passing failures inside a backend into a plain "not
 * found".  0, or -ENOMEM; each answer has its own status. */
int dg_nss_groups_by_name(const struct dg_strlist *names,
			  const struct dg_strlist *confirm,
			  struct dg_nss_probe *probe,
			  struct dg_name_answers *out);

/* The same for user names: status 1 when the user exists. */
int dg_nss_users_exist(const struct dg_strlist *names,
		       struct dg_name_answers *out);

/* What NSS calls each of gids (getgrgid_r), into *out.  0, -ENOMEM, or
 * another -errno when NSS failed for *failed.  When nsswitch.conf asks
 * "files" first, the gids /etc/group has are named in one pass over it
 * (its first line for a gid, as nss_files answers), and only the others
 * are asked one by one: same answers, O(lines + gids log gids) instead of
 * O(lines x gids).  dg_nss_groups_by_name and dg_nss_users_exist do the
 * same with names. */
int dg_nss_gid_names(const struct dg_gids *gids, struct dg_nss_probe *probe,
		     struct dg_gid_names *out, gid_t *failed);

/* Every gid that the group database, walked whole (getgrent_r), calls by
 * one of names (sorted ignoring case), added to *out.  For the CLI only:
 * a walk is not reentrant, and a directory may not list its groups at
 * all, so the module never walks.  0, or -errno. */
int dg_nss_walk_named(const struct dg_strlist *names, struct dg_gids *out);

/* "name(gid)", or "gid" when the gid has no name; NULL on ENOMEM. */
char *dg_nss_group_label(gid_t gid);

/* 1 with *out filled; 0 when there is no such user; -errno on NSS
 * failure.  The user's groups are left empty: see dg_initgroups. */
int dg_nss_user_lookup(const char *name, struct dg_user *out);

/* Add to *out (sorted) the gid of every group in /etc/group whose
 * members name user, skip aside: what nss_files answers initgroups.
 * 0, -ENOMEM, -EIO when the file could not be read whole, or -EBADMSG
 * when a comment line lists the user (nss_files' initgroups reads it as
 * a group, where every other reader skips it). */
int dg_nss_files_groups_of(const char *user, gid_t skip, struct dg_gids *out);

/* Does the entry of group gid (getgrgid_r) list user as a member?  1 or
 * 0 (no such group lists nobody); -errno when NSS failed. */
int dg_nss_group_entry_lists(gid_t gid, const char *user);

/* One line of a group file (n bytes at line, without its newline), for
 * its name and gid alone, as glibc's fgetgrent_r and nss_files read it:
 * 1 with gr's name (its colon now a NUL, in line) and gid set (no
 * members), 0 for a line that gives no answer (empty, a comment, a
 * compat "+"/"-" entry), -1 for one to leave to glibc's own parser
 * (white space, a NUL, a gid that is not plain digits, a missing
 * field...); line is changed only when 1. */
struct group;
int dg_nss_group_line(char *line, size_t n, struct group *gr);

/* The services of database db in /etc/nsswitch.conf (nsswitch.c): 1
 * with *out filled, 0 when no line names db or there is no file (glibc
 * uses its default), -EINVAL when it has more than one reading, or
 * another -errno when it could not be read. */
int dg_nss_read_nsswitch(const char *db, struct dg_nss_services *out);

/* Why dg_nss_service_fn found no function. */
enum dg_nss_no_fn { DG_NSS_BAD_NAME = 1, DG_NSS_NO_LIBRARY, DG_NSS_NO_FUNCTION };

/* _nss_SERVICE_WHAT from libnss_SERVICE.so.2, loaded as glibc loads it
 * and never unloaded.  0 with *fn set; a dg_nss_no_fn (and *fn NULL)
 * when the service is not a name a library can have, its library does
 * not load (dlerror() then says why), or it has no such function;
 * -ENOMEM. */
int dg_nss_service_fn(const char *service, const char *what, void **fn);

/* The name of a variable in this process's environment that an NSS
 * module reads even in a set-user-ID program, and that turns its
 * answers into "not found" (_SSS_LOOPS); NULL when none is set.  The
 * user who runs su or sudo chooses that environment. */
const char *dg_nss_env_tampered(void);

/* Might glibc ask nscd before any backend (its socket is there, or may
 * be)?  Its answers can then differ from the backends'. */
bool dg_nss_nscd_may_answer(void);

/* The name of the user with this uid (the caller frees it); NULL if
 * there is none, NSS failed, or memory ran out. */
char *dg_nss_user_name(uid_t uid);

#endif
