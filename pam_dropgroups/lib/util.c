/* Checked array growth, string lists, and reading a whole file. */
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <unistd.h>
#include <string.h>
#include <sys/stat.h>
#include <strings.h>

int dg_grow(void **v, size_t *cap, size_t need, size_t elem)
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

char *dg_vasprintf(const char *fmt, va_list ap)
{
	char *s = NULL;

	return vasprintf(&s, fmt, ap) < 0 ? NULL : s;
}

int dg_strings_add(struct dg_strings *s, const char *str)
{
	_cleanup_free_ char *copy = strdup(str);

	if (!copy || DG_APPEND(s, copy) < 0)
		return -ENOMEM;
	copy = NULL;
	return 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int cmp_str_nocase(const void *a, const void *b)
{
	return strcasecmp(*(char *const *)a, *(char *const *)b);
}

static void sort_unique(struct dg_strings *s, int (*cmp)(const void *, const void *))
{
	size_t out = 0;

	if (s->n < 2)
		return;
	qsort(s->v, s->n, sizeof(*s->v), cmp);
	for (size_t i = 0; i < s->n; i++) {
		if (out && cmp(&s->v[out - 1], &s->v[i]) == 0)
			free(s->v[i]);
		else
			s->v[out++] = s->v[i];
	}
	s->n = out;
}

void dg_strings_sort_unique(struct dg_strings *s)
{
	sort_unique(s, cmp_str);
}

void dg_strings_sort_unique_nocase(struct dg_strings *s)
{
	sort_unique(s, cmp_str_nocase);
}

bool dg_strings_has(const struct dg_strings *s, const char *str)
{
	for (size_t i = 0; i < s->n; i++)
		if (strcmp(s->v[i], str) == 0)
			return true;
	return false;
}

bool dg_strings_has_sorted(const struct dg_strings *s, const char *str)
{
	return s->n && bsearch(&str, s->v, s->n, sizeof(*s->v), cmp_str);
}

bool dg_strings_has_nocase(const struct dg_strings *s, const char *str)
{
	return s->n && bsearch(&str, s->v, s->n, sizeof(*s->v), cmp_str_nocase);
}

void dg_strings_free(struct dg_strings *s)
{
	for (size_t i = 0; i < s->n; i++)
		free(s->v[i]);
	free(s->v);
	*s = (struct dg_strings){0};
}

struct dg_arena {
	struct dg_arena *next;
	void *adopted; /* a block from malloc, or NULL */
	size_t used, size;
	max_align_t data[];
};

#define ARENA_BLOCK (64u << 10)

void *dg_arena_alloc(struct dg_arena **arena, size_t size)
{
	struct dg_arena *a = *arena;
	size_t align = sizeof(max_align_t);
	void *p;

	if (size > SIZE_MAX - align)
		return NULL;
	size = (size + align - 1) / align * align;
	if (!a || a->adopted || a->size - a->used < size) {
		size_t room = size > ARENA_BLOCK ? size : ARENA_BLOCK;

		if (room > SIZE_MAX - sizeof(*a) ||
		    !(a = calloc(1, sizeof(*a) + room)))
			return NULL;
		a->size = room;
		a->next = *arena;
		*arena = a;
	}
	p = (char *)a->data + a->used;
	a->used += size;
	return p;
}

int dg_arena_adopt(struct dg_arena **arena, void *mem)
{
	struct dg_arena *a = calloc(1, sizeof(*a));

	if (!a) {
		free(mem);
		return -ENOMEM;
	}
	a->adopted = mem;
	a->next = *arena;
	*arena = a;
	return 0;
}

void dg_arena_free(struct dg_arena **arena)
{
	while (*arena) {
		struct dg_arena *next = (*arena)->next;

		free((*arena)->adopted);
		free(*arena);
		*arena = next;
	}
}

int dg_read_whole(int fd, size_t size_hint, size_t max, char **text,
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
	}
	if (n > max)
		return -EFBIG;
	buf[n] = '\0';
	*len = n;
	*text = DG_TAKE(buf);
	return 0;
}

int dg_read_file(const char *path, int oflags, size_t max, char **text,
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
	return dg_read_whole(fd, (size_t)st.st_size, max, text, len);
}
