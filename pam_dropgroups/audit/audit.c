/* dropgroups audit: walk file trees in parallel and name the groups used
 * as negative credentials (dropgroups(8), AUDIT).
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
 * tree holds. */
#include <acl/libacl.h>
#include <ctype.h>
#include <dirent.h>
#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <grp.h>
#include <limits.h>
#include <linux/magic.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/acl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "audit.h"
#include "util.h"

#ifndef CGROUP2_SUPER_MAGIC
#define CGROUP2_SUPER_MAGIC 0x63677270
#endif
#ifndef BPF_FS_MAGIC
#define BPF_FS_MAGIC 0xcafe4a11
#endif
#ifndef TRACEFS_MAGIC
#define TRACEFS_MAGIC 0x74726163
#endif

#define EXIT_NONE 0
#define EXIT_FOUND 1
#define EXIT_ERROR 2

static const char *const kind_names[DG_EV_KINDS] = {
	"mode", "acl", "sudoers", "sshd-DenyGroups", "pam_access",
	"pam_succeed_if",
};

/* --- evidence --- */

struct evidence {
	bool by_gid;
	gid_t gid;
	char *name; /* by name (sudoers, informational) */
	enum dg_ev_kind kind;
	char *where; /* a path, or file:line */
};

struct dg_audit_ev {
	struct evidence *v;
	size_t n, cap;
};


static int ev_add(struct dg_audit_ev *vec, bool by_gid, gid_t gid,
		  const char *name, enum dg_ev_kind kind, char *where)
{
	struct evidence e = {.by_gid = by_gid, .gid = gid, .kind = kind,
			     .where = where};

	if (name && !(e.name = strdup(name))) {
		free(where);
		return -ENOMEM;
	}
	if (DG_APPEND(vec, e) < 0) {
		free(e.name);
		free(where);
		return -ENOMEM;
	}
	return 0;
}

int dg_audit_add_named(struct dg_audit_ev *ev, const char *name,
		       enum dg_ev_kind kind, const char *file, int line)
{
	char *where;
	bool by_gid = false;
	unsigned long g = 0;

	/* sudoers' %#gid */
	if (name[0] == '#' && name[1]) {
		char *end;
		errno = 0;
		g = strtoul(name + 1, &end, 10);
		by_gid = !*end && !errno && g < (gid_t)-1 && isdigit((unsigned char)name[1]);
	}
	if (asprintf(&where, "%s:%d", file, line) < 0)
		return -ENOMEM;
	return ev_add(ev, by_gid, (gid_t)g, by_gid ? NULL : name, kind, where);
}

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
	dev_t root_dev;
	dev_t devfs_dev; /* /dev's file system when it is its own, else 0 */
	bool have_devfs;
	dev_t slash_dev;
	ino_t slash_ino;
	bool proc_fd; /* /proc/self/fd works, for lgetxattr */
	atomic_int errors;
	atomic_int warnings;
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

static void text_str(FILE *f, const char *s);

static void walk_warn(struct walk *w, const struct dnode *n,
		      const char *child, const char *what, int e)
{
	_cleanup_free_ char *p = node_path(n, child);
	_cleanup_free_ char *shown = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&shown, &len);

	/* escaped as in the report: a name must not forge a line or a
	 * terminal sequence on stderr either */
	if (f) {
		text_str(f, p ? p : child ? child : n->name);
		if (fclose(f) != 0) {
			free(shown);
			shown = NULL;
		}
	}
	warnx("audit: %s: %s: %s", shown ? shown : "(a path)", what, strerror(e));
}

static int push(struct walk *w, struct dnode *c)
{
	int r;

	pthread_mutex_lock(&w->lock);
	r = dg_grow((void **)&w->stack, &w->cap, w->n + 1, sizeof(*w->stack));
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
	struct dg_audit_ev ev;
	char *buf;
	size_t bufsize;
};

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
	return ev_add(&k->ev, true, gid, NULL, kind, p);
}

/* An ACL entry's tag and permission bits (4 read, 2 write, 1 execute,
 * as in a mode), or -errno. */
static int entry_bits(acl_entry_t e, acl_tag_t *tag, unsigned *perm)
{
	acl_permset_t ps;

	if (acl_get_tag_type(e, tag) < 0 || acl_get_permset(e, &ps) < 0)
		return -errno;
	*perm = (acl_get_perm(ps, ACL_READ) == 1 ? 4U : 0U) |
		(acl_get_perm(ps, ACL_WRITE) == 1 ? 2U : 0U) |
		(acl_get_perm(ps, ACL_EXECUTE) == 1 ? 1U : 0U);
	return 0;
}

