/* dropgroups audit: walk file trees in parallel and find the inodes
 * whose mode or POSIX ACLs give a group less than other: the groups used
 * as negative credentials, which dropping defeats (dropgroups(8), AUDIT).
 *
 * The walk never follows a symbolic link: every directory is opened with
 * openat(parent, name, O_NOFOLLOW|O_DIRECTORY) from its already opened
 * parent, every entry judged by fstatat(AT_SYMLINK_NOFOLLOW).  It does
 * not enter /proc, /sys or /dev, nor any proc, sysfs, devpts, cgroup,
 * debugfs, tracefs, securityfs or bpf mount anywhere in the tree (by
 * fstatfs f_type), nor the file system of /dev.  Directories are read
 * by a small pool of threads over one stack of directories to read; a
 * directory's name is kept as a link to its parent, so no path is built
 * unless it is reported, and no buffer has a fixed size for what the
 * tree holds.  Each thread keeps its evidence and its warnings apart,
 * and the walk hands them over when its threads have ended: it prints
 * nothing. */
#include <acl/libacl.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/magic.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/acl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "escape.h"
#include "util.h"
#include "walk.h"

#ifndef CGROUP2_SUPER_MAGIC
#define CGROUP2_SUPER_MAGIC 0x63677270
#endif
#ifndef BPF_FS_MAGIC
#define BPF_FS_MAGIC 0xcafe4a11
#endif
#ifndef TRACEFS_MAGIC
#define TRACEFS_MAGIC 0x74726163
#endif

/* --- the directories to read --- */

struct dnode {
	struct dnode *parent;
	int fd;			/* -1 until opened, and once read */
	atomic_size_t pending;	/* children not yet opened, +1 while read */
	atomic_size_t refs;	/* children alive, +1 while queued or read */
	dev_t dev;
	char name[];
};

struct walk {
	pthread_mutex_t lock;
	pthread_cond_t cond;
	struct dnode **stack;
	size_t n, cap;
	size_t busy; /* items queued or being read */
	atomic_bool oom;
	/* settings */
	bool xdev;
	bool strict; /* an unreadable entry is an error, not a warning */
	dev_t root_dev;
	dev_t devfs_dev; /* /dev's file system when it is its own, else 0 */
	bool have_devfs;
	dev_t slash_dev;
	ino_t slash_ino;
	bool proc_fd; /* /proc/self/fd works, for lgetxattr */
	atomic_int first_error; /* -errno, or 0 */
};

static void node_release(struct dnode *n)
{
	while (n && atomic_fetch_sub(&n->refs, 1) == 1) {
		struct dnode *p = n->parent;

		if (n->fd >= 0)
			(void)close(n->fd);
		free(n);
		n = p;
	}
}

/* One fewer child waits to be opened (or the read is done): close the
 * directory when nothing needs it any more. */
static void node_unpend(struct dnode *n)
{
	if (atomic_fetch_sub(&n->pending, 1) == 1 && n->fd >= 0) {
		(void)close(n->fd);
		n->fd = -1;
	}
}

/* The path of n, built from its ancestors; NULL on ENOMEM. */
static char *node_path(const struct dnode *n, const char *child)
{
	size_t len = 0, depth = 0;

	for (const struct dnode *p = n; p; p = p->parent, depth++)
		len += strlen(p->name) + 1;
	if (child)
		len += strlen(child) + 1;
	char *s = malloc(len + 1), *end;
	if (!s)
		return NULL;
	end = s + len;
	*end = '\0';
	if (child) {
		size_t l = strlen(child);
		end -= l;
		memcpy(end, child, l);
		*--end = '/';
	}
	for (const struct dnode *p = n; p; p = p->parent) {
		size_t l = strlen(p->name);
		end -= l;
		memcpy(end, p->name, l);
		if (p->parent)
			*--end = '/';
	}
	/* the root's name is the path given: no separator before it, and
	 * none doubled after a trailing / */
	size_t off = (size_t)(end - s);
	memmove(s, end, len - off + 1);
	for (char *q = s; (q = strstr(q, "//"));)
		memmove(q, q + 1, strlen(q));
	return s;
}

