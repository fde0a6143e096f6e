/* Unit tests of policy validation (config.c): every way a file can break
 * the schema, and the line each error points at.  No I/O, no NSS. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "config.h"
#include "util.h"

#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

struct parsed {
	struct dg_config cfg;
	struct dg_diags diags;
};

static void parse(struct parsed *p, const char *text, enum dg_file_role role)
{
	*p = (struct parsed){0};
	assert_int_equal(dg_config_parse(&p->cfg, "t.conf", text, role,
					 &p->diags),
			 0);
}

static void done(struct parsed *p)
{
	dg_config_free(&p->cfg);
	dg_diag_free(&p->diags);
}

/* The text must fail with an error at `line` whose message has `what`. */
static void expect_error_as(const char *text, enum dg_file_role role,
			    int line, const char *what)
{
	struct parsed p;
	const struct dg_diag *e;

	parse(&p, text, role);
	e = dg_diag_first_error(&p.diags);
	if (!e)
		fail_msg("no error for: %s", text);
	if (!strstr(e->message, what) || e->line != line)
		fail_msg("want line %d \"%s\", got %d \"%s\"", line, what,
			 e->line, e->message);
	assert_string_equal(e->file, "t.conf");
	done(&p);
}

static void expect_error(const char *text, int line, const char *what)
{
	expect_error_as(text, DG_MAIN_FILE, line, what);
}

#define HEAD "version = 1;\nrestricting = ( );\n"

static void valid_policy_parses(void **state)
{
	struct parsed p;
	struct dg_rule_src *r;

	(void)state;
	parse(&p,
	      "version = 1;\n"
	      "restricting = ( \"games-abusers\", 2003 );\n"
	      "include_dir = \"d\";\n"
	      "rules = (\n"
	      "  { name = \"ssh\"; services = [ \"sshd\", \"login\" ];\n"
	      "    users = [ \"alice\", \"%students\" ];\n"
	      "    drop = ( \"audio\", \"video\", 2004 ); no_new_privs = true; },\n"
	      "  { services = \"*\"; keep = \"users\"; }\n"
	      ");\n",
	      DG_MAIN_FILE);
	assert_false(dg_diag_failed(&p.diags));
	assert_int_equal(p.cfg.restricting.n, 2);
	assert_string_equal(p.cfg.restricting.v[0].name, "games-abusers");
	assert_null(p.cfg.restricting.v[1].name);
	assert_int_equal(p.cfg.restricting.v[1].gid, 2003);
	assert_string_equal(p.cfg.include_dir, "d");
	assert_int_equal(p.cfg.rules.n, 2);
	r = &p.cfg.rules.v[0];
	assert_string_equal(r->name, "ssh");
	assert_int_equal(r->line, 5);
	assert_int_equal(r->services.n, 2);
	assert_true(r->users_given);
	assert_int_equal(r->users.n, 2);
	assert_int_equal(r->mode, DG_MODE_DROP);
	assert_int_equal(r->groups.n, 3);
	assert_true(r->no_new_privs);
	r = &p.cfg.rules.v[1];
	assert_null(r->name);
	assert_false(r->users_given);
	assert_int_equal(r->mode, DG_MODE_KEEP);
	assert_false(r->no_new_privs);
	done(&p);
}

static void single_values_arrays_and_lists(void **state)
{
	struct parsed p;

	(void)state;
	parse(&p,
	      "version = 1; restricting = 7;\n"
	      "rules = ( { services = ( \"a\", \"b\" ); users = \"u\"; "
	      "drop = [ 1, 2 ]; } );\n",
	      DG_MAIN_FILE);
	assert_false(dg_diag_failed(&p.diags));
	assert_int_equal(p.cfg.restricting.n, 1);
	assert_int_equal(p.cfg.rules.v[0].services.n, 2);
	assert_int_equal(p.cfg.rules.v[0].users.n, 1);
	assert_int_equal(p.cfg.rules.v[0].groups.n, 2);
	done(&p);
}

static void syntax_error(void **state)
{
	(void)state;
	expect_error("version = 1;\nrestricting = ( ;\n", 2, "syntax error");
}

static void unknown_top_level_key(void **state)
{
	(void)state;
	expect_error(HEAD "colour = \"red\";\n", 3, "unknown key \"colour\"");
}

