/* The compiled policy cache (see cache.h): its file format, and reading
 * and writing it in DG_CACHE_DIR.
 *
 * The format is this build's alone (native byte order and sizes, and
 * the parser's digest in the header), so nothing else ever reads it:
 *
 *   "dgpolicy1\n"  the magic, then 0x01020304 as a u32 (byte order)
 *   str parser     DG_PARSER_ID: the version and a digest of the sources
 *   str libconfig  the build ID of the libconfig loaded
 *   str path       the main file, as the caller names it
 *   u32 n, then n times: str display, u8 role, str text   (the files)
 *   str include_dir (or none)
 *   refs restricting
 *   u32 n, then n rules
 *   u32 n, then n warnings: str file (or none), i32 line, str message
 *   "dgpolend"
 *
 * A str is a u32 length (0xffffffff: none), the bytes and a NUL, so the
 * config read back points into the file's bytes.  refs are a u32 count
 * and, each, str name (or none), u32 gid, u8 optional, u32 file, i32
 * line, where file indexes the files.  Every count, length and index is
 * checked against what is left before it is used, and the file must end
 * exactly at the trailer: anything else is a miss. */
#include "cache.h"

#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <libconfig.h>
#include <link.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "arena.h"
#include "parser-id.h"
#include "strlist.h"
#include "util.h"

#define MAGIC "dgpolicy1\n"
#define TRAILER "dgpolend"
#define BYTE_ORDER_MARK 0x01020304u
#define NONE 0xffffffffu
/* Policy files are at most 1 MB each (load.h); a cache larger than this
 * is not written, and not read. */
#define CACHE_MAX_BYTES (64u << 20)
/* One file per main path, in one of this many slots: checking candidate
 * policies at many temporary paths cannot fill /run; two policies (one
 * per service) share a slot one time in 32, and then miss in turn. */
#define CACHE_SLOTS 32

struct dg_cache {
	struct dg_config cfg; /* owns the arena, until dg_cache_use */
	struct dg_source *files;
	struct dg_diag *found;
	size_t n_found;
};

/* --- writing --- */

struct out {
	char *v;
	size_t n, cap;
	bool failed;  /* out of memory, or too large */
	bool invalid; /* not a config that may be kept */
};

static void put(struct out *o, const void *p, size_t len)
{
	if (o->failed)
		return;
	if (len > SIZE_MAX - o->n || o->n + len > CACHE_MAX_BYTES ||
	    dg_util_grow((void **)&o->v, &o->cap, o->n + len, 1) < 0) {
		o->failed = true;
		return;
	}
	memcpy(o->v + o->n, p, len);
	o->n += len;
}

static void put_u32(struct out *o, uint32_t v) { put(o, &v, sizeof(v)); }
static void put_i32(struct out *o, int32_t v) { put(o, &v, sizeof(v)); }
static void put_u8(struct out *o, uint8_t v) { put(o, &v, sizeof(v)); }

static void put_bytes(struct out *o, const char *s, size_t len)
{
	if (!s) {
		put_u32(o, NONE);
		return;
	}
	if (len >= NONE) {
		o->failed = true;
		return;
	}
	put_u32(o, (uint32_t)len);
	put(o, s, len);
	put_u8(o, 0);
}

static void put_str(struct out *o, const char *s)
{
	put_bytes(o, s, s ? strlen(s) : 0);
}

/* The index of file in cfg->files (config.c points every file field at
 * one of those strings). */
static void put_file(struct out *o, const struct dg_config *cfg,
		     const char *file)
{
	for (size_t i = 0; i < cfg->files.n; i++)
		if (cfg->files.v[i] == file) {
			put_u32(o, (uint32_t)i);
			return;
		}
	o->invalid = true;
}

static void put_strings(struct out *o, const struct dg_strlist *s)
{
	put_u32(o, (uint32_t)s->n);
	for (size_t i = 0; i < s->n; i++)
		put_str(o, s->v[i]);
}

/* Every field of the written policy is encoded below, and compared by
 * the tests' one comparison (tests/lib/config_equal.h).  A field added to
 * one of these structs changes its size and stops the build here until
 * it is encoded, decoded and compared too; then update the size.  (LP64
 * only: the sizes are those of x86_64 and its kin.) */
