/* The key=value fields that lead every line the module logs for a login
 * (pam_dropgroups(8), LOGGING): pure, so the format is unit-tested. */
#ifndef DG_LOGLINE_H
#define DG_LOGLINE_H

#include <stdbool.h>
#include <stddef.h>

struct dg_logline {
	const char *service, *user; /* NULL: not known */
	long long uid;              /* -1: not known */
	const char *rule;           /* NULL: none matched, or not known */
	const char *result;         /* dropped, would-drop, no-rule, ... */
	const char *dropped;        /* "audio(29),video(44)"; NULL: none */
	size_t dropped_more;        /* named past those in dropped */
	long long kept;             /* groups kept; -1: not known */
};

/* "service=sshd user=alice uid=1001 rule=ssh result=dropped
 * dropped=audio(29) kept=4" (dropped_more=N only when N > 0).  A value
 * that is empty or not known is "-"; one that is "-" itself, or has a
 * character outside
 * [A-Za-z0-9._:/@+(),-] is double-quoted, with \" \\ and \xHH for a
 * quote, a backslash and any byte outside printable ASCII.  NULL on
 * ENOMEM. */
char *dg_logline_fields(const struct dg_logline *l);

/* A message as one line of printable ASCII: NULL when text has no
 * byte outside it (a control byte below 0x20, DEL, or one of 0x80 and
 * above) and goes as it is, else a copy (*oom set when it cannot be
 * made) with each such byte written \xHH, as the fields write it.
 * Names in the free text are not the module's choice (in sshd's auth
 * stack the user name is the client's), and a newline in one, a C1
 * control or U+2028 in UTF-8, would start a line of the client's own
 * for some reader of the log.  Only those bytes: the fields' quoting
 * and escapes pass through unchanged. */
char *dg_logline_one_line(const char *text, bool *oom);

#endif