static void unknown_rule_key(void **state)
{
	(void)state;
	expect_error(HEAD "rules = ( { name = \"ssh\"; services = \"s\";\n"
			  " drop = 1; colour = 2; } );\n",
		     4, "unknown key \"colour\" in rule \"ssh\"");
}

static void wrong_types(void **state)
{
	(void)state;
	expect_error("version = \"1\";\nrestricting = ( );\n", 1,
		     "version must be a number");
	expect_error("version = 1;\nrestricting = { a = 1; };\n", 2,
		     "unknown key \"a\" in a restricting entry");
	expect_error("version = 1;\nrestricting = ( \"x\", [ 1 ] );\n", 2,
		     "restricting must be a group name or a gid");
	expect_error(HEAD "rules = ( { services = 5; drop = 1; } );\n", 3,
		     "services must be a string");
	expect_error(HEAD "rules = ( { services = \"s\"; drop = 1.5; } );\n", 3,
		     "drop must be a group name or a gid");
	expect_error(HEAD "rules = ( { services = \"s\"; keep = ( ( 1 ) ); } );\n",
		     3, "keep must be a group name or a gid");
	expect_error(HEAD "rules = ( { services = \"s\"; drop = 1;\n"
			  " no_new_privs = \"yes\"; } );\n",
		     4, "no_new_privs must be a boolean");
	expect_error(HEAD "rules = { a = 1; };\n", 3, "rules must be a list");
	expect_error(HEAD "rules = ( 5 );\n", 3, "each rule must be a group");
	expect_error(HEAD "rules = ( { name = 5; services = \"s\"; drop = 1; } );\n",
		     3, "name must be a string");
	expect_error("version = 1; restricting = ( );\ninclude_dir = 5;\n", 2,
		     "include_dir must be a string");
}

static void version_must_be_one(void **state)
{
	(void)state;
	expect_error("version = 2;\nrestricting = ( );\n", 1,
		     "version 2 is not supported");
	expect_error("restricting = ( );\n", 0,
		     "required setting \"version\" is missing");
}

static void restricting_required_in_main_file_only(void **state)
{
	struct parsed p;

	(void)state;
	expect_error("version = 1;\n", 0,
		     "required setting \"restricting\" is missing");
	parse(&p, "version = 1;\n", DG_DROP_IN);
	assert_false(dg_diag_failed(&p.diags));
	done(&p);
}

static void drop_and_keep_exclusive(void **state)
{
	(void)state;
	expect_error(HEAD "rules = (\n { services = \"s\"; drop = 1; keep = 2; } );\n",
		     4, "has both \"drop\" and \"keep\"");
	expect_error(HEAD "rules = (\n { services = \"s\"; } );\n", 4,
		     "has neither \"drop\" nor \"keep\"");
}

static void services_required(void **state)
{
	(void)state;
	expect_error(HEAD "rules = (\n { name = \"x\"; drop = 1; } );\n", 4,
		     "rule \"x\" has no \"services\"");
	expect_error(HEAD "rules = (\n { services = [ ]; drop = 1; } );\n", 4,
		     "\"services\" is empty");
	expect_error(HEAD "rules = (\n { services = \"\"; drop = 1; } );\n", 4,
		     "services has an empty string");
}

static void include_dir_only_in_main_file(void **state)
{
	(void)state;
	expect_error_as("version = 1;\ninclude_dir = \"x\";\n", DG_DROP_IN, 2,
			"include_dir is allowed only in the main file");
	expect_error("version = 1; restricting = ( );\ninclude_dir = \"\";\n", 2,
		     "include_dir is empty");
}

static void at_include_is_refused(void **state)
{
	(void)state;
	expect_error(HEAD "  @include \"/tmp/evil.conf\"\n", 3,
		     "@include is not allowed");
	expect_error_as("version = 1;\n@include \"x\"\n", DG_DROP_IN, 2,
			"@include is not allowed");
}

static void bad_gids_and_names(void **state)
{
	(void)state;
	expect_error("version = 1;\nrestricting = ( -1 );\n", 2,
		     "gid -1, which is out of range");
	expect_error("version = 1;\nrestricting = ( 4294967295L );\n", 2,
		     "out of range");
	expect_error("version = 1;\nrestricting = ( \"\" );\n", 2,
		     "empty group name");
}

/* Two strings with only blanks or comments between them are one to
 * libconfig ("audio" "video" is "audiovideo"): a missing comma, refused
 * where it is, never a rule that silently drops neither group.  The
 * baseline: with the comma, the text is valid. */
