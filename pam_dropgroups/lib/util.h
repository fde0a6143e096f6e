/* Small helpers shared by every file: scope-bound cleanup, checked array
 * growth, a growing string, the one control-character test, and reading
 * a whole file.
 * Error paths release what they took through these, so no branch can
 * forget a free (the module lives inside sshd and login for the whole
 * life of the daemon). */
#ifndef DG_UTIL_H
#define DG_UTIL_H

#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static inline void dg_freep(void *p) { free(*(void **)p); }
static inline void dg_closep(int *fd)
{
	if (*fd >= 0)
		(void)close(*fd);
}
static inline void dg_fclosep(FILE **f)
{
	if (*f)
		(void)fclose(*f);
}

#define _cleanup_free_ __attribute__((cleanup(dg_freep)))
#define _cleanup_close_ __attribute__((cleanup(dg_closep)))
#define _cleanup_fclose_ __attribute__((cleanup(dg_fclosep)))

/* fmt and ap formatted into a new string, or NULL on any failure:
 * vasprintf leaves its pointer undefined when it fails, and every caller
 * wants a NULL to test (and to free). */
char *dg_util_vasprintf(const char *fmt, va_list ap)
	__attribute__((format(printf, 1, 0)));

/* Around the one statement that gcc's -fanalyzer reports wrongly (make
 * analyze, HACKING.md "Static analysis"), with the reason above it:
 *	DG_ANALYZER_IGNORE("-Wanalyzer-malloc-leak")
 *	statement;
 *	DG_ANALYZER_END
 * Nothing for clang, whose analyzer has its own way (__clang_analyzer__),
 * nor for a gcc without -fanalyzer. */
#if defined(__GNUC__) && !defined(__clang__) && __GNUC__ >= 10
#define DG_PRAGMA_(x) _Pragma(#x)
#define DG_ANALYZER_IGNORE(w)                                                  \
	_Pragma("GCC diagnostic push") DG_PRAGMA_(GCC diagnostic ignored w)
#define DG_ANALYZER_END _Pragma("GCC diagnostic pop")
#else
#define DG_ANALYZER_IGNORE(w)
#define DG_ANALYZER_END
#endif

/* From here on, the analyzers (make analyze: clang's defines
 * __clang_analyzer__, the gcc run DG_ANALYZER) take cond as given; the
 * comment beside it says why it holds.  It compiles to nothing. */
#if defined(__clang_analyzer__) || defined(DG_ANALYZER)
#define DG_ANALYZER_ASSUME(cond)                                               \
	do {                                                                   \
		if (!(cond))                                                   \
			__builtin_unreachable();                               \
	} while (0)
#else
#define DG_ANALYZER_ASSUME(cond)                                               \
	do {                                                                   \
	} while (0)
#endif

/* Hand ownership of a cleanup-managed pointer to the caller. */
#define DG_TAKE(p)                                                             \
	({                                                                     \
		__typeof__(p) _taken = (p);                                    \
		(p) = NULL;                                                    \
		_taken;                                                        \
	})

/* Grow *v (elements of size elem) so that it holds at least need elements.
 * Returns 0, or -ENOMEM with *v and *cap unchanged. */
int dg_util_grow(void **v, size_t *cap, size_t need, size_t elem);

/* Append one element to a {v, n, cap} vector: 0 or -ENOMEM.  The value
 * is spelled out here rather than passed on from dg_util_grow: callers
 * test "< 0" and then free what they did not hand over, so a result
 * that is neither 0 nor negative would leak it, and the contract must
 * hold where the caller (and an analyzer of its file) can see it. */
#define DG_APPEND(vec, elem)                                                   \
	({                                                                     \
		int _r = dg_util_grow((void **)&(vec)->v, &(vec)->cap,         \
				      (vec)->n + 1, sizeof(*(vec)->v));        \
		if (_r == 0)                                                   \
			(vec)->v[(vec)->n++] = (elem);                         \
		_r == 0 ? 0 : -ENOMEM;                                         \
	})

/* n zeroed elements of type t; never a NULL for n == 0 on success, so
 * that NULL always means out of memory. */
#define dg_new0(t, n) ((t *)calloc((n) ? (n) : 1, sizeof(t)))

/* The one definition of a control character: how many bytes of one p
 * starts with.  C0 (below 0x20) and DEL are one byte; with c1, UTF-8's
 * C1 controls (U+0080..U+009F, 0xc2 0x80..0x9f) are two.  0: none.  A
 * caller that lets tab or CR through says so where it calls this. */
static inline size_t dg_util_control_len(const char *p, bool c1)
{
	const unsigned char *u = (const unsigned char *)p;

	if (u[0] < 0x20 || u[0] == 0x7f)
		return 1;
	return c1 && u[0] == 0xc2 && u[1] >= 0x80 && u[1] <= 0x9f ? 2 : 0;
}

/* A string built by appending, for the log line (logline.c, the module's
 * group lists): open_memstream and fprintf cost a zeroed 8 KB buffer
 * and a format parse per piece, a third of a small login's
 * instructions.  Start from {0}; a failed append sets bad and the rest
 * are no-ops; dg_util_sb_take hands out the NUL-terminated string, or
 * NULL (and frees it) when bad. */
struct dg_util_sb {
	char *s;
	size_t len, cap;
	bool bad;
};

void dg_util_sb_add(struct dg_util_sb *b, const char *p, size_t n);
void dg_util_sb_puts(struct dg_util_sb *b, const char *p);

static inline void dg_util_sb_putc(struct dg_util_sb *b, char c)
{
	/* in place while there is room (and room for the NUL after it) */
	if (!b->bad && b->s && b->cap - b->len > 1) {
		b->s[b->len++] = c;
		b->s[b->len] = '\0';
	} else {
		dg_util_sb_add(b, &c, 1);
	}
}
/* n in decimal */
void dg_util_sb_uint(struct dg_util_sb *b, unsigned long long n);
char *dg_util_sb_take(struct dg_util_sb *b);

/* Read fd to its end (size_hint: its expected size) into a
 * NUL-terminated *text of *len bytes.  0, -ENOMEM, -EFBIG when it holds
 * more than max bytes, or read's -errno. */
int dg_util_read_whole(int fd, size_t size_hint, size_t max, char **text,
		       size_t *len);

/* dg_util_read_whole of fd, which fstat described as st, with its size
 * as the first guess: still to a read of nothing, since some file
 * systems answer short or stat a size that is not the file's. */
struct stat;
int dg_util_read_stat(int fd, const struct stat *st, size_t max, char **text,
		      size_t *len);

/* Read the regular file at path whole, as dg_util_read_whole does.  oflags:
 * added to open's flags (O_NOFOLLOW).  The open does not block on a
 * FIFO where a file should be (O_NONBLOCK); anything but a regular file
 * is then refused: -EISDIR for a directory, -EINVAL for the rest.  0, or
 * open's, fstat's or dg_util_read_whole's -errno. */
int dg_util_read_file(const char *path, int oflags, size_t max, char **text,
		      size_t *len);

#endif
