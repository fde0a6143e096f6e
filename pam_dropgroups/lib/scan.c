/* A small scanner that walks a policy text the way libconfig 1.5's
 * scanner does (comments, strings, names, numbers), only far enough to
 * see what libconfig would silently get wrong.  It never decides what a
 * text means: libconfig still parses it, and config.c checks that it
 * parsed it to the end. */
#include "scan.h"
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "util.h"

struct scan {
	const char *file;
	const char *p;
	int line;
	struct dg_diags *diags;
	int errors;
};

#define scan_error(s, line, ...)                                               \
	do {                                                                   \
		dg_diag_add((s)->diags, DG_ERROR, (s)->file, (line),           \
			    __VA_ARGS__);                                      \
		(s)->errors++;                                                 \
	} while (0)

/* A number in a message: at most this many characters of it. */
#define SHOWN 40
#define SHOWN_LEN(len) ((int)((len) > SHOWN ? SHOWN : (len)))
#define SHOWN_MORE(len) ((len) > SHOWN ? "..." : "")

/* libconfig honours @include only at the start of a line (after blanks);
 * refusing every such line, wherever it is, is a superset of that. */
int dg_scan_find_include(const char *file, const char *text,
			 struct dg_diags *diags)
{
	struct scan s0 = {.file = file, .diags = diags}, *s = &s0;
	int line = 1;

	for (const char *l = text; l && *l; line++) {
		const char *c = l;

		while (*c == ' ' || *c == '\t' || *c == '\r' || *c == '\f' ||
		       *c == '\v')
			c++;
		if (strncmp(c, "@include", 8) == 0)
			scan_error(s, line,
				   "@include is not allowed; put extra policy "
				   "in the include_dir, where each file is "
				   "checked");
		l = strchr(l, '\n');
		if (l)
			l++;
	}
	return s->errors ? -EINVAL : 0;
}

static size_t span(const char *p, const char *set)
{
	return strspn(p, set);
}

#define DIGITS "0123456789"
#define HEXDIGITS "0123456789abcdefABCDEF"

/* Length of an L or LL suffix at p. */
static size_t l_suffix(const char *p)
{
	return p[0] == 'L' ? (p[1] == 'L' ? 2 : 1) : 0;
}

/* Longest float at p (libconfig's {float}), or 0. */
static size_t float_length(const char *p)
{
	const char *q = p + (*p == '-' || *p == '+');
	size_t digits = span(q, DIGITS), frac = 0, exp = 0, best = 0;
	const char *e;

	/* [-+]?[0-9]*\.[0-9]*([eE][-+]?[0-9]+)? */
	if (q[digits] == '.') {
		frac = 1 + span(q + digits + 1, DIGITS);
		e = q + digits + frac;
		if ((*e == 'e' || *e == 'E')) {
			const char *x = e + 1 + (e[1] == '-' || e[1] == '+');

			exp = span(x, DIGITS) ? (size_t)(x - e) + span(x, DIGITS) : 0;
		}
		best = (size_t)(q - p) + digits + frac + exp;
	}
	/* [-+]?[0-9]+(\.[0-9]*)?[eE][-+]?[0-9]+ */
	if (digits) {
		frac = q[digits] == '.' ? 1 + span(q + digits + 1, DIGITS) : 0;
		e = q + digits + frac;
		if (*e == 'e' || *e == 'E') {
			const char *x = e + 1 + (e[1] == '-' || e[1] == '+');
			size_t xd = span(x, DIGITS);

			if (xd && (size_t)(x + xd - p) > best)
				best = (size_t)(x + xd - p);
		}
	}
	return best;
}

/* Does the decimal digit string [d, d+n) with sign neg fit in
 * [-(max+1), max]? */
static bool decimal_fits(const char *d, size_t n, bool neg, uint64_t max)
{
	uint64_t v = 0, limit = neg ? max + 1 : max;

	for (size_t i = 0; i < n; i++) {
		unsigned digit = (unsigned)(d[i] - '0');

		if (v > (limit - digit) / 10)
			return false;
		v = v * 10 + digit;
	}
	return true;
}