static void strings_side_by_side_are_refused(void **state)
{
	struct parsed p;

	(void)state;
	expect_error("version = 1;\nrestricting = ( );\nrules = ( { services = "
		     "\"su\"; drop = [ \"audio\" \"video\" ]; } );\n",
		     3, "two strings side by side");
	expect_error("version = 1;\nrestricting = ( \"a\" /* x */\n"
		     "  // y\n  \"b\" );\n",
		     4, "two strings side by side");
	parse(&p, "version = 1;\nrestricting = ( \"a\", \"b\" );\n",
	      DG_MAIN_FILE);
	assert_int_equal(p.diags.n, 0);
	assert_int_equal(p.cfg.restricting.n, 2);
	done(&p);
}

/* A text libconfig would read only in part is refused, by the scanner
 * (which names the line of the comment) and by the end-of-file setting
 * (which proves that libconfig stopped early). */
static void unterminated_comment_refuses_the_file(void **state)
{
	struct parsed p;

	(void)state;
	parse(&p, "version = 1;\n/* a comment\nrestricting = ( \"x\" );\n",
	      DG_DROP_IN);
	assert_int_equal(p.diags.n, 2);
	assert_int_equal(p.diags.v[0].line, 2);
	assert_non_null(strstr(p.diags.v[0].message, "never closed"));
	assert_int_equal(p.diags.v[1].line, 4);
	assert_non_null(strstr(p.diags.v[1].message,
			       "stopped reading before the end"));
	/* and nothing it hid was taken as policy */
	assert_int_equal(p.cfg.restricting.n, 0);
	done(&p);
	/* a closed comment is fine, whatever it holds */
	parse(&p, HEAD "/* restricting = ( \"x\" ); // \" */ # /*\n", DG_MAIN_FILE);
	assert_false(dg_diag_failed(&p.diags));
	done(&p);
	/* a comment marker inside a string is no comment */
	parse(&p, HEAD "rules = ( { services = \"/*\"; drop = 1; } );\n",
	      DG_MAIN_FILE);
	assert_false(dg_diag_failed(&p.diags));
	done(&p);
}

/* The end-of-file setting is named so that the text cannot hold it. */
static void a_file_naming_the_sentinel_still_parses(void **state)
{
	struct parsed p;

	(void)state;
	parse(&p, HEAD "# dropgroups_end_of_file_0\n", DG_MAIN_FILE);
	assert_false(dg_diag_failed(&p.diags));
	done(&p);
	expect_error(HEAD "dropgroups_end_of_file_0 = 1;\n", 3,
		     "unknown key \"dropgroups_end_of_file_0\"");
}

/* libconfig 1.5 keeps a number without an L suffix in a 32-bit int, and
 * a hex number through unsigned arithmetic: either would wrap silently. */
static void numbers_libconfig_would_wrap_are_refused(void **state)
{
	struct parsed p;

	(void)state;
	expect_error("version = 1;\nrestricting = ( 4294971397 );\n", 2,
		     "number 4294971397 is out of range");
	expect_error("version = 1;\nrestricting = ( 0x100001005 );\n", 2,
		     "number 0x100001005 is out of range");
	expect_error("version = 1;\nrestricting = ( 0xFFFFFFFF );\n", 2,
		     "out of range");
	expect_error("version = 4294967297;\nrestricting = ( );\n", 1,
		     "number 4294967297 is out of range");
	expect_error("version = 1;\nrestricting = ( 2147483648 );\n", 2,
		     "with an L suffix");
	expect_error("version = 1;\nrestricting = ( -2147483649 );\n", 2,
		     "out of range");
	expect_error("version = 1;\nrestricting = ( 99999999999999999999L );\n",
		     2, "out of range");
	expect_error("version = 1;\nrestricting = ( 0x10000000000001005L );\n",
		     2, "out of range");
	/* in range, and what libconfig then keeps exactly */
	parse(&p,
	      "version = 1;\nrestricting = ( 2147483647, 3000000000L, 0x7fffffff,"
	      " 0xFFFFFFFEL, 4294967294L );\n"
	      "rules = ( { name = \"a1-2\"; services = \"x\"; drop = -0.5; } );\n",
	      DG_MAIN_FILE);
	assert_int_equal(p.cfg.restricting.n, 5);
	assert_int_equal(p.cfg.restricting.v[1].gid, 3000000000u);
	assert_int_equal(p.cfg.restricting.v[3].gid, 4294967294u);
	/* (the float is a type error, not a range error) */
	assert_int_equal(p.diags.n, 1);
	assert_non_null(strstr(p.diags.v[0].message, "drop must be"));
	done(&p);
}

