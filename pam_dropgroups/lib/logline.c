/* The fields of a login's log line: stable key=value pairs that a log
 * pipeline can split without reading the free text after them. */
#include "logline.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

/* [A-Za-z0-9._:/@+(),-]: a look-up per byte (not strspn's set built for
 * each value, nor a chain of tests: the dropped list is most of the
 * line's bytes) */
#define R10(c) [c] = 1, [c + 1] = 1, [c + 2] = 1, [c + 3] = 1, [c + 4] = 1, \
	       [c + 5] = 1, [c + 6] = 1, [c + 7] = 1, [c + 8] = 1, [c + 9] = 1
static const bool bare_table[256] = {
	R10('0'), R10('A'), R10('A' + 10), ['U'] = 1, ['V'] = 1, ['W'] = 1,
	['X'] = 1, ['Y'] = 1, ['Z'] = 1, R10('a'), R10('a' + 10), ['u'] = 1,
	['v'] = 1, ['w'] = 1, ['x'] = 1, ['y'] = 1, ['z'] = 1,
	['.'] = 1, ['_'] = 1, [':'] = 1, ['/'] = 1, ['@'] = 1, ['+'] = 1,
	['('] = 1, [')'] = 1, [','] = 1, ['-'] = 1,
};
#undef R10

static bool bare_char(unsigned char c)
{
	return bare_table[c];
}

/* (a real "-" is quoted: bare, it means "not known") */
static bool bare(const char *v)
{
	if (!*v || strcmp(v, "-") == 0)
		return false;
	for (const unsigned char *p = (const unsigned char *)v; *p; p++)
		if (!bare_char(*p))
			return false;
	return true;
}

static void put_key(struct dg_util_sb *b, const char *key)
{
	if (strcmp(key, "service") != 0)
		dg_util_sb_putc(b, ' ');
	dg_util_sb_puts(b, key);
	dg_util_sb_putc(b, '=');
}

static const char hex[] = "0123456789abcdef";

/* \xHH for byte c. */
static void put_hex(struct dg_util_sb *b, unsigned char c)
{
	char esc[4] = {'\\', 'x', hex[c >> 4], hex[c & 15]};

	dg_util_sb_add(b, esc, sizeof(esc));
}

/* Not printable ASCII: a control byte, DEL, or any byte of 0x80 and
 * above (UTF-8's C1 controls, U+2028 and the bidi controls among them,
 * or no UTF-8 at all: each is some reader's line break or escape). */
static bool special(unsigned char c)
{
	return c < 0x20 || c >= 0x7f;
}

static void put(struct dg_util_sb *b, const char *key, const char *v)
{
	put_key(b, key);
	if (!v || !*v) {
		dg_util_sb_putc(b, '-');
		return;
	}
	if (bare(v)) {
		dg_util_sb_puts(b, v);
		return;
	}
	dg_util_sb_putc(b, '"');
	for (const unsigned char *p = (const unsigned char *)v; *p; p++) {
		if (*p == '"' || *p == '\\') {
			dg_util_sb_putc(b, '\\');
			dg_util_sb_putc(b, (char)*p);
		} else if (special(*p)) {
			put_hex(b, *p);
		} else {
			dg_util_sb_putc(b, (char)*p);
		}
	}
	dg_util_sb_putc(b, '"');
}

static void put_number(struct dg_util_sb *b, const char *key, long long n)
{
	if (n < 0) {
		put(b, key, NULL);
		return;
	}
	put_key(b, key); /* digits are bare */
	dg_util_sb_uint(b, (unsigned long long)n);
}

/* (built with dg_util_sb: an open_memstream and a fprintf per piece cost
 * more than the rest of a small login's log line) */
char *dg_logline_fields(const struct dg_logline *l)
{
	struct dg_util_sb b = {0};

	put(&b, "service", l->service);
	put(&b, "user", l->user);
	put_number(&b, "uid", l->uid);
	put(&b, "rule", l->rule);
	put(&b, "result", l->result);
	put(&b, "dropped", l->dropped);
	if (l->dropped_more)
		put_number(&b, "dropped_more", (long long)l->dropped_more);
	put_number(&b, "kept", l->kept);
	return dg_util_sb_take(&b);
}

/* Is there a special byte in the n bytes at s?  Eight at a time (a
 * login's line is a few hundred bytes, logged at every login): a byte
 * of x has its high bit set where it is 0x80 or above; the high bit of
 * a byte of (x - 0x20..) & ~x is set where a byte of x is below 0x20,
 * and of the same for x ^ 0x7f.. with 0x01.. where one is 0x7f; a
 * borrow can only set bits above a byte that is such a byte, so the
 * answer is exact. */
static bool has_special(const char *s, size_t n)
{
	const uint64_t ones = 0x0101010101010101u, highs = ones * 0x80;
	size_t i = 0;

	for (; i + 8 <= n; i += 8) {
		uint64_t x, del;

		memcpy(&x, s + i, sizeof(x));
		del = x ^ (ones * 0x7f);
		if ((x & highs) || ((x - ones * 0x20) & ~x & highs) ||
		    ((del - ones) & ~del & highs))
			return true;
	}
	for (; i < n; i++)
		if (special((unsigned char)s[i]))
			return true;
	return false;
}

char *dg_logline_one_line(const char *text, bool *oom)
{
	const unsigned char *p = (const unsigned char *)text;
	struct dg_util_sb b = {0};
	char *line;

	*oom = false;
	if (!has_special(text, strlen(text)))
		return NULL; /* the common line: no copy */
	while (!special(*p))
		p++;
	dg_util_sb_add(&b, text, (size_t)(p - (const unsigned char *)text));
	for (; *p; p++)
		if (special(*p))
			put_hex(&b, *p);
		else
			dg_util_sb_putc(&b, (char)*p);
	if (!(line = dg_util_sb_take(&b)))
		*oom = true;
	return line;
}
