/* What libconfig 1.5 would get wrong about a text without saying so,
 * found before libconfig sees the text. */
#ifndef DG_SCAN_H
#define DG_SCAN_H

#include "diag.h"

/* @include lines in text, the contents of file: libconfig would open the
 * named file itself, past every ownership check in load.c.  Each is an
 * error in diags.  Returns 0, or -EINVAL when it found one. */
int dg_scan_find_include(const char *file, const char *text,
			 struct dg_diags *diags);

/* Check text for:
 *  - a comment opened with slash-star and never closed: libconfig ignores
 *    the rest of the file, a restricting list in it included;
 *  - integer literals that libconfig would wrap: it keeps a number
 *    without an L suffix in a 32-bit int, so 4294971397 reads as 4101;
 *  - text that does not show as libconfig reads it: a carriage return
 *    that ends no line, other control characters, Unicode bidirectional
 *    controls.
 * Each is an error in diags.  Returns 0, or -EINVAL when it found one. */
int dg_scan_text(const char *file, const char *text, struct dg_diags *diags);

#endif
