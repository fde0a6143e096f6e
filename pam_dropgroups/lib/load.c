/* From a policy path to a resolved policy: the files (found, checked
 * and read race-free) and then their names (through nss.c and
 * resolve.c). */
#include "load.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cache.h"
#include "nss.h"
#include "resolve.h"
#include "strlist.h"
#include "util.h"

/* Every step returns 0, -EINVAL when it recorded the problem in diags,
 * or -ENOMEM. */

/* Root must own it and nobody else may write it: whoever can write the
 * policy decides which groups every login keeps. */
static int check_owner(const struct stat *st, const char *report_file,
		       const char *subject, struct dg_diags *diags)
{
	if (st->st_uid != 0) {
		dg_diag_add(diags, DG_ERROR, report_file, 0,
			    "%s is not owned by root (owner uid %u)", subject,
			    (unsigned)st->st_uid);
		return -EINVAL;
	}
	if (st->st_mode & (S_IWGRP | S_IWOTH)) {
		dg_diag_add(diags, DG_ERROR, report_file, 0,
			    "%s is writable by group or others (mode %04o)",
			    subject, (unsigned)(st->st_mode & 07777));
		return -EINVAL;
	}
	return 0;
}

static int open_dir_checked(int at, const char *name, const char *display,
			    const char *report_file, bool nofollow,
			    bool missing_ok, int *fd, struct dg_diags *diags);

/* Open directory `name` in `at` and check it.  *fd is -1 when it does
 * not exist and `missing_ok`, and whenever it fails: a directory that
 * fails its check is closed here, so no caller can leak it (a login
 * with an insecure include directory leaked one descriptor each). */
static int open_dir(int at, const char *name, const char *display,
		    const char *report_file, bool nofollow, bool missing_ok,
		    int *fd, struct dg_diags *diags)
{
	int r = open_dir_checked(at, name, display, report_file, nofollow,
				 missing_ok, fd, diags);

	if (r < 0 && *fd >= 0) {
		close(*fd);
		*fd = -1;
	}
	return r;
}

