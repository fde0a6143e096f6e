/* nssfail.so: an LD_PRELOAD shim that makes NSS fail for chosen names.
 *
 * getgrnam_r() and getpwnam_r() return EIO (an error, not "not found") for
 * every name listed, comma-separated, in DG_TEST_NSS_FAIL; all other calls
 * go to glibc.  This is what a broken LDAP or sssd backend looks like to
 * the module, which must then fail closed. */
#include <dlfcn.h>
#include <errno.h>
#include <grp.h>
#include <pwd.h>
#include <stdlib.h>
#include <string.h>

static int listed(const char *name)
{
	const char *list = getenv("DG_TEST_NSS_FAIL");
	size_t n = strlen(name);

	for (const char *p = list; p && *p;) {
		const char *end = strchr(p, ',');
		size_t len = end ? (size_t)(end - p) : strlen(p);

		if (len == n && strncmp(p, name, n) == 0)
			return 1;
		p = end ? end + 1 : NULL;
	}
	return 0;
}

int getgrnam_r(const char *name, struct group *gr, char *buf, size_t size,
	       struct group **res)
{
	int (*real)(const char *, struct group *, char *, size_t,
		    struct group **) = dlsym(RTLD_NEXT, "getgrnam_r");

	if (listed(name)) {
		*res = NULL;
		return EIO;
	}
	return real(name, gr, buf, size, res);
}

int getpwnam_r(const char *name, struct passwd *pw, char *buf, size_t size,
	       struct passwd **res)
{
	int (*real)(const char *, struct passwd *, char *, size_t,
		    struct passwd **) = dlsym(RTLD_NEXT, "getpwnam_r");

	if (listed(name)) {
		*res = NULL;
		return EIO;
	}
	return real(name, pw, buf, size, res);
}
