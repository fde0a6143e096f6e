/* NSS look-ups with the reentrant calls: groups by name and gid, users,
 * a user's group list.  Only a clean "not found" is not found. */
#include "nss.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <limits.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "strlist.h"
#include "util.h"

/* Start from the size sysconf suggests and double on ERANGE: a group with
 * thousands of members does not fit any fixed buffer.  A suggestion
 * above the first bound is not believed; nothing grows past the second. */
#define NSS_BUFFER_START_MAX (1L << 20)
#define NSS_BUFFER_FALLBACK 4096
#define NSS_BUFFER_MAX (64u << 20)

static size_t initial_buffer(int which)
{
	long n = sysconf(which);

	return n > 0 && n < NSS_BUFFER_START_MAX ? (size_t)n : NSS_BUFFER_FALLBACK;
}

/* glibc's *_r calls return 0 with a NULL result for "not found", and
 * nothing else means that: NSS_STATUS_UNAVAIL comes back as the errno the
 * backend set, and nss-pam-ldapd sets ENOENT when nslcd is unreachable.
 * So, as everywhere in nss.c: 1 found, 0 not found, -errno failed (and
 * -ENOENT is a failure like any other). */
static int nss_result(int r, const void *res)
{
	if (r == 0)
		return res ? 1 : 0;
	/* a failing backend may leave 0 in errno: still a failure */
	return r > 0 ? -r : -EIO;
}

/* One *_r call: a group (group) or a user, by name (name != NULL) or by
 * id, into entry (a struct group or passwd) and buf.  0 or the call's
 * error number, with *found the entry, or NULL for "not found". */
static int call_r(bool group, const char *name, id_t id, void *entry,
		  char *buf, size_t size, void **found)
{
	struct group *gr = NULL;
	struct passwd *pw = NULL;
	int r;

	if (group)
		r = name ? getgrnam_r(name, entry, buf, size, &gr)
			 : getgrgid_r((gid_t)id, entry, buf, size, &gr);
	else
		r = name ? getpwnam_r(name, entry, buf, size, &pw)
			 : getpwuid_r((uid_t)id, entry, buf, size, &pw);
	*found = group ? (void *)gr : (void *)pw;
	return r;
}

/* One look-up (as call_r): start from the buffer size sysconf suggests
 * and double it on ERANGE.  1 with *buf holding the entry's strings (the
 * caller frees it), 0 when there is no such entry, or -errno when NSS
 * could not answer. */
static int nss_get(bool group, const char *name, id_t id, void *entry,
		   char **buf)
{
	size_t size = initial_buffer(group ? _SC_GETGR_R_SIZE_MAX
					   : _SC_GETPW_R_SIZE_MAX);

	for (;;) {
		_cleanup_free_ char *b = malloc(size);
		void *found = NULL;
		int r;

		if (!b)
			return -ENOMEM;
		r = call_r(group, name, id, entry, b, size, &found);
		if (r == ERANGE && size < NSS_BUFFER_MAX) {
			size *= 2;
			continue;
		}
		if ((r = nss_result(r, found)) > 0)
			*buf = DG_TAKE(b);
		return r;
	}
}

/* A group by name (name != NULL) or by gid, into *gr. */
static int get_group(const char *name, gid_t gid, struct group *gr,
		     char **buf)
{
	return nss_get(true, name, gid, gr, buf);
}

/* A user by name (name != NULL) or by uid, into *pw. */
static int get_user(const char *name, uid_t uid, struct passwd *pw,
		    char **buf)
{
	return nss_get(false, name, uid, pw, buf);
}

/* glibc's nscd socket (_PATH_NSCDSOCKET).  When it is there, glibc asks
 * nscd before any backend, and nscd may answer from a cache older than
 * the file (check-files off, or an edit it missed): that answer is what
 * sudo and every other program sees, so the module must see it too. */
#define NSCD_SOCKET "/var/run/nscd/socket"

#define NSSWITCH_CONF "/etc/nsswitch.conf"
#define NSSWITCH_MAX (1u << 20)