static void walk_failed(struct walk *w, int e)
{
	int none = 0;

	(void)atomic_compare_exchange_strong(&w->first_error, &none, -e);
}

static int push(struct walk *w, struct dnode *c)
{
	int r;

	pthread_mutex_lock(&w->lock);
	r = dg_util_grow((void **)&w->stack, &w->cap, w->n + 1,
			 sizeof(*w->stack));
	if (r == 0) {
		w->stack[w->n++] = c;
		w->busy++;
		pthread_cond_signal(&w->cond);
	} else {
		w->oom = true;
	}
	pthread_mutex_unlock(&w->lock);
	return r;
}

/* --- judging one inode --- */

struct worker {
	struct walk *w;
	/* a thread with a working directory of its own (unshare CLONE_FS),
	 * moved to each directory it reads: the xattr and ACL look-ups then
	 * take one name, not a path (cwd_fd: the directory it is in) */
	bool own_cwd;
	int cwd_fd;
	struct dg_evidence_store ev;
	struct dg_diags diags; /* its warnings and errors, in its order */
	char *buf;
	size_t bufsize;
};

/* A problem with the entry child of n (or n itself): a warning or an
 * error, its path escaped as in the report (a name must not forge a
 * line or a terminal sequence on stderr either). */
static void walk_warn(struct worker *k, const struct dnode *n,
		      const char *child, const char *what, int e,
		      enum dg_severity severity)
{
	_cleanup_free_ char *p = node_path(n, child);
	_cleanup_free_ char *shown =
		dg_escape_text_dup(p ? p : child ? child : n->name);

	if (k->w->strict)
		severity = DG_ERROR;
	dg_diag_add(&k->diags, severity, shown ? shown : "(a path)", 0,
		    "%s: %s", what, strerror(e));
	if (severity == DG_ERROR)
		walk_failed(k->w, e);
}

static void walk_oom(struct walk *w)
{
	w->oom = true;
	walk_failed(w, ENOMEM);
}

static int record(struct worker *k, const struct dnode *n, const char *child,
		  gid_t gid, enum dg_ev_kind kind, const char *suffix)
{
	char *p = node_path(n, child);

	if (!p)
		return -ENOMEM;
	if (suffix) {
		char *q;
		if (asprintf(&q, "%s%s", p, suffix) < 0) {
			free(p);
			return -ENOMEM;
		}
		free(p);
		p = q;
	}
	return dg_evidence_add(&k->ev, true, gid, NULL, kind, p);
}

/* An ACL entry's tag and permission bits (4 read, 2 write, 1 execute,
 * as in a mode), or -errno. */
static int entry_bits(acl_entry_t e, acl_tag_t *tag, unsigned *perm)
{
	acl_permset_t ps;

	if (acl_get_tag_type(e, tag) < 0 || acl_get_permset(e, &ps) < 0) {
		int err = -errno;

		/* errno is above 0 after the failed call, so this is below
		 * 0 and the caller never reads *tag or *perm unset; clang
		 * 14 does not follow the sign through the negation */
		DG_ANALYZER_ASSUME(err < 0);
		return err;
	}
	*perm = (acl_get_perm(ps, ACL_READ) == 1 ? 4U : 0U) |
		(acl_get_perm(ps, ACL_WRITE) == 1 ? 2U : 0U) |
		(acl_get_perm(ps, ACL_EXECUTE) == 1 ? 1U : 0U);
	return 0;
}

/* The bits of acl's other entry (0 when it has none) and of its mask
 * (7 when it has none): 0, or -errno. */
