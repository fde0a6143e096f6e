/* libFuzzer target: the files-first pass's reading of /etc/group lines
 * (dg_nss_group_line, lib/nss.c), which names the session's gids for a
 * restricting name and so must read each line as glibc does.
 *
 * The input is a group file; each of its lines (split at '\n', NULs
 * and all) is read by dg_nss_group_line and, alone, by glibc's
 * fgetgrent_r (the parser of nss_files).
 *
 * Checked: 1 only where glibc gives an entry of the same name and gid;
 * 0 only where glibc gives none, or a compat "+"/"-" entry (which files
 * never answers with); the line unchanged unless 1, and only its
 * name's colon changed then.  -1 (left to glibc) is always allowed.
 * And no leak, no sanitizer report. */
#include "fuzz_common.h"

#include <grp.h>

#include "nss.h"

/* glibc's reading of line alone: 1 with gr, 0 for none. */
static int glibc_line(const char *line, size_t n, struct group *gr,
		      char **buf, size_t *size)
{
	char *text = malloc(n + 1);
	struct group *res = NULL;
	FILE *f;
	int r;

	if (!text)
		abort();
	memcpy(text, line, n);
	text[n] = '\n';
	for (;;) {
		if (!(f = fmemopen(text, n + 1, "r")))
			abort();
		r = fgetgrent_r(f, gr, *buf, *size, &res);
		fclose(f);
		if (r != ERANGE)
			break;
		if (!(*buf = realloc(*buf, *size *= 2)))
			abort();
	}
	free(text);
	return r == 0 && res ? 1 : 0;
}

static void check_line(const char *line, size_t n, char **buf, size_t *size)
{
	char *mine = malloc(n ? n : 1);
	struct group gr, theirs;
	int r, g;

	if (!mine)
		abort();
	memcpy(mine, line, n);
	r = dg_nss_group_line(mine, n, &gr);
	if (r < -1 || r > 1)
		fz_fail("dg_nss_group_line: %d", r);
	g = glibc_line(line, n, &theirs, buf, size);
	if (r == 1) {
		size_t name = strlen(gr.gr_name);

		if (gr.gr_name != mine || name >= n || line[name] != ':' ||
		    memcmp(mine, line, name) || memcmp(mine + name + 1,
							line + name + 1,
							n - name - 1))
			fz_fail("the line was changed beyond its name's colon");
		if (!g || strcmp(gr.gr_name, theirs.gr_name) ||
		    gr.gr_gid != theirs.gr_gid)
			fz_fail("read as %s:%u, glibc: %s:%u", gr.gr_name,
				(unsigned)gr.gr_gid, g ? theirs.gr_name : "none",
				g ? (unsigned)theirs.gr_gid : 0);
	} else {
		if (n && memcmp(mine, line, n))
			fz_fail("a line not taken was changed");
		if (r == 0 && g && theirs.gr_name[0] != '+' &&
		    theirs.gr_name[0] != '-')
			fz_fail("skipped, glibc: %s:%u", theirs.gr_name,
				(unsigned)theirs.gr_gid);
	}
	free(mine);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *p = (const char *)data, *end = p + size;
	size_t bsize = 64;
	char *buf = malloc(bsize);

	if (!buf)
		abort();
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);

		check_line(p, n, &buf, &bsize);
		p += n + 1;
	}
	free(buf);
	return 0;
}
