/* dropgroups audit --emit-dropin FILE (dropin.h): the groups found, as a
 * drop-in the policy reads (dropgroups.conf(5)).  The text is a pure
 * function of the rows, so that a unit test can read it; writing it is
 * apart, and careful: a new file beside FILE, renamed over it when
 * whole, so never written through a symbolic link, a hard link or a FIFO
 * that someone left at FILE, and never seen half-written. */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "dropin.h"
#include "util.h"

static bool listed(const struct dg_group_row *r)
{
	return r->defeated && r->by_gid;
}

/* The name in a comment that ends the line: no name can end it early,
 * a control character (UTF-8's C1 ones too) is written as '?'. */
static void comment_name(FILE *f, const char *name)
{
	for (const char *p = name; *p; p++) {
		size_t control = dg_util_control_len(p, true);

		fputc(control ? '?' : *p, f);
		p += control ? control - 1 : 0;
	}
}

void dg_dropin_format(FILE *f, const struct dg_groups *g)
{
	size_t last = g->n;

	fprintf(f, "# Written by dropgroups audit: the groups this system uses\n"
		   "# as negative credentials, which dropping would defeat.\n"
		   "version = 1;\nrestricting = (");
	for (size_t i = 0; i < g->n; i++)
		if (listed(&g->v[i]))
			last = i;
	for (size_t i = 0; i < g->n; i++) {
		const struct dg_group_row *r = &g->v[i];

		if (!listed(r))
			continue;
		/* above INT32_MAX, libconfig reads a plain number as wrapped
		 * (check refuses it): the L suffix keeps it */
		fprintf(f, "\n  %u%s%s # ", (unsigned)r->gid,
			r->gid > INT32_MAX ? "L" : "", i == last ? "" : ",");
		comment_name(f, r->name ? r->name : "(no name)");
	}
	fprintf(f, "%s);\n", last == g->n ? " " : "\n");
}

static int write_failed(struct dg_diags *diags, const char *path, int e)
{
	dg_diag_add(diags, DG_ERROR, path, 0, "%s", strerror(e));
	return -e;
}

/* The new file beside path, mode 0644, at *tmp (to be freed): a stream,
 * or NULL with the problem in diags. */
static FILE *open_beside(const char *path, char **tmp, struct dg_diags *diags)
{
	int fd, e;
	FILE *f;

	if (asprintf(tmp, "%s.XXXXXX", path) < 0) {
		*tmp = NULL;
		errno = ENOMEM;
		return NULL;
	}
	if ((fd = mkostemp(*tmp, O_CLOEXEC)) < 0) {
		write_failed(diags, *tmp, errno);
		return NULL;
	}
	if (fchmod(fd, 0644) < 0 || !(f = fdopen(fd, "w"))) {
		e = errno;
		close(fd);
		unlink(*tmp);
		write_failed(diags, path, e);
		return NULL;
	}
	return f;
}

int dg_dropin_write(const char *path, const struct dg_groups *g,
		    struct dg_diags *diags)
{
	_cleanup_free_ char *tmp = NULL;
	struct stat old;
	FILE *f;
	int e;

	/* a FILE that is there must be a file: a link or a FIFO is
	 * refused, not replaced */
	if (lstat(path, &old) == 0 && !S_ISREG(old.st_mode)) {
		dg_diag_add(diags, DG_ERROR, path, 0, "not a regular file");
		return -EINVAL;
	}
	if (!(f = open_beside(path, &tmp, diags)))
		return tmp ? -EIO : -ENOMEM;
	dg_dropin_format(f, g);
	if (fflush(f) != 0 || fsync(fileno(f)) < 0) {
		e = errno;
		fclose(f);
		unlink(tmp);
		return write_failed(diags, path, e);
	}
	if (fclose(f) != 0 || rename(tmp, path) < 0) {
		e = errno;
		unlink(tmp);
		return write_failed(diags, path, e);
	}
	return 0;
}
