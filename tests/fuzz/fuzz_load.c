/* libFuzzer target: the loader (load.c) through dg_load_policy (plan.c).
 *
 * A root-owned 0755 directory is made once (mkdtemp + chmod) and removed
 * at exit.  Each input becomes the files in it:
 *
 *     ROOT/dropgroups.conf      the main file: the input up to the first
 *                               line that starts with "#%file"
 *     ROOT/dropgroups.d/NAME    one drop-in per "#%file NAME" section
 *                               (NAME limited to [A-Za-z0-9._-]; only
 *                               non-hidden *.conf names are read)
 *
 * The bytes are written as they are (NULs included); the "#%..." lines
 * stay in the files, where libconfig sees comments.  Lines starting with
 * these directives change how a section's file is made:
 *
 *     #%mode OCTAL     chmod         #%owner UID    lchown (as root)
 *     #%pad KIB        append KIB KiB of newlines (at most 1100: past
 *                      the 1 MiB limit)
 *     #%symlink        a symbolic link to the file instead
 *     #%fifo           a FIFO instead        #%dir    a directory instead
 *
 * and, in the main section only, for ROOT/dropgroups.d:
 *
 *     #%noinc          do not create it      #%incmode OCTAL   chmod it
 *     #%incowner UID   chown it
 *
 * Fixed neighbours for include_dir to name: link.d (a symlink to
 * dropgroups.d), open.d (mode 0777), file.d (a regular file), fixed.d
 * (a good drop-in) and store (where symlinks point).
 *
 * Checked: the load returns 0 or -EINVAL, never 0 with an error; an
 * insecure or unreadable file that the loader must read (not root's,
 * writable by group or others, not a regular file, a symlink, over 1 MiB,
 * with a NUL byte) always fails the load; a clean load with the
 * default include_dir has read exactly the eligible drop-ins, in strcmp
 * order; and loading the same files again, now from the compiled policy
 * cache (cache.c: a clean load as root keeps it), gives the same
 * config, field by field, and the same diagnostics.
 *
 * As root it runs in a mount namespace of its own with a tmpfs on /run,
 * so the cache it writes is never the host's. */
#include "fuzz_common.h"

#include <dirent.h>
#include <fcntl.h>
#include <sched.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "load.h"
#include "plan.h"

#include "config_equal.h"

#define FZ_MAX_FILES 16
#define FZ_MAX_NAME 48
#define FZ_MAX_PAD_KIB 1100u

enum fz_kind { FZ_REGULAR, FZ_SYMLINK, FZ_FIFO, FZ_DIR };

struct fz_file {
	char name[FZ_MAX_NAME + 1];
	const char *data;
	size_t len;
	enum fz_kind kind;
	bool mode_given, owner_given;
	mode_t mode;
	uid_t owner;
	size_t pad; /* bytes */
};

static char fz_root[4096];
static int fz_rootfd = -1;

static void cleanup(void)
{
	if (fz_rootfd >= 0) {
		close(fz_rootfd);
		fz_rootfd = -1;
		fz_rm_tree(AT_FDCWD, fz_root);
	}
}

static void write_at(int dirfd, const char *name, const char *data,
		     size_t len, size_t pad, mode_t mode)
{
	int fd = openat(dirfd, name,
			O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
			0600);
	static const char nl[4096] = {[0 ... 4095] = '\n'};

	if (fd < 0)
		fz_fail("cannot create %s: %s", name, strerror(errno));
	while (len) {
		ssize_t w = write(fd, data, len);

		if (w <= 0)
			fz_fail("write %s: %s", name, strerror(errno));
		data += w;
		len -= (size_t)w;
	}
	while (pad) {
		size_t n = pad < sizeof(nl) ? pad : sizeof(nl);
		ssize_t w = write(fd, nl, n);

		if (w <= 0)
			fz_fail("write %s: %s", name, strerror(errno));
		pad -= (size_t)w;
	}
	if (fchmod(fd, mode) < 0)
		abort();
	close(fd);
}

