/* Unit tests of the compiled policy's format (cache.c): a config read
 * back is the config that was written, field by field; and a cache cut
 * short, or for another path, or bent, is a miss, never a crash.  No
 * I/O: dg_cache_encode and dg_cache_decode work in memory. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cache.h"
#include "config.h"

#include "config_equal.h"

#define PATH "/etc/security/dropgroups.conf"
#define DROP_IN "/etc/security/dropgroups.d/10-more.conf"

/* Every kind of value the schema has, and a warning or two. */
static const char main_text[] =
	"version = 1;\n"
	"restricting = ( \"games-abusers\", 4242, { name = \"maybe\"; "
	"optional = true; } );\n"
	"include_dir = \"dropgroups.d\";\n"
	"rules = (\n"
	"  { name = \"ssh\"; services = [ \"sshd\", \"login\" ];\n"
	"    users = ( \"alice\", \"%staff\", \"*\",\n"
	"              { name = \"%maybe-staff\"; optional = true; } );\n"
	"    drop = ( \"video\", 44, \"*\" ); no_new_privs = true; },\n"
	"  { services = \"su\"; keep = [ \"wheel\", \"123\" ]; },\n"
	"  { services = [ \"SUDO\" ]; users = [ ]; drop = \"audio\"; }\n"
	");\n";
static const char drop_in_text[] =
	"version = 1;\n"
	"restricting = [ \"untrusted\" ];\n"
	"rules = ( { name = \"cron\"; services = \"cron\"; drop = 29; } );\n";

struct fixture {
	struct dg_config cfg;
	struct dg_diags diags;
	struct dg_source files[2];
	char *buf;
	size_t len;
};

static void build(struct fixture *f)
{
	*f = (struct fixture){0};
	assert_int_equal(dg_config_parse(&f->cfg, PATH, main_text, DG_MAIN_FILE,
					 &f->diags),
			 0);
	assert_int_equal(dg_config_parse(&f->cfg, DROP_IN, drop_in_text,
					 DG_DROP_IN, &f->diags),
			 0);
	assert_false(dg_diag_failed(&f->diags));
	assert_true(f->diags.n >= 2); /* "123" in quotes, upper-case SUDO */
	f->files[0] = (struct dg_source){PATH, DG_MAIN_FILE, main_text,
					 strlen(main_text)};
	f->files[1] = (struct dg_source){DROP_IN, DG_DROP_IN, drop_in_text,
					 strlen(drop_in_text)};
	assert_int_equal(dg_cache_encode(PATH, &f->cfg, f->files, 2,
					 f->diags.v, f->diags.n, &f->buf,
					 &f->len),
			 0);
}

static void unbuild(struct fixture *f)
{
	free(f->buf);
	dg_config_free(&f->cfg);
	dg_diag_free(&f->diags);
}

/* A copy of the encoded bytes, for dg_cache_decode to take. */
static char *copy(const struct fixture *f, size_t len)
{
	char *b = malloc(len ? len : 1);

	assert_non_null(b);
	memcpy(b, f->buf, len);
	return b;
}

static void same_config(const struct dg_config *a, const struct dg_config *b)
{
	char buf[64];
	const char *diff = dg_test_config_diff(a, b, buf, sizeof(buf));

	if (diff)
		fail_msg("the config read back differs: %s", diff);
}

