/* libFuzzer target: the sshd_config reader of dropgroups lint and
 * explain (lint/sshdconf.c): does sshd run its PAM stack (UsePAM)?
 *
 * The input is /etc/ssh/sshd_config; "#%file PATH" parts are more files
 * (fuzz_root.h: relative ones go to /etc/ssh, where a relative Include
 * looks, e.g. "#%file sshd_config.d/10-pam.conf"), in a root of their
 * own.  It is read as lint reads it, from /etc/ssh/sshd_config with
 * Includes under /etc/ssh.
 *
 * Checked: 0 is returned; the answer is "absent" only where the main
 * file is not there; "UsePAM yes" (or "no") is decided at a line that says
 * UsePAM and yes (or no), or nowhere (line 0 of the main file) for
 * "no"; "unknown" says why, at a line the file has; nothing but
 * "unknown" has a why.  And no leak, no sanitizer report. */
#include "fuzz_root.h"

#include "sshdconf.h"

/* Line n of the file at path (in the root), NUL-terminated; NULL when
 * the file holds a NUL byte (sshd joins such a line to the next, so its
 * numbers are not the file's) or cannot be read. */
static char *file_line(const char *path, long n)
{
	char *text = NULL, *line = NULL;
	size_t len = 0, cap = 0;
	FILE *f = fopen(path, "re");

	if (!f)
		return NULL;
	for (int c; (c = getc(f)) != EOF;) {
		if (len + 1 >= cap && !(text = realloc(text, cap = cap * 2 + 64)))
			abort();
		text[len++] = (char)c;
	}
	fclose(f);
	if (!text || memchr(text, '\0', len)) {
		free(text);
		return NULL;
	}
	text[len] = '\0';
	for (char *cur = text, *l; (l = strsep(&cur, "\n"));)
		if (--n == 0) {
			if (!(line = strdup(l)))
				abort();
			break;
		}
	free(text);
	/* without quotes and backslashes: sshd reads U"seP"AM as UsePAM */
	if (line) {
		char *w = line;

		for (const char *q = line; *q; q++)
			if (!strchr("\"'\\", *q))
				*w++ = *q;
		*w = '\0';
	}
	return line;
}

static void check_decided(const struct dg_sshdconf *c, const char *value)
{
	char *line;

	if (c->line == 0) {
		if (strcmp(value, "no") || strcmp(c->file, DG_SSHDCONF_PATH))
			fz_fail("UsePAM %s is decided by no line", value);
		return;
	}
	fzr_check_line(c->file, c->line, "UsePAM");
	if (!(line = file_line(c->file, c->line)))
		return;
	if (!strcasestr(line, "usepam") || !strcasestr(line, value))
		fz_fail("UsePAM %s is decided at %s:%d, which says \"%s\"",
			value, c->file, c->line, line);
	free(line);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct dg_sshdconf c;
	int r;

	fzr_setup("fuzz-sshdconf");
	fzr_populate(data, size, "etc/ssh/sshd_config", "etc/ssh");
	fzr_enter();
	r = dg_sshdconf_read(DG_SSHDCONF_PATH, DG_SSHDCONF_DIR, &c);
	if (r != 0)
		fz_fail("dg_sshdconf_read returned %d", r);
	if (c.line < 0)
		fz_fail("line %d", c.line);
	if (fzr_verbose())
		fprintf(stderr, "  pam %d at %s:%d %s\n", (int)c.pam,
			c.file ? c.file : "-", c.line, c.why ? c.why : "");
	switch (c.pam) {
	case DG_SSHDCONF_PAM:
	case DG_SSHDCONF_NO_PAM:
		if (!c.file || c.why)
			fz_fail("UsePAM decided with no file, or a why");
		check_decided(&c, c.pam == DG_SSHDCONF_PAM ? "yes" : "no");
		break;
	case DG_SSHDCONF_UNKNOWN:
		if (!c.file || !c.why || !*c.why)
			fz_fail("unknown, and no file or no why");
		fzr_check_line(c.file, c.line, "unknown");
		break;
	case DG_SSHDCONF_ABSENT: {
		struct stat st;

		/* "#%symlink" to nowhere */
		if (stat(DG_SSHDCONF_PATH, &st) == 0 || errno != ENOENT)
			fz_fail("absent, and %s is there", DG_SSHDCONF_PATH);
		if (c.file || c.why || c.line)
			fz_fail("absent, with a file, a why or a line");
		break;
	}
	default:
		fz_fail("answer %d", (int)c.pam);
	}
	fzr_leave();
	dg_sshdconf_free(&c);
	return 0;
}
