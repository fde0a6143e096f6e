/* Unit tests of the nsswitch.conf reader (nsswitch.c): which services a
 * database names, what follows each answer, and the texts with more than
 * one reading, which are refused; and the files-first pass's reading of
 * a group line (nss.c), against glibc's own.  No files: text made up
 * here. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <grp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nss.h"
#include "nsswitch.h"

static int read_db(const char *text, const char *db,
		   struct dg_nss_services *out)
{
	return dg_nsswitch_services(text, strlen(text), db, out);
}

static void services_in_order_with_glibc_defaults(void **state)
{
	struct dg_nss_services s;

	(void)state;
	assert_int_equal(read_db("passwd: files\n"
				 "group:\tfiles   ldap\n"
				 "hosts: files dns\n",
				 "group", &s),
			 1);
	assert_int_equal(s.n, 2);
	assert_string_equal(s.v[0].name, "files");
	assert_string_equal(s.v[1].name, "ldap");
	assert_int_equal(s.v[1].after[DG_NSS_SUCCESS], DG_NSS_RETURN);
	assert_int_equal(s.v[1].after[DG_NSS_NOTFOUND], DG_NSS_CONTINUE);
	assert_int_equal(s.v[1].after[DG_NSS_UNAVAIL], DG_NSS_CONTINUE);
	assert_int_equal(s.v[1].after[DG_NSS_TRYAGAIN], DG_NSS_CONTINUE);
	dg_nsswitch_services_free(&s);
	assert_int_equal(read_db("passwd: files\n", "group", &s), 0);
	assert_int_equal(read_db("", "initgroups", &s), 0);
}

static void actions_and_their_negation(void **state)
{
	struct dg_nss_services s;

	(void)state;
	assert_int_equal(read_db("group: files [SUCCESS=continue] sss "
				 "[ !UNAVAIL = return notfound=merge ] ldap\n",
				 "group", &s),
			 1);
	assert_int_equal(s.n, 3);
	assert_int_equal(s.v[0].after[DG_NSS_SUCCESS], DG_NSS_CONTINUE);
	/* !UNAVAIL=return: every other status returns, UNAVAIL keeps its
	 * action; then NOTFOUND is set again */
	assert_int_equal(s.v[1].after[DG_NSS_SUCCESS], DG_NSS_RETURN);
	assert_int_equal(s.v[1].after[DG_NSS_TRYAGAIN], DG_NSS_RETURN);
	assert_int_equal(s.v[1].after[DG_NSS_UNAVAIL], DG_NSS_CONTINUE);
	assert_int_equal(s.v[1].after[DG_NSS_NOTFOUND], DG_NSS_MERGE);
	assert_string_equal(s.v[2].name, "ldap");
	dg_nsswitch_services_free(&s);
}

/* When may one pass over /etc/group stand in for glibc's per-key calls?
 * Only when files comes first and its answer ends the look-up, as
 * glibc's defaults make it.  Every action form that changes what
 * follows files is not first: "files [SUCCESS=continue] ldap" asks ldap
 * after a gid that /etc/group names, and that answer is the one sudo
 * and every other program gets. */
