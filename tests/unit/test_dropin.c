/* Unit tests of the drop-in of dropgroups audit --emit-dropin
 * (audit/dropin.c): from the groups found to the text the policy reads.
 * Which groups go in (those dropping would defeat, that have a gid),
 * each by gid with its name in the comment that says why it is there,
 * "(no name)" for a gid without one; and the write that refuses what is
 * not a regular file.  The rows are made up here: no NSS. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dropin.h"

#define HEADER                                                                 \
	"# Written by dropgroups audit: the groups this system uses\n"         \
	"# as negative credentials, which dropping would defeat.\n"            \
	"version = 1;\n"

static struct dg_group_row row(bool by_gid, gid_t gid, const char *name,
			       bool defeated)
{
	return (struct dg_group_row){.by_gid = by_gid, .gid = gid,
				     .name = (char *)name, .defeated = defeated};
}

/* The drop-in text of the n rows. */
static char *format(struct dg_group_row *rows, size_t n)
{
	struct dg_groups g = {.v = rows, .n = n};
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	assert_non_null(f);
	dg_dropin_format(f, &g);
	assert_int_equal(fclose(f), 0);
	return text;
}

static void no_group_is_an_empty_list(void **state)
{
	struct dg_group_row rows[] = {
		/* informational only: dropping does not defeat it */
		row(true, 44, "video", false),
	};
	char *text = format(rows, 1);

	(void)state;
	assert_string_equal(text, HEADER "restricting = ( );\n");
	free(text);
	text = format(NULL, 0);
	assert_string_equal(text, HEADER "restricting = ( );\n");
	free(text);
}

static void each_defeated_group_by_gid_with_its_name(void **state)
{
	struct dg_group_row rows[] = {
		row(true, 4242, NULL, true),
		row(true, 29, "audio", true),
		row(false, 0, "no-such-group", true), /* no gid: not listed */
		row(true, 2003, "games-abusers", true),
		row(true, 44, "video", false),
		row(true, 2147483648u, "big", true),
	};
	char *text = format(rows, 6);

	(void)state;
	assert_string_equal(text, HEADER "restricting = (\n"
					 "  4242, # (no name)\n"
					 "  29, # audio\n"
					 "  2003, # games-abusers\n"
					 "  2147483648L # big\n"
					 ");\n");
	free(text);
}

/* A name cannot end its comment early nor send a terminal sequence. */
static void control_characters_in_a_name_are_question_marks(void **state)
{
	struct dg_group_row rows[] = {
		row(true, 5000, "a\nb\x1b[0m\xc2\x9b" "c\x7f\xc3\xa9", true),
	};
	char *text = format(rows, 1);

	(void)state;
	assert_string_equal(text, HEADER "restricting = (\n"
					 "  5000 # a?b?[0m?c?\xc3\xa9\n"
					 ");\n");
	free(text);
}

static void the_write_replaces_a_file_and_refuses_a_link(void **state)
{
	char dir[] = "/tmp/dg-test-dropin.XXXXXX", *path, *link, *text, *cmd;
	struct dg_group_row rows[] = {row(true, 2003, "games-abusers", true)};
	struct dg_groups g = {.v = rows, .n = 1};
	struct dg_diags diags = {0};
	char buf[4096] = {0};
	FILE *f;

	(void)state;
	assert_non_null(mkdtemp(dir));
	assert_true(asprintf(&path, "%s/d.conf", dir) >= 0);
	assert_true(asprintf(&link, "%s/link.conf", dir) >= 0);
	assert_int_equal(dg_dropin_write(path, &g, &diags), 0);
	assert_non_null(f = fopen(path, "r"));
	assert_true(fread(buf, 1, sizeof(buf) - 1, f) > 0);
	fclose(f);
	text = format(rows, 1);
	assert_string_equal(buf, text);
	assert_int_equal(symlink(path, link), 0);
	assert_int_equal(dg_dropin_write(link, &g, &diags), -EINVAL);
	assert_int_equal(diags.n, 1);
	assert_string_equal(diags.v[0].file, link);
	assert_string_equal(diags.v[0].message, "not a regular file");
	dg_diag_free(&diags);
	assert_true(asprintf(&cmd, "rm -rf '%s'", dir) >= 0);
	assert_int_equal(system(cmd), 0);
	free(cmd);
	free(text);
	free(link);
	free(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(no_group_is_an_empty_list),
		cmocka_unit_test(each_defeated_group_by_gid_with_its_name),
		cmocka_unit_test(control_characters_in_a_name_are_question_marks),
		cmocka_unit_test(the_write_replaces_a_file_and_refuses_a_link),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
