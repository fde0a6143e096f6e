/* Finding, checking and reading the policy files.
 *
 * Every file is opened with O_NOFOLLOW and judged by fstat on the opened
 * descriptor (root-owned, not writable by group or others, a regular
 * file), and directories are opened first and files opened relative to
 * them, so a file cannot be swapped between the check and the read. */
#ifndef DG_LOAD_H
#define DG_LOAD_H

#include "config.h"
#include "diag.h"

/* A policy file larger than this is refused: real policies are a few KB,
 * and the module must not read a huge file in every login. */
#define DG_POLICY_MAX_BYTES (1u << 20)

/* Load the main file at `path` and its drop-ins into *out.  Returns 0 (and
 * the caller must look at diags before using *out) or -ENOMEM.  *out is
 * always initialised and must be freed with dg_config_free(). */
int dg_config_load(const char *path, struct dg_config *out,
		   struct dg_diags *diags);

#endif