#if __SIZEOF_POINTER__ == 8 && __SIZEOF_LONG__ == 8
_Static_assert(sizeof(struct dg_rule_src) == 152,
	       "struct dg_rule_src changed: encode the new field in put_rule "
	       "and get_rule, compare it in tests/lib/config_equal.h");
_Static_assert(sizeof(struct dg_group_ref) == 32,
	       "struct dg_group_ref changed: encode the new field in put_refs "
	       "and get_refs, compare it in tests/lib/config_equal.h");
_Static_assert(sizeof(struct dg_config) == 88,
	       "struct dg_config changed: encode the new field in "
	       "dg_cache_encode and decode it, compare it in "
	       "tests/lib/config_equal.h");
#endif

static void put_refs(struct out *o, const struct dg_config *cfg,
		     const struct dg_group_refs *refs)
{
	put_u32(o, (uint32_t)refs->n);
	for (size_t i = 0; i < refs->n; i++) {
		const struct dg_group_ref *r = &refs->v[i];

		put_str(o, r->name);
		put_u32(o, r->name ? 0 : (uint32_t)r->gid);
		put_u8(o, r->optional);
		put_file(o, cfg, r->file);
		put_i32(o, r->line);
	}
}

static void put_rule(struct out *o, const struct dg_config *cfg,
		     const struct dg_rule_src *r)
{
	put_str(o, r->name);
	put_file(o, cfg, r->file);
	put_i32(o, r->line);
	put_strings(o, &r->services);
	put_u8(o, r->users_given);
	put_strings(o, &r->users);
	put_strings(o, &r->users_optional);
	put_i32(o, r->users_line);
	put_u8(o, r->mode == DG_MODE_KEEP);
	put_u8(o, r->has_drop);
	put_u8(o, r->has_keep);
	put_refs(o, cfg, &r->groups);
	put_u8(o, r->no_new_privs);
}

struct build_id {
	const void *addr; /* a function of the object wanted */
	char *hex;        /* its GNU build ID, or NULL */
};

/* dl_iterate_phdr: the build ID note of the object that holds w->addr. */
static int find_build_id(struct dl_phdr_info *info, size_t size, void *data)
{
	struct build_id *w = data;
	uintptr_t addr = (uintptr_t)w->addr;
	bool holds = false;

	(void)size;
	/* (every object of the process is asked: the loads alone, and
	 * stop at the one that holds addr) */
	for (int i = 0; i < info->dlpi_phnum && !holds; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];

		if (ph->p_type == PT_LOAD &&
		    addr - (info->dlpi_addr + ph->p_vaddr) < ph->p_memsz)
			holds = addr >= info->dlpi_addr + ph->p_vaddr;
	}
	if (!holds)
		return 0;
	for (int i = 0; i < info->dlpi_phnum && !w->hex; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		const char *p = (const char *)(info->dlpi_addr + ph->p_vaddr);
		const char *end = p + ph->p_memsz;

		if (ph->p_type != PT_NOTE)
			continue;
		while (!w->hex && (size_t)(end - p) >= sizeof(ElfW(Nhdr))) {
			const ElfW(Nhdr) *n = (const ElfW(Nhdr) *)(const void *)p;
			size_t name = (n->n_namesz + 3) & ~(size_t)3;
			size_t desc = (n->n_descsz + 3) & ~(size_t)3;
			const unsigned char *d;

			p += sizeof(*n);
			if ((size_t)(end - p) < name ||
			    (size_t)(end - p) - name < desc)
				break;
			d = (const unsigned char *)p + name;
			if (n->n_type == NT_GNU_BUILD_ID && n->n_namesz == 4 &&
			    memcmp(p, "GNU", 4) == 0 && n->n_descsz &&
			    (w->hex = malloc(2 * (size_t)n->n_descsz + 1))) {
				/* by hand: a snprintf per byte was 5% of a
				 * small login */
				static const char digit[] = "0123456789abcdef";

				for (size_t k = 0; k < n->n_descsz; k++) {
					w->hex[2 * k] = digit[d[k] >> 4];
					w->hex[2 * k + 1] = digit[d[k] & 15];
				}
				w->hex[2 * (size_t)n->n_descsz] = '\0';
			}
			p += name + desc;
		}
	}
	return 1;
}