int dg_nss_read_nsswitch(const char *db, struct dg_nss_services *out)
{
	_cleanup_close_ int fd = open(NSSWITCH_CONF, O_RDONLY | O_CLOEXEC);
	_cleanup_free_ char *text = NULL;
	size_t len = 0;
	struct stat st;
	int r;

	*out = (struct dg_nss_services){0};
	if (fd < 0)
		return errno == ENOENT ? 0 : -errno; /* none: the defaults */
	if (fstat(fd, &st) < 0)
		return -errno;
	r = dg_util_read_stat(fd, &st, NSSWITCH_MAX, &text, &len);
	return r < 0 ? r : dg_nsswitch_services(text, len, db, out);
}

/* Does database `db` ("group", "passwd") of /etc/nsswitch.conf ask the
 * files backend first, and stop at its answer (dg_nsswitch_files_order)?
 * Then, for a key that the file has, the file's first matching line is
 * what the *_r call answers, and one pass over the file answers many
 * keys at once: the per-key calls each read the whole file again, which
 * is O(keys x lines).  Anything unusual (no such line, an action, an
 * unreadable file, a file with two readings: nsswitch.c) says no, and
 * every key is asked on its own. */
static enum dg_nss_files_order ask_files_first(const char *db)
{
	struct dg_nss_services services;
	enum dg_nss_files_order order;

	/* nscd runs, or might: every key is asked through glibc, as other
	 * programs ask it. */
	if (dg_nss_nscd_may_answer())
		return DG_NSS_FILES_NOT_FIRST;
	/* no line: glibc's default, which differs by version */
	if (dg_nss_read_nsswitch(db, &services) <= 0)
		return DG_NSS_FILES_NOT_FIRST;
	order = dg_nsswitch_files_order(&services);
	dg_nsswitch_services_free(&services);
	return order;
}

/* ask_files_first("group"), or what probe has from this call already. */
static enum dg_nss_files_order groups_files_first(struct dg_nss_probe *probe)
{
	if (!probe)
		return ask_files_first("group");
	if (!probe->asked) {
		probe->group = ask_files_first("group");
		probe->asked = true;
	}
	return probe->group;
}

/* One pass over a files-backend database, calling found(entry) for each
 * entry in file order, until found returns 1 (every key it wants has
 * its answer; any positive value stops the pass, so a callback that must
 * see every line returns only 0 or -errno).  0, -ENOMEM, or -EIO when
 * the file could not be read whole (the caller then asks every key on
 * its own). */
typedef int (*file_entry_fn)(void *entry, void *ctx);

#define FILE_PASS_MAX (256u << 20)

/* The text of the file, before the pass (0 or -errno). */
typedef int (*file_text_fn)(const char *text, size_t len, void *ctx);

static int file_pass_text(const char *path, int sysconf_key, bool groups,
			  bool names_only, file_text_fn seen,
			  file_entry_fn found, void *ctx);

/* A pass whose found() reads an entry's name and id alone. */
static int file_pass(const char *path, int sysconf_key, bool groups,
		     file_entry_fn found, void *ctx)
{
	return file_pass_text(path, sysconf_key, groups, true, NULL, found,
			      ctx);
}

/* Each entry of text, a group (groups) or passwd file, through glibc's
 * own parser, in file order. */
static int parse_entries(char *text, size_t len, int sysconf_key,
			 bool groups, file_entry_fn found, void *ctx)
{
	_cleanup_fclose_ FILE *f = fmemopen(text, len, "r");
	size_t size = initial_buffer(sysconf_key);
	_cleanup_free_ char *buf = malloc(size);
	int r;

	if (!f)
		return errno == ENOMEM ? -ENOMEM : -EIO;
	if (!buf)
		return -ENOMEM;
	for (;;) {
		union { struct group gr; struct passwd pw; } e;
		void *res = NULL;

		if (groups) {
			struct group *g = NULL;

			r = fgetgrent_r(f, &e.gr, buf, size, &g);
			res = g;
		} else {
			struct passwd *pw = NULL;

			r = fgetpwent_r(f, &e.pw, buf, size, &pw);
			res = pw;
		}
		if (r == ERANGE && size < NSS_BUFFER_MAX) {
			/* glibc has put the line back: read it again */
			char *nb = realloc(buf, size * 2);

			if (!nb)
				return -ENOMEM;
			buf = nb;
			size *= 2;
			continue;
		}
		if (r == ENOENT && !ferror(f))
			return 0; /* the end of the file */
		if (r != 0 || !res)
			return r == ENOMEM ? -ENOMEM : -EIO;
		if ((r = found(res, ctx)) != 0)
			return r < 0 ? r : 0; /* 1: nothing left to learn */
	}
}