static void setup(void)
{
	const char *tmp = getenv("TMPDIR");
	int fd;

	/* the module's cache is written in /run: this one's own */
	if (geteuid() == 0 &&
	    (unshare(CLONE_NEWNS) < 0 ||
	     mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0 ||
	     mount("tmpfs", "/run", "tmpfs", 0, "mode=0755") < 0))
		fz_fail("setup: a private /run: %s", strerror(errno));
	snprintf(fz_root, sizeof(fz_root), "%s/dg-fuzz-load.XXXXXX",
		 tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(fz_root))
		fz_fail("mkdtemp %s: %s", fz_root, strerror(errno));
	if (chmod(fz_root, 0755) < 0)
		abort();
	fz_rootfd = open(fz_root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fz_rootfd < 0)
		abort();
	atexit(cleanup);
	if (geteuid() != 0)
		fprintf(stderr, "fuzz_load: not root: every policy file is "
				"refused, only the error paths are fuzzed\n");

	if (mkdirat(fz_rootfd, "store", 0755) < 0 ||
	    mkdirat(fz_rootfd, "open.d", 0755) < 0 ||
	    fchmodat(fz_rootfd, "open.d", 0777, 0) < 0 ||
	    mkdirat(fz_rootfd, "fixed.d", 0755) < 0 ||
	    symlinkat("dropgroups.d", fz_rootfd, "link.d") < 0)
		fz_fail("setup: %s", strerror(errno));
	write_at(fz_rootfd, "file.d", "version = 1;\n", 13, 0, 0644);
	if ((fd = openat(fz_rootfd, "fixed.d", O_RDONLY | O_DIRECTORY)) < 0)
		abort();
	{
		static const char good[] =
			"version = 1;\nrestricting = ( \"audio\" );\n"
			"rules = ( { name = \"fixed\"; services = \"*\"; "
			"drop = ( \"video\", 46 ); } );\n";

		write_at(fd, "10-fixed.conf", good, sizeof(good) - 1, 0, 0644);
		write_at(fd, "README", "not read\n", 9, 0, 0644);
	}
	close(fd);
}

static bool line_is(const char *p, const char *end, const char *dir,
		    const char **arg)
{
	size_t n = strlen(dir);

	if (!fz_directive(p, end, dir))
		return false;
	*arg = p + n;
	return true;
}

static unsigned long number(const char *p, const char *end, int base)
{
	char buf[24];
	size_t n = (size_t)(end - p);

	if (n >= sizeof(buf))
		n = sizeof(buf) - 1;
	memcpy(buf, p, n);
	buf[n] = '\0';
	return strtoul(buf, NULL, base);
}

struct fz_inc {
	bool absent, mode_given, owner_given;
	mode_t mode;
	uid_t owner;
};

/* Read the directives of one section into f (and inc, for the main). */
static void directives(struct fz_file *f, struct fz_inc *inc)
{
	const char *p = f->data, *end = f->data + f->len, *a;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *eol = nl ? nl : end;

		if (line_is(p, eol, "#%mode ", &a)) {
			f->mode = (mode_t)(number(a, eol, 8) & 07777);
			f->mode_given = true;
		} else if (line_is(p, eol, "#%owner ", &a) && !geteuid()) {
			f->owner = (uid_t)(number(a, eol, 10) % 65536);
			f->owner_given = true;
		} else if (line_is(p, eol, "#%pad ", &a) && !f->pad) {
			unsigned long kib = number(a, eol, 10);

			f->pad = (kib > FZ_MAX_PAD_KIB ? FZ_MAX_PAD_KIB : kib) *
				 1024;
		} else if (line_is(p, eol, "#%symlink", &a)) {
			f->kind = FZ_SYMLINK;
		} else if (line_is(p, eol, "#%fifo", &a)) {
			f->kind = FZ_FIFO;
		} else if (line_is(p, eol, "#%dir", &a)) {
			f->kind = FZ_DIR;
		} else if (inc && line_is(p, eol, "#%noinc", &a)) {
			inc->absent = true;
		} else if (inc && line_is(p, eol, "#%incmode ", &a)) {
			inc->mode = (mode_t)(number(a, eol, 8) & 07777);
			inc->mode_given = true;
		} else if (inc && line_is(p, eol, "#%incowner ", &a) &&
			   !geteuid()) {
			inc->owner = (uid_t)(number(a, eol, 10) % 65536);
			inc->owner_given = true;
		}
		p = nl ? nl + 1 : end;
	}
}

