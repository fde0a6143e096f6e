/* Unit tests of what a refused policy's messages point at: the column of
 * a syntax error (syntax.c), as libconfig would stop there, and the
 * known key suggested for an unknown one (suggest.c).  No I/O. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "config.h"
#include "suggest.h"
#include "syntax.h"

/* The column each broken text's error line gets: the token libconfig
 * stops at, counted in bytes from 1. */
static void column_points_at_the_token_the_parse_stops_at(void **state)
{
	(void)state;
	/* a ";" where a value must be */
	assert_int_equal(dg_syntax_column("v = 1;\nr = ( ;\n", 2), 7);
	/* a bare word is a name, not a value */
	assert_int_equal(dg_syntax_column("a = ( { mode = drop; } );\n", 1),
			 16);
	/* two array elements without a comma; "x" "y" is one string */
	assert_int_equal(dg_syntax_column("r = ( \"x\" \"y\" );\n"
					  "d = [ 1 2 ];\n", 2),
			 9);
	/* a character no token starts with */
	assert_int_equal(dg_syntax_column("r = ( $ );\n", 1), 7);
	/* a list inside an array */
	assert_int_equal(dg_syntax_column("d = [ ( 1 ) ];\n", 1), 7);
	/* a missing "=" */
	assert_int_equal(dg_syntax_column("version 1;\n", 1), 9);
	/* bytes, not characters: "é" is two */
	assert_int_equal(dg_syntax_column("n = \"é\" ) ;\n", 1), 10);
	/* tabs count as one byte, comments are skipped */
	assert_int_equal(dg_syntax_column("/* a\n */ x =\t# c\n\t} ;\n", 3),
			 2);
}

/* Where the failing token is not on the line asked about, or there is
 * no syntax error, no column: better none than a wrong one. */
static void no_column_where_it_cannot_be_told(void **state)
{
	(void)state;
	assert_int_equal(dg_syntax_column("v = 1;\nr = ( ;\n", 1), 0);
	assert_int_equal(dg_syntax_column("v = 1;\nr = ( 1, 2 );\n", 2), 0);
	assert_int_equal(dg_syntax_column("r = ( 1,\n", 1), 0);
	assert_int_equal(dg_syntax_column("", 1), 0);
	/* a semicolon, a comma or nothing ends a setting */
	assert_int_equal(dg_syntax_column("a = 1, b = 2 c = { d = true; }\n",
					  1),
			 0);
}

/* Through the parser: libconfig's error gets the column, other errors
 * none (outside tests read their FILE:LINE: exactly). */
static void parse_error_carries_its_column(void **state)
{
	struct dg_config cfg = {0};
	struct dg_diags diags = {0};
	const struct dg_diag *e;

	(void)state;
	assert_int_equal(dg_config_parse(&cfg, "t.conf",
					 "version = 1;\nrestricting = ( ;\n",
					 DG_MAIN_FILE, &diags),
			 0);
	e = dg_diag_first_error(&diags);
	assert_non_null(e);
	assert_int_equal(e->line, 2);
	assert_int_equal(e->column, 17);
	dg_config_free(&cfg);
	dg_diag_free(&diags);

	assert_int_equal(dg_config_parse(&cfg, "t.conf",
					 "version = 1;\nrestricting = ( );\n"
					 "colour = 1;\n",
					 DG_MAIN_FILE, &diags),
			 0);
	e = dg_diag_first_error(&diags);
	assert_non_null(e);
	assert_int_equal(e->column, 0);
	dg_config_free(&cfg);
	dg_diag_free(&diags);
}

static void distance_counts_edits_and_swaps(void **state)
{
	(void)state;
	assert_int_equal(dg_suggest_distance("restricing", "restricting"), 1);
	assert_int_equal(dg_suggest_distance("dorp", "drop"), 1);
	assert_int_equal(dg_suggest_distance("", "keep"), 4);
	assert_int_equal(dg_suggest_distance("kitten", "sitting"), 3);
	assert_int_equal(dg_suggest_distance("same", "same"), 0);
}