static void files_first_only_with_glibc_s_defaults_after_files(void **state)
{
	static const struct {
		const char *line;
		enum dg_nss_files_order order;
	} cases[] = {
		/* the baselines */
		{"group: files\n", DG_NSS_FILES_ONLY},
		{"group: files ldap\n", DG_NSS_FILES_FIRST},
		{"group:files\tsss ldap\n", DG_NSS_FILES_FIRST},
		/* the defaults, spelt out, in any case and spacing */
		{"group: files [SUCCESS=return] ldap\n", DG_NSS_FILES_FIRST},
		{"group: files [notfound=continue UNAVAIL=continue "
		 "TryAgain=Continue] ldap\n", DG_NSS_FILES_FIRST},
		{"group: files [ !SUCCESS = continue ] ldap\n",
		 DG_NSS_FILES_FIRST},
		{"group: files [SUCCESS=return]\n", DG_NSS_FILES_ONLY},
		/* an action after the second service is the second's */
		{"group: files ldap [NOTFOUND=return]\n", DG_NSS_FILES_FIRST},
		/* each status with an action that is not its default */
		{"group: files [SUCCESS=continue] ldap\n", DG_NSS_FILES_NOT_FIRST},
		{"group: files [success=continue] ldap\n", DG_NSS_FILES_NOT_FIRST},
		{"group: files [ SUCCESS = continue ] ldap\n",
		 DG_NSS_FILES_NOT_FIRST},
		{"group: files[SUCCESS=continue] ldap\n", DG_NSS_FILES_NOT_FIRST},
		{"group: files [SUCCESS=continue]\n", DG_NSS_FILES_NOT_FIRST},
		{"group: files [SUCCESS=merge] ldap\n", DG_NSS_FILES_NOT_FIRST},
		{"group: files [NOTFOUND=return] ldap\n", DG_NSS_FILES_NOT_FIRST},
		{"group: files [NOTFOUND=merge] ldap\n", DG_NSS_FILES_NOT_FIRST},
		{"group: files [UNAVAIL=return] ldap\n", DG_NSS_FILES_NOT_FIRST},
		{"group: files [TRYAGAIN=return] ldap\n", DG_NSS_FILES_NOT_FIRST},
		{"group: files [TRYAGAIN=merge] ldap\n", DG_NSS_FILES_NOT_FIRST},
		/* negated: every other status takes the action */
		{"group: files [!UNAVAIL=return] ldap\n", DG_NSS_FILES_NOT_FIRST},
		{"group: files [!SUCCESS=return] ldap\n", DG_NSS_FILES_NOT_FIRST},
		{"group: files [UNAVAIL=continue] ldap\n", DG_NSS_FILES_FIRST},
		{"group: files [!TRYAGAIN=continue] ldap\n",
		 DG_NSS_FILES_NOT_FIRST},
		/* several in one bracket: the last one that differs counts */
		{"group: files [NOTFOUND=continue SUCCESS=continue] ldap\n",
		 DG_NSS_FILES_NOT_FIRST},
		{"group: files [SUCCESS=continue SUCCESS=return] ldap\n",
		 DG_NSS_FILES_FIRST},
		/* files not first, or not files */
		{"group: ldap files\n", DG_NSS_FILES_NOT_FIRST},
		{"group: sss\n", DG_NSS_FILES_NOT_FIRST},
		{"group: Files ldap\n", DG_NSS_FILES_NOT_FIRST},
		{"group: filesx ldap\n", DG_NSS_FILES_NOT_FIRST},
		{"group: file ldap\n", DG_NSS_FILES_NOT_FIRST},
		{"group:\n", DG_NSS_FILES_NOT_FIRST},
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		struct dg_nss_services s;
		enum dg_nss_files_order got;

		assert_int_equal(read_db(cases[i].line, "group", &s), 1);
		got = dg_nsswitch_files_order(&s);
		dg_nsswitch_services_free(&s);
		if (got != cases[i].order)
			fail_msg("%s read as %d, want %d", cases[i].line, got,
				 cases[i].order);
	}
}

/* glibc 2.33 and later strip no comment on a database's line: the words
 * after "#" are services too (which then fail to load). */
static void a_comment_is_read_as_services(void **state)
{
	struct dg_nss_services s;

	(void)state;
	assert_int_equal(read_db("# group: ldap\ngroup: files # ldap\n", "group",
				 &s),
			 1);
	assert_int_equal(s.n, 3);
	assert_string_equal(s.v[1].name, "#");
	assert_string_equal(s.v[2].name, "ldap");
	dg_nsswitch_services_free(&s);
}

/* Where glibc versions read the text differently, or glibc refuses it,
 * no reading is given. */
static void texts_with_two_readings_are_refused(void **state)
{
	static const char *const refused[] = {
		"group: files\ngroup: files ldap\n",   /* glibc takes the last */
		"Group: files ldap\n",                 /* older glibc: case */
		"group files ldap\n",                  /* no colon */
		"group: files [SUCCESS=stop] ldap\n",  /* unknown action */
		"group: files [BUSY=return] ldap\n",   /* unknown status */
		"group: files [NOTFOUND=return\n",     /* no ']' */
		"group: files [NOTFOUND return]\n",    /* no '=' */
	};
	struct dg_nss_services s;

	(void)state;
	for (size_t i = 0; i < sizeof(refused) / sizeof(*refused); i++)
		if (read_db(refused[i], "group", &s) != -EINVAL)
			fail_msg("read: %s", refused[i]);
}

/* glibc reads every line past a NUL byte: a reading that stopped at it
 * would miss the group line after it. */