static int other_and_mask(acl_t acl, unsigned *other, unsigned *mask)
{
	acl_entry_t e;
	int r;

	*other = 0;
	*mask = 7;
	for (int id = ACL_FIRST_ENTRY; acl_get_entry(acl, id, &e) == 1;
	     id = ACL_NEXT_ENTRY) {
		acl_tag_t tag;
		unsigned perm;

		if ((r = entry_bits(e, &tag, &perm)) < 0)
			return r;
		if (tag == ACL_OTHER)
			*other = perm;
		else if (tag == ACL_MASK)
			*mask = perm;
	}
	return 0;
}

/* The group entries of acl that grant less than other, after the mask:
 * each recorded for its gid (the owning group's is owner_gid). */
static int judge_acl(struct worker *k, acl_t acl, const struct dnode *n,
		     const char *child, gid_t owner_gid, const char *suffix)
{
	acl_entry_t e;
	unsigned other, mask;
	int r;

	if ((r = other_and_mask(acl, &other, &mask)) < 0 || other == 0)
		return r;
	for (int id = ACL_FIRST_ENTRY; acl_get_entry(acl, id, &e) == 1;
	     id = ACL_NEXT_ENTRY) {
		acl_tag_t tag;
		unsigned perm;
		gid_t gid;

		if ((r = entry_bits(e, &tag, &perm)) < 0)
			return r;
		if (tag != ACL_GROUP && tag != ACL_GROUP_OBJ)
			continue;
		if (!(other & ~(perm & mask)))
			continue;
		if (tag == ACL_GROUP) {
			gid_t *q = acl_get_qualifier(e);
			if (!q)
				return -errno;
			gid = *q;
			acl_free(q);
		} else {
			gid = owner_gid;
		}
		if ((r = record(k, n, child, gid, DG_EV_ACL, suffix)) < 0)
			return r;
	}
	return 0;
}

/* One ACL of an inode, when it has one: xattr first (cheap), libacl then.
 * 1: it has one (judged), 0: none, or -errno. */
static int check_acl(struct worker *k, const char *xpath, const struct dnode *n,
		     const char *child, gid_t gid, acl_type_t type)
{
	const char *xname = type == ACL_TYPE_ACCESS ? "system.posix_acl_access"
						    : "system.posix_acl_default";
	ssize_t len = lgetxattr(xpath, xname, NULL, 0);
	acl_t acl;
	int r;

	if (len < 0) {
		if (errno == ENODATA || errno == ENOTSUP || errno == ENOENT ||
		    errno == EACCES || errno == EPERM)
			return 0;
		return -errno;
	}
	if (len == 0)
		return 0;
	acl = acl_get_file(xpath, type);
	if (!acl)
		return errno == ENOENT || errno == ENOTSUP ? 0 : -errno;
	r = judge_acl(k, acl, n, child, gid,
		      type == ACL_TYPE_DEFAULT ? " (default ACL)" : NULL);
	acl_free(acl);
	return r < 0 ? r : 1;
}

static int judge(struct worker *k, struct dnode *n, const char *name,
		 const struct stat *st)
{
	unsigned m = st->st_mode & 07777, g = (m >> 3) & 7, o = m & 7;
	struct walk *w = k->w;
	_cleanup_free_ char *built = NULL;
	const char *xpath = name;
	int r;

	if (!o && !S_ISDIR(st->st_mode))
		xpath = NULL; /* no ACL to read: see below */
	else if (k->own_cwd && k->cwd_fd == n->fd)
		xpath = name; /* relative to this thread's directory */
	else if (w->proc_fd) {
		if (asprintf(&built, "/proc/self/fd/%d/%s", n->fd, name) < 0)
			return -ENOMEM;
		xpath = built;
	} else if (!(xpath = built = node_path(n, name))) {
		return -ENOMEM;
	}
	/* An access ACL's other entry is the mode's other bits: with none,
	 * no entry can grant less, so no ACL to read (most private files). */
	r = o ? check_acl(k, xpath, n, name, st->st_gid, ACL_TYPE_ACCESS) : 0;
	if (r < 0)
		return r;
	/* with an ACL, the group bits are its mask, judged above; without,
	 * they are the owning group's */
	if (r == 0 && (o & ~g) &&
	    (r = record(k, n, name, st->st_gid, DG_EV_MODE, NULL)) < 0)
		return r;
	if (S_ISDIR(st->st_mode))
		return check_acl(k, xpath, n, name, st->st_gid,
				 ACL_TYPE_DEFAULT);
	return 0;
}

