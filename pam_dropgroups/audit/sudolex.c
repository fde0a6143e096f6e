/* sudoers text to logical lines, as sudo's lexer (toke.l) reads it.
 *
 * The lines of the sudoers reader differ from the other files' in
 * three ways, each of which once hid a "!%group" that sudo applies:
 * a comment ends at its own newline even after a backslash (so the next
 * line is a line of its own), a continuation may have blanks and a CR
 * between the backslash and the newline, and a '#' is no comment in a
 * quoted string nor before a uid ("#-1").  Includes are sudo's too:
 * "#include" only at the very start of a line and before a blank (else
 * a comment), "@include" after blanks as well. */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "sudolex.h"
#include "util.h"

#define MAX_FILE (16u << 20)

struct text {
	char *v;
	size_t n, cap;
};

/* The length of a continuation at q: a backslash, blanks, CR? LF; or 0. */
static size_t continuation(const char *q)
{
	const char *p = q + 1;

	if (*q != '\\')
		return 0;
	while (*p == ' ' || *p == '\t')
		p++;
	if (*p == '\r')
		p++;
	return *p == '\n' ? (size_t)(p + 1 - q) : 0;
}

/* Does a '#' at q start a comment, not a uid or gid (#123, #-1)? */
static bool comment_at(const char *q)
{
	const char *p = q + 1;

	if (*p == '-')
		p++;
	return !isdigit((unsigned char)*p);
}

static bool keyword(const char *q, const char *kw, bool quote_ends)
{
	size_t l = strlen(kw);

	return !strncmp(q, kw, l) &&
	       (q[l] == ' ' || q[l] == '\t' || (quote_ends && q[l] == '"'));
}

/* Is the line that starts at bol (its first blanks at q) an include,
 * read to its end without comments or continuations? */
static bool include_line(const char *bol, const char *q)
{
	if (q == bol &&
	    (keyword(q, "#include", false) || keyword(q, "#includedir", false)))
		return true;
	return keyword(q, "@include", true) || keyword(q, "@includedir", true);
}

/* One logical line from *p on, into t (NUL-terminated); *p and *lineno
 * moved past it.  0 or -ENOMEM. */
static int next_line(const char **p, int *lineno, struct text *t)
{
	const char *q = *p, *bol = q;
	bool quoted = false, verbatim;

	while (*q == ' ' || *q == '\t')
		q++;
	verbatim = include_line(bol, q);
	for (; *q && *q != '\n'; q++) {
		size_t c = verbatim ? 0 : continuation(q);

		if (c) {
			q += c - 1;
			++*lineno;
			if (DG_APPEND(t, ' ') < 0)
				return -ENOMEM;
			continue;
		}
		if (!verbatim && *q == '"')
			quoted = !quoted;
		if (!verbatim && !quoted && *q == '#' && comment_at(q)) {
			q += strcspn(q, "\n");
			break;
		}
		if (!verbatim && *q == '\\' && q[1] && q[1] != '\n' &&
		    DG_APPEND(t, *q++) < 0)
			return -ENOMEM;
		if (DG_APPEND(t, *q) < 0)
			return -ENOMEM;
	}
	if (*q == '\n') {
		q++;
		++*lineno;
	}
	*p = q;
	return DG_APPEND(t, '\0') < 0 ? -ENOMEM : 0;
}

int dg_sudolex_split(const char *text, struct dg_lines *out)
{
	struct dg_lines lines = {0};
	int lineno = 1;

	for (const char *p = text; *p;) {
		struct text t = {0};
		struct dg_line l = {.lineno = lineno};

		if (next_line(&p, &lineno, &t) < 0 ||
		    (l.text = t.v, DG_APPEND(&lines, l) < 0)) {
			free(t.v);
			dg_lines_free(&lines);
			return -ENOMEM;
		}
	}
	*out = lines;
	return 0;
}

int dg_sudolex_read(const char *path, struct dg_lines *out)
{
	_cleanup_free_ char *text = NULL;
	size_t len;
	int r = dg_util_read_file(path, 0, MAX_FILE, &text, &len);

	if (r < 0)
		return r == -EISDIR ? -EINVAL : r;
	return dg_sudolex_split(text, out);
}
