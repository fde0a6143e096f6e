/* Diagnostics: what loading, validating and resolving a policy found.
 *
 * Every message is a complete sentence about one place in one file, so the
 * module can log the first error as its single fail-closed line and the
 * CLI can print them all as FILE:LINE: message. */
#ifndef DG_DIAG_H
#define DG_DIAG_H

#include <stdbool.h>
#include <stddef.h>

enum dg_severity {
	DG_WARNING, /* ignored, the rest of the policy still applies */
	DG_ERROR,   /* the policy cannot be applied: fail closed */
};

struct dg_diag {
	enum dg_severity severity;
	char *file; /* NULL when no file applies */
	int line;   /* 0 when no line applies */
	char *message;
	/* the 1-based byte in line where libconfig's parse failed; 0 for
	 * every other diagnostic, whose FILE:LINE: outside tests rely on */
	int column;
};

struct dg_diags {
	struct dg_diag *v;
	size_t n, cap;
	/* Set when a diagnostic could not be recorded: counts as an error, so
	 * running out of memory can never make a bad policy look clean. */
	bool lost;
};

void dg_diag_add(struct dg_diags *d, enum dg_severity severity,
		 const char *file, int line, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
/* dg_diag_add with a column (0: none). */
void dg_diag_add_at(struct dg_diags *d, enum dg_severity severity,
		    const char *file, int line, int column, const char *fmt,
		    ...) __attribute__((format(printf, 6, 7)));
bool dg_diag_failed(const struct dg_diags *d);
/* The first error, or NULL (when none, or when only `lost` is set). */
const struct dg_diag *dg_diag_first_error(const struct dg_diags *d);
/* "FILE:LINE: message", "FILE: message" or "message"; NULL on ENOMEM. */
char *dg_diag_format(const struct dg_diag *diag);
/* Drop each diagnostic that repeats an earlier one (a line in a file
 * that many stacks include is found once per stack), keeping the order. */
void dg_diag_unique(struct dg_diags *d);
void dg_diag_free(struct dg_diags *d);

#endif