/* --- reading one directory --- */

struct linux_dirent64 {
	uint64_t d_ino;
	int64_t d_off;
	unsigned short d_reclen;
	unsigned char d_type;
	char d_name[];
};

static bool pseudo_fs(long type)
{
	switch (type) {
	case PROC_SUPER_MAGIC:
	case SYSFS_MAGIC:
	case DEVPTS_SUPER_MAGIC:
	case CGROUP_SUPER_MAGIC:
	case CGROUP2_SUPER_MAGIC:
	case DEBUGFS_MAGIC:
	case TRACEFS_MAGIC:
	case SECURITYFS_MAGIC:
	case BPF_FS_MAGIC:
		return true;
	default:
		return false;
	}
}

/* Read directory n (opened), judging every entry and queueing every
 * subdirectory. */
/* Is name, an entry of n, to be skipped without a look: ".", "..", a
 * symbolic link, and /proc, /sys and /dev? */
static bool skipped_name(const struct linux_dirent64 *d, bool at_slash)
{
	const char *name = d->d_name;

	if (name[0] == '.' && (!name[1] || (name[1] == '.' && !name[2])))
		return true;
	if (d->d_type == DT_LNK)
		return true;
	return at_slash && (!strcmp(name, "proc") || !strcmp(name, "sys") ||
			    !strcmp(name, "dev"));
}

/* Queue the subdirectory name of n, to be opened from n. */
static void queue_child(struct worker *k, struct dnode *n, const char *name,
			const struct stat *st)
{
	struct walk *w = k->w;
	size_t l = strlen(name);
	struct dnode *c = malloc(sizeof(*c) + l + 1);

	if (!c) {
		walk_oom(w);
		return;
	}
	memcpy(c->name, name, l + 1);
	c->parent = n;
	c->fd = -1;
	c->dev = st->st_dev;
	atomic_init(&c->pending, 1);
	atomic_init(&c->refs, 1);
	atomic_fetch_add(&n->refs, 1);
	atomic_fetch_add(&n->pending, 1);
	if (push(w, c) < 0) {
		walk_failed(w, ENOMEM);
		node_unpend(n);
		node_release(c);
	}
}

/* One entry of directory n: judged, and queued when a directory. */
static void read_entry(struct worker *k, struct dnode *n,
		       const struct linux_dirent64 *d, bool at_slash)
{
	struct walk *w = k->w;
	const char *name = d->d_name;
	struct stat st;
	int r;

	if (skipped_name(d, at_slash))
		return;
	if (fstatat(n->fd, name, &st, AT_SYMLINK_NOFOLLOW) < 0) {
		if (errno != ENOENT)
			walk_warn(k, n, name, "cannot stat", errno, DG_WARNING);
		return;
	}
	if (S_ISLNK(st.st_mode))
		return;
	if (w->have_devfs && st.st_dev == w->devfs_dev)
		return;
	/* a mount point is judged (its mode is what a path through it
	 * meets), but with --xdev not entered */
	r = judge(k, n, name, &st);
	if (r == -ENOMEM)
		walk_oom(w);
	else if (r < 0)
		walk_warn(k, n, name, "cannot read its ACL", -r, DG_ERROR);
	if (!S_ISDIR(st.st_mode) || (w->xdev && st.st_dev != w->root_dev))
		return;
	queue_child(k, n, name, &st);
}