static const char *nearest(const char *word)
{
	static const char *const keys[] = {"version", "restricting",
					   "include_dir", "rules", "name",
					   "services", "users", "drop",
					   "keep", "no_new_privs"};
	struct dg_suggest s;

	dg_suggest_init(&s, word);
	for (size_t i = 0; i < sizeof(keys) / sizeof(*keys); i++)
		dg_suggest_consider(&s, keys[i]);
	return s.best;
}

static void suggests_only_a_near_key(void **state)
{
	(void)state;
	assert_string_equal(nearest("restricing"), "restricting");
	assert_string_equal(nearest("servics"), "services");
	assert_string_equal(nearest("Version"), "version");
	assert_string_equal(nearest("no_new_priv"), "no_new_privs");
	assert_string_equal(nearest("kep"), "keep");
	assert_null(nearest("colour"));
	assert_null(nearest("bogus"));
	assert_null(nearest("x"));
	assert_null(nearest("restrict"));
}

/* The message says what was meant; the policy is refused as before. */
static void unknown_key_message_suggests(void **state)
{
	static const struct {
		const char *text, *message;
	} cases[] = {
		{"version = 1;\nrestricing = ( );\n",
		 "unknown key \"restricing\"; did you mean \"restricting\"?"},
		{"version = 1;\nrestricting = ( );\n"
		 "rules = ( { name = \"ssh\"; services = \"*\"; drop = 1; "
		 "no_new_priv = true; } );\n",
		 "unknown key \"no_new_priv\" in rule \"ssh\"; did you mean "
		 "\"no_new_privs\"?"},
		{"version = 1;\nrestricting = ( { nmae = \"g\"; "
		 "optional = true; } );\n",
		 "unknown key \"nmae\" in a restricting entry (only \"name\" "
		 "and \"optional\"); did you mean \"name\"?"},
		{"version = 1;\nrestricting = ( );\n"
		 "rules = ( { services = \"s\"; drop = 1; users = ( { name = "
		 "\"%g\"; optinal = true; } ); } );\n",
		 "unknown key \"optinal\" in a users entry (only \"name\" and "
		 "\"optional\"); did you mean \"optional\"?"},
		{"version = 1;\nrestricting = ( );\ncolour = 1;\n",
		 "unknown key \"colour\""},
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		struct dg_config cfg = {0};
		struct dg_diags diags = {0};
		const struct dg_diag *e;

		assert_int_equal(dg_config_parse(&cfg, "t.conf", cases[i].text,
						 DG_MAIN_FILE, &diags),
				 0);
		e = dg_diag_first_error(&diags);
		assert_non_null(e);
		assert_string_equal(e->message, cases[i].message);
		dg_config_free(&cfg);
		dg_diag_free(&diags);
	}
}

/* A drop-in may not set include_dir: it is not suggested there. */
static void suggests_no_key_out_of_place(void **state)
{
	struct dg_config cfg = {0};
	struct dg_diags diags = {0};
	const struct dg_diag *e;

	(void)state;
	assert_int_equal(dg_config_parse(&cfg, "t.conf",
					 "version = 1;\ninclude_dri = \"d\";\n",
					 DG_DROP_IN, &diags),
			 0);
	e = dg_diag_first_error(&diags);
	assert_non_null(e);
	assert_string_equal(e->message, "unknown key \"include_dri\"");
	dg_config_free(&cfg);
	dg_diag_free(&diags);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(column_points_at_the_token_the_parse_stops_at),
		cmocka_unit_test(no_column_where_it_cannot_be_told),
		cmocka_unit_test(parse_error_carries_its_column),
		cmocka_unit_test(distance_counts_edits_and_swaps),
		cmocka_unit_test(suggests_only_a_near_key),
		cmocka_unit_test(unknown_key_message_suggests),
		cmocka_unit_test(suggests_no_key_out_of_place),
	};

	return cmocka_run_group_tests_name("syntax", tests, NULL, NULL);
}