/* The drop-in name from "#%file NAME": sanitised, or "" to skip it. */
static void section_name(const struct fz_span *s, size_t index, char *out)
{
	const char *p = s->start + 6, *end = s->start + s->len;
	size_t n = 0;

	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	while (p < end && n < FZ_MAX_NAME && *p != '\n' && *p != ' ' &&
	       *p != '\t' && *p != '\r') {
		char c = *p++;

		out[n++] = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
					   (c >= '0' && c <= '9') || c == '.' ||
					   c == '_' || c == '-'
				   ? c
				   : '_';
	}
	out[n] = '\0';
	if (n == 0)
		snprintf(out, FZ_MAX_NAME + 1, "%02zu.conf", index);
	if (strcmp(out, ".") == 0 || strcmp(out, "..") == 0)
		out[0] = '\0';
}

static void make_file(int dirfd, const struct fz_file *f, size_t index)
{
	char target[64], link[4200];

	switch (f->kind) {
	case FZ_REGULAR:
		write_at(dirfd, f->name, f->data, f->len, f->pad, 0644);
		break;
	case FZ_SYMLINK:
		/* The target is a good file: only the link is wrong. */
		snprintf(target, sizeof(target), "store/s%zu.conf", index);
		write_at(fz_rootfd, target, f->data, f->len, f->pad, 0644);
		snprintf(link, sizeof(link), "%s/%s", fz_root, target);
		if (symlinkat(link, dirfd, f->name) < 0)
			fz_fail("symlink %s: %s", f->name, strerror(errno));
		break;
	case FZ_FIFO:
		if (mkfifoat(dirfd, f->name, 0644) < 0)
			fz_fail("mkfifo %s: %s", f->name, strerror(errno));
		break;
	case FZ_DIR:
		if (mkdirat(dirfd, f->name, 0755) < 0)
			fz_fail("mkdir %s: %s", f->name, strerror(errno));
		break;
	}
	if (f->mode_given && f->kind != FZ_SYMLINK &&
	    fchmodat(dirfd, f->name, f->mode, 0) < 0)
		fz_fail("chmod %s: %s", f->name, strerror(errno));
	if (f->owner_given &&
	    fchownat(dirfd, f->name, f->owner, (gid_t)-1,
		     AT_SYMLINK_NOFOLLOW) < 0)
		fz_fail("chown %s: %s", f->name, strerror(errno));
}

/* Would the loader have to refuse this file? */
static bool is_bad(const struct fz_file *f)
{
	uid_t owner = f->owner_given ? f->owner : geteuid();
	mode_t mode = f->mode_given ? f->mode
				    : f->kind == FZ_DIR ? 0755 : 0644;

	return f->kind != FZ_REGULAR || owner != 0 || (mode & 022) ||
	       f->len + f->pad > DG_POLICY_MAX_BYTES ||
	       memchr(f->data, '\0', f->len) != NULL;
}

