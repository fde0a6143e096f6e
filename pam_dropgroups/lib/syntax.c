/* The column of a libconfig syntax error.
 *
 * libconfig is a bison (LR) parser over a flex scanner: it stops at the
 * first token that cannot continue any valid file, and its error line is
 * the scanner's line after reading that token.  This file reads the same
 * text with the same tokens (libconfig 1.5's scanner.l) and the same
 * grammar (grammar.y), as a pushdown automaton with its own stack, so a
 * file nested deeply cannot exhaust the C stack, and finds that token. */
#include "syntax.h"

#include <ctype.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "util.h"

enum tok {
	T_EOF, T_NAME, T_EQUALS, T_COMMA, T_SEMICOLON, T_STRING, T_SCALAR,
	T_GROUP_START, T_GROUP_END, T_ARRAY_START, T_ARRAY_END, T_LIST_START,
	T_LIST_END, T_GARBAGE,
};

struct token {
	enum tok kind;
	int line, column; /* of its first byte */
	int end_line;     /* the scanner's line once it is read */
};

struct lexer {
	const char *s;
	size_t i;
	int line;
	size_t line_start; /* offset of the current line's first byte */
};

static bool is_name_start(char c)
{
	return isalpha((unsigned char)c) || c == '*';
}

static bool is_name_char(char c)
{
	return isalnum((unsigned char)c) || c == '-' || c == '_' || c == '*';
}

static size_t digits(const char *s, size_t i)
{
	size_t n = 0;

	while (isdigit((unsigned char)s[i + n]))
		n++;
	return n;
}

/* "L" or "LL" after an integer (integer64, hex64). */
static size_t long_suffix(const char *s)
{
	return s[0] == 'L' ? (s[1] == 'L' ? 2 : 1) : 0;
}

/* [eE][-+]?[0-9]+, or 0. */
static size_t exponent(const char *s)
{
	size_t n = 1;

	if (*s != 'e' && *s != 'E')
		return 0;
	if (s[n] == '-' || s[n] == '+')
		n++;
	return digits(s, n) ? n + digits(s, n) : 0;
}

/* The longest number flex would match at s (integer, integer64, hex,
 * hex64, float), or 0. */
static size_t number_length(const char *s)
{
	size_t sign = *s == '-' || *s == '+', best = 0, n, d;

	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X') &&
	    isxdigit((unsigned char)s[2])) {
		for (n = 2; isxdigit((unsigned char)s[n]); n++)
			;
		best = n + long_suffix(s + n);
	}
	d = digits(s, sign);
	if (d) {
		n = sign + d; /* integer, integer64 */
		n += long_suffix(s + n);
		best = n > best ? n : best;
		n = sign + d; /* [0-9]+(\.[0-9]*)?[eE]... */
		if (s[n] == '.')
			n += 1 + digits(s, n + 1);
		if (exponent(s + n))
			best = n + exponent(s + n) > best ? n + exponent(s + n)
							  : best;
	}
	if (s[sign + d] == '.') { /* [0-9]*\.[0-9]*([eE]...)? */
		n = sign + d + 1;
		n += digits(s, n);
		n += exponent(s + n);
		best = n > best ? n : best;
	}
	return best;
}

static void advance(struct lexer *lx, size_t n)
{
	for (; n && lx->s[lx->i]; n--, lx->i++)
		if (lx->s[lx->i] == '\n') {
			lx->line++;
			lx->line_start = lx->i + 1;
		}
}

/* Skip blanks and comments: false at the end of the text, or inside an
 * unterminated comment, where the scanner stops too. */
static bool skip_space(struct lexer *lx)
{
	for (;;) {
		const char *c = lx->s + lx->i;

		if (!*c)
			return false;
		if (*c == ' ' || *c == '\t' || *c == '\n' || *c == '\r' ||
		    *c == '\f') {
			advance(lx, 1);
		} else if (*c == '#' || (c[0] == '/' && c[1] == '/')) {
			advance(lx, strcspn(c, "\n"));
		} else if (c[0] == '/' && c[1] == '*') {
			const char *end = strstr(c + 2, "*/");

			if (!end) {
				advance(lx, strlen(c));
				return false;
			}
			advance(lx, (size_t)(end - c) + 2);
		} else {
			return true;
		}
	}
}

/* The length of the string token at s (the opening quote), or 0 when it
 * is not closed. */
static size_t string_length(const char *s)
{
	size_t n = 1;

	for (; s[n] && s[n] != '"'; n++)
		if (s[n] == '\\' && s[n + 1])
			n++;
	return s[n] ? n + 1 : 0;
}

static struct token next_token(struct lexer *lx)
{
	static const char singles[] = "=:,;{}[]()";
	static const enum tok single_kinds[] = {
		T_EQUALS, T_EQUALS, T_COMMA, T_SEMICOLON, T_GROUP_START,
		T_GROUP_END, T_ARRAY_START, T_ARRAY_END, T_LIST_START,
		T_LIST_END,
	};
	struct token t = {.kind = T_EOF};
	const char *c, *single;
	size_t n = 1;