/* Which libconfig parses: an upgrade of it can change what the same
 * bytes mean.  The build ID of the copy loaded in this process (not of
 * the file on disk: a daemon started before an upgrade still runs the
 * old one).  NULL when it has none (then nothing is cached). */
static char *libconfig_id(void)
{
	struct build_id w = {.addr = (const void *)config_read_string};

	dl_iterate_phdr(find_build_id, &w);
	return w.hex;
}

int dg_cache_encode(const char *path, const struct dg_config *cfg,
		    const struct dg_source *files, size_t n,
		    const struct dg_diag *found, size_t n_found, char **buf,
		    size_t *len)
{
	_cleanup_free_ char *lib = libconfig_id();
	struct out o = {0};

	*buf = NULL;
	*len = 0;
	if (!lib || n != cfg->files.n || n > UINT32_MAX ||
	    cfg->rules.n > UINT32_MAX || n_found > UINT32_MAX)
		return -EINVAL;
	put(&o, MAGIC, strlen(MAGIC));
	put_u32(&o, BYTE_ORDER_MARK);
	put_str(&o, DG_PARSER_ID);
	put_str(&o, lib);
	put_str(&o, path);
	put_u32(&o, (uint32_t)n);
	for (size_t i = 0; i < n; i++) {
		/* the files are the config's, in its order */
		if (strcmp(files[i].display, cfg->files.v[i]) != 0)
			o.invalid = true;
		put_str(&o, files[i].display);
		put_u8(&o, files[i].role == DG_DROP_IN);
		put_bytes(&o, files[i].text, files[i].len);
	}
	put_str(&o, cfg->include_dir);
	put_refs(&o, cfg, &cfg->restricting);
	put_u32(&o, (uint32_t)cfg->rules.n);
	for (size_t i = 0; i < cfg->rules.n; i++)
		put_rule(&o, cfg, &cfg->rules.v[i]);
	put_u32(&o, (uint32_t)n_found);
	for (size_t i = 0; i < n_found; i++) {
		if (found[i].severity != DG_WARNING)
			o.invalid = true; /* a policy with errors is not kept */
		put_str(&o, found[i].file);
		put_i32(&o, found[i].line);
		put_str(&o, found[i].message);
	}
	put(&o, TRAILER, strlen(TRAILER));
	if (o.failed || o.invalid) {
		free(o.v);
		return o.invalid ? -EINVAL : -ENOMEM;
	}
	*buf = o.v;
	*len = o.n;
	return 0;
}

/* --- reading --- */

struct in {
	char *p, *end;
	bool bad;
	struct dg_arena **arena;
	const struct dg_config *cfg; /* for file indexes */
};

/* Are n more bytes there?  (Once bad, never again.) */
static inline bool have(struct in *in, size_t n)
{
	if (in->bad || (size_t)(in->end - in->p) < n) {
		in->bad = true;
		return false;
	}
	return true;
}

static inline uint32_t get_u32(struct in *in)
{
	uint32_t v = 0;

	if (have(in, sizeof(v))) {
		memcpy(&v, in->p, sizeof(v));
		in->p += sizeof(v);
	}
	return v;
}

static inline int32_t get_i32(struct in *in)
{
	return (int32_t)get_u32(in);
}

static inline bool get_bool(struct in *in)
{
	uint8_t v = 0;

	if (have(in, 1))
		v = (uint8_t)*in->p++;
	if (v > 1)
		in->bad = true;
	return v == 1;
}

/* A str, pointing into the buffer; NULL for none (or when bad). */
static char *get_bytes(struct in *in, size_t *len)
{
	uint32_t n = get_u32(in);
	char *s = in->p;

	*len = 0;
	if (in->bad || n == NONE)
		return NULL;
	if ((size_t)(in->end - in->p) <= n || s[n] != '\0') {
		in->bad = true;
		return NULL;
	}
	in->p += (size_t)n + 1;
	*len = n;
	return s;
}

/* A C string: no NUL inside it.  NULL for none (or when bad). */
static char *get_str(struct in *in)
{
	size_t len;
	char *s = get_bytes(in, &len);

	if (s && memchr(s, '\0', len))
		in->bad = true;
	return in->bad ? NULL : s;
}

static char *get_str_required(struct in *in)
{
	char *s = get_str(in);

	if (!s)
		in->bad = true;
	return s;
}

/* n elements of size elem, each at least min_bytes long in the file:
 * zeroed, from the arena; NULL when bad (or n is 0). */
