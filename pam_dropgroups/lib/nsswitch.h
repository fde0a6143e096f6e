/* /etc/nsswitch.conf as glibc reads one database's line: the services
 * in order, and after each answer whether glibc asks the next one
 * (pure: the caller reads the file).
 *
 * Only text with one reading is read: exactly one line names the
 * database, spelled exactly, with its colon, and every service and
 * action is one glibc knows.  Anything else is -EINVAL, and the caller
 * must then act as if it could not tell what NSS would answer. */
#ifndef DG_NSSWITCH_H
#define DG_NSSWITCH_H

#include <stddef.h>

/* What a service answered, in glibc's words. */
enum dg_nss_status {
	DG_NSS_SUCCESS,
	DG_NSS_NOTFOUND,
	DG_NSS_UNAVAIL,
	DG_NSS_TRYAGAIN,
	DG_NSS_STATUSES
};

enum dg_nss_action { DG_NSS_CONTINUE, DG_NSS_RETURN, DG_NSS_MERGE };

struct dg_nss_service {
	char *name;
	/* what follows each answer; glibc's default is return after
	 * SUCCESS and continue after the rest */
	enum dg_nss_action after[DG_NSS_STATUSES];
};

struct dg_nss_services {
	struct dg_nss_service *v;
	size_t n, cap;
};

/* The services that database db ("group", "initgroups") names in the
 * len bytes of text (the whole of nsswitch.conf).  1 with *out filled; 0 when no line
 * names db (glibc then uses its default); -EINVAL when the text can be
 * read more than one way or holds what glibc would refuse; -ENOMEM. */
int dg_nsswitch_services(const char *text, size_t len, const char *db,
			 struct dg_nss_services *out);

void dg_nsswitch_services_free(struct dg_nss_services *s);

/* Whether one pass over the files backend's file can answer a key as
 * the database's *_r call would.  Only when files is asked first and
 * its answer ends the look-up, as glibc's defaults make it: then, for a
 * key the file has, its first matching line is the answer.  Any action
 * after files ([SUCCESS=continue], [NOTFOUND=return], [!UNAVAIL=...],
 * [...=merge]) that differs from the defaults decides what comes next,
 * and is not read here: not first. */
enum dg_nss_files_order {
	DG_NSS_FILES_NOT_FIRST, /* ask each key on its own */
	DG_NSS_FILES_FIRST,     /* the file answers the keys it has */
	DG_NSS_FILES_ONLY,      /* ... and a key it lacks is not found */
};

enum dg_nss_files_order
dg_nsswitch_files_order(const struct dg_nss_services *services);

#endif