/* A line longer than this is left to glibc's parser (its buffer grows). */
#define GROUP_LINE_FAST_MAX (1u << 16)

int dg_nss_group_line(char *line, size_t n, struct group *gr)
{
	const char *end = line + n, *p;
	char *name_end;
	unsigned long long gid = 0;
	size_t digits = 0;

	if (n == 0)
		return 0; /* skipped by __nss_readline */
	if (n > GROUP_LINE_FAST_MAX || memchr(line, '\0', n))
		return -1; /* glibc's reading of a NUL: its own to give */
	if (line[0] == '#')
		return 0; /* a comment */
	/* glibc skips leading white space by the locale's isspace: any
	 * byte that might be one is left to its parser */
	if ((unsigned char)line[0] <= ' ' || (unsigned char)line[0] >= 0x7f)
		return -1;
	if (line[0] == '+' || line[0] == '-')
		return 0; /* compat: files_answers() never takes one */
	if (!(name_end = memchr(line, ':', n)) || name_end == line ||
	    !(p = memchr(name_end + 1, ':', (size_t)(end - name_end - 1))))
		return -1;
	/* strtoull would take white space, a sign, and wrap: digits only */
	for (p++; p < end && *p >= '0' && *p <= '9' && digits <= 10;
	     p++, digits++)
		gid = gid * 10 + (unsigned long long)(*p - '0');
	if (digits == 0 || digits > 10 || gid > UINT32_MAX ||
	    (p < end && *p != ':'))
		return -1;
	*name_end = '\0';
	*gr = (struct group){.gr_name = line, .gr_gid = (gid_t)gid};
	return 1;
}

/* The entries of a group file for their names and gids alone: each line
 * as dg_nss_group_line reads it, and from the first it leaves to glibc,
 * the rest of the text through glibc's parser (parse_entries).  That
 * reads no line differently from fgetgrent_r; it costs a small login
 * about 1,000 instructions less per line than fmemopen's stream. */
static int parse_group_names(char *text, size_t len, file_entry_fn found,
			     void *ctx)
{
	size_t pos = 0;

	while (pos < len) {
		char *line = text + pos, *nl = memchr(line, '\n', len - pos);
		size_t n = nl ? (size_t)(nl - line) : len - pos;
		struct group gr;
		int r = dg_nss_group_line(line, n, &gr);

		if (r < 0)
			return parse_entries(line, len - pos,
					     _SC_GETGR_R_SIZE_MAX, true, found,
					     ctx);
		pos += n + 1;
		if (r > 0) {
			size_t name_len = strlen(gr.gr_name);

			r = found(&gr, ctx);
			/* the text as it was: a probe's may be read again */
			line[name_len] = ':';
			if (r != 0)
				return r < 0 ? r : 0; /* 1: nothing left */
		}
	}
	return 0;
}

/* The file at path, read whole: 0 with *text and *len, -ENOMEM, or
 * -EIO.  Read whole, then parsed from memory by glibc's own parser:
 * fgetgrent_r on the file would ask the kernel for its offset (lseek)
 * at every line. */
static int read_for_pass(const char *path, char **text, size_t *len)
{
	_cleanup_close_ int fd = open(path, O_RDONLY | O_CLOEXEC);
	struct stat st;
	int r;

	*text = NULL;
	*len = 0;
	if (fd < 0 || fstat(fd, &st) < 0)
		return errno == ENOMEM ? -ENOMEM : -EIO;
	r = dg_util_read_stat(fd, &st, FILE_PASS_MAX, text, len);
	if (r < 0)
		return r == -ENOMEM ? r : -EIO;
	return 0;
}