static void a_nul_byte_is_refused(void **state)
{
	static const char text[] = "passwd: files\0\ngroup: files ldap\n";
	struct dg_nss_services s;

	(void)state;
	assert_int_equal(dg_nsswitch_services(text, sizeof(text) - 1, "group",
					      &s),
			 -EINVAL);
}

/* glibc's reading of one group line (fgetgrent_r, nss_files' parser):
 * 1 with its name and gid, 0 when it gives no entry. */
static int glibc_group_line(const char *line, size_t n, char **name,
			    gid_t *gid)
{
	char text[256], buf[1024];
	struct group gr, *res = NULL;
	FILE *f;
	int r;

	assert_true(n + 1 < sizeof(text));
	memcpy(text, line, n);
	text[n] = '\n';
	assert_non_null(f = fmemopen(text, n + 1, "r"));
	r = fgetgrent_r(f, &gr, buf, sizeof(buf), &res);
	fclose(f);
	if (r != 0 || !res)
		return 0;
	assert_non_null(*name = strdup(gr.gr_name));
	*gid = gr.gr_gid;
	return 1;
}

/* Every line the fast reading takes (1) glibc reads with the same name
 * and gid; every one it skips (0) glibc gives no entry for, or a compat
 * one; the rest (-1) are glibc's to read, and unchanged. */
static void group_lines_are_read_as_glibc_reads_them(void **state)
{
#define L(text) text, sizeof(text) - 1
	static const struct { const char *s; size_t n; int want; } lines[] = {
		{L("g:x:10:a,b"), 1}, {L("g:x:10"), 1}, {L("g::10:"), 1},
		{L("g:x:0010:"), 1}, {L("g:x:4294967295:"), 1},
		{L("g:x:10:a:b:c"), 1}, {L("\xc3\xa9:x:10:"), -1},
		{L("g:x:10:\r"), 1}, {L("g:x:10: a"), 1},
		{L(""), 0}, {L("#g:x:10:"), 0}, {L("+g:x:10:"), 0},
		{L("-g:x:10:"), 0}, {L("+"), 0}, {L("+:::"), 0},
		{L("g:x:4294967296:"), -1}, {L("g:x:99999999999:"), -1},
		{L("g:x:00000000010:"), -1},
		{L("g:x:-1:"), -1}, {L("g:x:+1:"), -1}, {L("g:x: 10:"), -1},
		{L("g:x:10 :"), -1}, {L("g:x:10\r"), -1}, {L("g:x::"), -1},
		{L("g:x:"), -1}, {L("g:x"), -1}, {L("g"), -1}, {L(":x:10:"), -1},
		{L(" g:x:10:"), -1}, {L("\tg:x:10:"), -1}, {L("\rg:x:10:"), -1},
		{L("\xa0g:x:10:"), -1}, {L("g:x:abc:"), -1}, {L("g:x:1a:"), -1},
		{L("g:x:10:\0"), -1}, {L("g\0:x:10:"), -1},
		{L("#\0g:x:10:"), -1},
	};
#undef L
	(void)state;
	for (size_t i = 0; i < sizeof(lines) / sizeof(lines[0]); i++) {
		char line[64], *name = NULL;
		struct group gr;
		gid_t gid = 0;
		int mine, theirs;

		memcpy(line, lines[i].s, lines[i].n);
		mine = dg_nss_group_line(line, lines[i].n, &gr);
		theirs = glibc_group_line(lines[i].s, lines[i].n, &name, &gid);
		if (mine != lines[i].want)
			fail_msg("line %zu: %d, not %d", i, mine,
				 lines[i].want);
		if (mine == 1) {
			assert_int_equal(theirs, 1);
			assert_string_equal(gr.gr_name, name);
			assert_int_equal(gr.gr_gid, gid);
		} else {
			assert_memory_equal(line, lines[i].s, lines[i].n);
		}
		if (mine == 0 && theirs)
			assert_true(name[0] == '+' || name[0] == '-');
		free(name);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(services_in_order_with_glibc_defaults),
		cmocka_unit_test(actions_and_their_negation),
		cmocka_unit_test(files_first_only_with_glibc_s_defaults_after_files),
		cmocka_unit_test(a_comment_is_read_as_services),
		cmocka_unit_test(texts_with_two_readings_are_refused),
		cmocka_unit_test(a_nul_byte_is_refused),
		cmocka_unit_test(group_lines_are_read_as_glibc_reads_them),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