static void optional_restricting_entries(void **state)
{
	struct parsed p;

	(void)state;
	parse(&p,
	      "version = 1;\nrestricting = ( \"a\", { name = \"b\"; optional = true; },\n"
	      "  { name = \"c\"; optional = false; } );\n",
	      DG_MAIN_FILE);
	assert_false(dg_diag_failed(&p.diags));
	assert_int_equal(p.cfg.restricting.n, 3);
	assert_false(p.cfg.restricting.v[0].optional);
	assert_string_equal(p.cfg.restricting.v[1].name, "b");
	assert_true(p.cfg.restricting.v[1].optional);
	assert_false(p.cfg.restricting.v[2].optional);
	done(&p);
	expect_error("version = 1;\nrestricting = ( { optional = true; } );\n", 2,
		     "needs name");
	expect_error("version = 1;\nrestricting = ( { name = \"b\"; } );\n", 2,
		     "needs optional");
	expect_error(HEAD "rules = ( { services = \"s\";\n"
			  " drop = ( { name = \"b\"; optional = true; } ); } );\n",
		     4, "drop must be a group name or a gid");
	expect_error("version = 1;\nrestricting = \"*\";\n", 2,
		     "\"*\" is not allowed in restricting");
}

/* A "%group" of users may be written optional; nothing else may, and
 * not a name written a second time without it. */
static void optional_percent_group_entries(void **state)
{
	struct parsed p;

	(void)state;
	parse(&p,
	      HEAD "rules = ( { services = \"s\"; drop = 1;\n"
	      "  users = ( \"alice\", { name = \"%g\"; optional = true; }, \"%h\" ); } );\n",
	      DG_MAIN_FILE);
	assert_false(dg_diag_failed(&p.diags));
	assert_int_equal(p.cfg.rules.v[0].users.n, 3);
	assert_string_equal(p.cfg.rules.v[0].users.v[1], "%g");
	assert_int_equal(p.cfg.rules.v[0].users_optional.n, 1);
	assert_string_equal(p.cfg.rules.v[0].users_optional.v[0], "%g");
	done(&p);
	expect_error(HEAD "rules = ( { services = \"s\"; drop = 1;\n"
			  "  users = ( { name = \"alice\"; optional = true; } ); } );\n",
		     4, "only a \"%group\" entry of users can be optional");
	expect_error(HEAD "rules = ( { services = \"s\"; drop = 1;\n"
			  "  users = ( { name = \"%\"; optional = true; } ); } );\n",
		     4, "only a \"%group\" entry of users can be optional");
	expect_error(HEAD "rules = ( { services = \"s\"; drop = 1;\n"
			  "  users = ( \"%g\", { name = \"%g\"; optional = true; } ); } );\n",
		     4, "\"%g\" is in users of rule 1 more than once, once as optional");
	expect_error(HEAD "rules = ( { services = \"s\"; drop = 1;\n"
			  "  users = ( { name = \"%g\"; colour = 1; optional = true; } ); } );\n",
		     4, "unknown key \"colour\" in a users entry");
}

static void warnings_for_names_that_mislead(void **state)
{
	struct parsed p;

	(void)state;
	parse(&p,
	      "version = 1;\nrestricting = ( \"2003\" );\n"
	      "rules = ( { name = \"r\"; services = [ \"SSHD\", \"su\" ]; drop = 1; } );\n",
	      DG_MAIN_FILE);
	assert_false(dg_diag_failed(&p.diags));
	assert_int_equal(p.diags.n, 2);
	assert_int_equal(p.diags.v[0].line, 2);
	assert_non_null(strstr(p.diags.v[0].message,
			       "a name made of digits; for gid 2003 write it "
			       "without quotes"));
	assert_int_equal(p.diags.v[1].line, 3);
	assert_non_null(strstr(p.diags.v[1].message,
			       "service \"SSHD\" in rule \"r\" has upper-case "
			       "letters"));
	done(&p);
}

/* A terminal prints what follows a lone carriage return over what comes
 * before it: the restricting list below would look set, and be a comment. */
