#include "kernel.h"

#include <errno.h>
#include <grp.h>
#include <stdlib.h>
#include <sys/capability.h>
#include <sys/prctl.h>
#include <unistd.h>

#include "util.h"

int dg_get_groups(gid_t **out, size_t *n)
{
	for (;;) {
		int want = getgroups(0, NULL);
		_cleanup_free_ gid_t *v = NULL;
		int got;

		if (want < 0)
			return -errno;
		if (!(v = calloc((size_t)want + 1, sizeof(*v))))
			return -ENOMEM;
		got = getgroups(want + 1, v);
		if (got < 0 && errno == EINVAL)
			continue; /* another thread grew the list: ask again */
		if (got < 0)
			return -errno;
		*out = DG_TAKE(v);
		*n = (size_t)got;
		return 0;
	}
}

int dg_set_groups(const gid_t *v, size_t n)
{
	/* glibc's setgroups(3) applies the list to every thread of the
	 * process (through its setxid broadcast), as credentials should be. */
	return setgroups(n, v) < 0 ? -errno : 0;
}

int dg_set_no_new_privs(void)
{
	return prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0 ? -errno : 0;
}

int dg_has_cap_setgid(void)
{
	cap_t caps = cap_get_proc();
	cap_flag_value_t v = CAP_CLEAR;
	int r;

	if (!caps)
		return -errno;
	r = cap_get_flag(caps, CAP_SETGID, CAP_EFFECTIVE, &v);
	if (r < 0)
		r = -errno;
	cap_free(caps);
	return r < 0 ? r : v == CAP_SET;
}
