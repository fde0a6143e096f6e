/* What `dropgroups VERB --help` and `dropgroups help VERB` print: the
 * verb's options and exit codes, one table (help.c) that
 * dropgroups(8)'s OPTIONS and EXIT STATUS follow and
 * tests/integration/40-cli.sh holds to what each parser accepts. */
#ifndef DG_HELP_H
#define DG_HELP_H

#include <stdio.h>

/* Print verb's usage line, its summary, its options and its exit codes
 * on out.  synopsis and summary are the verb's row of cli.c's verbs
 * table; summary's continuation lines may be indented, as the global
 * usage prints them.  -ENOENT when the table has no such verb. */
int dg_help_verb(FILE *out, const char *verb, const char *synopsis,
		 const char *summary);

#endif