/* The pass over text (as file_pass_text). */
static int pass_over(char *text, size_t len, int sysconf_key, bool groups,
		     bool names_only, file_text_fn seen, file_entry_fn found,
		     void *ctx)
{
	int r;

	if (seen && (r = seen(text, len, ctx)) < 0)
		return r;
	if (!len)
		return 0;
	if (groups && names_only)
		return parse_group_names(text, len, found, ctx);
	return parse_entries(text, len, sysconf_key, groups, found, ctx);
}

static int file_pass_text(const char *path, int sysconf_key, bool groups,
			  bool names_only, file_text_fn seen,
			  file_entry_fn found, void *ctx)
{
	_cleanup_free_ char *text = NULL;
	size_t len;
	int r = read_for_pass(path, &text, &len);

	return r < 0 ? r : pass_over(text, len, sysconf_key, groups,
				     names_only, seen, found, ctx);
}

/* A pass over /etc/group for names and gids (file_pass), on the text
 * probe holds from an earlier pass of this call, or on one read now and
 * left in probe for the later passes.  A failed read fails each. */
static int group_pass(struct dg_nss_probe *probe, file_entry_fn found,
		      void *ctx)
{
	if (!probe)
		return file_pass("/etc/group", _SC_GETGR_R_SIZE_MAX, true,
				 found, ctx);
	if (!probe->group_read) {
		probe->group_err = read_for_pass("/etc/group",
						 &probe->group_text,
						 &probe->group_len);
		probe->group_read = true;
	}
	if (probe->group_err < 0)
		return probe->group_err;
	return pass_over(probe->group_text, probe->group_len,
			 _SC_GETGR_R_SIZE_MAX, true, true, NULL, found, ctx);
}

void dg_nss_probe_release(struct dg_nss_probe *probe)
{
	free(probe->group_text);
	*probe = (struct dg_nss_probe){0};
}

/* nss_files never answers with a compat "+"/"-" entry. */
static bool files_answers(const char *name)
{
	return name[0] != '+' && name[0] != '-';
}

static int cmp_gid(const void *a, const void *b)
{
	gid_t x = *(const gid_t *)a, y = ((const struct dg_gid_name *)b)->gid;

	return x < y ? -1 : x > y;
}

/* The names go into one block, pool, as they are found: a gid's name
 * is at[i] - 1 bytes into it, and at[i] is 0 while gid i has none (the
 * block moves as it grows, so offsets, made pointers at the end). */
struct by_gid {
	const struct dg_gid_names *names;
	size_t unnamed; /* how many of names have no name yet */
	struct dg_util_sb *pool;
	size_t *at;
};

/* Give gid i of b the name: 0 or -ENOMEM. */
static int pool_name(struct by_gid *b, size_t i, const char *name)
{
	b->at[i] = b->pool->len + 1;
	dg_util_sb_add(b->pool, name, strlen(name) + 1); /* with its NUL */
	return b->pool->bad ? -ENOMEM : 0;
}

/* Name the gids of `names` (sorted) that /etc/group has.  1 once every
 * one is named: nss_files answers a gid with its first line, so the
 * rest of the file cannot change an answer, and the pass stops there
 * (with a small session's groups near the top of a long file, most of
 * the file's cost). */
static int name_from_file(void *entry, void *ctx)
{
	const struct group *gr = entry;
	struct by_gid *b = ctx;
	const struct dg_gid_name *n;
	size_t i;

	if (!files_answers(gr->gr_name) ||
	    !(n = bsearch(&gr->gr_gid, b->names->v, b->names->n,
			  sizeof(*b->names->v), cmp_gid)))
		return 0;
	i = (size_t)(n - b->names->v);
	if (b->at[i])
		return 0; /* the first line wins, as in getgrgid_r */
	if (pool_name(b, i, gr->gr_name) < 0)
		return -ENOMEM;
	return --b->unnamed == 0;
}

