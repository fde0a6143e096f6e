/* Logical lines of the configuration files dropgroups audit reads
 * (lines.h): one splitter, so that the informational files join
 * continuations and count lines the same way (sudoers is read as sudo's
 * lexer reads it: sudolex.c). */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>

#include "lines.h"
#include "util.h"

#define MAX_FILE (16u << 20)

/* One line from *p on, its continuations joined; *p and *lineno are
 * moved past it.  The text, or NULL on ENOMEM. */
static char *next_line(const char **p, int *lineno)
{
	struct {
		char *v;
		size_t n, cap;
	} buf = {0};
	const char *q = *p;

	for (; *q && *q != '\n'; q++) {
		if (*q == '\\' && q[1] == '\n') {
			q++;
			++*lineno;
			continue;
		}
		if (DG_APPEND(&buf, *q) < 0)
			goto oom;
	}
	if (*q == '\n') {
		q++;
		++*lineno;
	}
	if (DG_APPEND(&buf, '\0') < 0)
		goto oom;
	*p = q;
	return buf.v;
oom:
	free(buf.v);
	return NULL;
}

int dg_lines_split(const char *text, struct dg_lines *out)
{
	struct dg_lines lines = {0};
	int lineno = 1;

	for (const char *p = text; *p;) {
		struct dg_line l = {.lineno = lineno};

		if (!(l.text = next_line(&p, &lineno)) || DG_APPEND(&lines, l) < 0) {
			free(l.text);
			dg_lines_free(&lines);
			return -ENOMEM;
		}
	}
	*out = lines;
	return 0;
}

int dg_lines_read(const char *path, bool nofollow, struct dg_lines *out)
{
	_cleanup_free_ char *text = NULL;
	size_t len;
	int r = dg_util_read_file(path, nofollow ? O_NOFOLLOW : 0, MAX_FILE,
				  &text, &len);

	/* a directory where a file should be is not readable, as before */
	if (r < 0)
		return r == -EISDIR ? -EINVAL : r;
	return dg_lines_split(text, out);
}

void dg_lines_strip_comment(char *s)
{
	for (char *q = s; *q; q++) {
		if (*q == '\\' && q[1]) {
			q++;
			continue;
		}
		if (*q == '#') {
			*q = '\0';
			return;
		}
	}
}

char *dg_lines_trim(char *s)
{
	while (isspace((unsigned char)*s))
		s++;
	char *e = s + strlen(s);
	while (e > s && isspace((unsigned char)e[-1]))
		*--e = '\0';
	return s;
}

void dg_lines_free(struct dg_lines *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->v[i].text);
	free(l->v);
	*l = (struct dg_lines){0};
}
