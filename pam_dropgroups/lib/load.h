/* Loading a policy: finding, checking and reading its files (load.c),
 * then resolving its names (nss.c for the answers, resolve.c for what
 * they mean), into the policy every decision starts from.
 *
 * Every file is opened with O_NOFOLLOW and judged by fstat on the opened
 * descriptor (root-owned, not writable by group or others, a regular
 * file), and directories are opened first and files opened relative to
 * them, so a file cannot be swapped between the check and the read. */
#ifndef DG_LOAD_H
#define DG_LOAD_H

#include "config.h"
#include "diag.h"
#include "policy.h"

/* A policy file larger than this is refused: real policies are a few KB,
 * and the module must not read a huge file in every login. */
#define DG_POLICY_MAX_BYTES (1u << 20)

/* Whether the module reads a file of this name in the include directory:
 * it ends in ".conf" and does not start with a dot. */
bool dg_load_is_drop_in_name(const char *name);

/* What `dropgroups check` judges with the installed policy at `path`:
 *  main_from   a candidate main file, read (and checked on its own
 *              descriptor: its directory is a temporary one) in place of
 *              path and judged as if installed there: its include_dir
 *              is found from path's directory, and a candidate whose
 *              include directory is not the installed file's, while
 *              drop-ins are left in that one, is refused;
 *  drop_in     a candidate drop-in, read (checked on its own descriptor)
 *              in place of the installed drop-in named drop_in_as (NULL:
 *              the candidate's own name), at that name's place in the
 *              order;
 *  drop_in_as  NAME, or the absolute path it will be installed at,
 *              which must be in the policy's include directory.
 * A candidate drop-in with no include directory is refused: it would
 * never be read. */
struct dg_nss_probe;

struct dg_load_as {
	const char *main_from;
	const char *drop_in;
	const char *drop_in_as;
	struct dg_nss_probe *probe; /* the call's, or NULL (nss.h) */
};

int dg_load_config_as(const char *path, const struct dg_load_as *as,
		      struct dg_config *out, struct dg_diags *diags);

/* Load the main file at `path` and its drop-ins into *out; and, when
 * extra_drop_in is not NULL, that file as one more drop-in, in place of
 * (and at the sorted place of) the installed drop-in named extra_name
 * (NULL: the file's own name), to check a candidate before it is
 * installed.  Returns 0 (and the caller must look at diags before using
 * *out) or -ENOMEM.  *out is always initialised and must be freed with
 * dg_config_free(). */
int dg_load_config(const char *path, const char *extra_drop_in,
		   const char *extra_name, struct dg_config *out,
		   struct dg_diags *diags);

/* Look every name of cfg up through NSS once, and build *policy from the
 * answers (resolve.c).  probe: the call's (nss.h), or NULL.  0 (look at
 * diags) or -ENOMEM. */
int dg_load_resolve(const struct dg_config *cfg, bool check_users,
		    struct dg_nss_probe *probe, struct dg_policy *policy,
		    struct dg_diags *diags);

/* Load (dg_load_config), check and resolve the policy.  check_users: also look
 * up the user names in users lists, to warn about typos (the module matches
 * them as written and never looks them up).  0, -EINVAL (errors are in diags)
 * or -ENOMEM.  config and policy are always initialised. */
/* dg_load_policy with dg_load_config_as's candidates. */
int dg_load_policy_as(const char *path, const struct dg_load_as *as,
		      bool check_users, struct dg_config *config,
		      struct dg_policy *policy, struct dg_diags *diags);

/* For a tool that replaces a policy file (dropgroups edit): open the
 * directory a file of the policy at path is read from, checked as every
 * load checks it (root-owned, not writable by group or others, no
 * symbolic link followed): path's own directory, or, with include, the
 * include directory of the installed main file at path, which must be
 * read and parse (a drop-in is then judged with it).  *dirfd, and
 * *display, the directory in messages.  0, -EINVAL (reported; *dirfd is
 * -1) or -ENOMEM. */
int dg_load_open_dir(const char *path, bool include, int *dirfd,
		     char **display, struct dg_diags *diags);

/* Read `name` in dirfd as every load reads a policy file: a regular file
 * opened without following a symbolic link, root's alone to write, no
 * larger than DG_POLICY_MAX_BYTES.  0, -EINVAL (reported) or -ENOMEM. */
int dg_load_read_file(int dirfd, const char *name, const char *display,
		      char **text, struct dg_diags *diags);

int dg_load_policy(const char *path, const char *extra_drop_in,
		   const char *extra_name, bool check_users,
		   struct dg_config *config, struct dg_policy *policy,
		   struct dg_diags *diags);

#endif