	if (!skip_space(lx)) {
		t.line = t.end_line = lx->line;
		return t;
	}
	c = lx->s + lx->i;
	t.line = lx->line;
	t.column = (int)(lx->i - lx->line_start) + 1;
	if ((single = strchr(singles, *c))) {
		t.kind = single_kinds[single - singles];
	} else if (*c == '"') {
		n = string_length(c);
		t.kind = n ? T_STRING : T_EOF;
		n = n ? n : strlen(c);
	} else if (is_name_start(*c)) {
		while (is_name_char(c[n]))
			n++;
		t.kind = (n == 4 && !strncasecmp(c, "true", 4)) ||
				 (n == 5 && !strncasecmp(c, "false", 5))
			 ? T_SCALAR
			 : T_NAME;
	} else if ((n = number_length(c))) {
		t.kind = T_SCALAR;
	} else {
		n = 1;
		t.kind = T_GARBAGE;
	}
	advance(lx, n);
	t.end_line = lx->line;
	return t;
}

/* What is being read, innermost last, and where in it. */
enum frame_kind { F_TOP, F_GROUP, F_LIST, F_ARRAY };
enum frame_state {
	WANT_NAME,   /* settings: a name, or the end */
	WANT_EQUALS, /* settings: after a name */
	WANT_VALUE,  /* settings after =, a list or array after a comma */
	FIRST_VALUE, /* a list or array just opened: a value or the end */
	AFTER_VALUE, /* a terminator (settings), a comma or the end */
};

struct frame {
	enum frame_kind kind;
	enum frame_state state;
};

struct frames {
	struct frame *v;
	size_t n, cap;
};

/* Token t starts a value where frame f wants one: push what it opens, or
 * mark f's value done.  false: not a value there. */
static bool start_value(struct frames *st, struct token t)
{
	struct frame *f = &st->v[st->n - 1];
	struct frame open = {.state = FIRST_VALUE};

	if (t.kind == T_STRING || t.kind == T_SCALAR) {
		f->state = AFTER_VALUE;
		return true;
	}
	if (f->kind == F_ARRAY) /* an array holds scalars only */
		return false;
	if (t.kind == T_GROUP_START)
		open = (struct frame){.kind = F_GROUP, .state = WANT_NAME};
	else if (t.kind == T_LIST_START)
		open.kind = F_LIST;
	else if (t.kind == T_ARRAY_START)
		open.kind = F_ARRAY;
	else
		return false;
	f->state = AFTER_VALUE;
	/* -ENOMEM is not a syntax error: report no column */
	return DG_APPEND(st, open) == 0;
}

/* Take token t: false where the grammar cannot go on. */
static bool step(struct frames *st, struct token t)
{
	struct frame *f = &st->v[st->n - 1];
	bool settings = f->kind == F_TOP || f->kind == F_GROUP;
	enum tok end = f->kind == F_GROUP  ? T_GROUP_END
		       : f->kind == F_LIST ? T_LIST_END
		       : f->kind == F_ARRAY ? T_ARRAY_END
					    : T_EOF;

	if (settings && f->state == AFTER_VALUE) {
		f->state = WANT_NAME;
		if (t.kind == T_SEMICOLON || t.kind == T_COMMA)
			return true;
	}
	switch (f->state) {
	case WANT_NAME:
		if (t.kind == T_NAME) {
			f->state = WANT_EQUALS;
			return true;
		}
		break;
	case WANT_EQUALS:
		if (t.kind == T_EQUALS) {
			f->state = WANT_VALUE;
			return true;
		}
		return false;
	case WANT_VALUE:
		return start_value(st, t);
	case FIRST_VALUE:
		if (t.kind != end)
			return start_value(st, t);
		break;
	case AFTER_VALUE:
		if (t.kind == T_COMMA) {
			f->state = WANT_VALUE;
			return true;
		}
		break;
	}
	if (t.kind != end || f->kind == F_TOP)
		return false;
	st->n--; /* the parent's value is done: it was set when pushed */
	return true;
}

int dg_syntax_column(const char *text, int line)
{
	struct lexer lx = {.s = text, .line = 1};
	struct frames st = {0};
	struct token t, prev = {.kind = T_EOF};
	int column = 0;

	if (DG_APPEND(&st, ((struct frame){.kind = F_TOP})) < 0)
		return 0;
	for (;;) {
		t = next_token(&lx);
		/* adjacent strings are one value: "a" "b" is "ab" */
		if (t.kind == T_STRING && prev.kind == T_STRING &&
		    st.v[st.n - 1].state == AFTER_VALUE) {
			prev = t;
			continue;
		}
		if (t.kind == T_EOF && st.n == 1 &&
		    (st.v[0].state == WANT_NAME ||
		     st.v[0].state == AFTER_VALUE))
			break; /* a whole file */
		if (!step(&st, t)) {
			if (t.line == line && t.end_line == line && t.column)
				column = t.column;
			break;
		}
		prev = t;
	}
	free(st.v);
	return column;
}