/* The group entries of acl that grant less than other, after the mask:
 * each recorded for its gid (the owning group's is owner_gid). */
static int judge_acl(struct worker *k, acl_t acl, const struct dnode *n,
		     const char *child, gid_t owner_gid, const char *suffix)
{
	acl_entry_t e;
	unsigned other = 0, mask = 7;
	bool have_other = false;
	int r = 0;

	for (int id = ACL_FIRST_ENTRY; acl_get_entry(acl, id, &e) == 1;
	     id = ACL_NEXT_ENTRY) {
		acl_tag_t tag;
		unsigned perm;

		if ((r = entry_bits(e, &tag, &perm)) < 0)
			return r;
		if (tag == ACL_OTHER) {
			other = perm;
			have_other = true;
		} else if (tag == ACL_MASK) {
			mask = perm;
		}
	}
	if (!have_other || other == 0)
		return 0;
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
static void read_dir(struct worker *k, struct dnode *n)
{
	struct walk *w = k->w;
	struct stat self;
	bool at_slash;

	if (fstat(n->fd, &self) < 0) {
		walk_warn(w, n, NULL, "cannot stat", errno);
		atomic_fetch_add(&w->errors, 1);
		return;
	}
	at_slash = self.st_dev == w->slash_dev && self.st_ino == w->slash_ino;
	k->cwd_fd = -1;
	if (k->own_cwd && fchdir(n->fd) == 0)
		k->cwd_fd = n->fd;
	for (;;) {
		long got = syscall(SYS_getdents64, n->fd, k->buf, k->bufsize);

		if (got == 0)
			break;
		if (got < 0) {
			/* removed while it was read: gone, as an ENOENT of
			 * openat or fstatat is */
			if (errno == ENOENT)
				break;
			if (errno == EINVAL) { /* an entry larger than buf */
				char *b = realloc(k->buf, k->bufsize * 2);
				if (b) {
					k->buf = b;
					k->bufsize *= 2;
					continue;
				}
				errno = ENOMEM;
			}
			walk_warn(w, n, NULL, "cannot read directory", errno);
			atomic_fetch_add(&w->errors, 1);
			break;
		}
		for (long off = 0; off < got;) {
			struct linux_dirent64 *d = (void *)(k->buf + off);
			const char *name = d->d_name;
			struct stat st;
			int r;

			off += d->d_reclen;
			if (name[0] == '.' &&
			    (!name[1] || (name[1] == '.' && !name[2])))
				continue;
			if (d->d_type == DT_LNK)
				continue;
			if (at_slash && (!strcmp(name, "proc") || !strcmp(name, "sys") ||
					 !strcmp(name, "dev")))
				continue;
			if (fstatat(n->fd, name, &st, AT_SYMLINK_NOFOLLOW) < 0) {
				if (errno != ENOENT) {
					walk_warn(w, n, name, "cannot stat", errno);
					atomic_fetch_add(&w->warnings, 1);
				}
				continue;
			}
			if (S_ISLNK(st.st_mode))
				continue;
			if (w->have_devfs && st.st_dev == w->devfs_dev)
				continue;
			/* a mount point is judged (its mode is what a path
			 * through it meets), but with --xdev not entered */
			r = judge(k, n, name, &st);
			if (r < 0) {
				if (r == -ENOMEM)
					w->oom = true;
				else
					walk_warn(w, n, name, "cannot read its ACL", -r);
				atomic_fetch_add(&w->errors, 1);
			}
			if (!S_ISDIR(st.st_mode) || (w->xdev && st.st_dev != w->root_dev))
				continue;
			size_t l = strlen(name);
			struct dnode *c = malloc(sizeof(*c) + l + 1);
			if (!c) {
				w->oom = true;
				atomic_fetch_add(&w->errors, 1);
				continue;
			}
			memcpy(c->name, name, l + 1);
			c->parent = n;
			c->fd = -1;
			c->dev = st.st_dev;
			atomic_init(&c->pending, 1);
			atomic_init(&c->refs, 1);
			atomic_fetch_add(&n->refs, 1);
			atomic_fetch_add(&n->pending, 1);
			if (push(w, c) < 0) {
				atomic_fetch_add(&w->errors, 1);
				node_unpend(n);
				node_release(c);
			}
		}
	}
}

/* Open a queued directory from its parent, then read it. */
static void visit(struct worker *k, struct dnode *c)
{
	struct walk *w = k->w;
	struct statfs sfs;

	if (c->parent) {
		c->fd = openat(c->parent->fd, c->name,
			       O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC |
				       O_NOCTTY | O_NONBLOCK);
		int e = errno;
		node_unpend(c->parent);
		if (c->fd < 0) {
			if (e == EACCES || e == EPERM) {
				walk_warn(w, c, NULL, "cannot open directory (skipped)", e);
				atomic_fetch_add(&w->warnings, 1);
			} else if (e != ENOENT && e != ENOTDIR && e != ELOOP) {
				walk_warn(w, c, NULL, "cannot open directory", e);
				atomic_fetch_add(&w->errors, 1);
			}
			node_unpend(c);
			return;
		}
		/* a mount point: what is mounted there? */
		if (c->dev != c->parent->dev) {
			if (fstatfs(c->fd, &sfs) < 0) {
				walk_warn(w, c, NULL, "cannot statfs", errno);
				atomic_fetch_add(&w->errors, 1);
				node_unpend(c);
				return;
			}
			if (pseudo_fs((long)sfs.f_type)) {
				node_unpend(c);
				return;
			}
		}
	}
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

/* Walk one PATH.  Returns 0, or -errno when PATH itself cannot be read. */
static int walk_path(struct walk *w, const char *path, struct worker *workers,
		     unsigned nthreads)
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
	/* the root itself, as an entry: its mode and ACLs, by its path */
	{
		struct dnode *self = malloc(sizeof(*self) + l + 1);
		unsigned m = st.st_mode, g = (m >> 3) & 7, o = m & 7;
		struct worker *k = &workers[0];

		if (!self)
			return -ENOMEM;
		memcpy(self->name, path, l + 1);
		self->parent = NULL;
		r = check_acl(k, path, self, NULL, st.st_gid, ACL_TYPE_ACCESS);
		if (r == 0 && (o & ~g))
			r = record(k, self, NULL, st.st_gid, DG_EV_MODE, NULL);
		if (r >= 0 && S_ISDIR(st.st_mode))
			r = check_acl(k, path, self, NULL, st.st_gid, ACL_TYPE_DEFAULT);
		free(self);
		if (r < 0)
			return r;
	}
	if (!S_ISDIR(st.st_mode))
		return 0;
	fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if ((fstatfs(fd, &sfs) == 0 && pseudo_fs((long)sfs.f_type)) ||
	    (w->have_devfs && st.st_dev == w->devfs_dev)) {
		close(fd);
		warnx("audit: %s: a pseudo file system or /dev's, not audited",
		      path);
		return 0;
	}
	root = malloc(sizeof(*root) + l + 1);
	if (!root) {
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

	w->busy = 0;
	w->n = 0;
	if (push(w, root) < 0) {
		node_release(root);
		return -ENOMEM;
	}
	/* the root is opened already: visit() skips the open for it */
	pthread_t *tids = calloc(nthreads, sizeof(*tids));
	if (!tids)
		return -ENOMEM;
	unsigned started = 0;
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
	free(tids);
	return 0;
}

/* --- the report --- */

struct row {
	bool by_gid;
	gid_t gid;
	char *name; /* NULL: no name */
	size_t first, count;
	size_t counts[DG_EV_KINDS];
	bool defeated;
};

static int cmp_ev(const void *a, const void *b)
{
	const struct evidence *x = a, *y = b;

	if (x->by_gid != y->by_gid)
		return x->by_gid ? -1 : 1;
	if (x->by_gid && x->gid != y->gid)
		return x->gid < y->gid ? -1 : 1;
	if (!x->by_gid) {
		int c = strcmp(x->name, y->name);
		if (c)
			return c;
	}
	if (x->kind != y->kind)
		return (int)x->kind - (int)y->kind;
	return strcmp(x->where, y->where);
}

static const char *row_key(const struct row *r, char buf[32])
{
	if (r->name)
		return r->name;
	snprintf(buf, 32, "%u", (unsigned)r->gid);
	return buf;
}

static int cmp_row(const void *a, const void *b)
{
	const struct row *x = a, *y = b;
	char bx[32], by[32];
	int c = strcmp(row_key(x, bx), row_key(y, by));

	if (c)
		return c;
	return x->gid < y->gid ? -1 : x->gid > y->gid;
}

/* Resolve a gid's name, or a name's gid, through NSS: 0, 1 (not found)
 * or -errno. */
static int nss_group(bool by_gid, gid_t *gid, const char *name, char **out)
{
	size_t size = 1024;

	for (;;) {
		_cleanup_free_ char *buf = malloc(size);
		struct group gr, *res = NULL;
		int e;

		if (!buf)
			return -ENOMEM;
		e = by_gid ? getgrgid_r(*gid, &gr, buf, size, &res)
			   : getgrnam_r(name, &gr, buf, size, &res);
		if (e == ERANGE && size < (1u << 24)) {
			size *= 2;
			continue;
		}
		if (e != 0)
			return -e;
		if (!res)
			return 1;
		if (by_gid) {
			if (!(*out = strdup(gr.gr_name)))
				return -ENOMEM;
		} else {
			*gid = gr.gr_gid;
		}
		return 0;
	}
}

/* A path in the text report: a control byte or a backslash as a C
 * escape (\n, \x1b, \\), so that no name can end a row or forge one. */
static void text_str(FILE *f, const char *s)
{
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (*p == '\\')
			fputs("\\\\", f);
		else if (*p == '\n')
			fputs("\\n", f);
		else if (dg_control_len((const char *)p, true) == 1)
			fprintf(f, "\\x%02x", *p);
		else if (dg_control_len((const char *)p, true) == 2)
			fprintf(f, "\\xc2\\x%02x", *++p); /* a C1 control */
		else
			fputc(*p, f);
	}
}

static void json_str(FILE *f, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	fputc('"', f);
	for (; *p; p++) {
		if (*p == '"' || *p == '\\')
			fprintf(f, "\\%c", *p);
		else if (dg_control_len((const char *)p, false) || *p >= 0x80)
			/* bytes, not characters: a path need not be UTF-8 */
			fprintf(f, "\\u%04x", *p);
		else
			fputc(*p, f);
	}
	fputc('"', f);
}

/* sudo matches "%group" against the names of the process's groups
 * ignoring case (its default case_insensitive_group), and one name may
 * belong to several gids (a local group and a directory group): every
 * group whose name matches a sudoers name, by an enumeration of the
 * groups, gets that evidence too.  A name nothing answered exactly takes
 * the first such gid.  0, or -errno (the enumeration failed). */
static int sudoers_name_matches(struct dg_audit_ev *all)
{
	struct dg_audit_ev add = {0};
	size_t size = 1024, n = all->n;
	bool any = false;
	int r = 0;

	for (size_t i = 0; i < n; i++)
		any = any || (all->v[i].kind == DG_EV_SUDOERS && all->v[i].name &&
			      all->v[i].name[0] != '#');
	if (!any)
		return 0;
	setgrent();
	for (;;) {
		_cleanup_free_ char *buf = malloc(size);
		struct group gr, *res = NULL;
		int e;

		if (!buf) {
			r = -ENOMEM;
			break;
		}
		e = getgrent_r(&gr, buf, size, &res);
		if (e == ERANGE && size < (1u << 24)) {
			size *= 2;
			continue;
		}
		if (e == ENOENT || (e == 0 && !res))
			break;
		if (e != 0) {
			r = -e;
			break;
		}
		for (size_t i = 0; i < n && r >= 0; i++) {
			struct evidence *v = &all->v[i];
			if (v->kind != DG_EV_SUDOERS || !v->name || v->name[0] == '#' ||
			    strcasecmp(v->name, gr.gr_name) != 0 ||
			    (v->by_gid && v->gid == gr.gr_gid))
				continue;
			if (!v->by_gid) {
				v->by_gid = true;
				v->gid = gr.gr_gid;
				continue;
			}
			char *where = strdup(v->where);
			r = where ? ev_add(&add, true, gr.gr_gid, v->name,
					   DG_EV_SUDOERS, where)
				  : -ENOMEM;
		}
		if (r < 0)
			break;
	}
	endgrent();
	for (size_t i = 0; i < add.n; i++) {
		if (r >= 0 && DG_APPEND(all, add.v[i]) < 0)
			r = -ENOMEM;
		if (r < 0) {
			free(add.v[i].name);
			free(add.v[i].where);
		}
	}
	free(add.v);
	return r;
}

static int report(struct dg_audit_ev *all, bool json, const char *dropin)
{
	struct evidence *ev = all->v;
	size_t n = all->n, nrows = 0;
	_cleanup_free_ struct row *rows = NULL;
	bool found = false;
	int err = 0;

	/* names to gids, each name looked up once (after sorting, the
	 * equal names are adjacent) */
	if (n > 0) /* qsort's base must not be NULL, even for 0 items */
		qsort(ev, n, sizeof(*ev), cmp_ev);
	for (size_t i = 0; i < n;) {
		size_t j = i;
		gid_t g;
		int r;

		if (ev[i].by_gid) {
			i++;
			continue;
		}
		while (j < n && !ev[j].by_gid && !strcmp(ev[j].name, ev[i].name))
			j++;
		r = nss_group(false, &g, ev[i].name, NULL);
		if (r < 0)
			err = r;
		for (size_t q = i; r == 0 && q < j; q++) {
			ev[q].gid = g;
			ev[q].by_gid = true;
		}
		i = j;
	}
	{
		int r = sudoers_name_matches(all);
		if (r == -ENOMEM)
			return r;
		if (r < 0) {
			warnx("audit: listing the groups: %s", strerror(-r));
			err = r;
		}
		ev = all->v;
		n = all->n;
	}
	if (n > 0) /* qsort's base must not be NULL, even for 0 items */
		qsort(ev, n, sizeof(*ev), cmp_ev);
	/* at least one: calloc(0) may answer NULL */
	if (!(rows = dg_new0(struct row, n ? n : 1)))
		return -ENOMEM;
	for (size_t i = 0; i < n;) {
		struct row *r = &rows[nrows++];
		size_t j = i;

		r->by_gid = ev[i].by_gid;
		r->gid = ev[i].gid;
		r->first = i;
		while (j < n && ev[j].by_gid == ev[i].by_gid &&
		       (ev[i].by_gid ? ev[j].gid == ev[i].gid
				     : !strcmp(ev[j].name, ev[i].name))) {
			r->counts[ev[j].kind]++;
			if (dg_ev_defeated(ev[j].kind))
				r->defeated = true;
			j++;
		}
		r->count = j - i;
		/* each gid resolved once */
		if (r->by_gid) {
			int e = nss_group(true, &r->gid, NULL, &r->name);
			if (e < 0)
				err = e;
			if (e == 0 && !r->name)
				return -ENOMEM;
			/* a name that was looked up keeps its spelling */
			if (e != 0 && ev[i].name && !(r->name = strdup(ev[i].name)))
				return -ENOMEM;
		} else if (!(r->name = strdup(ev[i].name))) {
			return -ENOMEM;
		}
		if (r->defeated)
			found = true;
		i = j;
	}
	if (nrows > 0)
		qsort(rows, nrows, sizeof(*rows), cmp_row);

	if (json) {
		printf("{\"groups\": [");
		for (size_t i = 0; i < nrows; i++) {
			struct row *r = &rows[i];
			printf("%s\n  {\"name\": ", i ? "," : "");
			if (r->name)
				json_str(stdout, r->name);
			else
				printf("null");
			printf(", \"gid\": ");
			if (r->by_gid)
				printf("%u", (unsigned)r->gid);
			else
				printf("null");
			printf(", \"defeated_by_dropping\": %s, \"counts\": {",
			       r->defeated ? "true" : "false");
			bool first = true;
			for (int k = 0; k < DG_EV_KINDS; k++) {
				if (!r->counts[k])
					continue;
				printf("%s\"%s\": %zu", first ? "" : ", ",
				       kind_names[k], r->counts[k]);
				first = false;
			}
			printf("}, \"evidence\": [");
			for (size_t j = 0; j < r->count; j++) {
				struct evidence *e = &ev[r->first + j];
				printf("%s\n    {\"kind\": \"%s\", \"informational\": %s, \"where\": ",
				       j ? "," : "", kind_names[e->kind],
				       dg_ev_defeated(e->kind) ? "false" : "true");
				json_str(stdout, e->where);
				printf("}");
			}
			printf("]}");
		}
		printf("%s]}\n", nrows ? "\n" : "");
	} else {
		for (size_t i = 0; i < nrows; i++) {
			struct row *r = &rows[i];
			char buf[32];
			int shown = 0;

			text_str(stdout, row_key(r, buf));
			if (r->by_gid)
				printf(" gid %u:", (unsigned)r->gid);
			else
				printf(" (no such group):");
			for (int pass = 0; pass < 2; pass++) {
				bool any = false;
				for (int k = 0; k < DG_EV_KINDS; k++) {
					if (!r->counts[k] || dg_ev_defeated(k) != !pass)
						continue;
					if (!any && pass)
						printf("%s informational, not defeated by dropping"
						       " (judged from NSS membership):",
						       r->defeated ? ";" : "");
					printf("%s %s %zu", any ? "," : "", kind_names[k],
					       r->counts[k]);
					any = true;
				}
			}
			printf("; e.g.");
			for (size_t j = 0; j < r->count && shown < 3; j++) {
				struct evidence *e = &ev[r->first + j];
				printf("%s ", shown ? "," : "");
				text_str(stdout, e->where);
				shown++;
			}
			printf("\n");
		}
	}
	if (fflush(stdout) != 0 || ferror(stdout)) {
		warn("audit: writing the report");
		return -EIO;
	}

	if (dropin) {
		/* A new file beside FILE, renamed over it when whole: never
		 * written through a symbolic link, a hard link or a FIFO
		 * that someone left at FILE, and never seen half-written. */
		_cleanup_free_ char *tmp = NULL;
		struct stat old;
		/* and a FILE that is there must be a file: a link or a FIFO
		 * is refused, not replaced */
		if (lstat(dropin, &old) == 0 && !S_ISREG(old.st_mode)) {
			warnx("audit: %s: not a regular file", dropin);
			return -EIO;
		}
		if (asprintf(&tmp, "%s.XXXXXX", dropin) < 0)
			return -ENOMEM;
		int fd = mkostemp(tmp, O_CLOEXEC);
		FILE *f = fd < 0 ? NULL : fdopen(fd, "w");
		if (!f) {
			warn("audit: %s", fd < 0 ? tmp : dropin);
			if (fd >= 0) {
				close(fd);
				unlink(tmp);
			}
			return -EIO;
		}
		if (fchmod(fd, 0644) < 0) {
			warn("audit: %s", dropin);
			fclose(f);
			unlink(tmp);
			return -EIO;
		}
		fprintf(f, "# Written by dropgroups audit: the groups this system uses\n"
			   "# as negative credentials, which dropping would defeat.\n"
			   "version = 1;\nrestricting = (");
		size_t last = nrows;
		for (size_t i = 0; i < nrows; i++)
			if (rows[i].defeated && rows[i].by_gid)
				last = i;
		for (size_t i = 0; i < nrows; i++) {
			struct row *r = &rows[i];
			if (!r->defeated || !r->by_gid)
				continue;
			/* the name in a comment that ends the line: no name
			 * can end it early, control bytes are written as ? */
			/* above INT32_MAX, libconfig reads a plain number as
			 * wrapped (check refuses it): the L suffix keeps it */
			fprintf(f, "\n  %u%s%s # ", (unsigned)r->gid,
				r->gid > INT32_MAX ? "L" : "", i == last ? "" : ",");
			for (const unsigned char *p = (const unsigned char *)(r->name ? r->name : "(no name)");
			     *p; p++) {
				/* UTF-8's C1 controls (U+0080..U+009F) too */
				size_t cl = dg_control_len((const char *)p, true);
				fputc(cl ? '?' : *p, f);
				p += cl ? cl - 1 : 0;
			}
		}
		fprintf(f, "%s);\n", last == nrows ? " " : "\n");
		if (fflush(f) != 0 || fsync(fd) < 0) {
			warn("audit: %s", dropin);
			fclose(f);
			unlink(tmp);
			return -EIO;
		}
		if (fclose(f) != 0 || rename(tmp, dropin) < 0) {
			warn("audit: %s", dropin);
			unlink(tmp);
			return -EIO;
		}
	}
	for (size_t i = 0; i < nrows; i++)
		free(rows[i].name);
	if (err < 0)
		return err;
	return found ? 1 : 0;
}

/* --- the command --- */

static void audit_usage(FILE *f)
{
	fprintf(f, "Usage: dropgroups audit [--sudoers PATH]... [--xdev] "
		   "[--emit-dropin FILE] [--json] [PATH...]\n");
}

int dg_audit_main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{"sudoers", required_argument, NULL, 's'},
		{"xdev", no_argument, NULL, 'x'},
		{"emit-dropin", required_argument, NULL, 'e'},
		{"json", no_argument, NULL, 'j'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	struct dg_strings sudoers = {0};
	struct dg_audit_ev all_ev = {0};
	const char *dropin = NULL;
	bool json = false, xdev = false;
	struct walk w = {.lock = PTHREAD_MUTEX_INITIALIZER,
			 .cond = PTHREAD_COND_INITIALIZER};
	int c, errors = 0;

	optind = 1;
	while ((c = getopt_long(argc, argv, "+h", longopts, NULL)) != -1) {
		switch (c) {
		case 's':
			if (dg_strings_add(&sudoers, optarg) < 0)
				errx(EXIT_ERROR, "out of memory");
			break;
		case 'x':
			xdev = true;
			break;
		case 'e':
			if (dropin) {
				warnx("--emit-dropin may be given only once");
				fprintf(stderr, "Try 'dropgroups --help'.\n");
				return EXIT_ERROR;
			}
			dropin = optarg;
			break;
		case 'j':
			json = true;
			break;
		case 'h':
			audit_usage(stdout);
			return EXIT_NONE;
		default:
			fprintf(stderr, "Try 'dropgroups --help'.\n");
			return EXIT_ERROR;
		}
	}

	/* a wide tree keeps a directory open per level with work left */
	struct rlimit rl;
	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max) {
		rl.rlim_cur = rl.rlim_max;
		(void)setrlimit(RLIMIT_NOFILE, &rl);
	}

	struct stat st;
	w.xdev = xdev;
	if (stat("/", &st) == 0) {
		w.slash_dev = st.st_dev;
		w.slash_ino = st.st_ino;
	}
	struct stat dst;
	if (stat("/dev", &dst) == 0 && dst.st_dev != st.st_dev) {
		w.devfs_dev = dst.st_dev;
		w.have_devfs = true;
	}
	struct stat pst;
	w.proc_fd = stat("/proc/self/fd", &pst) == 0 && S_ISDIR(pst.st_mode);

	unsigned nthreads = n_threads();
	struct worker *workers = dg_new0(struct worker, nthreads);
	if (!workers)
		errx(EXIT_ERROR, "out of memory");
	for (unsigned i = 0; i < nthreads; i++) {
		workers[i].w = &w;
		workers[i].bufsize = 64 * 1024;
		if (!(workers[i].buf = malloc(workers[i].bufsize)))
			errx(EXIT_ERROR, "out of memory");
	}

	const char *def_path[] = {"/"};
	char **paths = optind < argc ? argv + optind : (char **)def_path;
	int npaths = optind < argc ? argc - optind : 1;
	for (int i = 0; i < npaths; i++) {
		int r = walk_path(&w, paths[i], workers, nthreads);
		if (r < 0) {
			warnx("audit: %s: %s", paths[i], strerror(-r));
			errors++;
		}
	}
	errors += atomic_load(&w.errors);
	if (w.oom)
		errx(EXIT_ERROR, "out of memory");
	for (unsigned i = 0; i < nthreads; i++) {
		for (size_t j = 0; j < workers[i].ev.n; j++)
			if (DG_APPEND(&all_ev, workers[i].ev.v[j]) < 0)
				errx(EXIT_ERROR, "out of memory");
		free(workers[i].ev.v);
		free(workers[i].buf);
	}
	free(workers);
	free(w.stack);

	if (sudoers.n) {
		errors += dg_audit_sudoers(&all_ev, (const char *const *)sudoers.v,
					   sudoers.n, true);
	} else {
		const char *def[] = {"/etc/sudoers", "/etc/sudoers.d"};
		errors += dg_audit_sudoers(&all_ev, def, 2, false);
	}
	dg_strings_free(&sudoers);
	errors += dg_audit_informational(&all_ev);

	int r = report(&all_ev, json, dropin);
	for (size_t i = 0; i < all_ev.n; i++) {
		free(all_ev.v[i].name);
		free(all_ev.v[i].where);
	}
	free(all_ev.v);
	if (r == -ENOMEM)
		errx(EXIT_ERROR, "out of memory");
	if (r < 0 || errors > 0)
		return EXIT_ERROR;
	return r == 1 ? EXIT_FOUND : EXIT_NONE;
}
