/* The compiled policy: what parsing a policy's files gave, kept in a
 * root-only directory so that the next login need not parse them again.
 *
 * Parsing 10,000 rules with libconfig costs about 50 ms, in every login
 * (each uses a fresh PAM handle).  The cache holds, for one main file,
 * the exact bytes of every file that was parsed (its name and role
 * too), and the struct dg_config and the warnings that parsing gave.
 * load.c still finds, checks and reads every file as before, each login,
 * and uses the cache only when the files it read are byte for byte the
 * ones the cache holds, in the same order and under the same names;
 * else it parses, exactly as without a cache.  So the cache can save
 * the parse, never change its result: a stale or unusable cache is a
 * miss, never an error.
 *
 * Only root writes it, and it is read only from a directory that root
 * owns and nobody else may enter, in a file that root owns and nobody
 * else may read or write: whoever could write it could write the
 * policy.  Its key also holds the build of the parser (a digest of
 * these sources) and the libconfig that was loaded, so an upgrade of
 * either is a miss. */
#ifndef DG_CACHE_H
#define DG_CACHE_H

#include <stdbool.h>
#include <stddef.h>

#include "config.h"
#include "diag.h"

#define DG_CACHE_DIR "/run/dropgroups"

/* One file parsed into a config, in the order it was parsed. */
struct dg_source {
	const char *display; /* its name in messages: cfg->files.v[i] */
	enum dg_file_role role;
	const char *text;
	size_t len;
};

struct dg_cache;

/* The cache for the policy whose main file is `path`: 0 with *out set,
 * or with *out NULL when there is none, or it is not usable (not root's
 * alone, from another build, malformed: each a miss); -ENOMEM. */
int dg_cache_read(const char *path, struct dg_cache **out);

/* Does the cache hold, as its file number i, this one? */
bool dg_cache_has(const struct dg_cache *cache, size_t i,
		  const struct dg_source *file);
size_t dg_cache_n_files(const struct dg_cache *cache);
/* The config it holds (to find the include directory before the other
 * files are read). */
const struct dg_config *dg_cache_config(const struct dg_cache *cache);

/* Move the config into *out (which must be empty) and add the warnings
 * parsing gave to diags: 0 or -ENOMEM.  The cache is freed either way. */
int dg_cache_use(struct dg_cache *cache, struct dg_config *out,
		 struct dg_diags *diags);
void dg_cache_free(struct dg_cache *cache);

/* Keep cfg, parsed from files[0..n) with the diagnostics `found` (no
 * error among them), for the next load of path.  Best effort: only as
 * root, and any failure leaves no cache (the next login parses). */
void dg_cache_write(const char *path, const struct dg_config *cfg,
		    const struct dg_source *files, size_t n,
		    const struct dg_diag *found, size_t n_found);

/* The bytes a cache file holds for this config and these files (the
 * unit tests and the fuzzer round-trip them): 0, -ENOMEM, or -EINVAL
 * when it may not be kept (an error among found, files that are not
 * the config's). */
int dg_cache_encode(const char *path, const struct dg_config *cfg,
		    const struct dg_source *files, size_t n,
		    const struct dg_diag *found, size_t n_found, char **buf,
		    size_t *len);
/* And back: buf is taken (freed with the cache, or on failure).  0 with
 * *out set or NULL (malformed, or not for path), or -ENOMEM. */
int dg_cache_decode(const char *path, char *buf, size_t len,
		    struct dg_cache **out);

#endif