struct by_name {
	struct dg_name_answers *answers;
	bool *done;
	size_t unanswered; /* how many of answers are not done */
	bool groups;
};

/* Answer the names of ctx that the file has (its first line for each). */
static int answer_from_file(void *entry, void *ctx)
{
	struct by_name *b = ctx;
	const char *name = b->groups ? ((struct group *)entry)->gr_name
				     : ((struct passwd *)entry)->pw_name;
	const struct dg_name_answer *a;
	size_t i;

	if (!files_answers(name) ||
	    !(a = dg_resolve_answers_get(b->answers, name)))
		return 0;
	i = (size_t)(a - b->answers->v);
	if (b->done[i])
		return 0;
	b->done[i] = true;
	b->answers->v[i].status = 1;
	if (b->groups)
		b->answers->v[i].gid = ((struct group *)entry)->gr_gid;
	/* every name has its first line: the rest cannot change one */
	return --b->unanswered == 0;
}

/* Answer what the files backend can of out (sorted by name) in one pass;
 * done[i] is set for each name it answered.  A failure answers none. */
static int answers_from_file(bool groups, struct dg_nss_probe *probe,
			     struct dg_name_answers *out, bool *done)
{
	struct by_name b = {out, done, out->n, groups};
	enum dg_nss_files_order order;
	int r;

	/* One name: getgrnam_r costs less than the probe and a pass; but
	 * a call that probes (a login's) names its session's gids from
	 * /etc/group next, and this read serves that pass too. */
	if (out->n < 2 && !(groups && probe))
		return 0;
	order = groups ? groups_files_first(probe) : ask_files_first("passwd");
	if (order == DG_NSS_FILES_NOT_FIRST)
		return 0;
	r = groups ? group_pass(probe, answer_from_file, &b)
		   : file_pass("/etc/passwd", _SC_GETPW_R_SIZE_MAX, false,
			       answer_from_file, &b);
	if (r < 0) {
		for (size_t i = 0; i < out->n; i++)
			if (done[i]) {
				done[i] = false;
				out->v[i].status = 0;
			}
	} else if (order == DG_NSS_FILES_ONLY) {
		/* the file read whole lacks them: what the *_r call says */
		for (size_t i = 0; i < out->n; i++)
			done[i] = true;
	}
	return r == -ENOMEM ? r : 0;
}

int dg_nss_group_by_name(const char *name, gid_t *gid)
{
	_cleanup_free_ char *buf = NULL;
	struct group gr;
	int r = get_group(name, 0, &gr, &buf);

	if (r > 0)
		*gid = gr.gr_gid;
	return r;
}

/* An answer for each name (status 0), and those the files backend gives
 * in one pass (done[i] set): the caller asks each other name on its own.
 * 0, or -ENOMEM with out empty. */
static int answers_start(bool groups, const struct dg_strlist *names,
			 struct dg_nss_probe *probe,
			 struct dg_name_answers *out, bool **done)
{
	int r = 0;

	*out = (struct dg_name_answers){0};
	if (!(out->v = dg_new0(struct dg_name_answer, names->n)) ||
	    !(*done = dg_new0(bool, names->n + 1)))
		r = -ENOMEM;
	/* gcc 12's analyzer loses the store into out->v at an index it
	 * cannot bound, and calls each copy leaked: they are out's, freed
	 * with it (dg_resolve_answers_free, also below on failure). */
	DG_ANALYZER_IGNORE("-Wanalyzer-malloc-leak")
	for (size_t i = 0; i < names->n && r == 0; i++)
		if ((out->v[i].name = strdup(names->v[i])))
			out->n++;
		else
			r = -ENOMEM;
	DG_ANALYZER_END
	if (r == 0)
		r = answers_from_file(groups, probe, out, *done);
	if (r < 0)
		dg_resolve_answers_free(out);
	return r;
}

int dg_nss_groups_by_name(const struct dg_strlist *names,
			  const struct dg_strlist *confirm,
			  struct dg_nss_probe *probe,
			  struct dg_name_answers *out)
{
	_cleanup_free_ bool *done = NULL;
	int r = answers_start(true, names, probe, out, &done);

