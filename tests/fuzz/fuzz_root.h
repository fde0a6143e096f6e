/* A throwaway root directory for the fuzz targets whose parser reads
 * an admin's files by absolute path (sudoers, PAM stacks, sshd_config).
 *
 * Those parsers follow includes wherever a file points: "#include
 * /etc/shadow", "@includedir /usr/bin", "Include /proc/self/...".  Fuzzed
 * against the host's tree they would read its files (and take seconds
 * over /usr/bin), so the parser runs chroot(2)ed in a directory that
 * holds only what the input wrote, and every path it follows, absolute
 * or "..", stays in there.  The working directory is left outside, so
 * that libFuzzer still writes a crash to its (relative) artifact path;
 * none of these parsers opens a relative path (the targets make sure).
 *
 * An input is split at each line that starts with "#%file PATH" (a
 * comment in all three syntaxes): the part before the first such line
 * is the target's main file, each part after it is the file at PATH
 * (absolute in the root; a relative PATH goes under the target's
 * default directory; bytes outside [A-Za-z0-9._+@~-] and "/" become
 * "_", "." and ".." components are dropped), parent directories made as
 * needed.  A part whose lines include
 *
 *     #%symlink TARGET    is a symbolic link to TARGET (as written)
 *     #%dir               is a directory (the part's text is not written)
 *
 * (A later part for the same path is written over an earlier one.)
 *
 * The root is entered and left around making the input's files and the
 * parser's calls alone (root escapes a chroot by fchdir to a directory
 * outside it), so that libFuzzer's leak check and the sanitizers'
 * reports see the real tree.  The symbolizer is started before the
 * first chroot and kept running, so a crash inside the root is still
 * reported with its source lines.
 *
 * The root is a tmpfs in a mount namespace of the target's own.  Root
 * is needed for that and for chroot(2); without it the target enters a
 * user namespace of its own where it is root. */
#ifndef DG_FUZZ_ROOT_H
#define DG_FUZZ_ROOT_H

#include "fuzz_common.h"

#include <dirent.h>
#include <fcntl.h>
#include <sched.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include <sanitizer/common_interface_defs.h>

#define FZR_MAX_FILES 24
#define FZR_MAX_PATH 96

static char fzr_dir[4096];
static int fzr_dirfd = -1, fzr_hostroot = -1, fzr_cwd = -1;
static bool fzr_inside;

/* The line counts fzr_lines found since the root was entered: a
 * reader may give thousands of results in one file. */
#define FZR_CACHE 32
static struct {
	char *path;
	long n;
} fzr_cache[FZR_CACHE];
static size_t fzr_cached;

/* FUZZ_VERBOSE set in the environment: print what each input gave. */
__attribute__((unused)) static bool
fzr_verbose(void)
{
	static int verbose = -1;

	if (verbose < 0)
		verbose = getenv("FUZZ_VERBOSE") != NULL;
	return verbose;
}

/* Empty the root, keeping the directory itself. */
__attribute__((unused)) static void
fzr_clear(void)
{
	struct dirent *de;
	int fd = dup(fzr_dirfd);
	DIR *d;

	if (fd < 0 || !(d = fdopendir(fd)))
		abort();
	rewinddir(d);
	while ((de = readdir(d)))
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, ".."))
			fz_rm_tree(fzr_dirfd, de->d_name);
	closedir(d);
}

__attribute__((unused)) static void
fzr_leave(void)
{
	if (!fzr_inside)
		return;
	if (fchdir(fzr_hostroot) < 0 || chroot(".") < 0 || fchdir(fzr_cwd) < 0)
		fz_fail("leaving the root: %s", strerror(errno));
	fzr_inside = false;
	for (size_t i = 0; i < fzr_cached; i++)
		free(fzr_cache[i].path);
	fzr_cached = 0;
}

__attribute__((unused)) static void
fzr_cleanup(void)
{
	fzr_leave();
	if (fzr_dirfd >= 0) {
		close(fzr_dirfd);
		fzr_dirfd = -1;
		if (umount2(fzr_dir, MNT_DETACH) < 0 || rmdir(fzr_dir) < 0)
			fz_fail("rmdir %s: %s", fzr_dir, strerror(errno));
	}
}

