/* Escaping names for dropgroups audit's report and warnings (escape.h):
 * kept apart so that the walk and the report show a name the same way,
 * through the one definition of a control character (lib/util.h). */
#include <stdio.h>
#include <stdlib.h>

#include "escape.h"
#include "util.h"

void dg_escape_text(FILE *f, const char *s)
{
	for (const char *p = s; *p; p++) {
		size_t control = dg_util_control_len(p, true);

		if (*p == '\\')
			fputs("\\\\", f);
		else if (*p == '\n')
			fputs("\\n", f);
		else if (control == 1)
			fprintf(f, "\\x%02x", (unsigned char)*p);
		else if (control == 2)
			fprintf(f, "\\xc2\\x%02x", (unsigned char)*++p);
		else
			fputc(*p, f);
	}
}

char *dg_escape_text_dup(const char *s)
{
	char *shown = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&shown, &len);

	if (!f)
		return NULL;
	dg_escape_text(f, s);
	if (fclose(f) != 0) {
		free(shown);
		return NULL;
	}
	return shown;
}

void dg_escape_json(FILE *f, const char *s)
{
	fputc('"', f);
	for (const char *p = s; *p; p++) {
		unsigned char u = (unsigned char)*p;

		if (u == '"' || u == '\\')
			fprintf(f, "\\%c", u);
		else if (dg_util_control_len(p, false) || u >= 0x80)
			fprintf(f, "\\u%04x", u);
		else
			fputc(u, f);
	}
	fputc('"', f);
}