	for (size_t i = 0; i < out->n && r == 0; i++) {
		struct dg_name_answer *a = &out->v[i];

		if (done[i])
			continue; /* /etc/group has it, and is asked first */
		a->status = dg_nss_group_by_name(a->name, &a->gid);
		if (a->status == 0 && confirm &&
		    dg_strlist_has_sorted(confirm, a->name))
			a->status = dg_nss_group_by_name(a->name, &a->gid);
		if (a->status == -ENOMEM)
			r = -ENOMEM;
	}
	if (r < 0)
		dg_resolve_answers_free(out);
	return r;
}

int dg_nss_users_exist(const struct dg_strlist *names,
		       struct dg_name_answers *out)
{
	_cleanup_free_ bool *done = NULL;
	int r = answers_start(false, names, NULL, out, &done);

	for (size_t i = 0; i < out->n && r == 0; i++) {
		_cleanup_free_ char *buf = NULL;
		struct passwd pw;

		if (done[i])
			continue; /* /etc/passwd has it, and is asked first */
		out->v[i].status = get_user(out->v[i].name, 0, &pw, &buf);
		if (out->v[i].status == -ENOMEM)
			r = -ENOMEM;
	}
	if (r < 0)
		dg_resolve_answers_free(out);
	return r;
}

/* The name of gid i of b, asked with getgrgid_r: 0 (b->at[i] left 0
 * when it has none), or -errno.  "none" is asked twice, as a passing
 * failure can look like it. */
static int gid_name(struct by_gid *b, size_t i)
{
	for (int attempt = 0;; attempt++) {
		_cleanup_free_ char *buf = NULL;
		struct group gr;
		int r = get_group(NULL, b->names->v[i].gid, &gr, &buf);

		if (r > 0)
			return pool_name(b, i, gr.gr_name);
		if (r < 0 || attempt == 1)
			return r;
	}
}

int dg_nss_gid_names(const struct dg_gids *gids, struct dg_nss_probe *probe,
		     struct dg_gid_names *out, gid_t *failed)
{
	struct dg_gid_names names = {.v = dg_new0(struct dg_gid_name, gids->n)};
	_cleanup_free_ size_t *at = dg_new0(size_t, gids->n);
	struct dg_util_sb pool = {0};
	struct by_gid b = {&names, gids->n, &pool, at};
	enum dg_nss_files_order order;
	int r;

	if (!names.v || !at) {
		free(names.v);
		return -ENOMEM;
	}
	for (names.n = 0; names.n < gids->n; names.n++)
		names.v[names.n].gid = gids->v[names.n]; /* sorted */
	/* The gids /etc/group has, in one pass when it is asked first; the
	 * rest (a directory's groups, which a walk might not even list)
	 * each with getgrgid_r, which fails closed as ever. */
	/* (one gid: getgrgid_r, as a pass would read the file and then,
	 * for a gid it lacks, leave getgrgid_r to read it again; unless
	 * this call has read the file already) */
	order = gids->n >= 2 || (probe && probe->group_read)
			? groups_files_first(probe)
			: DG_NSS_FILES_NOT_FIRST;
	if (order != DG_NSS_FILES_NOT_FIRST &&
	    (r = group_pass(probe, name_from_file, &b)) < 0) {
		if (r == -ENOMEM)
			goto fail;
		/* nothing of a pass that failed is kept: every gid is
		 * asked on its own */
		order = DG_NSS_FILES_NOT_FIRST;
		memset(at, 0, gids->n * sizeof(*at));
		pool.len = 0;
	}
	for (size_t i = 0; i < names.n; i++) {
		/* with files alone, a gid the file lacks has no name */
		if (at[i] || order == DG_NSS_FILES_ONLY)
			continue;
		if ((r = gid_name(&b, i)) < 0) {
			*failed = names.v[i].gid;
			goto fail;
		}
	}
	if (!(names.pool = dg_util_sb_take(&pool))) {
		r = -ENOMEM;
		goto fail;
	}
	for (size_t i = 0; i < names.n; i++)
		names.v[i].name = at[i] ? names.pool + at[i] - 1 : NULL;
	*out = names;
	return 0;
fail:
	free(pool.s);
	free(names.v);
	return r;
}

