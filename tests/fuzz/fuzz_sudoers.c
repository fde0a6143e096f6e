/* libFuzzer target: the sudoers reader of dropgroups audit and lint
 * (audit/sudoers.c, its lexer sudolex.c, and sudoconf.c for sudo.conf).
 *
 * The input is /etc/sudoers; "#%file PATH" parts are more files
 * (fuzz_root.h: relative ones go to /etc/sudoers.d), e.g. /etc/sudo.conf
 * or what an "@include" or "#includedir" names, in a root of their own.
 * They are read as the audit reads them (sudo.conf's sudoers file, then
 * /etc/sudoers.d) and as lint reads them (pam_session), both leniently
 * and strictly, with and without a host name for "%h".  The main file's
 * text also goes straight through the lexer and, as if it were
 * sudo.conf, through sudoconf.c.
 *
 * Checked: the readers return 0 or a -errno; each piece of evidence is
 * a sudoers %group, at a file:line the root has, and no group is
 * evidence twice at one line; each diagnostic is well
 * formed and at a line its file has; where pam_session is off is a
 * Defaults line of a file, with its binding; the lexer's lines are
 * numbered in order within the text and hold no newline; the sudoers
 * file sudo.conf names is one word (or none).  And no leak, no sanitizer
 * report. */
#include "fuzz_root.h"

#include "evidence.h"
#include "lines.h"
#include "sudoconf.h"
#include "sudoers.h"
#include "sudolex.h"

/* how far on to look for the same piece again (evidence is in rule
 * order, so a rule's pieces are together) */
#define FZ_MAX_SAME 256

static long count_lines(const char *text)
{
	long n = 1;

	for (; *text; text++)
		n += *text == '\n';
	return n;
}

static void check_lexer(const char *text)
{
	struct dg_lines lines = {0};
	long n = count_lines(text);
	int prev = 0;

	if (dg_sudolex_split(text, &lines) < 0)
		fz_fail("dg_sudolex_split failed");
	for (size_t i = 0; i < lines.n; i++) {
		const struct dg_line *l = &lines.v[i];

		if (!l->text)
			fz_fail("line %zu has no text", i);
		if (strchr(l->text, '\n'))
			fz_fail("line %zu (at %d) holds a newline", i,
				l->lineno);
		if (l->lineno <= prev || l->lineno > n)
			fz_fail("line %zu is numbered %d, after %d, of %ld", i,
				l->lineno, prev, n);
		prev = l->lineno;
	}
	dg_lines_free(&lines);
}

static void check_sudoconf(const char *text)
{
	struct dg_diags diags = {0};
	char *file = NULL;
	int r = dg_sudoconf_parse(text, "sudo.conf", &file, &diags);

	fz_check_diags(&diags);
	/* "sudoers_file=" alone names "" (which sudo, I believe, refuses:
	 * the audit then reads no sudoers file) */
	if (r == 0 && (!file || strpbrk(file, " \t\n#")))
		fz_fail("sudo.conf names the sudoers file \"%s\"",
			file ? file : "(null)");
	if (r != 0 && (r != -EINVAL || file || !dg_diag_failed(&diags)))
		fz_fail("dg_sudoconf_parse returned %d", r);
	free(file);
	dg_diag_free(&diags);
}

/* "FILE:LINE", as evidence.c writes where. */
static void check_where(const char *where)
{
	const char *colon = strrchr(where, ':');
	char *file, *end;
	long line;

	if (!colon || colon == where)
		fz_fail("evidence at \"%s\"", where);
	line = strtol(colon + 1, &end, 10);
	if (*end || line <= 0)
		fz_fail("evidence at \"%s\"", where);
	if (!(file = strndup(where, (size_t)(colon - where))))
		abort();
	fzr_check_line(file, line, "evidence");
	free(file);
}

static void check_result(int r, const struct dg_diags *diags)
{
	fzr_check_diags(diags);
	if (r > 0 || r < -4095)
		fz_fail("the reader returned %d", r);
	if (r < 0 && r != -ENOMEM && !dg_diag_failed(diags))
		fz_fail("the reader returned %d with no error", r);
}