/* The next entries of directory n into k's buffer: their length, 0 at
 * the end, or -errno. */
static long read_entries(struct worker *k, struct dnode *n)
{
	for (;;) {
		long got = syscall(SYS_getdents64, n->fd, k->buf, k->bufsize);

		if (got >= 0)
			return got;
		/* removed while it was read: gone, as an ENOENT of openat or
		 * fstatat is */
		if (errno == ENOENT)
			return 0;
		if (errno != EINVAL) /* EINVAL: an entry larger than buf */
			return -errno;
		char *b = realloc(k->buf, k->bufsize * 2);
		if (!b)
			return -ENOMEM;
		k->buf = b;
		k->bufsize *= 2;
	}
}

/* Read directory n (opened), judging every entry and queueing every
 * subdirectory. */
static void read_dir(struct worker *k, struct dnode *n)
{
	struct walk *w = k->w;
	struct stat self;
	bool at_slash;
	long got;

	if (fstat(n->fd, &self) < 0) {
		walk_warn(k, n, NULL, "cannot stat", errno, DG_ERROR);
		return;
	}
	at_slash = self.st_dev == w->slash_dev && self.st_ino == w->slash_ino;
	k->cwd_fd = -1;
	if (k->own_cwd && fchdir(n->fd) == 0)
		k->cwd_fd = n->fd;
	while ((got = read_entries(k, n)) > 0) {
		for (long off = 0; off < got;) {
			struct linux_dirent64 *d = (void *)(k->buf + off);

			off += d->d_reclen;
			read_entry(k, n, d, at_slash);
		}
	}
	if (got < 0)
		walk_warn(k, n, NULL, "cannot read directory", (int)-got,
			  DG_ERROR);
}

/* Open the queued directory c from its parent: 0, or -1 when it is not
 * to be read (gone, unreadable, or a pseudo file system). */
static int open_dir(struct worker *k, struct dnode *c)
{
	struct statfs sfs;
	int e;

	c->fd = openat(c->parent->fd, c->name,
		       O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC |
			       O_NOCTTY | O_NONBLOCK);
	e = errno;
	node_unpend(c->parent);
	if (c->fd < 0) {
		if (e == EACCES || e == EPERM)
			walk_warn(k, c, NULL, "cannot open directory (skipped)",
				  e, DG_WARNING);
		else if (e != ENOENT && e != ENOTDIR && e != ELOOP)
			walk_warn(k, c, NULL, "cannot open directory", e,
				  DG_ERROR);
		return -1;
	}
	/* a mount point: what is mounted there? */
	if (c->dev == c->parent->dev)
		return 0;
	if (fstatfs(c->fd, &sfs) < 0) {
		walk_warn(k, c, NULL, "cannot statfs", errno, DG_ERROR);
		return -1;
	}
	return pseudo_fs((long)sfs.f_type) ? -1 : 0;
}

/* Open a queued directory from its parent, then read it.  The root is
 * opened already: no open for it. */
static void visit(struct worker *k, struct dnode *c)
{
	if (!c->parent || open_dir(k, c) == 0)
		read_dir(k, c);
	node_unpend(c);
}

static void *worker_main(void *arg)
{
	struct worker *k = arg;
	struct walk *w = k->w;

	k->cwd_fd = -1;

	for (;;) {
		struct dnode *c;

		pthread_mutex_lock(&w->lock);
		while (w->n == 0 && w->busy > 0)
			pthread_cond_wait(&w->cond, &w->lock);
		if (w->n == 0) {
			pthread_cond_broadcast(&w->cond);
			pthread_mutex_unlock(&w->lock);
			return NULL;
		}
		c = w->stack[--w->n];
		pthread_mutex_unlock(&w->lock);

		visit(k, c);
		node_release(c);

		pthread_mutex_lock(&w->lock);
		if (--w->busy == 0)
			pthread_cond_broadcast(&w->cond);
		pthread_mutex_unlock(&w->lock);
	}
}