int dg_nss_walk_named(const struct dg_strlist *names, struct dg_gids *out)
{
	struct { gid_t *v; size_t n, cap; } found = {0};
	size_t size = initial_buffer(_SC_GETGR_R_SIZE_MAX);
	_cleanup_free_ char *buf = malloc(size);
	int r = buf ? 0 : -ENOMEM;

	setgrent();
	while (r == 0) {
		struct group gr, *res = NULL;
		int e = getgrent_r(&gr, buf, size, &res);

		if (e == ERANGE && size < NSS_BUFFER_MAX) {
			char *nb = realloc(buf, size * 2);

			if (!nb) {
				r = -ENOMEM;
				break;
			}
			buf = nb;
			size *= 2;
			continue;
		}
		if (e == ENOENT || (e == 0 && !res))
			break; /* the end of the walk */
		if (e != 0)
			r = -e;
		else if (dg_strlist_has_nocase(names, gr.gr_name) &&
			 DG_APPEND(&found, gr.gr_gid) < 0)
			r = -ENOMEM;
	}
	endgrent();
	for (size_t i = 0; r == 0 && i < out->n; i++)
		if (DG_APPEND(&found, out->v[i]) < 0)
			r = -ENOMEM;
	if (r == 0) {
		dg_gids_free(out);
		r = dg_gids_from(out, found.v, found.n);
	}
	free(found.v);
	return r;
}

char *dg_nss_group_label(gid_t gid)
{
	_cleanup_free_ char *buf = NULL;
	char *label = NULL;
	struct group gr;
	int r;

	/* A label is for humans: without a name the number will do. */
	if (get_group(NULL, gid, &gr, &buf) > 0)
		r = asprintf(&label, "%s(%u)", gr.gr_name, (unsigned)gid);
	else
		r = asprintf(&label, "%u", (unsigned)gid);
	return r < 0 ? NULL : label;
}

/* Add to ctx each group whose members name the user, as nss_files'
 * initgroups does (the primary gid aside). */
struct files_member {
	const char *user;
	gid_t skip;
	struct dg_gids *out;
};

static int member_from_file(void *entry, void *ctx)
{
	const struct group *gr = entry;
	struct files_member *fm = ctx;

	if (gr->gr_gid == fm->skip)
		return 0;
	for (char **m = gr->gr_mem; m && *m; m++)
		if (strcmp(*m, fm->user) == 0)
			/* 1 would stop the pass: only 0 or -ENOMEM */
			return dg_gids_add(fm->out, gr->gr_gid) < 0 ? -ENOMEM : 0;
	return 0;
}

/* Does the group line [p, eol) list user among its members (the field
 * after the third colon; blanks around a name do not count)? */