static bool hex_fits(const char *h, size_t n, uint64_t max)
{
	uint64_t v = 0;

	for (size_t i = 0; i < n; i++) {
		unsigned digit = (unsigned)(isdigit((unsigned char)h[i])
						    ? h[i] - '0'
						    : (tolower((unsigned char)h[i]) - 'a' + 10));

		if (v > (max - digit) / 16)
			return false;
		v = v * 16 + digit;
	}
	return true;
}

/* The integer of len characters at p, which libconfig would wrap. */
static void report_wrapped(struct scan *s, const char *p, size_t len,
			   bool suffix)
{
	scan_error(s, s->line,
		   "number %.*s%s is out of range: libconfig would wrap it%s",
		   SHOWN_LEN(len), p, SHOWN_MORE(len),
		   suffix ? "" : " (write numbers above 2147483647 with an L "
				 "suffix, as in 4294967294L)");
}

/* A number token at s->p (a digit, a sign or a dot): skip it, and report
 * an integer that libconfig would not keep exactly. */
static void scan_number(struct scan *s)
{
	const char *p = s->p;
	bool neg = *p == '-';
	const char *q = p + (*p == '-' || *p == '+');
	size_t fl = float_length(p), len, digits, suffix;
	bool hex = p[0] == '0' && (p[1] == 'x' || p[1] == 'X') &&
		   span(p + 2, HEXDIGITS) > 0;

	if (hex) {
		digits = span(p + 2, HEXDIGITS);
		suffix = l_suffix(p + 2 + digits);
		len = 2 + digits + suffix;
		if (fl <= len) {
			/* libconfig 1.5 keeps 0x.. in an int, 0x..L in a
			 * long long, through unsigned arithmetic that wraps */
			if (!hex_fits(p + 2, digits,
				      suffix ? INT64_MAX : INT32_MAX))
				report_wrapped(s, p, len, suffix);
			s->p += len;
			return;
		}
	}
	digits = span(q, DIGITS);
	suffix = digits ? l_suffix(q + digits) : 0;
	len = (size_t)(q - p) + digits + suffix;
	if (fl > len) { /* a float: libconfig's type checks deal with it */
		s->p += fl;
		return;
	}
	if (!digits) { /* a lone sign or dot: libconfig's syntax error */
		s->p++;
		return;
	}
	if (!decimal_fits(q, digits, neg, suffix ? INT64_MAX : INT32_MAX))
		report_wrapped(s, p, len, suffix);
	s->p += len;
}

/* Skip a comment opened at s->p ("slash star"), counting lines. */
static void scan_block_comment(struct scan *s)
{
	int opened = s->line;
	const char *end = strstr(s->p + 2, "*/");

	if (!end) {
		scan_error(s, opened,
			   "this comment is never closed (\"*/\" is missing), "
			   "so the rest of the file would be ignored");
		s->p += strlen(s->p);
		return;
	}
	for (const char *c = s->p; c < end; c++)
		s->line += *c == '\n';
	s->p = end + 2;
}

static void scan_string(struct scan *s)
{
	s->p++; /* the opening quote */
	while (*s->p && *s->p != '"') {
		/* a backslash pairs with the next character: that is all
		 * that matters for where the string ends */
		if (*s->p == '\\' && s->p[1])
			s->p++;
		s->line += *s->p == '\n';
		s->p++;
	}
	if (*s->p)
		s->p++; /* the closing quote; an open one is a syntax error */
}

static bool is_name_start(char c)
{
	return isalpha((unsigned char)c) || c == '*';
}

static bool is_name_char(char c)
{
	return isalnum((unsigned char)c) || c == '*' || c == '-' || c == '_';
}

/* The Unicode bidirectional controls (UTF-8), which make an editor or a
 * terminal show text in another order than the one libconfig reads. */