static void *get_array(struct in *in, uint32_t n, size_t elem,
		       size_t min_bytes)
{
	void *v;

	if (in->bad || n == 0)
		return NULL;
	if ((size_t)(in->end - in->p) / min_bytes < n) {
		in->bad = true;
		return NULL;
	}
	/* out of memory here is a miss: the parse that follows fails
	 * closed if memory stays short */
	if (!(v = dg_arena_alloc(in->arena, (size_t)n * elem)))
		in->bad = true;
	return v;
}

static const char *get_file(struct in *in)
{
	uint32_t i = get_u32(in);

	if (in->bad || i >= in->cfg->files.n) {
		in->bad = true;
		return NULL;
	}
	return in->cfg->files.v[i];
}

static void get_strings(struct in *in, struct dg_strlist *s)
{
	uint32_t n = get_u32(in);

	s->v = get_array(in, n, sizeof(*s->v), 5);
	for (uint32_t i = 0; s->v && i < n && !in->bad; i++)
		s->v[i] = get_str_required(in);
	s->n = s->cap = in->bad ? 0 : n;
}

static void get_refs(struct in *in, struct dg_group_refs *refs)
{
	uint32_t n = get_u32(in);

	refs->v = get_array(in, n, sizeof(*refs->v), 17);
	for (uint32_t i = 0; refs->v && i < n && !in->bad; i++) {
		struct dg_group_ref *r = &refs->v[i];
		uint32_t gid;

		r->name = get_str(in);
		gid = get_u32(in);
		r->optional = get_bool(in);
		r->file = get_file(in);
		r->line = get_i32(in);
		/* (gid_t)-1 is never a group (config.c refuses it) */
		if (!r->name && gid == NONE)
			in->bad = true;
		r->gid = r->name ? 0 : (gid_t)gid;
	}
	refs->n = refs->cap = in->bad ? 0 : n;
}

static void get_rule(struct in *in, struct dg_rule_src *r)
{
	r->name = get_str(in);
	r->file = get_file(in);
	r->line = get_i32(in);
	get_strings(in, &r->services);
	r->users_given = get_bool(in);
	get_strings(in, &r->users);
	get_strings(in, &r->users_optional);
	r->users_line = get_i32(in);
	r->mode = get_bool(in) ? DG_MODE_KEEP : DG_MODE_DROP;
	r->has_drop = get_bool(in);
	r->has_keep = get_bool(in);
	get_refs(in, &r->groups);
	r->no_new_privs = get_bool(in);
}

static bool get_magic(struct in *in, const char *magic)
{
	size_t n = strlen(magic);

	if (in->bad || (size_t)(in->end - in->p) < n ||
	    memcmp(in->p, magic, n) != 0) {
		in->bad = true;
		return false;
	}
	in->p += n;
	return true;
}

/* The header: is this cache this build's, for this libconfig and path? */
static bool header_ok(struct in *in, const char *path)
{
	_cleanup_free_ char *lib = libconfig_id();
	const char *parser, *libconfig, *cached_path;

	if (!get_magic(in, MAGIC) || get_u32(in) != BYTE_ORDER_MARK)
		return false;
	parser = get_str_required(in);
	libconfig = get_str_required(in);
	cached_path = get_str_required(in);
	return !in->bad && lib && strcmp(parser, DG_PARSER_ID) == 0 &&
	       strcmp(libconfig, lib) == 0 && strcmp(cached_path, path) == 0;
}

static void get_files(struct in *in, struct dg_cache *c)
{
	uint32_t n = get_u32(in);

	/* at least the main file */
	if (n == 0)
		in->bad = true;
	c->files = get_array(in, n, sizeof(*c->files), 11);
	c->cfg.files.v = get_array(in, n, sizeof(*c->cfg.files.v), 11);
	for (uint32_t i = 0; c->files && c->cfg.files.v && i < n && !in->bad;
	     i++) {
		struct dg_source *f = &c->files[i];

		f->display = c->cfg.files.v[i] = get_str_required(in);
		f->role = get_bool(in) ? DG_DROP_IN : DG_MAIN_FILE;
		if ((i == 0) != (f->role == DG_MAIN_FILE))
			in->bad = true;
		if (!(f->text = get_bytes(in, &f->len)))
			in->bad = true;
	}
	c->cfg.files.n = c->cfg.files.cap = in->bad ? 0 : n;
}