/* As dropgroups audit reads them. */
static void audit(const struct dg_sudoers_how *how)
{
	struct dg_evidence_store ev = {0};
	struct dg_diags diags = {0};
	char *file = NULL;
	int r = dg_sudoconf_read("/etc/sudo.conf", &file, &diags);

	/* a relative sudoers_file would be read outside the root */
	const char *paths[] = {file && file[0] == '/' ? file : "/etc/sudoers",
			       "/etc/sudoers.d"};

	if (r == -ENOMEM)
		fz_fail("dg_sudoconf_read: no memory");
	r = dg_sudoers_read(paths, 2, how, &ev, &diags);
	check_result(r, &diags);
	for (size_t i = 0; i < ev.n; i++) {
		const struct dg_evidence *e = &ev.v[i];

		if (e->kind != DG_EV_SUDOERS)
			fz_fail("evidence %zu is of kind %d", i, (int)e->kind);
		if (!e->by_gid && !e->name)
			fz_fail("evidence %zu names no group", i);
		if (!e->where)
			fz_fail("evidence %zu is nowhere", i);
		check_where(e->where);
		/* one place, one piece: a rule at where names the group
		 * once however many times its aliases expand to it */
		for (size_t k = i + 1; k < ev.n && k < i + FZ_MAX_SAME; k++)
			if (!strcmp(ev.v[k].where, e->where) &&
			    ev.v[k].by_gid == e->by_gid &&
			    (e->by_gid ? ev.v[k].gid == e->gid
				       : !strcmp(ev.v[k].name, e->name)))
				fz_fail("%s is evidence twice at %s",
					e->name ? e->name : "a gid", e->where);
		if (fzr_verbose())
			fprintf(stderr, "  evidence: %s at %s\n",
				e->name ? e->name : "(gid)", e->where);
	}
	dg_evidence_free(&ev);
	dg_diag_free(&diags);
	free(file);
}

/* As dropgroups lint reads them. */
static void lint(const struct dg_sudoers_how *how)
{
	static const char *const paths[] = {"/etc/sudoers"};
	struct dg_sudoers_session off = {0};
	struct dg_diags diags = {0};
	int r = dg_sudoers_pam_session(paths, 1, how, &off, &diags);

	check_result(r, &diags);
	if (fzr_verbose())
		fprintf(stderr, "  pam_session off: %s:%d %s\n",
			off.file ? off.file : "-", off.line,
			off.defaults ? off.defaults : "-");
	if (off.file) {
		if (off.line <= 0)
			fz_fail("pam_session is off at line %d", off.line);
		fzr_check_line(off.file, off.line, "pam_session");
		if (!off.defaults || strncmp(off.defaults, "Defaults", 8) ||
		    (off.scope && !strchr(":>@!", off.scope)) ||
		    (off.scope != 0) != (off.defaults[8] != '\0') ||
		    (off.scope && off.defaults[8] != off.scope))
			fz_fail("pam_session is off in \"%s\", scope '%c'",
				off.defaults ? off.defaults : "(null)",
				off.scope ? off.scope : '0');
	} else if (off.line || off.defaults || off.scope) {
		fz_fail("pam_session is on, and off.line is %d", off.line);
	}
	dg_sudoers_session_free(&off);
	dg_diag_free(&diags);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const struct dg_sudoers_how hows[] = {
		{.explicit = false, .strict = false, .shost = "fuzzhost"},
		{.explicit = true, .strict = true, .shost = NULL},
	};
	char *text = fz_text(data, size);

	check_lexer(text);
	check_sudoconf(text);
	free(text);

	fzr_setup("fuzz-sudoers");
	fzr_populate(data, size, "etc/sudoers", "etc/sudoers.d");
	fzr_enter();
	for (size_t i = 0; i < sizeof(hows) / sizeof(*hows); i++) {
		audit(&hows[i]);
		lint(&hows[i]);
	}
	fzr_leave();
	return 0;
}