static const char *const bidi_controls[] = {
	"\xe2\x80\x8e", "\xe2\x80\x8f", "\xe2\x80\xaa", "\xe2\x80\xab",
	"\xe2\x80\xac", "\xe2\x80\xad", "\xe2\x80\xae", "\xe2\x81\xa6",
	"\xe2\x81\xa7", "\xe2\x81\xa8", "\xe2\x81\xa9", "\xd8\x9c",
};

/* Text that does not show as libconfig reads it: a carriage return that
 * ends no line (a terminal prints what follows it over what precedes it,
 * so "# x\rrestricting = ( ... );" looks like a setting and is a
 * comment), other control characters, C1 controls in UTF-8 (terminals
 * act on them as on their ESC forms: U+0085 starts a new line, U+009B
 * a sequence that can erase one), and bidirectional controls.  Other
 * bytes, valid UTF-8 or not, are libconfig's to read: a group name may
 * be in another encoding.  The first one is reported: one is enough to
 * refuse the file. */
static void check_invisible(struct scan *s, const char *text)
{
	int line = 1;

	for (const char *c = text; *c; c++) {
		unsigned char u = (unsigned char)*c;
		size_t control = dg_util_control_len(c, true);

		if (u == '\n') {
			line++;
			continue;
		}
		if (control == 2) {
			scan_error(s, line,
				   "control character U+%04X: the file would "
				   "not read as it shows",
				   (unsigned)(c[1] & 0x3f) | 0x80u);
			return;
		}
		if ((u == '\r' && c[1] != '\n') ||
		    (control && u != '\t' && u != '\r')) {
			scan_error(s, line,
				   "control character 0x%02x: the file would "
				   "not read as it shows (a carriage return may "
				   "only end a line)",
				   u);
			return;
		}
		/* every bidi control starts with one of these two bytes:
		 * the comparisons are for them only, not for every byte */
		if (u != 0xe2 && u != 0xd8)
			continue;
		for (size_t i = 0; i < sizeof(bidi_controls) / sizeof(*bidi_controls); i++)
			if (strncmp(c, bidi_controls[i], strlen(bidi_controls[i])) == 0) {
				scan_error(s, line,
					   "a Unicode bidirectional control: the "
					   "file would not read as it shows");
				return;
			}
	}
}

int dg_scan_text(const char *file, const char *text, struct dg_diags *diags)
{
	struct scan s = {.file = file, .p = text, .line = 1, .diags = diags};
	/* libconfig joins strings with only blanks or comments between them
	 * into one: [ "audio" "video" ], a comma missing, is the one name
	 * "audiovideo", which drops neither group */
	bool after_string = false;

	check_invisible(&s, text);

	while (*s.p) {
		char c = *s.p;

		/* blanks and comments: what lies between two strings that
		 * libconfig still joins */
		if (c == '\n') {
			s.line++;
			s.p++;
			continue;
		} else if (c == '#' || (c == '/' && s.p[1] == '/')) {
			s.p += strcspn(s.p, "\n");
			continue;
		} else if (c == '/' && s.p[1] == '*') {
			scan_block_comment(&s);
			continue;
		} else if (c == ' ' || c == '\t' || c == '\r' || c == '\f' ||
			   c == '\v') {
			s.p++;
			continue;
		} else if (c == '"') {
			if (after_string)
				scan_error(&s, s.line,
					   "two strings side by side, which "
					   "libconfig joins into one: put a "
					   "comma between them");
			scan_string(&s);
			after_string = true;
			continue;
		} else if (is_name_start(c)) {
			while (is_name_char(*++s.p))
				;
		} else if (isdigit((unsigned char)c) || c == '-' || c == '+' ||
			   c == '.') {
			scan_number(&s);
		} else {
			s.p++;
		}
		after_string = false; /* any other token comes between */
	}
	return s.errors ? -EINVAL : 0;
}