static void get_found(struct in *in, struct dg_cache *c)
{
	uint32_t n = get_u32(in);

	c->found = get_array(in, n, sizeof(*c->found), 13);
	for (uint32_t i = 0; c->found && i < n && !in->bad; i++) {
		c->found[i].severity = DG_WARNING;
		c->found[i].file = get_str(in);
		c->found[i].line = get_i32(in);
		c->found[i].message = get_str_required(in);
	}
	c->n_found = in->bad ? 0 : n;
}

/* Decode buf, which c's arena already owns. */
static int decode(const char *path, struct dg_cache *c, char *buf, size_t len,
		  struct dg_cache **out)
{
	struct in in = {.p = buf, .end = buf + len};
	uint32_t n_rules;

	in.arena = &c->cfg.arena;
	in.cfg = &c->cfg;
	if (!header_ok(&in, path))
		goto miss;
	get_files(&in, c);
	c->cfg.include_dir = get_str(&in);
	get_refs(&in, &c->cfg.restricting);
	n_rules = get_u32(&in);
	c->cfg.rules.v = get_array(&in, n_rules, sizeof(*c->cfg.rules.v), 33);
	for (uint32_t i = 0; c->cfg.rules.v && i < n_rules && !in.bad; i++)
		get_rule(&in, &c->cfg.rules.v[i]);
	c->cfg.rules.n = c->cfg.rules.cap = in.bad ? 0 : n_rules;
	get_found(&in, c);
	if (!get_magic(&in, TRAILER) || in.p != in.end)
		goto miss;
	*out = c;
	return 0;
miss:
	dg_cache_free(c);
	return 0;
}

int dg_cache_decode(const char *path, char *buf, size_t len,
		    struct dg_cache **out)
{
	struct dg_cache *c = calloc(1, sizeof(*c));

	*out = NULL;
	if (!c) {
		free(buf);
		return -ENOMEM;
	}
	if (dg_arena_adopt(&c->cfg.arena, buf) < 0) {
		free(c);
		return -ENOMEM;
	}
	return decode(path, c, buf, len, out);
}

bool dg_cache_has(const struct dg_cache *cache, size_t i,
		  const struct dg_source *file)
{
	const struct dg_source *f;

	if (i >= cache->cfg.files.n)
		return false;
	f = &cache->files[i];
	return f->role == file->role && f->len == file->len &&
	       strcmp(f->display, file->display) == 0 &&
	       memcmp(f->text, file->text, f->len) == 0;
}

size_t dg_cache_n_files(const struct dg_cache *cache)
{
	return cache->cfg.files.n;
}

const struct dg_config *dg_cache_config(const struct dg_cache *cache)
{
	return &cache->cfg;
}

int dg_cache_use(struct dg_cache *cache, struct dg_config *out,
		 struct dg_diags *diags)
{
	for (size_t i = 0; i < cache->n_found; i++)
		dg_diag_add(diags, DG_WARNING, cache->found[i].file,
			    cache->found[i].line, "%s",
			    cache->found[i].message);
	*out = cache->cfg;
	free(cache);
	return diags->lost ? -ENOMEM : 0;
}

void dg_cache_free(struct dg_cache *cache)
{
	if (!cache)
		return;
	dg_config_free(&cache->cfg);
	free(cache);
}

/* --- the directory --- */

/* The cache's file name for path: a slot, picked by an FNV-1a hash. */
static void slot_name(const char *path, char name[static 32])
{
	uint64_t h = 0xcbf29ce484222325ull;

	for (const unsigned char *c = (const unsigned char *)path; *c; c++)
		h = (h ^ *c) * 0x100000001b3ull;
	snprintf(name, 32, "policy-%u.cache", (unsigned)(h % CACHE_SLOTS));
}

/* Root's alone: owned by root, and nobody else may read, write or (for
 * a directory) enter it.  When it is, *out (if not NULL) is its fstat:
 * the caller needs no second one. */
static bool roots_alone(int fd, mode_t type, struct stat *out)
{
	struct stat st;
	bool alone = fstat(fd, &st) == 0 && (st.st_mode & S_IFMT) == type &&
	       st.st_uid == 0 && (st.st_mode & 077) == 0 &&
	       (type != S_IFREG || st.st_nlink == 1);

	if (alone && out)
		*out = st;
	return alone;
}

