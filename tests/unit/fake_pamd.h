/* A made-up pam.d for the unit tests: files given as text, read through
 * the reader that pamstack.c takes.  A name under "vendor/" lives in the
 * vendor directory (/usr/lib/pam.d), which Debian's "@include" never
 * reads. */
#ifndef FAKE_PAMD_H
#define FAKE_PAMD_H

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pamstack.h"

struct fake_file {
	const char *name;
	const char *text;
};

struct fake_pamd {
	const struct fake_file *files;
	size_t n;
};

#define VENDOR "vendor/"

static inline int fake_pamd_read(void *ctx, const char *name,
				 bool conf_dir_only, char **path, char **text,
				 size_t *len)
{
	const struct fake_pamd *fs = ctx;

	for (size_t i = 0; i < fs->n; i++) {
		const struct fake_file *f = &fs->files[i];
		bool vendor = strncmp(f->name, VENDOR, strlen(VENDOR)) == 0;

		if (strcmp(f->name + (vendor ? strlen(VENDOR) : 0), name) != 0 ||
		    (conf_dir_only && vendor))
			continue;
		if (asprintf(path, "%s/%s",
			     vendor ? "/usr/lib/pam.d" : "/etc/pam.d", name) < 0)
			return -ENOMEM;
		*len = strlen(f->text);
		if (!(*text = malloc(*len + 1))) {
			free(*path);
			return -ENOMEM;
		}
		memcpy(*text, f->text, *len);
		(*text)[*len] = '\0';
		return 0;
	}
	return -ENOENT;
}

#endif