static void a_config_reads_back_field_by_field(void **state)
{
	struct fixture f;
	struct dg_cache *c = NULL;
	struct dg_config back = {0};
	struct dg_diags diags = {0};

	(void)state;
	build(&f);
	assert_int_equal(dg_cache_decode(PATH, copy(&f, f.len), f.len, &c), 0);
	assert_non_null(c);
	assert_int_equal(dg_cache_n_files(c), 2);
	assert_true(dg_cache_has(c, 0, &f.files[0]));
	assert_true(dg_cache_has(c, 1, &f.files[1]));
	assert_false(dg_cache_has(c, 2, &f.files[1]));
	same_config(dg_cache_config(c), &f.cfg);
	assert_int_equal(dg_cache_use(c, &back, &diags), 0);
	same_config(&back, &f.cfg);
	/* the warnings come back, in order */
	assert_int_equal(diags.n, f.diags.n);
	for (size_t i = 0; i < diags.n; i++) {
		assert_int_equal(diags.v[i].severity, DG_WARNING);
		assert_true(dg_test_same_str(diags.v[i].file, f.diags.v[i].file));
		assert_int_equal(diags.v[i].line, f.diags.v[i].line);
		assert_string_equal(diags.v[i].message, f.diags.v[i].message);
	}
	/* the file fields point at the config's own files */
	assert_ptr_equal(back.rules.v[0].file, back.files.v[0]);
	assert_ptr_equal(back.rules.v[3].groups.v[0].file, back.files.v[1]);
	dg_diag_free(&diags);
	dg_config_free(&back);
	unbuild(&f);
}

/* Any change to a file, its name or its role is a miss. */
static void a_file_that_differs_is_not_the_cache(void **state)
{
	struct fixture f;
	struct dg_cache *c = NULL;
	char *edited;

	(void)state;
	build(&f);
	assert_int_equal(dg_cache_decode(PATH, copy(&f, f.len), f.len, &c), 0);
	assert_non_null(c);
	edited = strdup(main_text);
	assert_non_null(edited);
	edited[strlen(edited) - 3] = ' '; /* same length, one byte */
	assert_false(dg_cache_has(c, 0, &(struct dg_source){
		PATH, DG_MAIN_FILE, edited, strlen(edited)}));
	assert_false(dg_cache_has(c, 0, &(struct dg_source){
		PATH, DG_MAIN_FILE, main_text, strlen(main_text) - 1}));
	assert_false(dg_cache_has(c, 0, &(struct dg_source){
		"/etc/security/other.conf", DG_MAIN_FILE, main_text,
		strlen(main_text)}));
	assert_false(dg_cache_has(c, 1, &(struct dg_source){
		DROP_IN, DG_MAIN_FILE, drop_in_text, strlen(drop_in_text)}));
	free(edited);
	/* longer, the cached text its prefix: only the length tells */
	assert_int_equal(asprintf(&edited, "%s#\n", main_text),
			 (int)strlen(main_text) + 2);
	assert_false(dg_cache_has(c, 0, &(struct dg_source){
		PATH, DG_MAIN_FILE, edited, strlen(edited)}));
	/* the baseline: the same file is the cache's */
	assert_true(dg_cache_has(c, 0, &f.files[0]));
	free(edited);
	dg_cache_free(c);
	unbuild(&f);
}

/* A cache for another main file, or cut short anywhere, or with bytes
 * after its end, is a miss. */
static void a_cache_not_whole_is_a_miss(void **state)
{
	struct fixture f;
	struct dg_cache *c = NULL;
	char *longer;

	(void)state;
	build(&f);
	assert_int_equal(dg_cache_decode("/etc/security/other.conf",
					  copy(&f, f.len), f.len, &c),
			 0);
	assert_null(c);
	for (size_t len = 0; len < f.len; len++) {
		assert_int_equal(dg_cache_decode(PATH, copy(&f, len), len, &c),
				 0);
		if (c)
			fail_msg("a cache cut at %zu of %zu bytes was read", len,
				 f.len);
	}
	longer = malloc(f.len + 1);
	assert_non_null(longer);
	memcpy(longer, f.buf, f.len);
	longer[f.len] = 'x';
	assert_int_equal(dg_cache_decode(PATH, longer, f.len + 1, &c), 0);
	assert_null(c);
	unbuild(&f);
}

/* The header's key, each part alone: the byte order, the parser's build,
 * the libconfig build that parsed, and the main file's path.  A cache
 * that differs from this build in any one of them, by a single byte and
 * at the same length, is a miss. */
