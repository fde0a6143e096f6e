/* Checked array growth, formatting into a new string, a growing string,
 * and reading a whole file. */
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <unistd.h>
#include <string.h>
#include <sys/stat.h>
#include <strings.h>

int dg_util_grow(void **v, size_t *cap, size_t need, size_t elem)
{
	size_t ncap;
	void *nv;

	if (need <= *cap)
		return 0;
	ncap = *cap ? *cap : 8;
	while (ncap < need) {
		if (ncap > SIZE_MAX / 2)
			return -ENOMEM;
		ncap *= 2;
	}
	if (ncap > SIZE_MAX / elem)
		return -ENOMEM;
	nv = realloc(*v, ncap * elem);
	if (!nv)
		return -ENOMEM;
	*v = nv;
	*cap = ncap;
	return 0;
}

char *dg_util_vasprintf(const char *fmt, va_list ap)
{
	char *s = NULL;

	return vasprintf(&s, fmt, ap) < 0 ? NULL : s;
}

void dg_util_sb_add(struct dg_util_sb *b, const char *p, size_t n)
{
	if (b->bad)
		return;
	/* room for the NUL too, so that take never grows; a line's worth
	 * at first, so that a log line grows once or not at all */
	if ((!b->s || b->cap - b->len <= n) &&
	    (n > SIZE_MAX - b->len - 256 ||
	     dg_util_grow((void **)&b->s, &b->cap, b->len + n + 256, 1) < 0)) {
		b->bad = true;
		return;
	}
	/* grown above when s was NULL: dg_util_grow's 0 comes with a
	 * buffer then, as cap was 0 */
	DG_ANALYZER_ASSUME(b->s != NULL);
	memcpy(b->s + b->len, p, n);
	b->len += n;
	b->s[b->len] = '\0';
}

void dg_util_sb_puts(struct dg_util_sb *b, const char *p)
{
	dg_util_sb_add(b, p, strlen(p));
}

void dg_util_sb_uint(struct dg_util_sb *b, unsigned long long n)
{
	char text[24];
	size_t i = sizeof(text);

	do
		text[--i] = (char)('0' + n % 10);
	while ((n /= 10) != 0);
	dg_util_sb_add(b, text + i, sizeof(text) - i);
}

char *dg_util_sb_take(struct dg_util_sb *b)
{
	char *s = b->s;

	if (!b->bad && !s)
		dg_util_sb_add(b, "", 0);
	s = b->s;
	b->s = NULL;
	b->len = b->cap = 0;
	if (b->bad) {
		free(s);
		return NULL;
	}
	return s;
}

int dg_util_read_whole(int fd, size_t size_hint, size_t max, char **text,
		       size_t *len)
{
	size_t cap = size_hint + 1, n = 0;
	_cleanup_free_ char *buf = malloc(cap + 1);

	if (!buf)
		return -ENOMEM;
	for (;;) {
		ssize_t r;

		if (n == cap) {
			if (cap > max)
				break;
			cap *= 2;
			char *nb = realloc(buf, cap + 1);
			if (!nb)
				return -ENOMEM;
			buf = nb;
		}
		r = read(fd, buf + n, cap - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -errno;
		if (r == 0)
			break;
		n += (size_t)r;
		/* No end before a read of nothing, even with every byte
		 * fstat counted: FUSE with direct_io, 9p and network file
		 * systems can answer a read short, or stat a size that is
		 * not the file's, and /etc/group cut mid-line names a gid
		 * wrongly (a restricting group dropped).  One more system
		 * call per file is the price. */
	}
	if (n > max)
		return -EFBIG;
	buf[n] = '\0';
	*len = n;
	*text = DG_TAKE(buf);
	return 0;
}

int dg_util_read_stat(int fd, const struct stat *st, size_t max, char **text,
		      size_t *len)
{
	return dg_util_read_whole(fd, st->st_size > 0 ? (size_t)st->st_size : 0,
				  max, text, len);
}

int dg_util_read_file(const char *path, int oflags, size_t max, char **text,
		      size_t *len)
{
	_cleanup_close_ int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY |
						    O_NONBLOCK | oflags);
	struct stat st;

	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) < 0)
		return -errno;
	if (!S_ISREG(st.st_mode))
		return S_ISDIR(st.st_mode) ? -EISDIR : -EINVAL;
	return dg_util_read_stat(fd, &st, max, text, len);
}