static void text_that_does_not_show_as_read_is_refused(void **state)
{
	struct parsed p;

	(void)state;
	expect_error("version = 1;\nrestricting = ( ); # TODO\rrestricting = ( \"g\" );\n",
		     2, "control character 0x0d");
	expect_error("version = 1;\nrestricting = ( );\n# \x1b[2K\n", 3,
		     "control character 0x1b");
	expect_error("version = 1;\nrestricting = ( ); # \xe2\x80\xae );\n", 2,
		     "bidirectional control");
	/* CRLF line ends and tabs are fine */
	parse(&p, "version = 1;\r\nrestricting =\t( );\r\n", DG_MAIN_FILE);
	assert_false(dg_diag_failed(&p.diags));
	done(&p);
}

static void empty_users_warns(void **state)
{
	struct parsed p;

	(void)state;
	parse(&p, HEAD "rules = ( { services = \"s\"; users = [ ]; drop = 1; } );\n",
	      DG_MAIN_FILE);
	assert_false(dg_diag_failed(&p.diags));
	assert_int_equal(p.diags.n, 1);
	assert_int_equal(p.diags.v[0].severity, DG_WARNING);
	done(&p);
}

static void rules_append_across_files(void **state)
{
	struct parsed p;

	(void)state;
	parse(&p, HEAD "rules = ( { services = \"a\"; drop = 1; } );\n",
	      DG_MAIN_FILE);
	assert_int_equal(dg_config_parse(&p.cfg, "d.conf",
					 "version = 1; restricting = 9;\n"
					 "rules = ( { services = \"b\"; keep = 2; } );\n",
					 DG_DROP_IN, &p.diags),
			 0);
	assert_false(dg_diag_failed(&p.diags));
	assert_int_equal(p.cfg.rules.n, 2);
	assert_string_equal(p.cfg.rules.v[1].file, "d.conf");
	assert_int_equal(p.cfg.restricting.n, 1);
	done(&p);
}

/* Every byte a policy file can hold, one class at a time: each C0 control
 * but tab (and CR before LF), DEL, the C1 controls in UTF-8, every
 * bidirectional control, a carriage return as the very last byte, and
 * text after the last newline; bytes that are not UTF-8 are libconfig's
 * to read (a group name in another encoding). */
static void every_control_byte_is_refused(void **state)
{
	char text[64], want[32];

	(void)state;
	for (unsigned b = 1; b < 0x20; b++) {
		if (b == '\t' || b == '\n')
			continue;
		snprintf(text, sizeof(text),
			 "version = 1;\nrestricting = ( ); #%c x\n", (char)b);
		snprintf(want, sizeof(want), "control character 0x%02x", b);
		expect_error(text, 2, want);
	}
	expect_error("version = 1;\nrestricting = ( ); # \x7f\n", 2,
		     "control character 0x7f");
	/* a form feed shows as a new line: this looks like a setting */
	expect_error("version = 1;\nrestricting = ( ); # TODO\f"
		     "restricting = ( \"g\" );\n",
		     2, "control character 0x0c");
	/* a carriage return that ends the file ends no line */
	expect_error("version = 1;\nrestricting = ( );\r", 2,
		     "control character 0x0d");
}

static void c1_controls_are_refused(void **state)
{
	(void)state;
	/* U+0085, next line: a terminal shows the rest as a line of its own */
	expect_error("version = 1;\nrestricting = ( ); # TODO\xc2\x85"
		     "restricting = ( \"g\" );\n",
		     2, "control character U+0085");
	/* U+009B, CSI: "\x9b" "2K" erases the line it is on */
	expect_error("version = 1;\n# \xc2\x9b" "2K\nrestricting = ( );\n", 2,
		     "control character U+009B");
	expect_error("version = 1;\nrestricting = ( \"\xc2\x80\" );\n", 2,
		     "control character U+0080");
	expect_error("version = 1;\nrestricting = ( \"\xc2\x9f\" );\n", 2,
		     "control character U+009F");
}

static void every_bidirectional_control_is_refused(void **state)
{
	static const char *const bidi[] = {
		"\xe2\x80\x8e", "\xe2\x80\x8f", "\xe2\x80\xaa", "\xe2\x80\xab",
		"\xe2\x80\xac", "\xe2\x80\xad", "\xe2\x80\xae", "\xe2\x81\xa6",
		"\xe2\x81\xa7", "\xe2\x81\xa8", "\xe2\x81\xa9", "\xd8\x9c",
	};
	char text[64];

	(void)state;
	for (size_t i = 0; i < sizeof(bidi) / sizeof(*bidi); i++) {
		snprintf(text, sizeof(text),
			 "version = 1;\nrestricting = ( ); # %s );\n", bidi[i]);
		expect_error(text, 2, "bidirectional control");
	}
}