static int open_dir_checked(int at, const char *name, const char *display,
			    const char *report_file, bool nofollow,
			    bool missing_ok, int *fd, struct dg_diags *diags)
{
	int flags = O_RDONLY | O_DIRECTORY | O_CLOEXEC |
		    (nofollow ? O_NOFOLLOW : 0);
	_cleanup_free_ char *subject = NULL;
	struct stat st;

	*fd = openat(at, name, flags);
	if (*fd < 0) {
		int err = errno;

		if (err == ENOENT && missing_ok)
			return 0;
		if (err == ENOMEM)
			return -ENOMEM;
		/* O_DIRECTORY|O_NOFOLLOW on a symlink says ENOTDIR: tell
		 * the admin what is really there. */
		if (nofollow && err == ENOTDIR &&
		    fstatat(at, name, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
		    S_ISLNK(st.st_mode))
			err = ELOOP;
		dg_diag_add(diags, DG_ERROR, report_file, 0,
			    "cannot open directory %s: %s", display,
			    err == ELOOP ? "it is a symbolic link, which is "
					   "never followed"
					 : strerror(err));
		return -EINVAL;
	}
	if (fstat(*fd, &st) < 0) {
		dg_diag_add(diags, DG_ERROR, report_file, 0,
			    "cannot stat directory %s: %s", display,
			    strerror(errno));
		return -EINVAL;
	}
	/* by hand, not asprintf: twice in every login */
	if (!(subject = malloc(sizeof("directory ") + strlen(display))))
		return -ENOMEM;
	memcpy(subject, "directory ", sizeof("directory ") - 1);
	strcpy(subject + sizeof("directory ") - 1, display);
	return check_owner(&st, report_file, subject, diags);
}

/* Open the directory `path` from `at` one component at a time, each with
 * O_NOFOLLOW and each checked as the policy's own directories are: no
 * component is ever followed through a symbolic link, however the path
 * is spelled ("dir/", "dir/.", "a//b"), and nobody but root can rename
 * one away.  "." components are skipped and ".." is refused.  *fd is -1
 * when some component does not exist. */
static char *join_display(const char *dir, const char *name);

/* Open one component of a walk; messages name the path up to it. */
static int open_component(int at, const char *name, const char *path,
			  size_t prefix, const char *base_display,
			  const char *report_file, int *fd,
			  struct dg_diags *diags)
{
	_cleanup_free_ char *upto = strndup(path, prefix);
	_cleanup_free_ char *shown = upto ? join_display(base_display, upto)
					  : NULL;

	if (!shown)
		return -ENOMEM;
	return open_dir(at, name, shown, report_file, true, true, fd, diags);
}

static int walk_dir(int at, const char *path, const char *base_display,
		    const char *report_file, int *fd, struct dg_diags *diags)
{
	_cleanup_free_ char *copy = strdup(path);
	_cleanup_close_ int owned = -1; /* cur, once it is not at */
	char *save = NULL;
	int cur = at, r;

	*fd = -1;
	if (!copy)
		return -ENOMEM;
	/* refused before any component is opened: a missing directory
	 * early in the path must not hide it */
	for (const char *c = path; *c; c += strcspn(c, "/"), c += *c == '/')
		if (c[0] == '.' && c[1] == '.' && (c[2] == '/' || !c[2])) {
			dg_diag_add(diags, DG_ERROR, report_file, 0,
				    "include_dir %s has a \"..\" component; "
				    "write the directory's own path",
				    path);
			return -EINVAL;
		}
	if (path[0] == '/') {
		r = open_dir(AT_FDCWD, "/", "/", report_file, true, false,
			     &owned, diags);
		if (r < 0)
			return r;
		cur = owned;
	}
	for (char *c = strtok_r(copy, "/", &save); c; c = strtok_r(NULL, "/", &save)) {
		int next = -1;

		if (strcmp(c, ".") == 0)
			continue;
		r = open_component(cur, c, path, (size_t)(c - copy) + strlen(c),
				   base_display, report_file, &next, diags);
		if (r < 0)
			return r;
		if (next < 0)
			return 0; /* does not exist: no drop-ins */
		if (owned >= 0)
			close(owned);
		cur = owned = next;
	}
	/* at itself ("." alone): a descriptor of the caller's own, made
	 * only here, not (with a close) for every walk */
	if (owned < 0 && (owned = fcntl(at, F_DUPFD_CLOEXEC, 3)) < 0)
		return errno == ENOMEM ? -ENOMEM : -EBADF;
	*fd = owned;
	owned = -1;
	return 0;
}

static int read_all(int fd, const char *display, const struct stat *st,
		    char **text, struct dg_diags *diags)
{
	_cleanup_free_ char *buf = NULL;
	size_t len;
	int r = dg_util_read_stat(fd, st, DG_POLICY_MAX_BYTES, &buf, &len);

	if (r == -ENOMEM)
		return r;
	if (r == -EFBIG) {
		dg_diag_add(diags, DG_ERROR, display, 0,
			    "file is larger than %u bytes",
			    DG_POLICY_MAX_BYTES);
		return -EINVAL;
	}
	if (r < 0) {
		dg_diag_add(diags, DG_ERROR, display, 0, "cannot read: %s",
			    strerror(-r));
		return -EINVAL;
	}
	if (memchr(buf, '\0', len)) {
		dg_diag_add(diags, DG_ERROR, display, 0,
			    "file contains a NUL byte");
		return -EINVAL;
	}
	*text = DG_TAKE(buf);
	return 0;
}

/* Open `name` in directory `dirfd`, check it, and read it whole. */
static int read_policy_file(int dirfd, const char *name, const char *display,
			    char **text, struct dg_diags *diags)
{
	_cleanup_close_ int fd = -1;
	struct stat st;
	int r;

	/* O_NONBLOCK: a FIFO planted here must not hang every login. */
	fd = openat(dirfd, name,
		    O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd < 0) {
		if (errno == ENOMEM)
			return -ENOMEM;
		dg_diag_add(diags, DG_ERROR, display, 0, "cannot open: %s",
			    errno == ELOOP ? "it is a symbolic link, which "
					     "is never followed"
					   : strerror(errno));
		return -EINVAL;
	}
	if (fstat(fd, &st) < 0) {
		dg_diag_add(diags, DG_ERROR, display, 0, "cannot stat: %s",
			    strerror(errno));
		return -EINVAL;
	}
	if (!S_ISREG(st.st_mode)) {
		dg_diag_add(diags, DG_ERROR, display, 0, "not a regular file");
		return -EINVAL;
	}
	if ((r = check_owner(&st, display, "the file", diags)))
		return r;
	if (st.st_size > (off_t)DG_POLICY_MAX_BYTES) {
		dg_diag_add(diags, DG_ERROR, display, 0,
			    "file is larger than %u bytes",
			    DG_POLICY_MAX_BYTES);
		return -EINVAL;
	}
	return read_all(fd, display, &st, text, diags);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

bool dg_load_is_drop_in_name(const char *name)
{
	size_t n = strlen(name);

	/* Hidden files are editors' and package managers' leftovers. */
	return name[0] != '.' && n > 5 && strcmp(name + n - 5, ".conf") == 0;
}

/* The names of the drop-ins in dirfd, and `extra` (a candidate's name, or
 * NULL) where it is not one of them, in C-locale (strcmp) order. */
static int list_drop_ins(int dirfd, const char *display,
			 const char *report_file, const char *extra,
			 struct dg_strlist *names, struct dg_diags *diags)
{
	int fd = dup(dirfd);
	struct dirent *de;
	DIR *d;

	if (fd < 0 || !(d = fdopendir(fd))) {
		int err = errno;

		if (fd >= 0)
			close(fd);
		if (err == ENOMEM)
			return -ENOMEM;
		dg_diag_add(diags, DG_ERROR, report_file, 0,
			    "cannot read directory %s: %s", display,
			    strerror(err));
		return -EINVAL;
	}
	for (errno = 0; (de = readdir(d)); errno = 0) {
		if (!dg_load_is_drop_in_name(de->d_name))
			continue;
		if (extra && strcmp(de->d_name, extra) == 0)
			continue; /* added once, below */
		if (dg_strlist_add(names, de->d_name) < 0) {
			closedir(d);
			return -ENOMEM;
		}
	}
	if (errno) {
		dg_diag_add(diags, DG_ERROR, report_file, 0,
			    "cannot read directory %s: %s", display,
			    strerror(errno));
		closedir(d);
		return -EINVAL;
	}
	closedir(d);
	if (extra && dg_strlist_add(names, extra) < 0)
		return -ENOMEM;
	if (names->n)
		qsort(names->v, names->n, sizeof(*names->v), cmp_str);
	return 0;
}

/* A file read in place of the installed drop-in `name` (or, where there
 * is none of that name, at the place of that name): a candidate. */
struct subst {
	const char *name;
	const char *display;
	const char *text;
};

/* One load's files, as they are read.  While every file read so far is
 * the one the cache holds at that place, nothing is parsed and what the
 * reading finds goes to `held`; at the first that differs (or cannot be
 * read), the files read so far are parsed and `held` follows, so that
 * diags end up exactly as a load without a cache gives them. */
struct reading {
	struct dg_config *out;
	struct dg_diags *diags;
	struct dg_cache *cache;
	struct dg_diags held;
	struct dg_source *files; /* display and text owned here */
	size_t n, cap;
};

static struct dg_diags *sink(struct reading *rd)
{
	return rd->cache ? &rd->held : rd->diags;
}

static int parse_file(struct reading *rd, size_t i)
{
	const struct dg_source *f = &rd->files[i];

	return dg_config_parse(rd->out, f->display, f->text, f->role,
			       rd->diags);
}

/* Parse the first n files read, then add what was held: from here on
 * the load goes on without the cache. */
static int leave_cache(struct reading *rd, size_t n)
{
	int r = 0;

	dg_cache_free(rd->cache);
	rd->cache = NULL;
	for (size_t i = 0; i < n && r == 0; i++)
		r = parse_file(rd, i);
	for (size_t i = 0; i < rd->held.n && r == 0; i++) {
		const struct dg_diag *d = &rd->held.v[i];

		dg_diag_add_at(rd->diags, d->severity, d->file, d->line,
			       d->column, "%s", d->message);
	}
	if (rd->held.lost)
		rd->diags->lost = true;
	dg_diag_free(&rd->held);
	return r;
}

/* A file was read: keep it (text is taken), and parse it unless the
 * cache still holds every file so far. */
static int got_file(struct reading *rd, const char *display,
		    enum dg_file_role role, char *text)
{
	struct dg_source f = {.role = role, .text = text, .len = strlen(text)};

	if (!(f.display = strdup(display)) ||
	    dg_util_grow((void **)&rd->files, &rd->cap, rd->n + 1,
			 sizeof(*rd->files)) < 0) {
		free((char *)f.display);
		free(text);
		return -ENOMEM;
	}
	rd->files[rd->n++] = f;
	if (rd->cache && dg_cache_has(rd->cache, rd->n - 1, &f))
		return 0;
	if (rd->cache)
		return leave_cache(rd, rd->n);
	return parse_file(rd, rd->n - 1);
}

static void reading_free(struct reading *rd)
{
	for (size_t i = 0; i < rd->n; i++) {
		free((char *)rd->files[i].display);
		free((char *)rd->files[i].text);
	}
	free(rd->files);
	dg_cache_free(rd->cache);
	dg_diag_free(&rd->held);
}

/* Open `name` in dirfd, check it, read it and hand it to got_file. */
static int read_file(struct reading *rd, int dirfd, const char *name,
		     const char *display, enum dg_file_role role)
{
	char *text = NULL;
	int r = read_policy_file(dirfd, name, display, &text, sink(rd));

	if (r == -EINVAL && rd->cache)
		return leave_cache(rd, rd->n) < 0 ? -ENOMEM : r;
	if (r != 0)
		return r;
	return got_file(rd, display, role, text);
}

static int load_drop_ins(struct reading *rd, int dirfd,
			 const char *inc_display, const char *main_file,
			 const struct subst *sub)
{
	struct dg_strlist names = {0};
	int r;

	r = list_drop_ins(dirfd, inc_display, main_file,
			  sub ? sub->name : NULL, &names, sink(rd));
	if (r == -EINVAL && rd->cache && leave_cache(rd, rd->n) < 0)
		r = -ENOMEM;
	for (size_t i = 0; i < names.n && r >= 0; i++) {
		_cleanup_free_ char *display = NULL;

		if (sub && strcmp(names.v[i], sub->name) == 0) {
			r = dg_config_parse(rd->out, sub->display, sub->text,
					    DG_DROP_IN, rd->diags);
			continue;
		}
		if (asprintf(&display, "%s/%s", inc_display, names.v[i]) < 0) {
			display = NULL;
			r = -ENOMEM;
			break;
		}
		r = read_file(rd, dirfd, names.v[i], display, DG_DROP_IN);
	}
	dg_strlist_free(&names);
	return r < 0 ? r : 0;
}

/* path without "." components and repeated or trailing slashes, so that
 * messages name each directory one way.  NULL on ENOMEM. */
static char *normalize_path(const char *path)
{
	char *out = malloc(strlen(path) + 2), *o = out;

	if (!out)
		return NULL;
	if (path[0] == '/')
		*o++ = '/';
	for (const char *c = path; *c;) {
		size_t len = strcspn(c, "/");

		if (len && !(len == 1 && c[0] == '.')) {
			if (o > out && o[-1] != '/')
				*o++ = '/';
			memcpy(o, c, len);
			o += len;
		}
		c += len + (c[len] == '/');
	}
	if (o == out)
		*o++ = '.';
	*o = '\0';
	return out;
}

/* include_dir as written (relative to the main file's directory), or the
 * main file's name with ".conf" replaced by ".d". */
static char *include_dir_name(const struct dg_config *cfg, const char *base)
{
	size_t n = strlen(base);
	char *s = NULL;

	if (cfg->include_dir)
		return normalize_path(cfg->include_dir);
	if (n > 5 && strcmp(base + n - 5, ".conf") == 0)
		n -= 5;
	/* by hand, not asprintf: once in every login */
	if (!(s = malloc(n + sizeof(".d"))))
		return NULL;
	memcpy(s, base, n);
	memcpy(s + n, ".d", sizeof(".d"));
	return s;
}

static char *join_display(const char *dir, const char *name)
{
	size_t d, n;
	bool slash;
	char *s;

	if (name[0] == '/')
		return strdup(name);
	if (strcmp(dir, ".") == 0)
		return strdup(name);
	/* by hand: an asprintf here was about 1,400 instructions, twice
	 * in every login */
	d = strlen(dir);
	n = strlen(name);
	slash = d && dir[d - 1] != '/';
	if (!(s = malloc(d + slash + n + 1)))
		return NULL;
	memcpy(s, dir, d);
	if (slash)
		s[d] = '/';
	memcpy(s + d + slash, name, n + 1);
	return s;
}

/* The directory part of path ("." or "/" where that is all), and a
 * pointer to its last component.  NULL on ENOMEM. */
static char *split_path(const char *path, const char **base)
{
	const char *slash = strrchr(path, '/');

	*base = slash ? slash + 1 : path;
	if (!slash)
		return strdup(".");
	if (slash == path)
		return strdup("/");
	return strndup(path, (size_t)(slash - path));
}

/* Open the directory that holds path, checked as the policy's own are.
 * 0 with *dirfd open, -EINVAL (reported) or -ENOMEM. */
static int open_parent(const char *path, char **dir, const char **base,
		       int *dirfd, struct dg_diags *diags)
{
	if (!(*dir = split_path(path, base)))
		return -ENOMEM;
	if (!**base) {
		dg_diag_add(diags, DG_ERROR, path, 0,
			    "the path names a directory, not a file");
		return -EINVAL;
	}
	/* The directory first, then the file relative to it: whoever can
	 * write the directory can replace the file. */
	return open_dir(AT_FDCWD, *dir, *dir, path, false, false, dirfd, diags);
}

static bool same_dir(int a, int b)
{
	struct stat sa, sb;

	return a >= 0 && b >= 0 && fstat(a, &sa) == 0 && fstat(b, &sb) == 0 &&
	       sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

/* The include directory of the main file `text` would be, at `base` in
 * dirfd (opened in *incfd, -1 where it does not exist), and its name for
 * messages.  0, -EINVAL (reported) or -ENOMEM. */
static int open_include_dir(const struct dg_config *cfg, int dirfd,
			    const char *dir, const char *base,
			    const char *report_file, int *incfd,
			    char **inc_display, struct dg_diags *diags)
{
	_cleanup_free_ char *inc = include_dir_name(cfg, base);

	*incfd = -1;
	if (!inc || !(*inc_display = join_display(dir, inc)))
		return -ENOMEM;
	return walk_dir(dirfd, inc, dir, report_file, incfd, diags);
}

/* Replacing the installed main file at path with one whose include
 * directory is not the installed one's: the drop-ins left in the old
 * directory, which may add restricting groups, would silently stop being
 * read.  Refused while any is there.  0, -EINVAL (reported) or -ENOMEM. */
static int check_abandoned(int dirfd, const char *dir, const char *base,
			   const char *path, int new_incfd,
			   const char *report_file, struct dg_diags *diags)
{
	struct dg_diags quiet = {0};
	struct dg_config old = {0};
	struct dg_strlist names = {0};
	_cleanup_free_ char *text = NULL, *inc_display = NULL, *list = NULL;
	_cleanup_close_ int oldfd = -1;
	bool found = false;
	size_t len = 0;
	FILE *f = NULL;
	int r;

	/* where the installed one is missing or broken, nothing is read */
	r = read_policy_file(dirfd, base, path, &text, &quiet);
	if (r == 0)
		r = dg_config_parse(&old, path, text, DG_MAIN_FILE, &quiet);
	if (r == 0 && !dg_diag_failed(&quiet))
		r = open_include_dir(&old, dirfd, dir, base, path, &oldfd,
				     &inc_display, &quiet);
	if (r == 0 && oldfd >= 0 && !same_dir(oldfd, new_incfd))
		r = list_drop_ins(oldfd, inc_display, path, NULL, &names,
				  &quiet);
	if (r == 0 && names.n) {
		if (!(f = open_memstream(&list, &len)))
			r = -ENOMEM;
		for (size_t i = 0; f && i < names.n; i++)
			fprintf(f, "%s%s", i ? ", " : "", names.v[i]);
		if (f && fclose(f) != 0)
			r = -ENOMEM;
		if (r == 0) {
			dg_diag_add(diags, DG_ERROR, report_file, 0,
				    "the installed %s reads drop-ins from %s, "
				    "and this one would not: %s would no "
				    "longer be read (move or remove them "
				    "first)",
				    path, inc_display, list);
			found = true;
		}
	}
	dg_strlist_free(&names);
	dg_config_free(&old);
	dg_diag_free(&quiet);
	return r == -ENOMEM ? r : found ? -EINVAL : 0;
}

/* Whether the candidate drop-in would be read where it is to go: a
 * drop_in_as with a "/" names the file it will be installed as, which
 * must be in the directory the loader walked (incfd). */
static int check_drop_in_dir(const struct dg_load_as *as, int incfd,
			     const char *inc_display, const char *report_file,
			     struct dg_diags *diags)
{
	_cleanup_free_ char *dir = NULL;
	_cleanup_close_ int fd = -1;
	const char *base;

	if (incfd < 0) {
		dg_diag_add(diags, DG_ERROR, report_file, 0,
			    "the include directory %s does not exist: a "
			    "drop-in would never be read",
			    inc_display);
		return -EINVAL;
	}
	if (!as->drop_in_as || !strchr(as->drop_in_as, '/'))
		return 0;
	if (!(dir = split_path(as->drop_in_as, &base)))
		return -ENOMEM;
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (!same_dir(fd, incfd)) {
		dg_diag_add(diags, DG_ERROR, report_file, 0,
			    "the policy reads its drop-ins from %s, not %s: "
			    "%s would never be read",
			    inc_display, dir, as->drop_in_as);
		return -EINVAL;
	}
	return 0;
}

/* The installed policy (no candidates) is worth caching: a clean parse
 * of it is kept, and the next load may take it from the cache. */
static bool cacheable(const struct dg_load_as *as)
{
	return !as->main_from && !as->drop_in;
}

static void keep(const char *path, struct reading *rd, size_t first)
{
	struct dg_diags *diags = rd->diags;

	if (diags->lost || dg_diag_failed(diags))
		return;
	dg_cache_write(path, rd->out, rd->files, rd->n,
		       diags->n > first ? diags->v + first : NULL,
		       diags->n - first);
}

/* One load: where the main file is, and what has been opened and read
 * so far.  A candidate main file is judged on its own descriptor
 * (Ansible's temporary directory may be anybody's); everything else as
 * if it were installed at path. */
struct load {
	const char *path;
	const struct dg_load_as *as;
	const char *main_display; /* the main file, in messages */
	char *dir;		  /* path's directory, opened as dirfd */
	const char *base;	  /* path's last component */
	int dirfd;
	int incfd;		  /* the include directory, or -1 */
	char *inc_display;
	char *extra_text;	  /* a candidate drop-in's text */
	size_t first;		  /* diags before this load */
	struct reading rd;
};

static void load_free(struct load *ld)
{
	reading_free(&ld->rd);
	free(ld->dir);
	free(ld->inc_display);
	free(ld->extra_text);
	dg_closep(&ld->dirfd);
	dg_closep(&ld->incfd);
}

/* The main file's directory, the main file (the candidate, or the
 * installed one), and the cache where it may stand in for the files. */
static int read_main(struct load *ld)
{
	_cleanup_free_ char *text = NULL;
	struct dg_diags *diags = ld->rd.diags;
	int r = open_parent(ld->path, &ld->dir, &ld->base, &ld->dirfd, diags);

	if (r == 0)
		r = ld->as->main_from
			    ? read_policy_file(AT_FDCWD, ld->as->main_from,
					       ld->main_display, &text, diags)
			    : read_policy_file(ld->dirfd, ld->base, ld->path,
					       &text, diags);
	if (r == 0 && cacheable(ld->as))
		r = dg_cache_read(ld->path, &ld->rd.cache);
	if (r == 0)
		r = got_file(&ld->rd, ld->main_display, DG_MAIN_FILE,
			     DG_TAKE(text));
	return r;
}

/* The include directory the main file names (the cache's copy of the
 * main file while the cache holds): the cache is left on any problem. */
static int open_includes(struct load *ld)
{
	struct reading *rd = &ld->rd;
	int r = open_include_dir(rd->cache ? dg_cache_config(rd->cache)
					   : rd->out,
				 ld->dirfd, ld->dir, ld->base,
				 ld->main_display, &ld->incfd,
				 &ld->inc_display, sink(rd));

	if (rd->cache && (r != 0 || rd->held.n) && leave_cache(rd, rd->n) < 0)
		r = -ENOMEM;
	return r;
}

/* What stands in for an installed drop-in, if anything (sub->name is
 * then set): the candidate drop-in, read here, or the candidate main
 * file. */
static int find_subst(struct load *ld, struct subst *sub)
{
	const struct dg_load_as *as = ld->as;

	if (as->drop_in) {
		/* a candidate stands in for the installed drop-in of its
		 * name, or of the name it is to be installed as (Ansible's
		 * copy is "source"), at that name's place in the order */
		const char *name = as->drop_in_as ? as->drop_in_as
						  : as->drop_in;
		int r = read_policy_file(AT_FDCWD, as->drop_in, as->drop_in,
					 &ld->extra_text, ld->rd.diags);

		*sub = (struct subst){
			.name = strrchr(name, '/') ? strrchr(name, '/') + 1
						   : name,
			.display = as->drop_in,
			.text = ld->extra_text,
		};
		return r;
	}
	if (as->main_from && dg_load_is_drop_in_name(ld->base) &&
	    same_dir(ld->incfd, ld->dirfd))
		/* include_dir is the main file's own directory: the module
		 * reads the main file as a drop-in too */
		*sub = (struct subst){.name = ld->base,
				      .display = ld->main_display,
				      .text = ld->rd.files[0].text};
	return 0;
}

/* The include directory and its drop-ins, with whatever stands in for
 * one of them. */
static int read_drop_ins(struct load *ld)
{
	struct subst sub = {0};
	int r = open_includes(ld);

	if (r == 0 && ld->as->drop_in)
		r = check_drop_in_dir(ld->as, ld->incfd, ld->inc_display,
				      ld->main_display, ld->rd.diags);
	if (r == 0 && ld->incfd >= 0)
		r = find_subst(ld, &sub);
	if (r == 0 && ld->incfd >= 0)
		r = load_drop_ins(&ld->rd, ld->incfd, ld->inc_display,
				  ld->main_display, sub.name ? &sub : NULL);
	return r;
}

/* Every file is read: take the cache's policy where each was the
 * cache's, byte for byte; otherwise the parse stands, and is kept for
 * the next load. */
static int settle_cache(struct load *ld)
{
	struct reading *rd = &ld->rd;
	int r;

	if (rd->cache && rd->n == dg_cache_n_files(rd->cache))
		return dg_cache_use(DG_TAKE(rd->cache), rd->out, rd->diags);
	/* a drop-in was removed */
	if (rd->cache && (r = leave_cache(rd, rd->n)) != 0)
		return r;
	if (cacheable(ld->as))
		keep(ld->path, rd, ld->first);
	return 0;
}

int dg_load_config_as(const char *path, const struct dg_load_as *as,
		      struct dg_config *out, struct dg_diags *diags)
{
	static const struct dg_load_as none = {0};
	struct load ld;
	int r;

	*out = (struct dg_config){0};
	if (!as)
		as = &none;
	ld = (struct load){
		.path = path,
		.as = as,
		.main_display = as->main_from ? as->main_from : path,
		.dirfd = -1,
		.incfd = -1,
		.first = diags->n,
		.rd = {.out = out, .diags = diags},
	};
	r = read_main(&ld);
	/* Where the main file is broken, include_dir may be wrong too. */
	if (r != 0 || dg_diag_failed(diags))
		goto out;
	r = read_drop_ins(&ld);
	if (r == 0)
		r = settle_cache(&ld);
	/* after the drop-ins, so that what is wrong with them is said too */
	if (r != -ENOMEM && as->main_from &&
	    check_abandoned(ld.dirfd, ld.dir, ld.base, path, ld.incfd,
			    ld.main_display, diags) == -ENOMEM)
		r = -ENOMEM;
out:
	load_free(&ld);
	return r == -ENOMEM ? r : 0;
}

int dg_load_config(const char *path, const char *extra_drop_in,
		   const char *extra_name, struct dg_config *out,
		   struct dg_diags *diags)
{
	struct dg_load_as as = {.drop_in = extra_drop_in,
				.drop_in_as = extra_name};

	return dg_load_config_as(path, &as, out, diags);
}

int dg_load_resolve(const struct dg_config *cfg, bool check_users,
		    struct dg_nss_probe *probe, struct dg_policy *policy,
		    struct dg_diags *diags)
{
	struct dg_strlist names = {0}, confirm = {0}, user_names = {0};
	struct dg_name_answers groups = {0}, users = {0};
	int r;

	if ((r = dg_resolve_group_names(cfg, &names)) < 0 ||
	    (r = dg_resolve_user_group_names(cfg, &confirm)) < 0 ||
	    (r = dg_nss_groups_by_name(&names, &confirm, probe, &groups)) < 0)
		goto out;
	if (check_users && ((r = dg_resolve_user_names(cfg, &user_names)) < 0 ||
			    (r = dg_nss_users_exist(&user_names, &users)) < 0))
		goto out;
	r = dg_resolve_policy(cfg, &groups, check_users ? &users : NULL, policy,
			      diags);
out:
	dg_strlist_free(&names);
	dg_strlist_free(&confirm);
	dg_strlist_free(&user_names);
	dg_resolve_answers_free(&groups);
	dg_resolve_answers_free(&users);
	return r;
}

int dg_load_policy_as(const char *path, const struct dg_load_as *as,
		      bool check_users, struct dg_config *config,
		      struct dg_policy *policy, struct dg_diags *diags)
{
	int r;

	*policy = (struct dg_policy){0};
	r = dg_load_config_as(path, as, config, diags);
	if (r < 0)
		return r;
	if (dg_diag_failed(diags))
		return -EINVAL;
	r = dg_load_resolve(config, check_users, as->probe, policy, diags);
	if (r < 0)
		return r;
	return dg_diag_failed(diags) ? -EINVAL : 0;
}

int dg_load_policy(const char *path, const char *extra_drop_in,
		   const char *extra_name, bool check_users,
		   struct dg_config *config, struct dg_policy *policy,
		   struct dg_diags *diags)
{
	struct dg_load_as as = {.drop_in = extra_drop_in,
				.drop_in_as = extra_name};

	return dg_load_policy_as(path, &as, check_users, config, policy, diags);
}

int dg_load_read_file(int dirfd, const char *name, const char *display,
		      char **text, struct dg_diags *diags)
{
	return read_policy_file(dirfd, name, display, text, diags);
}

/* The include directory of the installed main file at path: 0 with
 * *dirfd open, -EINVAL (reported) or -ENOMEM. */
static int open_installed_include_dir(const char *path, int *dirfd,
				      char **display, struct dg_diags *diags)
{
	_cleanup_free_ char *dir = NULL, *text = NULL;
	_cleanup_close_ int parent = -1;
	struct dg_config cfg = {0};
	const char *base;
	int r = open_parent(path, &dir, &base, &parent, diags);

	if (r == 0)
		r = read_policy_file(parent, base, path, &text, diags);
	if (r == 0)
		r = dg_config_parse(&cfg, path, text, DG_MAIN_FILE, diags);
	if (r == 0 && dg_diag_failed(diags))
		r = -EINVAL; /* include_dir may be wrong too */
	if (r == 0)
		r = open_include_dir(&cfg, parent, dir, base, path, dirfd,
				     display, diags);
	if (r == 0 && *dirfd < 0) {
		dg_diag_add(diags, DG_ERROR, path, 0,
			    "the include directory %s does not exist: a "
			    "drop-in would never be read",
			    *display);
		r = -EINVAL;
	}
	dg_config_free(&cfg);
	return r;
}

int dg_load_open_dir(const char *path, bool include, int *dirfd,
		     char **display, struct dg_diags *diags)
{
	const char *base;

	*dirfd = -1;
	*display = NULL;
	if (include)
		return open_installed_include_dir(path, dirfd, display, diags);
	return open_parent(path, display, &base, dirfd, diags);
}