/* A thread of the pool: its own working directory if it can have one. */
static void *thread_main(void *arg)
{
	struct worker *k = arg;

	k->own_cwd = unshare(CLONE_FS) == 0;
	return worker_main(k);
}

static unsigned n_threads(void)
{
	const char *env = getenv("DG_AUDIT_THREADS");
	long n = env ? strtol(env, NULL, 10) : sysconf(_SC_NPROCESSORS_ONLN) * 2;

	if (n < 1)
		n = 1;
	if (n > 16)
		n = 16;
	return (unsigned)n;
}

/* The root of a walk itself, as an entry: its mode and ACLs, by its
 * path.  0 or -errno. */
static int judge_root(struct worker *k, const char *path, const struct stat *st)
{
	size_t l = strlen(path);
	_cleanup_free_ struct dnode *self = malloc(sizeof(*self) + l + 1);
	unsigned m = st->st_mode, g = (m >> 3) & 7, o = m & 7;
	int r;

	if (!self)
		return -ENOMEM;
	memcpy(self->name, path, l + 1);
	self->parent = NULL;
	r = check_acl(k, path, self, NULL, st->st_gid, ACL_TYPE_ACCESS);
	if (r == 0 && (o & ~g))
		r = record(k, self, NULL, st->st_gid, DG_EV_MODE, NULL);
	if (r >= 0 && S_ISDIR(st->st_mode))
		r = check_acl(k, path, self, NULL, st->st_gid, ACL_TYPE_DEFAULT);
	return r < 0 ? r : 0;
}

/* Read the tree under root with the pool of threads (or in this thread
 * when none can start). */
static int run_pool(struct walk *w, struct dnode *root, struct worker *workers,
		    unsigned nthreads)
{
	_cleanup_free_ pthread_t *tids = NULL;
	unsigned started = 0;

	w->busy = 0;
	w->n = 0;
	if (push(w, root) < 0) {
		node_release(root);
		return -ENOMEM;
	}
	if (!(tids = calloc(nthreads, sizeof(*tids)))) {
		workers[0].own_cwd = false; /* no pool: this thread reads */
		worker_main(&workers[0]);
		return -ENOMEM;
	}
	for (unsigned i = 0; i < nthreads; i++) {
		workers[i].own_cwd = true;
		if (pthread_create(&tids[i], NULL, thread_main, &workers[i]) != 0)
			break;
		started++;
	}
	if (started == 0) {
		workers[0].own_cwd = false;
		worker_main(&workers[0]);
	}
	for (unsigned i = 0; i < started; i++)
		pthread_join(tids[i], NULL);
	return 0;
}

/* Walk one PATH.  Returns 0, or -errno when PATH itself cannot be read. */
static int walk_path(struct walk *w, const char *path, struct worker *workers,
		     unsigned nthreads, struct dg_diags *diags)
{
	struct stat st;
	struct statfs sfs;
	size_t l = strlen(path);
	struct dnode *root;
	int fd, r;

	if (fstatat(AT_FDCWD, path, &st, AT_SYMLINK_NOFOLLOW) < 0)
		return -errno;
	if (S_ISLNK(st.st_mode))
		return -ELOOP;
	if ((r = judge_root(&workers[0], path, &st)) < 0 || !S_ISDIR(st.st_mode))
		return r;
	fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if ((fstatfs(fd, &sfs) == 0 && pseudo_fs((long)sfs.f_type)) ||
	    (w->have_devfs && st.st_dev == w->devfs_dev)) {
		close(fd);
		dg_diag_add(diags, DG_WARNING, path, 0,
			    "a pseudo file system or /dev's, not audited");
		return 0;
	}
	if (!(root = malloc(sizeof(*root) + l + 1))) {
		close(fd);
		return -ENOMEM;
	}
	memcpy(root->name, path, l + 1);
	root->parent = NULL;
	root->fd = fd;
	root->dev = st.st_dev;
	atomic_init(&root->pending, 1);
	atomic_init(&root->refs, 1);
	w->root_dev = st.st_dev;
	return run_pool(w, root, workers, nthreads);
}

