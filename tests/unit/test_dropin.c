/* Unit tests of the drop-in of dropgroups audit --emit-dropin
 * (audit/dropin.c): from the groups found to the text the policy reads.
 * Which groups go in (those dropping would defeat): each gid found, and
 * each name once, as optional, so that the policy's by-name rule keeps a
 * gid the audit never saw without making logins wait on the name; a
 * name that cannot be written goes by gid alone; each entry with a
 * comment that says why it is there.  The text must read back, through the
 * policy's own parser, as those names and gids.  The rows are made up
 * here: no NSS. */
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

#include "config.h"
#include "dropin.h"

#define HEADER                                                                 \
	"# Written by dropgroups audit: the groups this system uses\n"         \
	"# as negative credentials, which dropping would defeat: each\n"       \
	"# gid found, and each name, so that every gid of the name is\n"       \
	"# kept too.\n"                                                         \
	"version = 1;\n"
#define OTHER_GIDS                                                             \
	"every other gid of the name, which a directory may hold without "     \
	"listing it"

static struct dg_evidence where_mode = {.kind = DG_EV_MODE,
					 .where = "/srv/games"};
static struct dg_evidence where_sudoers = {.kind = DG_EV_SUDOERS,
					    .where = "/etc/sudoers:3"};

/* A row with one piece of evidence of kind (DG_EV_MODE or _SUDOERS). */
static struct dg_group_row row(bool by_gid, gid_t gid, const char *name,
			       bool defeated, enum dg_ev_kind kind)
{
	struct dg_group_row r = {.by_gid = by_gid, .gid = gid,
				 .name = (char *)name, .defeated = defeated,
				 .count = 1};

	r.ev = kind == DG_EV_MODE ? &where_mode : &where_sudoers;
	r.counts[kind] = 1;
	return r;
}

/* The drop-in text of the n rows. */
static char *format(struct dg_group_row *rows, size_t n)
{
	struct dg_groups g = {.v = rows, .n = n};
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	assert_non_null(f);
	assert_int_equal(dg_dropin_format(f, &g), 0);
	assert_int_equal(fclose(f), 0);
	return text;
}

static void no_group_is_an_empty_list(void **state)
{
	struct dg_group_row rows[] = {
		/* informational only: dropping does not defeat it */
		row(true, 44, "video", false, DG_EV_SSHD),
	};
	char *text = format(rows, 1);

	(void)state;
	assert_string_equal(text, HEADER "restricting = ( );\n");
	free(text);
	text = format(NULL, 0);
	assert_string_equal(text, HEADER "restricting = ( );\n");
	free(text);
}

static void each_gid_and_each_name_once(void **state)
{
	struct dg_group_row rows[] = {
		row(true, 4242, NULL, true, DG_EV_MODE),
		row(true, 2147483648u, NULL, true, DG_EV_MODE),
		row(true, 29, "audio", true, DG_EV_MODE),
		/* a local group and a directory's, one name */
		row(true, 2003, "games-abusers", true, DG_EV_MODE),
		row(true, 2005, "games-abusers", true, DG_EV_SUDOERS),
		/* sudoers excludes it, and no group has it yet */
		row(false, 0, "no-such-group", true, DG_EV_SUDOERS),
		row(true, 44, "video", false, DG_EV_SSHD),
	};
	char *text = format(rows, 7);

	(void)state;
	assert_string_equal(
		text,
		HEADER "restricting = (\n"
		       "  4242, # (no name): mode 1; e.g. /srv/games\n"
		       "  2147483648L, # (no name): mode 1; e.g. /srv/games\n"
		       "  29, # audio: mode 1; e.g. /srv/games\n"
		       "  { name = \"audio\"; optional = true; }, # " OTHER_GIDS "\n"
		       "  2003, # games-abusers: mode 1; e.g. /srv/games\n"
		       "  2005, # games-abusers: sudoers 1; e.g. /etc/sudoers:3\n"
		       "  { name = \"games-abusers\"; optional = true; }, # " OTHER_GIDS "\n"
		       "  { name = \"no-such-group\"; optional = true; } # no group has this name now: sudoers 1; e.g. /etc/sudoers:3\n"
		       ");\n");
	free(text);
}