static void bytes_that_are_not_utf8_are_read(void **state)
{
	struct parsed p;

	(void)state;
	/* Latin-1, a lone lead byte, a byte just past the C1 range, and a
	 * cut bidi control at the very end, after the last newline */
	parse(&p,
	      "version = 1;\nrestricting = ( \"gr\xfcn\", \"\xe2\", \"\xc2\xa0\" );"
	      "\n# \xe2\x80",
	      DG_MAIN_FILE);
	assert_false(dg_diag_failed(&p.diags));
	assert_int_equal(p.cfg.restricting.n, 3);
	assert_string_equal(p.cfg.restricting.v[0].name, "gr\xfcn");
	done(&p);
}

/* libconfig reads @include on a last line without a newline too. */
static void at_include_on_the_last_line_is_refused(void **state)
{
	(void)state;
	expect_error(HEAD "@include \"/tmp/evil.conf\"", 3,
		     "@include is not allowed");
}

/* A file whose first read answers short with every byte fstat counted
 * is not taken as read whole: some file systems (FUSE with direct_io, 9p,
 * network ones) answer short or stat a size that is not the file's, and
 * /etc/group cut mid-line names a gid wrongly.  A pipe stands in for
 * such a file: 12 bytes, a pause, 27 more, with a stat that says 12. */
static void a_short_read_of_the_stat_size_is_not_the_end(void **state)
{
	static const char first[] = "staff:x:200:", rest[] = "3:\ngames-abusers:x:200:bob\n";
	struct stat st = {.st_mode = S_IFREG | 0644, .st_size = 12};
	char *text = NULL;
	size_t len = 0;
	int fds[2];
	pid_t pid;

	(void)state;
	assert_int_equal(pipe(fds), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		close(fds[0]);
		if (write(fds[1], first, 12) != 12)
			_exit(1);
		usleep(100 * 1000);
		if (write(fds[1], rest, sizeof(rest) - 1) != (ssize_t)sizeof(rest) - 1)
			_exit(1);
		_exit(0);
	}
	close(fds[1]);
	assert_int_equal(dg_util_read_stat(fds[0], &st, 1 << 20, &text, &len), 0);
	close(fds[0]);
	waitpid(pid, NULL, 0);
	assert_int_equal(len, 12 + sizeof(rest) - 1);
	assert_memory_equal(text, first, 12);
	free(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(valid_policy_parses),
		cmocka_unit_test(single_values_arrays_and_lists),
		cmocka_unit_test(syntax_error),
		cmocka_unit_test(unknown_top_level_key),
		cmocka_unit_test(unknown_rule_key),
		cmocka_unit_test(wrong_types),
		cmocka_unit_test(version_must_be_one),
		cmocka_unit_test(restricting_required_in_main_file_only),
		cmocka_unit_test(drop_and_keep_exclusive),
		cmocka_unit_test(services_required),
		cmocka_unit_test(include_dir_only_in_main_file),
		cmocka_unit_test(at_include_is_refused),
		cmocka_unit_test(every_control_byte_is_refused),
		cmocka_unit_test(c1_controls_are_refused),
		cmocka_unit_test(every_bidirectional_control_is_refused),
		cmocka_unit_test(bytes_that_are_not_utf8_are_read),
		cmocka_unit_test(at_include_on_the_last_line_is_refused),
		cmocka_unit_test(bad_gids_and_names),
		cmocka_unit_test(unterminated_comment_refuses_the_file),
		cmocka_unit_test(strings_side_by_side_are_refused),
		cmocka_unit_test(a_file_naming_the_sentinel_still_parses),
		cmocka_unit_test(numbers_libconfig_would_wrap_are_refused),
		cmocka_unit_test(optional_restricting_entries),
		cmocka_unit_test(optional_percent_group_entries),
		cmocka_unit_test(warnings_for_names_that_mislead),
		cmocka_unit_test(text_that_does_not_show_as_read_is_refused),
		cmocka_unit_test(empty_users_warns),
		cmocka_unit_test(rules_append_across_files),
		cmocka_unit_test(a_short_read_of_the_stat_size_is_not_the_end),
	};

	return cmocka_run_group_tests_name("config", tests, NULL, NULL);
}
