/* Reading PAM stack files from directories, as libpam finds them: the
 * reader that pamstack.c is given outside the unit tests.  It follows
 * symbolic links, as libpam does: it reports what libpam would run, and
 * trusts /etc/pam.d no less than libpam. */
#ifndef DG_PAMREAD_H
#define DG_PAMREAD_H

#include <stdbool.h>

#include "pamstack.h"

#define DG_PAM_CONF_DIR "/etc/pam.d"
/* Debian 12's libpam also reads a service it does not find in
 * /etc/pam.d from here (systemd-user lives here). */
#define DG_PAM_VENDOR_DIR "/usr/lib/pam.d"

struct dg_pam_dirs {
	const char *conf;   /* /etc/pam.d, or --pam-dir */
	const char *vendor; /* /usr/lib/pam.d, or NULL (with --pam-dir) */
};

/* A reader over dirs (which must outlive it). */
struct dg_pam_reader dg_pamread_dirs(const struct dg_pam_dirs *dirs);

#endif
