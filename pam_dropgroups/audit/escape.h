/* How dropgroups audit shows a name it did not choose (a path from the
 * tree, a file:line): escaped, so that no name can end a row, forge one,
 * or send a terminal sequence.  Used by the report and by the walk's
 * warnings, which must not be forgeable either, and (the JSON escape) by
 * the --json of check, lint and explain (cli/json.c), so that every
 * document of dropgroups writes a byte the same way. */
#ifndef DG_ESCAPE_H
#define DG_ESCAPE_H

#include <stdio.h>

/* For the text report: a control byte or a backslash as a C escape (\n,
 * \x1b, \\, a C1 control as \xc2\x9b). */
void dg_escape_text(FILE *f, const char *s);
/* The same, as a new string; NULL on ENOMEM. */
char *dg_escape_text_dup(const char *s);
/* A JSON string, quotes included: each byte that is a control or not
 * ASCII as \u00XX (bytes, not characters: a path need not be UTF-8). */
void dg_escape_json(FILE *f, const char *s);

#endif