/* Not root: root of a user namespace of our own, with our uid as 0. */
__attribute__((unused)) static void
fzr_become_root(void)
{
	char map[64];
	uid_t uid = geteuid();
	gid_t gid = getegid();
	int fd;

	if (unshare(CLONE_NEWUSER) < 0)
		fz_fail("not root, and no user namespace: %s", strerror(errno));
	snprintf(map, sizeof(map), "0 %u 1\n", (unsigned)uid);
	if ((fd = open("/proc/self/uid_map", O_WRONLY)) < 0 ||
	    write(fd, map, strlen(map)) < 0 || close(fd) < 0)
		fz_fail("uid_map: %s", strerror(errno));
	if ((fd = open("/proc/self/setgroups", O_WRONLY)) < 0 ||
	    write(fd, "deny", 4) < 0 || close(fd) < 0)
		fz_fail("setgroups: %s", strerror(errno));
	snprintf(map, sizeof(map), "0 %u 1\n", (unsigned)gid);
	if ((fd = open("/proc/self/gid_map", O_WRONLY)) < 0 ||
	    write(fd, map, strlen(map)) < 0 || close(fd) < 0)
		fz_fail("gid_map: %s", strerror(errno));
}

__attribute__((unused)) static void
fzr_setup(const char *name)
{
	const char *tmp = getenv("TMPDIR");
	char sym[256];

	if (fzr_dirfd >= 0)
		return;
	if (geteuid() != 0)
		fzr_become_root();
	/* Start the symbolizer now, while it can be found: it keeps
	 * running, and answers from outside the root later. */
	__sanitizer_symbolize_pc(__builtin_return_address(0), "%p %F %L", sym,
				 sizeof(sym));
	snprintf(fzr_dir, sizeof(fzr_dir), "%s/dg-%s.XXXXXX",
		 tmp && *tmp ? tmp : "/tmp", name);
	if (!mkdtemp(fzr_dir))
		fz_fail("mkdtemp %s: %s", fzr_dir, strerror(errno));
	/* A tmpfs of its own: creating and removing a tree per input on
	 * ext4 waits on its journal (100 inputs/s, against thousands). */
	if (unshare(CLONE_NEWNS) < 0 ||
	    mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0 ||
	    mount("tmpfs", fzr_dir, "tmpfs", 0, "mode=0755,size=256m") < 0)
		fz_fail("setup: a tmpfs on %s: %s", fzr_dir, strerror(errno));
	fzr_dirfd = open(fzr_dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	fzr_hostroot = open("/", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	fzr_cwd = open(".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fzr_dirfd < 0 || fzr_hostroot < 0 || fzr_cwd < 0)
		fz_fail("setup: %s", strerror(errno));
	atexit(fzr_cleanup);
}

/* Enter the root: from now on "/" is fzr_dir.  Already inside: nothing
 * (fzr_populate enters it first). */
__attribute__((unused)) static void
fzr_enter(void)
{
	if (fzr_inside)
		return;
	if (chroot(fzr_dir) < 0)
		fz_fail("chroot %s: %s", fzr_dir, strerror(errno));
	fzr_inside = true;
}

/* mkdir -p of path's parents (path relative to the root, no leading
 * '/'); an existing non-directory in the way: false. */
__attribute__((unused)) static bool
fzr_parents(const char *path)
{
	char buf[FZR_MAX_PATH + 1];

	snprintf(buf, sizeof(buf), "%s", path);
	for (char *s = strchr(buf, '/'); s; s = strchr(s + 1, '/')) {
		*s = '\0';
		if (mkdirat(fzr_dirfd, buf, 0755) < 0 && errno != EEXIST)
			return false;
		*s = '/';
	}
	return true;
}

/* The path of "#%file PATH" (the line at p, up to end), relative to the
 * root: sanitised as the header says, "" for none. */
__attribute__((unused)) static void
fzr_section_path(const char *p, const char *end, const char *default_dir,
		 char *out)
{
	char raw[FZR_MAX_PATH + 1];
	size_t n = 0, o = 0;

	p += strlen("#%file");
	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	if (p < end && *p != '/')
		n = (size_t)snprintf(raw, sizeof(raw), "%s/", default_dir);
	for (; p < end && n < FZR_MAX_PATH && *p != '\n' && *p != '\r'; p++) {
		char c = *p;

		raw[n++] = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
					   (c >= '0' && c <= '9') ||
					   strchr("._+@~-/", c)
				   ? c
				   : '_';
	}
	raw[n] = '\0';
	/* components, without "", "." and ".." */
	for (char *save = NULL, *c = strtok_r(raw, "/", &save); c;
	     c = strtok_r(NULL, "/", &save)) {
		if (!strcmp(c, ".") || !strcmp(c, ".."))
			continue;
		o += (size_t)snprintf(out + o, FZR_MAX_PATH + 1 - o, "%s%s",
				      o ? "/" : "", c);
		if (o >= FZR_MAX_PATH)
			break;
	}
	out[o < FZR_MAX_PATH ? o : FZR_MAX_PATH] = '\0';
}

/* The argument of the directive dir on a line of [p, end), or NULL. */
__attribute__((unused)) static const char *
fzr_arg(const char *p, const char *end, const char *dir, size_t *len)
{
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *eol = nl ? nl : end;

		if (fz_directive(p, eol, dir)) {
			p += strlen(dir);
			*len = (size_t)(eol - p);
			return p;
		}
		p = nl ? nl + 1 : end;
	}
	return NULL;
}

__attribute__((unused)) static void
fzr_write(const char *path, const char *data, size_t len)
{
	int fd = openat(fzr_dirfd, path,
			O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC,
			0644);

	if (fd < 0)
		return; /* a directory, or a link, in the way: leave it */
	while (len) {
		ssize_t w = write(fd, data, len);

		if (w <= 0)
			fz_fail("write %s: %s", path, strerror(errno));
		data += w;
		len -= (size_t)w;
	}
	close(fd);
}

/* One part of the input as the file at path (relative to the root). */
__attribute__((unused)) static void
fzr_make(const char *path, const char *data, size_t len)
{
	const char *a;
	size_t alen;

	if (!*path || !fzr_parents(path))
		return;
	if ((a = fzr_arg(data, data + len, "#%symlink ", &alen))) {
		char target[FZR_MAX_PATH + 1];

		snprintf(target, sizeof(target), "%.*s", (int)alen, a);
		if (target[0])
			(void)symlinkat(target, fzr_dirfd, path);
		return;
	}
	if (fzr_arg(data, data + len, "#%dir", &alen))
		(void)mkdirat(fzr_dirfd, path, 0755);
	else
		fzr_write(path, data, len);
}

/* Make the files of an input: the main file at main_path, the parts
 * after it where their "#%file" lines say (relative ones under
 * default_dir); both relative to the root, no leading '/'. */
__attribute__((unused)) static void
fzr_populate(const uint8_t *data, size_t size, const char *main_path,
	     const char *default_dir)
{
	struct fz_span spans[FZR_MAX_FILES];
	size_t n = fz_split((const char *)data, size, "#%file", spans,
			    FZR_MAX_FILES);

	/* Inside the root before the first file is made: an input's
	 * symlink to "/etc" (or to "../../etc") is then the root's /etc
	 * when a later part is written through it, never the host's.  Made
	 * from outside, "#%symlink /etc" and then "#%file x/sudoers.d/f"
	 * wrote the host's /etc/sudoers.d/f (O_NOFOLLOW guards only the
	 * last component). */
	fzr_enter();
	fzr_clear();
	fzr_make(main_path, spans[0].start, spans[0].len);
	for (size_t i = 1; i < n; i++) {
		const char *eol = memchr(spans[i].start, '\n', spans[i].len);
		char path[FZR_MAX_PATH + 1];

		fzr_section_path(spans[i].start,
				 eol ? eol : spans[i].start + spans[i].len,
				 default_dir, path);
		fzr_make(path, spans[i].start, spans[i].len);
	}
}

/* How many lines the file at path (in the root, which must be entered)
 * has: its newlines, plus one.  -1 when it cannot be read. */
__attribute__((unused)) static long
fzr_lines(const char *path)
{
	char buf[4096];
	long n = 1;
	ssize_t r;
	int fd;

	if (!fzr_inside)
		fz_fail("fzr_lines outside the root");
	for (size_t i = 0; i < fzr_cached; i++)
		if (!strcmp(fzr_cache[i].path, path))
			return fzr_cache[i].n;
	if ((fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)) < 0)
		return -1;
	while ((r = read(fd, buf, sizeof(buf))) > 0)
		for (ssize_t i = 0; i < r; i++)
			n += buf[i] == '\n';
	close(fd);
	if (r < 0)
		return -1;
	if (fzr_cached < FZR_CACHE &&
	    (fzr_cache[fzr_cached].path = strdup(path))) {
		fzr_cache[fzr_cached].n = n;
		fzr_cached++;
	}
	return n;
}

/* Line line of file (in the root) is one the file has: 0 (no line), or
 * within its lines. */
__attribute__((unused)) static void
fzr_check_line(const char *file, long line, const char *what)
{
	long n;

	if (line < 0)
		fz_fail("%s: line %ld", what, line);
	if (line == 0)
		return;
	if (!file)
		fz_fail("%s: line %ld of no file", what, line);
	if ((n = fzr_lines(file)) < 0)
		fz_fail("%s: %s:%ld, a file that cannot be read", what, file,
			line);
	if (line > n)
		fz_fail("%s: %s:%ld, past its %ld lines", what, file, line, n);
}

/* Every diagnostic well formed, at a line its file has. */
__attribute__((unused)) static void
fzr_check_diags(const struct dg_diags *d)
{
	fz_check_diags(d);
	for (size_t i = 0; i < d->n; i++)
		if (d->v[i].file)
			fzr_check_line(d->v[i].file, d->v[i].line, "diag");
}

#endif
