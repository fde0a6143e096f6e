/* The sudoers file sudo.conf names (sudoconf.c). */
#ifndef DG_SUDOCONF_H
#define DG_SUDOCONF_H

#include "diag.h"

/* The sudoers file that sudo reads, as the text of sudo.conf (read from
 * path, named in diagnostics) sets it: the last sudoers_file= option of
 * the first "Plugin sudoers_policy" line, else /etc/sudoers.  Lines are
 * read as sudo 1.9 reads them (a '#' anywhere starts a comment, a
 * trailing backslash continues a line, "Plugin" in any case).  A
 * Plugin line that loads anything but sudoers.so's own plugins may be
 * a policy the audit cannot read: an error in diags, -EINVAL.  0 and
 * *file a new string; or -EINVAL; or -ENOMEM. */
int dg_sudoconf_parse(const char *text, const char *path, char **file,
		      struct dg_diags *diags);

/* The same, for the file at path; a missing one sets no sudoers_file
 * (sudo's default), one that cannot be read is an error in diags. */
int dg_sudoconf_read(const char *path, char **file, struct dg_diags *diags);

#endif
