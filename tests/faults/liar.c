/* liar.so, preloaded into pamtester: a kernel that answers other than
 * it did, for the module's checks after its system calls
 * (tests/integration/20-fail-closed.sh).  DG_LIAR says how:
 *
 *   swap      after the first setgroups, getgroups reports the list set
 *             with its last gid swapped for another (same length)
 *   short     ... without its last gid
 *   extra     ... with one more gid
 *   fail      ... getgroups fails (EIO)
 *   unsorted  ... the list set, in reverse order and its first gid twice
 *             (the same set: a read-back must accept it)
 *   nnp       prctl(PR_SET_NO_NEW_PRIVS) fails (EINVAL)
 *   capset    libcap's cap_set_proc fails (EPERM)
 *
 * The lie lasts from the first setgroups to the second (the module's
 * setgroups, then its putting back the old list); any other value, or
 * none, changes nothing.  A process it execs starts afresh. */
#include <dlfcn.h>
#include <errno.h>
#include <grp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/capability.h>
#include <sys/prctl.h>
#include <unistd.h>

#define OTHER_GID 4242424u /* in no test's list */

static int n_setgroups;

static bool lie_is(const char *mode)
{
	const char *v = getenv("DG_LIAR");

	return v && strcmp(v, mode) == 0;
}

int setgroups(size_t n, const gid_t *list)
{
	static int (*real)(size_t, const gid_t *);
	int r;

	if (!real)
		real = (int (*)(size_t, const gid_t *))dlsym(RTLD_NEXT,
							     "setgroups");
	r = real(n, list);
	if (r == 0)
		n_setgroups++;
	return r;
}

/* The lie, from the real list v of n: into out (room for n + 1). */
static size_t lie(const gid_t *v, size_t n, gid_t *out)
{
	memcpy(out, v, n * sizeof(*v));
	if (lie_is("swap") && n)
		out[n - 1] = OTHER_GID;
	else if (lie_is("short") && n)
		n--;
	else if (lie_is("extra"))
		out[n++] = OTHER_GID;
	else if (lie_is("unsorted") && n) {
		for (size_t i = 0; i < n; i++)
			out[i] = v[n - 1 - i];
		out[n] = v[n - 1];
		n++;
	}
	return n;
}

int getgroups(int size, gid_t list[])
{
	static int (*real)(int, gid_t[]);
	gid_t *v, *out;
	int n;
	size_t m;

	if (!real)
		real = (int (*)(int, gid_t[]))dlsym(RTLD_NEXT, "getgroups");
	if (n_setgroups != 1)
		return real(size, list);
	if (lie_is("fail")) {
		errno = EIO;
		return -1;
	}
	if ((n = real(0, NULL)) < 0)
		return n;
	v = calloc((size_t)n + 1, sizeof(*v));
	out = calloc((size_t)n + 2, sizeof(*out));
	if (!v || !out || (n = real(n, v)) < 0) {
		free(v);
		free(out);
		errno = ENOMEM;
		return -1;
	}
	m = lie(v, (size_t)n, out);
	free(v);
	if (size == 0 || (size_t)size >= m) {
		if (size)
			memcpy(list, out, m * sizeof(*out));
		free(out);
		return (int)m;
	}
	free(out);
	errno = EINVAL;
	return -1;
}

int prctl(int option, ...)
{
	static int (*real)(int, ...);
	unsigned long a[4];
	va_list ap;

	va_start(ap, option);
	for (int i = 0; i < 4; i++)
		a[i] = va_arg(ap, unsigned long);
	va_end(ap);
	if (option == PR_SET_NO_NEW_PRIVS && lie_is("nnp")) {
		errno = EINVAL;
		return -1;
	}
	if (!real)
		real = (int (*)(int, ...))dlsym(RTLD_NEXT, "prctl");
	return real(option, a[0], a[1], a[2], a[3]);
}

int cap_set_proc(cap_t caps)
{
	static int (*real)(cap_t);

	if (lie_is("capset")) {
		errno = EPERM;
		return -1;
	}
	if (!real)
		real = (int (*)(cap_t))dlsym(RTLD_NEXT, "cap_set_proc");
	return real(caps);
}