static void a_cache_from_another_build_is_a_miss(void **state)
{
	static const char *const part[] = {"parser", "libconfig", "path"};
	const size_t magic = strlen("dgpolicy1\n");
	struct fixture f;
	struct dg_cache *c = NULL;
	size_t at = magic + sizeof(uint32_t);
	char *b;

	(void)state;
	build(&f);
	/* the baseline: the same bytes are a hit */
	assert_int_equal(dg_cache_decode(PATH, copy(&f, f.len), f.len, &c), 0);
	assert_non_null(c);
	dg_cache_free(c);
	/* another byte order */
	b = copy(&f, f.len);
	b[magic] ^= 0x01;
	assert_int_equal(dg_cache_decode(PATH, b, f.len, &c), 0);
	assert_null(c);
	for (size_t k = 0; k < sizeof(part) / sizeof(*part); k++) {
		uint32_t len;

		memcpy(&len, f.buf + at, sizeof(len));
		assert_true(len > 0 && at + sizeof(len) + len < f.len);
		/* its last byte bent: same length, one byte */
		b = copy(&f, f.len);
		b[at + sizeof(len) + len - 1] ^= 0x01;
		assert_int_equal(dg_cache_decode(PATH, b, f.len, &c), 0);
		if (c)
			fail_msg("a cache with another %s was read", part[k]);
		at += sizeof(len) + len + 1;
	}
	unbuild(&f);
}

/* Bent bytes must never crash the decoder or hand out a pointer outside
 * the buffer (ASan checks the second in make check-asan). */
static void bent_bytes_never_crash(void **state)
{
	struct fixture f;

	(void)state;
	build(&f);
	for (size_t i = 0; i < f.len; i++) {
		static const unsigned char with[] = {0x00, 0xff, 0x01, 0x80};

		for (size_t k = 0; k < sizeof(with); k++) {
			struct dg_cache *c = NULL;
			char *b = copy(&f, f.len);

			b[i] = (char)with[k];
			assert_int_equal(dg_cache_decode(PATH, b, f.len, &c), 0);
			if (c) {
				/* read what it holds, then let it go */
				const struct dg_config *cfg = dg_cache_config(c);

				for (size_t r = 0; r < cfg->rules.n; r++)
					(void)strlen(cfg->rules.v[r].file);
				dg_cache_free(c);
			}
		}
	}
	unbuild(&f);
}

/* A config with an error is never written: the module must parse it, to
 * fail closed with the error's own line. */
static void a_policy_with_an_error_is_not_encoded(void **state)
{
	struct fixture f;
	struct dg_diag bad = {DG_ERROR, (char *)PATH, 3, (char *)"broken", 0};
	struct dg_source swapped[2];
	char *buf = NULL;
	size_t len = 0;

	(void)state;
	build(&f);
	assert_int_equal(dg_cache_encode(PATH, &f.cfg, f.files, 2, &bad, 1,
					 &buf, &len),
			 -EINVAL);
	assert_null(buf);
	/* nor a config with other files than it was parsed from */
	assert_int_equal(dg_cache_encode(PATH, &f.cfg, f.files, 1, NULL, 0,
					 &buf, &len),
			 -EINVAL);
	/* nor the config's files under each other's names */
	swapped[0] = (struct dg_source){DROP_IN, DG_MAIN_FILE, main_text,
					strlen(main_text)};
	swapped[1] = (struct dg_source){PATH, DG_DROP_IN, drop_in_text,
					strlen(drop_in_text)};
	assert_int_equal(dg_cache_encode(PATH, &f.cfg, swapped, 2, NULL, 0,
					 &buf, &len),
			 -EINVAL);
	assert_null(buf);
	unbuild(&f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(a_config_reads_back_field_by_field),
		cmocka_unit_test(a_file_that_differs_is_not_the_cache),
		cmocka_unit_test(a_cache_not_whole_is_a_miss),
		cmocka_unit_test(a_cache_from_another_build_is_a_miss),
		cmocka_unit_test(bent_bytes_never_crash),
		cmocka_unit_test(a_policy_with_an_error_is_not_encoded),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
