/* sudoers text to logical lines, as sudo's lexer reads them
 * (sudolex.c). */
#ifndef DG_SUDOLEX_H
#define DG_SUDOLEX_H

#include "lines.h"

/* Split sudoers text into logical lines as sudo 1.9's lexer reads it:
 * a backslash, blanks and a newline (or CR LF) join two lines; a '#'
 * outside a quoted string and not a uid or gid ("#123", "#-1") starts
 * a comment that ends at its own line's end, continuation or not; a
 * "#include" or "#includedir" at the very start of a line, then a
 * blank, is an include, kept verbatim to the end of its line, as is an
 * "@include" line (a '#' may be part of its path).  Each line is
 * numbered where it starts.  0, or -ENOMEM with *out empty. */
int dg_sudolex_split(const char *text, struct dg_lines *out);

/* Read the file at path (links followed, as sudo follows them) and
 * split it: 0, or -errno (a directory or another non-file: -EINVAL). */
int dg_sudolex_read(const char *path, struct dg_lines *out);

#endif