/* DG_CACHE_DIR, opened and checked (created first when `create`); -1
 * when it is not there or not root's alone. */
static int open_dir(bool create)
{
	int fd = open(DG_CACHE_DIR,
		      O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);

	if (fd < 0 && errno == ENOENT && create &&
	    (mkdir(DG_CACHE_DIR, 0700) == 0 || errno == EEXIST))
		fd = open(DG_CACHE_DIR,
			  O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd >= 0 && !roots_alone(fd, S_IFDIR, NULL)) {
		close(fd);
		fd = -1;
	}
	return fd;
}

int dg_cache_read(const char *path, struct dg_cache **out)
{
	_cleanup_close_ int dirfd = -1, fd = -1;
	struct stat st;
	char name[32];
	char *buf;
	size_t len;
	int r;

	*out = NULL;
	/* only root's cache is trusted, and only root can open it */
	if (geteuid() != 0 || (dirfd = open_dir(false)) < 0)
		return 0;
	slot_name(path, name);
	fd = openat(dirfd, name,
		    O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd < 0)
		return errno == ENOMEM ? -ENOMEM : 0;
	if (!roots_alone(fd, S_IFREG, &st) ||
	    st.st_size <= 0 || st.st_size > (off_t)CACHE_MAX_BYTES)
		return 0;
	/* read, not mapped: a file cut short under a mapping would kill
	 * the login program with SIGBUS; one read of its size is cheap */
	r = dg_util_read_stat(fd, &st, CACHE_MAX_BYTES, &buf, &len);
	if (r < 0)
		return r == -ENOMEM ? r : 0;
	return dg_cache_decode(path, buf, len, out);
}

static int write_all(int fd, const char *buf, size_t len)
{
	while (len) {
		ssize_t w = write(fd, buf, len);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		buf += w;
		len -= (size_t)w;
	}
	return 0;
}

/* Give the unnamed file fd the name tmp in dirfd (replacing a leftover
 * of a writer that was killed between this and its rename). */
static bool link_as(int fd, int dirfd, const char *tmp)
{
	char proc[64];

	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", fd);
	for (int attempt = 0; attempt < 2; attempt++) {
		if (linkat(AT_FDCWD, proc, dirfd, tmp, AT_SYMLINK_FOLLOW) == 0)
			return true;
		if (errno != EEXIST || unlinkat(dirfd, tmp, 0) < 0)
			return false;
	}
	return false;
}

void dg_cache_write(const char *path, const struct dg_config *cfg,
		    const struct dg_source *files, size_t n,
		    const struct dg_diag *found, size_t n_found)
{
	_cleanup_close_ int dirfd = -1, fd = -1;
	_cleanup_free_ char *buf = NULL;
	char name[32], tmp[40];
	struct rlimit fsize;
	size_t len;

	if (geteuid() != 0 ||
	    dg_cache_encode(path, cfg, files, n, found, n_found, &buf,
			    &len) < 0)
		return;
	/* A file size limit below the cache's size (the invoking user's,
	 * through a set-user-ID su, or one pam_limits set) would kill the
	 * login program with SIGXFSZ in the middle of the write. */
	if (getrlimit(RLIMIT_FSIZE, &fsize) < 0 ||
	    (fsize.rlim_cur != RLIM_INFINITY && fsize.rlim_cur < len))
		return;
	if ((dirfd = open_dir(true)) < 0)
		return;
	/* Written unnamed (O_TMPFILE), so that a login killed while it
	 * writes (the invoking user may kill a set-user-ID su) leaves
	 * nothing behind; then named policy-N.new, whole, and renamed
	 * over the old: a reader sees one or the other, never a part, and
	 * a kill between the two leaves at most one file per slot. */
	fd = openat(dirfd, ".", O_TMPFILE | O_WRONLY | O_CLOEXEC, 0600);
	if (fd < 0 || write_all(fd, buf, len) < 0)
		return;
	slot_name(path, name);
	snprintf(tmp, sizeof(tmp), "%s.new", name);
	if (!link_as(fd, dirfd, tmp))
		return;
	if (renameat(dirfd, tmp, dirfd, name) < 0)
		(void)unlinkat(dirfd, tmp, 0);
}
