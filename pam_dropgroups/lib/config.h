/* The policy as written: names and gids with the file and line each came
 * from, before anything is resolved through NSS.
 *
 * config.c turns libconfig text into this (no I/O); load.c finds, checks
 * and reads the files; resolve.c and nss.c turn it into a struct
 * dg_policy. */
#ifndef DG_CONFIG_H
#define DG_CONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "arena.h"
#include "diag.h"
#include "strlist.h"
#include "util.h"

#define DG_DEFAULT_CONFIG "/etc/security/dropgroups.conf"

/* A group as the policy names it: by name, by gid, or "*". */
struct dg_group_ref {
	char *name;    /* NULL when given as a gid */
	gid_t gid;     /* meaningful only when name is NULL */
	bool optional; /* restricting only: { name = "x"; optional = true; } */
	const char *file;
	int line;
};

struct dg_group_refs {
	struct dg_group_ref *v;
	size_t n, cap;
};

enum dg_mode { DG_MODE_DROP, DG_MODE_KEEP };

struct dg_rule_src {
	char *name; /* NULL when the rule has none */
	const char *file;
	int line;
	struct dg_strlist services;
	bool users_given; /* absent users = everyone */
	struct dg_strlist users;
	/* the "%group" entries of users written { name = "%g"; optional =
	 * true; }: a group that may be missing, where a missing one refuses
	 * the users that reach the rule */
	struct dg_strlist users_optional;
	int users_line;
	enum dg_mode mode;
	bool has_drop, has_keep;
	struct dg_group_refs groups; /* the drop or keep list */
	bool no_new_privs;
};

struct dg_rule_srcs {
	struct dg_rule_src *v;
	size_t n, cap;
};

struct dg_config {
	/* Every file read, in order; refs and rules point into it. */
	struct dg_strlist files;
	char *include_dir; /* as written in the main file, or NULL */
	struct dg_group_refs restricting;
	struct dg_rule_srcs rules;
	/* Set when the config was read from the cache (cache.c): every
	 * pointer above points into it, and freeing it frees them all. */
	struct dg_arena *arena;
};

enum dg_file_role { DG_MAIN_FILE, DG_DROP_IN };

/* Parse one file's text and append what it holds to cfg.  Problems go to
 * diags; the return value is 0, or -ENOMEM when even that failed. */
int dg_config_parse(struct dg_config *cfg, const char *file, const char *text,
		    enum dg_file_role role, struct dg_diags *diags);

/* The label a rule goes by in logs: its name, or "FILE:LINE". */
char *dg_config_rule_label(const struct dg_rule_src *rule);

void dg_config_free(struct dg_config *cfg);

#endif
