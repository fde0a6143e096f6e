/* Diagnostics: a list of FILE:LINE: messages, each an error or a
 * warning, that never loses a problem to an allocation failure. */
#include "diag.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

static void add(struct dg_diags *d, enum dg_severity severity,
		const char *file, int line, int column, const char *fmt,
		va_list ap) __attribute__((format(printf, 6, 0)));

static void add(struct dg_diags *d, enum dg_severity severity,
		const char *file, int line, int column, const char *fmt,
		va_list ap)
{
	_cleanup_free_ char *message = dg_util_vasprintf(fmt, ap);
	_cleanup_free_ char *file_copy = NULL;

	if (!message) {
		d->lost = true;
		return;
	}
	if (file && !(file_copy = strdup(file))) {
		d->lost = true;
		return;
	}
	if (dg_util_grow((void **)&d->v, &d->cap, d->n + 1, sizeof(*d->v)) <
	    0) {
		d->lost = true;
		return;
	}
	d->v[d->n++] = (struct dg_diag){
		.severity = severity,
		.file = DG_TAKE(file_copy),
		.line = line,
		.column = column,
		.message = DG_TAKE(message),
	};
}

void dg_diag_add(struct dg_diags *d, enum dg_severity severity,
		 const char *file, int line, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	add(d, severity, file, line, 0, fmt, ap);
	va_end(ap);
}

void dg_diag_add_at(struct dg_diags *d, enum dg_severity severity,
		    const char *file, int line, int column, const char *fmt,
		    ...)
{
	va_list ap;

	va_start(ap, fmt);
	add(d, severity, file, line, column, fmt, ap);
	va_end(ap);
}

bool dg_diag_failed(const struct dg_diags *d)
{
	return d->lost || dg_diag_first_error(d) != NULL;
}

const struct dg_diag *dg_diag_first_error(const struct dg_diags *d)
{
	for (size_t i = 0; i < d->n; i++)
		if (d->v[i].severity == DG_ERROR)
			return &d->v[i];
	return NULL;
}

char *dg_diag_format(const struct dg_diag *diag)
{
	char *s = NULL;
	int r;

	if (diag->file && diag->line > 0)
		r = asprintf(&s, "%s:%d: %s", diag->file, diag->line,
			     diag->message);
	else if (diag->file)
		r = asprintf(&s, "%s: %s", diag->file, diag->message);
	else
		r = asprintf(&s, "%s", diag->message);
	return r < 0 ? NULL : s;
}

static bool same(const char *a, const char *b)
{
	return a == b || (a && b && strcmp(a, b) == 0);
}

static bool diag_equal(const struct dg_diag *a, const struct dg_diag *b)
{
	return a->severity == b->severity && a->line == b->line &&
	       a->column == b->column &&
	       same(a->file, b->file) && strcmp(a->message, b->message) == 0;
}

void dg_diag_unique(struct dg_diags *d)
{
	size_t out = 0;

	for (size_t i = 0; i < d->n; i++) {
		bool seen = false;

		for (size_t k = 0; k < out && !seen; k++)
			seen = diag_equal(&d->v[k], &d->v[i]);
		if (seen) {
			free(d->v[i].file);
			free(d->v[i].message);
		} else {
			d->v[out++] = d->v[i];
		}
	}
	d->n = out;
}

void dg_diag_free(struct dg_diags *d)
{
	for (size_t i = 0; i < d->n; i++) {
		free(d->v[i].file);
		free(d->v[i].message);
	}
	free(d->v);
	*d = (struct dg_diags){0};
}