/* A name with a control character cannot be written (the policy refuses
 * one anywhere): only its gid goes in.  '"' and '\' are escaped.  A name
 * or a place cannot end its comment early nor send a terminal sequence. */
static void names_the_policy_cannot_read_go_by_gid_alone(void **state)
{
	struct dg_evidence odd = {.kind = DG_EV_MODE,
				  .where = "/srv/a\nb\x1b[0m\xc2\x9b" "c\x7f\xc3\xa9"};
	struct dg_group_row rows[] = {
		row(true, 5000, "a\nb", true, DG_EV_MODE),
		row(true, 5001, "DOM\\games \"x\"", true, DG_EV_MODE),
	};
	char *text;

	(void)state;
	rows[0].ev = &odd;
	text = format(rows, 2);
	assert_string_equal(
		text,
		HEADER "restricting = (\n"
		       "  5000, # a?b (a name with a control character): mode 1; e.g. /srv/a?b?[0m?c?\xc3\xa9\n"
		       "  5001, # DOM\\games \"x\": mode 1; e.g. /srv/games\n"
		       "  { name = \"DOM\\\\games \\\"x\\\"\"; optional = true; } # " OTHER_GIDS "\n"
		       ");\n");
	free(text);
}

/* What the policy's own parser reads from the text: each name as it
 * is, a gid as a gid, the optional one optional. */
static void the_policy_reads_back_what_was_found(void **state)
{
	struct dg_group_row rows[] = {
		row(true, 2147483648u, NULL, true, DG_EV_MODE),
		row(true, 5001, "DOM\\games \"x\"", true, DG_EV_MODE),
		row(true, 2003, "games-abusers", true, DG_EV_MODE),
		row(true, 2005, "games-abusers", true, DG_EV_MODE),
		row(false, 0, "no-such-group", true, DG_EV_SUDOERS),
	};
	char *text = format(rows, 5);
	struct dg_config cfg = {0};
	struct dg_diags diags = {0};
	const struct dg_group_ref *v;

	(void)state;
	assert_int_equal(dg_config_parse(&cfg, "d.conf", text, DG_DROP_IN,
					 &diags),
			 0);
	assert_int_equal(diags.n, 0);
	assert_int_equal(cfg.restricting.n, 7);
	v = cfg.restricting.v;
	assert_null(v[0].name);
	assert_int_equal(v[0].gid, 2147483648u);
	assert_null(v[1].name);
	assert_int_equal(v[1].gid, 5001);
	assert_string_equal(v[2].name, "DOM\\games \"x\"");
	assert_true(v[2].optional);
	assert_int_equal(v[3].gid, 2003);
	assert_int_equal(v[4].gid, 2005);
	assert_string_equal(v[5].name, "games-abusers");
	assert_true(v[5].optional);
	assert_string_equal(v[6].name, "no-such-group");
	assert_true(v[6].optional);
	dg_config_free(&cfg);
	dg_diag_free(&diags);
	free(text);
}

static void the_write_replaces_a_file_and_refuses_a_link(void **state)
{
	char dir[] = "/tmp/dg-test-dropin.XXXXXX", *path, *link, *text, *cmd;
	struct dg_group_row rows[] = {
		row(true, 2003, "games-abusers", true, DG_EV_MODE),
	};
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
		cmocka_unit_test(each_gid_and_each_name_once),
		cmocka_unit_test(names_the_policy_cannot_read_go_by_gid_alone),
		cmocka_unit_test(the_policy_reads_back_what_was_found),
		cmocka_unit_test(the_write_replaces_a_file_and_refuses_a_link),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
