/* Where in a line libconfig's parse failed: libconfig reports only the
 * line of a syntax error, and an admin looking at a long line wants the
 * token.  Pure, unit-tested. */
#ifndef DG_SYNTAX_H
#define DG_SYNTAX_H

/* The 1-based byte column, in line `line` of text, of the token at which
 * libconfig's grammar first fails; 0 when that token is not on that
 * line, or text has no syntax error as read here: the caller then says
 * FILE:LINE: alone, never a column that may be wrong. */
int dg_syntax_column(const char *text, int line);

#endif