static bool line_lists(const char *p, const char *eol, const char *user)
{
	size_t ulen = strlen(user);

	for (int colons = 0; colons < 3; colons++) {
		const char *c = memchr(p, ':', (size_t)(eol - p));

		if (!c)
			return false;
		p = c + 1;
	}
	for (;;) {
		const char *c = memchr(p, ',', (size_t)(eol - p));
		const char *e = c ? c : eol;

		while (p < e && (*p == ' ' || *p == '\t'))
			p++;
		while (e > p && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r'))
			e--;
		if ((size_t)(e - p) == ulen && memcmp(p, user, ulen) == 0)
			return true;
		if (!c)
			return false;
		p = c + 1;
	}
}

/* Does a comment line of /etc/group ("#...", after blanks) list the
 * user?  glibc's nss_files initgroups parses every line, comments
 * included ("#old:x:6200:alice" is a group "#old" to it), while
 * fgetgrent_r, and every other look-up, skips them: no one reading can
 * say what such a line does, so it is not guessed at. */
static int comment_lists_user(const char *text, size_t len, void *ctx)
{
	const struct files_member *fm = ctx;
	const char *end = text + len;

	for (const char *line = text; line < end;) {
		const char *eol = memchr(line, '\n', (size_t)(end - line));
		const char *p = line;

		if (!eol)
			eol = end;
		while (p < eol && (*p == ' ' || *p == '\t'))
			p++;
		if (p < eol && *p == '#' && line_lists(p, eol, fm->user))
			return -EBADMSG;
		line = eol + 1;
	}
	return 0;
}

int dg_nss_files_groups_of(const char *user, gid_t skip, struct dg_gids *out)
{
	struct files_member fm = {user, skip, out};

	return file_pass_text("/etc/group", _SC_GETGR_R_SIZE_MAX, true, false,
			      comment_lists_user, member_from_file, &fm);
}

int dg_nss_group_entry_lists(gid_t gid, const char *user)
{
	_cleanup_free_ char *buf = NULL;
	struct group gr;
	int r = get_group(NULL, gid, &gr, &buf);

	if (r <= 0)
		return r; /* no entry lists nobody; or NSS failed */
	for (char **m = gr.gr_mem; m && *m; m++)
		if (strcmp(*m, user) == 0)
			return 1;
	return 0;
}

const char *dg_nss_env_tampered(void)
{
	/* libnss_sss reads it with getenv(3), in set-user-ID programs too,
	 * and glibc does not clear it for them: with it set, SSSD's client
	 * answers a clean "not found" to every look-up */
	static const char *const unsafe[] = {"_SSS_LOOPS"};

	for (size_t i = 0; i < sizeof(unsafe) / sizeof(*unsafe); i++)
		if (getenv(unsafe[i]))
			return unsafe[i];
	return NULL;
}

/* A name glibc could turn into a library name: no path, nothing odd. */
static bool plain_name(const char *name)
{
	return *name && strspn(name, "abcdefghijklmnopqrstuvwxyz"
				     "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-") ==
				strlen(name);
}

int dg_nss_service_fn(const char *service, const char *what, void **fn)
{
	_cleanup_free_ char *lib = NULL, *sym = NULL;
	void *h;

	*fn = NULL;
	if (!plain_name(service))
		return DG_NSS_BAD_NAME;
	if (asprintf(&lib, "libnss_%s.so.2", service) < 0) {
		lib = NULL; /* undefined after a failed asprintf */
		return -ENOMEM;
	}
	if (asprintf(&sym, "_nss_%s_%s", service, what) < 0) {
		sym = NULL;
		return -ENOMEM;
	}
	/* As glibc loads it, and never unloaded: glibc keeps its own
	 * handle on the same library, and a service's threads or
	 * destructors are not ours to run early. */
	if (!(h = dlopen(lib, RTLD_LAZY | RTLD_LOCAL | RTLD_NODELETE)))
		return DG_NSS_NO_LIBRARY;
	*fn = dlsym(h, sym);
	(void)dlclose(h); /* RTLD_NODELETE: fn stays */
	return *fn ? 0 : DG_NSS_NO_FUNCTION;
}

bool dg_nss_nscd_may_answer(void)
{
	struct stat st;

	/* any answer but ENOENT: it runs, or might */
	return lstat(NSCD_SOCKET, &st) == 0 || errno != ENOENT;
}

char *dg_nss_user_name(uid_t uid)
{
	_cleanup_free_ char *buf = NULL;
	struct passwd pw;

	return get_user(NULL, uid, &pw, &buf) > 0 ? strdup(pw.pw_name) : NULL;
}

int dg_nss_user_lookup(const char *name, struct dg_user *out)
{
	_cleanup_free_ char *buf = NULL;
	struct dg_user user = {0};
	struct passwd pw;
	int r = get_user(name, 0, &pw, &buf);

	if (r <= 0)
		return r;
	user.uid = pw.pw_uid;
	user.primary_gid = pw.pw_gid;
	if (!(user.name = strdup(pw.pw_name)))
		return -ENOMEM;
	*out = user;
	return 1;
}