/* What the walk needs to know of this system: where / and /dev are,
 * whether /proc/self/fd works; and as many open files as it may have
 * (a wide tree keeps a directory open per level with work left). */
static void walk_setup(struct walk *w, bool xdev, bool strict)
{
	struct stat st, dst, pst;
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max) {
		rl.rlim_cur = rl.rlim_max;
		(void)setrlimit(RLIMIT_NOFILE, &rl);
	}
	w->xdev = xdev;
	w->strict = strict;
	if (stat("/", &st) == 0) {
		w->slash_dev = st.st_dev;
		w->slash_ino = st.st_ino;
	}
	if (stat("/dev", &dst) == 0 && dst.st_dev != st.st_dev) {
		w->devfs_dev = dst.st_dev;
		w->have_devfs = true;
	}
	w->proc_fd = stat("/proc/self/fd", &pst) == 0 && S_ISDIR(pst.st_mode);
}

/* Move the diagnostics of from to the end of into. */
static void move_diags(struct dg_diags *into, struct dg_diags *from)
{
	if (from->n && dg_util_grow((void **)&into->v, &into->cap,
				    into->n + from->n, sizeof(*into->v)) == 0) {
		memcpy(into->v + into->n, from->v, from->n * sizeof(*from->v));
		into->n += from->n;
		from->n = 0;
	}
	into->lost = into->lost || from->lost || from->n > 0;
	dg_diag_free(from);
}

static void workers_free(struct worker *workers, unsigned n)
{
	for (unsigned i = 0; i < n; i++) {
		dg_evidence_free(&workers[i].ev);
		dg_diag_free(&workers[i].diags);
		free(workers[i].buf);
	}
	free(workers);
}

static struct worker *workers_new(struct walk *w, unsigned n)
{
	struct worker *workers = dg_new0(struct worker, n);

	for (unsigned i = 0; workers && i < n; i++) {
		workers[i].w = w;
		workers[i].bufsize = 64 * 1024;
		if (!(workers[i].buf = malloc(workers[i].bufsize))) {
			workers_free(workers, n);
			return NULL;
		}
	}
	return workers;
}

int dg_walk_paths(const char *const *paths, size_t n, bool xdev, bool strict,
		  struct dg_evidence_store *ev, struct dg_diags *diags)
{
	struct walk w = {.lock = PTHREAD_MUTEX_INITIALIZER,
			 .cond = PTHREAD_COND_INITIALIZER};
	unsigned nthreads = n_threads();
	struct worker *workers;
	int r = 0;

	walk_setup(&w, xdev, strict);
	if (!(workers = workers_new(&w, nthreads)))
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		int e = walk_path(&w, paths[i], workers, nthreads, diags);

		for (unsigned t = 0; t < nthreads; t++)
			move_diags(diags, &workers[t].diags);
		if (e < 0) {
			dg_diag_add(diags, DG_ERROR, paths[i], 0, "%s",
				    strerror(-e));
			walk_failed(&w, -e);
		}
	}
	/* room for it all first: ev gets all of it or nothing */
	size_t total = ev->n;
	for (unsigned t = 0; t < nthreads; t++)
		total += workers[t].ev.n;
	if (w.oom ||
	    dg_util_grow((void **)&ev->v, &ev->cap, total, sizeof(*ev->v)) < 0)
		r = -ENOMEM;
	for (unsigned t = 0; t < nthreads && r >= 0; t++)
		(void)dg_evidence_merge(ev, &workers[t].ev); /* fits */
	workers_free(workers, nthreads);
	free(w.stack);
	return r < 0 ? r : atomic_load(&w.first_error);
}
