/* PAM stack files from the configuration and vendor directories. */
#include "pamread.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "util.h"

/* A stack file larger than this is not one. */
#define PAM_FILE_MAX_BYTES (1u << 20)

/* As libpam reads a stack file: links followed. */
static int read_path(const char *path, char **text, size_t *len)
{
	return dg_util_read_file(path, 0, PAM_FILE_MAX_BYTES, text, len);
}

/* Try dir/name; 0, -ENOENT (try the next place) or another -errno. */
static int try_dir(const char *dir, const char *name, char **path, char **text,
		   size_t *len)
{
	_cleanup_free_ char *p = NULL;
	int r;

	if (!dir)
		return -ENOENT;
	if (asprintf(&p, "%s/%s", dir, name) < 0)
		return -ENOMEM;
	if ((r = read_path(p, text, len)) < 0)
		return r;
	*path = DG_TAKE(p);
	return 0;
}

static int dirs_read(void *ctx, const char *name, bool conf_dir_only,
		     char **path, char **text, size_t *len)
{
	const struct dg_pam_dirs *dirs = ctx;
	int r;

	if (*name == '/') {
		if ((r = read_path(name, text, len)) < 0)
			return r;
		return (*path = strdup(name)) ? 0 : (free(*text), -ENOMEM);
	}
	r = try_dir(dirs->conf, name, path, text, len);
	if (r == -ENOENT && !conf_dir_only)
		r = try_dir(dirs->vendor, name, path, text, len);
	return r;
}

struct dg_pam_reader dg_pamread_dirs(const struct dg_pam_dirs *dirs)
{
	return (struct dg_pam_reader){.read = dirs_read,
				      .ctx = (void *)(uintptr_t)dirs};
}