static bool is_drop_in_name(const char *name)
{
	size_t n = strlen(name);

	return name[0] != '.' && n > 5 && strcmp(name + n - 5, ".conf") == 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Field by field: what a load from the cache gives is what parsing gave. */
static void check_same_config(const struct dg_config *a,
			      const struct dg_config *b)
{
	char buf[64];
	const char *diff = dg_test_config_diff(a, b, buf, sizeof(buf));

	if (diff)
		fz_fail("the second load's config differs: %s", diff);
}

static void check_same_diags(const struct dg_diags *a, const struct dg_diags *b)
{
	if (a->n != b->n || a->lost != b->lost)
		fz_fail("the second load gave %zu diagnostics, the first %zu",
			b->n, a->n);
	for (size_t i = 0; i < a->n; i++)
		if (a->v[i].severity != b->v[i].severity ||
		    !dg_test_same_str(a->v[i].file, b->v[i].file) ||
		    a->v[i].line != b->v[i].line ||
		    strcmp(a->v[i].message, b->v[i].message) != 0)
			fz_fail("diagnostic %zu differs on the second load: "
				"\"%s\" and \"%s\"", i, a->v[i].message,
				b->v[i].message);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fz_span spans[FZ_MAX_FILES];
	struct fz_file *files = calloc(FZ_MAX_FILES, sizeof(*files));
	const char *eligible[FZ_MAX_FILES];
	struct fz_inc inc = {0};
	struct dg_config cfg = {0};
	struct dg_policy pol = {0};
	struct dg_diags diags = {0};
	size_t n, n_files = 0, n_eligible = 0;
	bool must_fail, drop_in_bad = false;
	char path[4200];
	int incfd = -1, r;

	if (!files)
		abort();
	if (fz_rootfd < 0)
		setup();
	fz_rm_tree(fz_rootfd, "dropgroups.conf");
	fz_rm_tree(fz_rootfd, "dropgroups.d");
	fz_rm_tree(fz_rootfd, "store");
	if (mkdirat(fz_rootfd, "store", 0755) < 0)
		abort();

	n = fz_split((const char *)data, size, "#%file", spans, FZ_MAX_FILES);
	for (size_t i = 0; i < n; i++) {
		struct fz_file *f = &files[n_files];
		bool dup = false;

		if (i == 0)
			strcpy(f->name, "dropgroups.conf");
		else
			section_name(&spans[i], i, f->name);
		for (size_t j = 1; j < n_files; j++)
			dup |= strcmp(files[j].name, f->name) == 0;
		if (!f->name[0] || dup)
			continue;
		f->data = spans[i].start;
		f->len = spans[i].len;
		directives(f, i == 0 ? &inc : NULL);
		n_files++;
	}

	make_file(fz_rootfd, &files[0], 0);
	if (!inc.absent) {
		if (mkdirat(fz_rootfd, "dropgroups.d", 0755) < 0)
			abort();
		incfd = openat(fz_rootfd, "dropgroups.d",
			       O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (incfd < 0)
			abort();
		for (size_t i = 1; i < n_files; i++) {
			make_file(incfd, &files[i], i);
			if (!is_drop_in_name(files[i].name))
				continue;
			eligible[n_eligible++] = files[i].name;
			drop_in_bad |= is_bad(&files[i]);
		}
		close(incfd);
		/* Last, so that a mode without w or x cannot get in the way. */
		if ((inc.mode_given &&
		     fchmodat(fz_rootfd, "dropgroups.d", inc.mode, 0) < 0) ||
		    (inc.owner_given &&
		     fchownat(fz_rootfd, "dropgroups.d", inc.owner, (gid_t)-1,
			      0) < 0))
			abort();
		if ((inc.owner_given ? inc.owner : geteuid()) != 0 ||
		    ((inc.mode_given ? inc.mode : 0755) & 022))
			drop_in_bad = true;
	}

	snprintf(path, sizeof(path), "%s/dropgroups.conf", fz_root);
	r = dg_load_policy(path, NULL, NULL, false, &cfg, &pol, &diags);
	fz_check_diags(&diags);
	fz_check_config(&cfg);
	if (r != 0 && r != -EINVAL)
		fz_fail("dg_load_policy returned %d", r);
	if ((r == 0) == dg_diag_failed(&diags))
		fz_fail("dg_load_policy returned %d with%s errors", r,
			dg_diag_failed(&diags) ? "" : " no");
	if (r == 0)
		fz_check_policy(&cfg, &pol);

	must_fail = is_bad(&files[0]) || (!cfg.include_dir && drop_in_bad);
	if (must_fail && r == 0)
		fz_fail("a file the loader must refuse was accepted");
	if (r == 0 && !cfg.include_dir) {
		if (cfg.files.n != 1 + n_eligible)
			fz_fail("%zu files read, want 1 + %zu drop-ins",
				cfg.files.n, n_eligible);
		qsort(eligible, n_eligible, sizeof(*eligible), cmp_str);
		for (size_t i = 0; i < n_eligible; i++) {
			snprintf(path, sizeof(path), "%s/dropgroups.d/%s",
				 fz_root, eligible[i]);
			if (strcmp(cfg.files.v[i + 1], path) != 0)
				fz_fail("drop-in %zu is %s, want %s", i,
					cfg.files.v[i + 1], path);
		}
	}

	{
		/* again: a clean load above left its parse in the cache */
		struct dg_config cfg2 = {0};
		struct dg_policy pol2 = {0};
		struct dg_diags diags2 = {0};
		int r2;

		snprintf(path, sizeof(path), "%s/dropgroups.conf", fz_root);
		r2 = dg_load_policy(path, NULL, NULL, false, &cfg2, &pol2,
				    &diags2);
		if (r2 != r)
			fz_fail("the second load returned %d, the first %d", r2,
				r);
		check_same_diags(&diags, &diags2);
		check_same_config(&cfg, &cfg2);
		dg_policy_free(&pol2);
		dg_config_free(&cfg2);
		dg_diag_free(&diags2);
	}

	dg_policy_free(&pol);
	dg_config_free(&cfg);
	dg_diag_free(&diags);
	free(files);
	return 0;
}
