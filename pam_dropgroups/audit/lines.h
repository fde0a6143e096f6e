/* The logical lines of a configuration file, as sshd_config,
 * access.conf and PAM stacks share them (sudoers has its own:
 * sudolex.h): "\\\n" continuations joined,
 * each line numbered where it starts.  Comments differ by file, so each
 * reader strips them itself (dg_lines_strip_comment). */
#ifndef DG_LINES_H
#define DG_LINES_H

#include <stdbool.h>
#include <stddef.h>

struct dg_line {
	char *text; /* owned */
	int lineno;
};

struct dg_lines {
	struct dg_line *v;
	size_t n, cap;
};

/* Split text into lines: 0, or -ENOMEM with *out empty. */
int dg_lines_split(const char *text, struct dg_lines *out);
/* Read the regular file at path whole (not following a symbolic link
 * when nofollow) and split it.  0, or -errno: a directory, a FIFO or
 * another non-file is -EINVAL. */
int dg_lines_read(const char *path, bool nofollow, struct dg_lines *out);
/* Cut s at the first '#' from s on that is not escaped with '\'. */
void dg_lines_strip_comment(char *s);
/* s without leading and trailing white space (trailing cut in place). */
char *dg_lines_trim(char *s);
void dg_lines_free(struct dg_lines *l);

#define _cleanup_lines_ __attribute__((cleanup(dg_lines_free)))

#endif
