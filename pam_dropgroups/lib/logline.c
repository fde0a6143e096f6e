/* The fields of a login's log line: stable key=value pairs that a log
 * pipeline can split without reading the free text after them. */
#include "logline.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

/* (a real "-" is quoted: bare, it means "not known") */
static bool bare(const char *v)
{
	return *v && strcmp(v, "-") != 0 && strspn(v, "abcdefghijklmnopqrstuvwxyz"
			       "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
			       "._:/@+(),-") == strlen(v);
}

static int put(FILE *f, const char *key, const char *v)
{
	int bad = fprintf(f, "%s%s=", strcmp(key, "service") ? " " : "",
			  key) < 0;

	if (!v || !*v)
		return bad | (fputc('-', f) == EOF);
	if (bare(v))
		return bad | (fputs(v, f) == EOF);
	bad |= fputc('"', f) == EOF;
	for (const unsigned char *p = (const unsigned char *)v; *p; p++) {
		if (*p == '"' || *p == '\\')
			bad |= fprintf(f, "\\%c", *p) < 0;
		else if (*p < 0x20 || *p >= 0x7f)
			bad |= fprintf(f, "\\x%02x", *p) < 0;
		else
			bad |= fputc(*p, f) == EOF;
	}
	return bad | (fputc('"', f) == EOF);
}

static int put_number(FILE *f, const char *key, long long n)
{
	char text[24];

	if (n < 0)
		return put(f, key, NULL);
	snprintf(text, sizeof(text), "%lld", n);
	return put(f, key, text);
}

char *dg_logline_fields(const struct dg_logline *l)
{
	_cleanup_free_ char *s = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&s, &len);
	int bad = !f;

	if (!f)
		return NULL;
	bad |= put(f, "service", l->service);
	bad |= put(f, "user", l->user);
	bad |= put_number(f, "uid", l->uid);
	bad |= put(f, "rule", l->rule);
	bad |= put(f, "result", l->result);
	bad |= put(f, "dropped", l->dropped);
	if (l->dropped_more)
		bad |= put_number(f, "dropped_more",
				  (long long)l->dropped_more);
	bad |= put_number(f, "kept", l->kept);
	if (fclose(f) != 0)
		bad = 1;
	return bad ? NULL : DG_TAKE(s);
}
