/* System calls and libcap: the process's groups, no_new_privs,
 * capabilities, the gid map, and the kernel series' sysctls. */
#include "kernel.h"

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <stdlib.h>
#include <string.h>
#include <sys/capability.h>
#include <sys/prctl.h>
#include <unistd.h>

#include "idmap.h"
#include "util.h"

/* The first guess at the size of the list: a login's list fits, and is
 * then read with one system call, not a count and a read. */
#define GROUPS_GUESS 64

int dg_kernel_get_groups(gid_t **out, size_t *n)
{
	size_t size = GROUPS_GUESS;

	for (;;) {
		/* (not zeroed: getgroups writes the first got, and nothing
		 * reads past them; a login reads its list three times) */
		_cleanup_free_ gid_t *v = reallocarray(NULL, size, sizeof(*v));
		int want, got;

		if (!v)
			return -ENOMEM;
		got = getgroups((int)size, v);
		if (got < 0 && errno == EINVAL) {
			/* more than size (or another thread grew the list):
			 * ask how many, and read again with room for one
			 * more */
			if ((want = getgroups(0, NULL)) < 0)
				return -errno;
			size = (size_t)want + 1 > size ? (size_t)want + 1
						       : size * 2;
			continue;
		}
		if (got < 0)
			return -errno;
		*out = DG_TAKE(v);
		*n = (size_t)got;
		return 0;
	}
}

int dg_kernel_set_groups(const gid_t *v, size_t n)
{
	/* glibc's setgroups(3) applies the list to every thread of the
	 * process (through its setxid broadcast), as credentials should be. */
	return setgroups(n, v) < 0 ? -errno : 0;
}

int dg_kernel_set_no_new_privs(void)
{
	return prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0 ? -errno : 0;
}

int dg_kernel_has_cap_setgid(void)
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

int dg_kernel_drop_all_caps(void)
{
	cap_t none = cap_init(); /* every flag clear */
	int r;

	if (!none)
		return -errno;
	r = cap_set_proc(none) < 0 ? -errno : 0;
	cap_free(none);
	return r;
}

int dg_kernel_no_new_privs(void)
{
	int r = prctl(PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0);

	return r < 0 ? -errno : r;
}

/* Sysctls are read from a buffer of this size, doubled up to the second
 * as needed: the sticky list can be longer than any fixed buffer, but
 * not without bound. */
#define SYSCTL_READ_CHUNK 4096
#define SYSCTL_READ_MAX (1u << 20)

int dg_kernel_sysctl_read(const char *path, char **out)
{
	_cleanup_close_ int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	_cleanup_free_ char *buf = NULL;
	size_t len = 0;
	int r;

	if (fd < 0)
		return -errno;
	/* /proc files say no size (or a page): the hint is a guess */
	r = dg_util_read_whole(fd, SYSCTL_READ_CHUNK, SYSCTL_READ_MAX, &buf,
			       &len);
	if (r < 0)
		return r;
	while (len > 0 && (buf[len - 1] == '\n' || buf[len - 1] == ' '))
		len--;
	buf[len] = '\0';
	*out = DG_TAKE(buf);
	return 0;
}

int dg_kernel_sysctl_write(const char *path, const char *value)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC | O_NOFOLLOW);
	size_t len = strlen(value);
	ssize_t n;

	if (fd < 0)
		return -errno;
	/* One write: the kernel replaces the whole list per write. */
	n = write(fd, value, len);
	if (n < 0 || (size_t)n != len) {
		int err = n < 0 ? errno : EIO;

		close(fd);
		return -err;
	}
	return close(fd) < 0 ? -errno : 0;
}

/* The link /proc/self/ns/user of a process in the initial user
 * namespace: its nsfs inode number is the kernel's PROC_USER_INIT_INO,
 * 0xEFFFFFFD, fixed since Linux 3.8 (every other namespace gets one of
 * its own), and the link names it as "user:[INODE]". */
#define USER_NS_INIT_LINK "user:[4026531837]"

int dg_kernel_read_gid_map(struct dg_idmap *map, gid_t *overflow)
{
	_cleanup_free_ char *text = NULL, *ov = NULL;
	/* one byte more than the initial link: a longer one cannot match */
	char link[sizeof(USER_NS_INIT_LINK) + 1];
	ssize_t len;
	int r;

	/* The initial namespace's map is the identity, always: one
	 * readlink says so where opening and reading gid_map took four
	 * system calls in every login (and a stat of the link, which
	 * walks into nsfs, cost twice the readlink).  Anything else
	 * (another namespace, a failed readlink) reads the map itself.
	 * Who could make this path lie could make gid_map lie too. */
	len = readlink("/proc/self/ns/user", link, sizeof(link));
	if (len == (ssize_t)strlen(USER_NS_INIT_LINK) &&
	    memcmp(link, USER_NS_INIT_LINK, (size_t)len) == 0) {
		*overflow = 65534; /* never asked of the identity */
		/* (as the kernel spells it, which idmap.c reads without
		 * sscanf) */
		return dg_idmap_parse("         0          0 4294967295", map);
	}
	r = dg_kernel_sysctl_read("/proc/self/gid_map", &text);

	if (r == -ENOENT && access("/proc/self/status", F_OK) == 0)
		/* /proc is there, gid_map is not: no user namespaces */
		return dg_idmap_parse("0 0 4294967295", map);
	if (r < 0)
		return r;
	*overflow = 65534; /* the kernel's default */
	/* The initial namespace's map: no gid is shown as the overflow gid
	 * there, and dg_idmap_check never asks for it, so its file is not
	 * read (four system calls of every login). */
	if ((r = dg_idmap_parse(text, map)) < 0 || dg_idmap_is_identity(map))
		return r;
	if (dg_kernel_sysctl_read("/proc/sys/kernel/overflowgid", &ov) == 0) {
		char *end;
		unsigned long v;

		/* A 0 from dg_kernel_sysctl_read comes with ov set: its
		 * other returns are -errno after a failed open or read, and
		 * errno is then above 0.  Both analyzers let errno be 0. */
		DG_ANALYZER_ASSUME(ov != NULL);
		v = strtoul(ov, &end, 10);

		if (*ov && !*end && v <= 4294967294UL)
			*overflow = (gid_t)v;
	}
	return 0;
}
