/* Unit tests of the sudoers reader of dropgroups audit (audit/sudoers.c):
 * which %groups a sudoers excludes, through aliases, includes, line
 * continuations and comments, and what a file that cannot be read
 * returns.  Each test writes its files in a directory of its own
 * (mkdtemp), removed at the end. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sudoconf.h"
#include "sudoers.h"

struct fixture {
	char dir[64];
	struct dg_evidence_store ev;
	struct dg_diags diags;
};

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));

	if (!f)
		return -1;
	strcpy(f->dir, "/tmp/dg-test-sudoers.XXXXXX");
	if (!mkdtemp(f->dir)) {
		free(f);
		return -1;
	}
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;
	char *cmd;

	dg_evidence_free(&f->ev);
	dg_diag_free(&f->diags);
	if (asprintf(&cmd, "rm -rf '%s'", f->dir) >= 0) {
		if (system(cmd) != 0)
			fprintf(stderr, "could not remove %s\n", f->dir);
		free(cmd);
	}
	free(f);
	return 0;
}

/* dir/name, a new string. */
static char *path_of(const struct fixture *f, const char *name)
{
	char *p;

	assert_true(asprintf(&p, "%s/%s", f->dir, name) >= 0);
	return p;
}

/* Write text to dir/name; its path. */
static char *write_file(const struct fixture *f, const char *name,
			const char *text)
{
	char *p = path_of(f, name);
	FILE *fp = fopen(p, "w");

	assert_non_null(fp);
	assert_int_equal(fputs(text, fp) >= 0, 1);
	assert_int_equal(fclose(fp), 0);
	return p;
}

static int read_one_as(struct fixture *f, const char *path,
		       const char *shost)
{
	const char *paths[] = {path};
	struct dg_sudoers_how how = {.explicit = true, .shost = shost};

	return dg_sudoers_read(paths, 1, &how, &f->ev, &f->diags);
}

static int read_one(struct fixture *f, const char *path)
{
	return read_one_as(f, path, "xerxes");
}

/* Is there evidence of the named group at path:line? */
static bool has(const struct fixture *f, const char *name, const char *path,
		int line)
{
	char *where;
	bool found = false;

	assert_true(asprintf(&where, "%s:%d", path, line) >= 0);
	for (size_t i = 0; i < f->ev.n; i++)
		if (f->ev.v[i].kind == DG_EV_SUDOERS && f->ev.v[i].name &&
		    !strcmp(f->ev.v[i].name, name) && !strcmp(f->ev.v[i].where, where))
			found = true;
	free(where);
	return found;
}

static void an_excluded_group_and_its_decoys(void **state)
{
	struct fixture *f = *state;
	char *p = write_file(f, "sudoers",
			     "Defaults env_reset\n"
			     "%video ALL=(ALL) ALL\n"
			     "ALL, !!%audio ALL=(ALL) ALL\n"
			     "ALL, !%plugdev ALL=(ALL) ALL\n"
			     "alice ALL = (ALL, !%dialout : !%cdrom) ALL\n"
			     "Defaults:ALL, !%students log_output\n"
			     "ALL, !%#29 ALL=(ALL) ALL\n");

	assert_int_equal(read_one(f, p), 0);
	assert_int_equal(f->diags.n, 0);
	assert_true(has(f, "plugdev", p, 4));
	assert_true(has(f, "dialout", p, 5));
	assert_true(has(f, "students", p, 6));
	/* %#gid: by gid, no name */
	assert_int_equal(f->ev.n, 4);
	assert_true(f->ev.v[3].by_gid);
	assert_int_equal(f->ev.v[3].gid, 29);
	assert_null(f->ev.v[3].name);
	free(p);
}

static void aliases_expand_to_their_members(void **state)
{
	struct fixture *f = *state;
	char *p = write_file(f, "sudoers",
			     "User_Alias ABUSERS = %games-abusers, bob\n"
			     "Runas_Alias NOTSTUDENTS = ALL, !%students\n"
			     "Host_Alias FOO = localhost\n"
			     "User_Alias FOO = ALL, !%users : BAR = ABUSERS\n"
			     "Cmnd_Alias ABUSERS = /bin/sh\n"
			     "ALL, !ABUSERS ALL=(ALL) ALL\n"
			     "alice ALL = (NOTSTUDENTS) /usr/bin/id\n"
			     "FOO ALL=(ALL) ALL\n"
			     "BAR ALL=(ALL) ALL\n");

	assert_int_equal(read_one(f, p), 0);
	assert_true(has(f, "games-abusers", p, 6));
	assert_true(has(f, "students", p, 7));
	assert_true(has(f, "users", p, 8));
	/* BAR = ABUSERS, not excluded: games-abusers is allowed there */
	assert_false(has(f, "games-abusers", p, 9));
	assert_int_equal(f->ev.n, 3);
	free(p);
}

static void an_alias_loop_is_an_error_with_its_line(void **state)
{
	struct fixture *f = *state;
	char *p = write_file(f, "sudoers",
			     "User_Alias L = L, !%staff\n"
			     "L ALL=ALL\n");

	assert_int_equal(read_one(f, p), -ELOOP);
	assert_int_equal(f->diags.n, 1);
	assert_string_equal(f->diags.v[0].file, p);
	assert_int_equal(f->diags.v[0].line, 2);
	assert_string_equal(f->diags.v[0].message,
			    "aliases nested too deep (a loop?); L is not expanded");
	assert_true(has(f, "staff", p, 2));
	free(p);
}

/* An alias defined twice (sudo keeps one; which one, the reader cannot
 * tell, so it expands both) in a loop doubles at each of the 32 levels
 * the expansion budget allows: one group at one line is one place, not
 * tens of thousands (fuzz_sudoers found it). */
static void an_alias_named_many_times_is_one_place(void **state)
{
	struct fixture *f = *state;
	char *p = write_file(f, "sudoers",
			     "User_Alias A = B, !%staff\n"
			     "User_Alias B = A\n"
			     "User_Alias A = B, !%#29\n"
			     "User_Alias B = A\n"
			     "A ALL=ALL\n"
			     "ALL, !%video, !%video ALL=(ALL, !%video) ALL\n");

	assert_int_equal(read_one(f, p), -ELOOP);
	assert_true(has(f, "staff", p, 5));
	assert_true(has(f, "video", p, 6));
	/* staff, gid 29, video */
	assert_int_equal(f->ev.n, 3);
	free(p);
}

static void includes_and_include_directories(void **state)
{
	struct fixture *f = *state;
	char *d = path_of(f, "sudoers.d"), *main_file, *inc, *at, *in_dir, *cmd;

	assert_int_equal(mkdir(d, 0755), 0);
	inc = write_file(f, "hash-included", "ALL, !%audio ALL=(ALL) ALL\n");
	at = write_file(f, "at-included", "ALL, !%video ALL=(ALL) ALL\n");
	in_dir = write_file(f, "sudoers.d/10-x", "ALL, !%users ALL=(ALL) ALL\n");
	/* sudo skips a name with a '.' or ending in ~ */
	free(write_file(f, "sudoers.d/skipped.conf", "ALL, !%tape ALL=(ALL) ALL\n"));
	free(write_file(f, "sudoers.d/skipped~", "ALL, !%tape ALL=(ALL) ALL\n"));
	assert_true(asprintf(&cmd, "#include hash-included\n"
				   "@include \"%s\"\n"
				   "@includedir %s\n"
				   "#includes follow: a comment, !%%floppy\n",
			     at, d) >= 0);
	main_file = write_file(f, "sudoers", cmd);
	assert_int_equal(read_one(f, main_file), 0);
	assert_int_equal(f->diags.n, 0);
	assert_true(has(f, "audio", inc, 1));
	assert_true(has(f, "video", at, 1));
	assert_true(has(f, "users", in_dir, 1));
	assert_int_equal(f->ev.n, 3);
	free(cmd);
	free(main_file);
	free(inc);
	free(at);
	free(in_dir);
	free(d);
}

/* sudo 1.9 replaces "%h" in an include's path, of a file or of a
 * directory, by the short host name; any other "%" stays. */
static void an_include_path_names_the_host(void **state)
{
	struct fixture *f = *state;
	char *d = path_of(f, "sudoers.xerxes.d"), *main_file, *inc, *in_dir;
	char *lit, *cmd;

	assert_int_equal(mkdir(d, 0755), 0);
	inc = write_file(f, "sudoers.xerxes", "ALL, !%audio ALL=(ALL) ALL\n");
	in_dir = write_file(f, "sudoers.xerxes.d/10-x",
			    "ALL, !%users ALL=(ALL) ALL\n");
	lit = write_file(f, "100%x", "ALL, !%video ALL=(ALL) ALL\n");
	assert_true(asprintf(&cmd, "@include sudoers.%%h\n"
				   "#includedir %s/sudoers.%%h.d\n"
				   "@include 100%%x\n",
			     f->dir) >= 0);
	main_file = write_file(f, "sudoers", cmd);
	assert_int_equal(read_one(f, main_file), 0);
	assert_int_equal(f->diags.n, 0);
	assert_true(has(f, "audio", inc, 1));
	assert_true(has(f, "users", in_dir, 1));
	assert_true(has(f, "video", lit, 1));
	assert_int_equal(f->ev.n, 3);
	/* no host name known: an error that names the line, not a file
	 * called "sudoers.%h" quietly missing */
	dg_evidence_free(&f->ev);
	assert_int_equal(read_one_as(f, main_file, NULL), -EINVAL);
	assert_true(f->diags.n >= 1);
	assert_int_equal(f->diags.v[0].line, 1);
	assert_non_null(strstr(f->diags.v[0].message, "%h"));
	free(cmd);
	free(main_file);
	free(inc);
	free(in_dir);
	free(lit);
	free(d);
}

static void continuations_and_comments(void **state)
{
	struct fixture *f = *state;
	char *p = write_file(f, "sudoers",
			     "# a comment: ALL, !%audio ALL=(ALL) ALL\n"
			     "ALL, ! %users, \\\n"
			     "  !%tape ALL=(ALL) ALL # and !%nope\n"
			     "ALL, !\"%vi deo\", !%vid\\x65o ALL=(ALL) ALL\n");

	assert_int_equal(read_one(f, p), 0);
	/* a continued rule is where it starts */
	assert_true(has(f, "users", p, 2));
	assert_true(has(f, "tape", p, 2));
	assert_true(has(f, "vi deo", p, 4));
	assert_true(has(f, "video", p, 4));
	assert_int_equal(f->ev.n, 4);
	free(p);
}

/* Lines as sudo's lexer reads them (sudolex.c): each of these once hid
 * a group sudo excludes, or read a file sudo does not. */
static void lines_as_sudo_s_lexer_reads_them(void **state)
{
	struct fixture *f = *state;
	char *inc = write_file(f, "inc", "ALL, !%wheel ALL=(ALL) ALL\n"), *p;
	char *text;

	assert_true(asprintf(&text,
			     "# a comment ends at its newline \\\n"
			     "ALL, !%%audio ALL=(ALL) ALL\n"
			     "User_Alias A = bob, \\  \r\n"
			     "  %%tape\n"
			     "ALL, !A ALL=(ALL) ALL\n"
			     "ALL, !#-1, !%%users ALL=(ALL) ALL\n"
			     "ALL, !\"bo#b\", !%%plugdev ALL=(ALL) ALL\n"
			     " #include %s\n"
			     "#include\"%s\"\n"
			     "\t#includedir %s\n",
			     inc, inc, f->dir) >= 0);
	p = write_file(f, "sudoers", text);
	free(text);
	assert_int_equal(read_one(f, p), 0);
	assert_int_equal(f->diags.n, 0);
	assert_true(has(f, "audio", p, 2));
	assert_true(has(f, "tape", p, 5));
	assert_true(has(f, "users", p, 6));
	assert_true(has(f, "plugdev", p, 7));
	/* "#include" after a blank, or before a quote, is a comment */
	assert_int_equal(f->ev.n, 4);
	free(inc);
	free(p);
}

/* The sudoers file sudo.conf names, as sudo 1.9 reads sudo.conf: the
 * first sudoers_policy line, its last sudoers_file=; a '#' anywhere is a
 * comment, a trailing backslash continues; another plugin is an error. */
static void sudo_conf_names_the_sudoers_file(void **state)
{
	struct fixture *f = *state;
	char *file = NULL;

	assert_int_equal(dg_sudoconf_parse("Path askpass /x\n", "c", &file,
					   &f->diags), 0);
	assert_string_equal(file, "/etc/sudoers");
	free(file);
	assert_int_equal(dg_sudoconf_parse(
				 "# Plugin sudoers_policy sudoers.so sudoers_file=/a\n"
				 "Plugin sudoers_io sudoers.so sudoers_file=/b\n"
				 " PLUGIN\tsudoers_policy sudoers.so \\\n"
				 "   sudoers_file=/c sudoers_file=/d#x\n"
				 "Plugin sudoers_policy sudoers.so sudoers_file=/e\n",
				 "c", &file, &f->diags),
			 0);
	assert_string_equal(file, "/d");
	free(file);
	assert_int_equal(f->diags.n, 0);
	assert_int_equal(dg_sudoconf_parse("\n\nPlugin approval x.so\n", "c",
					   &file, &f->diags),
			 -EINVAL);
	assert_int_equal(f->diags.n, 1);
	assert_int_equal(f->diags.v[0].line, 3);
}

/* A file that cannot be read: -errno, its name in a diagnostic, and the
 * store holds what it held, nothing of a half-read file. */
static void a_read_error_returns_errno_and_adds_nothing(void **state)
{
	struct fixture *f = *state;
	char *missing = path_of(f, "missing"), *fifo = path_of(f, "fifo"), *p;
	char *text;
	const char *defaults[] = {missing};

	assert_int_equal(dg_evidence_add_named(&f->ev, "before", DG_EV_SUDOERS,
					       "x", 1), 0);
	assert_int_equal(read_one(f, missing), -ENOENT);
	assert_int_equal(f->ev.n, 1);
	assert_int_equal(f->diags.n, 1);
	assert_string_equal(f->diags.v[0].file, missing);
	assert_int_equal(f->diags.v[0].severity, DG_ERROR);
	/* the default files: a missing one is no error */
	assert_int_equal(dg_sudoers_read(defaults, 1, &(struct dg_sudoers_how){0},
					 &f->ev, &f->diags),
			 0);
	assert_int_equal(f->diags.n, 1);
	/* a FIFO where a file is included: refused, never waited on */
	assert_int_equal(mkfifo(fifo, 0600), 0);
	assert_true(asprintf(&text, "@include %s\n", fifo) >= 0);
	p = write_file(f, "sudoers", text);
	assert_int_equal(read_one(f, p), -EINVAL);
	assert_int_equal(f->ev.n, 1);
	assert_string_equal(f->diags.v[1].file, fifo);
	assert_string_equal(f->diags.v[1].message, strerror(EINVAL));
	free(text);
	free(p);
	free(fifo);
	free(missing);
}

/* pam_session off of path, read as lint reads the default files (a
 * missing one is no error, an unreadable one is); the result's code. */
static int session_of(struct fixture *f, const char *path,
		      struct dg_sudoers_session *out)
{
	const char *paths[] = {path};
	struct dg_sudoers_how how = {.strict = true, .shost = "xerxes"};

	return dg_sudoers_pam_session(paths, 1, &how, out, &f->diags);
}

/* Where sudoers turns pam_session off: the last global Defaults that
 * sets it decides for every session ('!'s counted as sudo's lexer counts
 * them, in a list, through an include); a scoped one turns it off for
 * some; "pam_session=false", which sudo refuses, and other options, do
 * not. */
static void pam_session_off_and_where(void **state)
{
	struct fixture *f = *state;
	struct dg_sudoers_session o;
	char *inc = write_file(f, "inc", "Defaults\tenv_reset, ! !!pam_session\n");
	char *text, *p;

	p = write_file(f, "on", "Defaults pam_session=false\n"
				"Defaults !pam_sessions, !!pam_session\n"
				"Defaultsx !pam_session\n"
				"alice ALL = (ALL) ALL\n");
	assert_int_equal(session_of(f, p, &o), 0);
	assert_null(o.file);
	free(p);
	assert_true(asprintf(&text, "Defaults !pam_session\n"
				    "Defaults pam_session\n"
				    "# Defaults !pam_session\n"
				    "@include %s\n", inc) >= 0);
	p = write_file(f, "off", text);
	assert_int_equal(session_of(f, p, &o), 0);
	assert_string_equal(o.file, inc);
	assert_int_equal(o.line, 1);
	assert_string_equal(o.defaults, "Defaults");
	assert_int_equal(o.scope, 0);
	dg_sudoers_session_free(&o);
	free(p);
	/* scoped: off for some sessions, the first such line named; a
	 * global one that turns it off wins */
	p = write_file(f, "scoped", "Defaults>root pam_session\n"
				    "Defaults:bob,  carol log_output,!pam_session\n"
				    "Defaults!/bin/sh !pam_session\n");
	assert_int_equal(session_of(f, p, &o), 0);
	assert_string_equal(o.defaults, "Defaults:bob,  carol");
	assert_int_equal(o.line, 2);
	assert_int_equal(o.scope, ':');
	dg_sudoers_session_free(&o);
	free(p);
	p = write_file(f, "both", "Defaults@h1 !pam_session\n"
				  "Defaults \\\n  !pam_session\n");
	assert_int_equal(session_of(f, p, &o), 0);
	assert_int_equal(o.line, 2);
	assert_int_equal(o.scope, 0);
	dg_sudoers_session_free(&o);
	assert_int_equal(f->diags.n, 0);
	free(p);
	free(text);
	/* an include that cannot be read: its error, nothing made up */
	p = write_file(f, "broken", "@include missing\n");
	assert_int_equal(session_of(f, p, &o), -ENOENT);
	assert_null(o.file);
	assert_int_equal(f->diags.n, 1);
	free(p);
	free(inc);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(an_excluded_group_and_its_decoys, setup, teardown),
		cmocka_unit_test_setup_teardown(aliases_expand_to_their_members, setup, teardown),
		cmocka_unit_test_setup_teardown(an_alias_loop_is_an_error_with_its_line, setup, teardown),
		cmocka_unit_test_setup_teardown(an_alias_named_many_times_is_one_place, setup, teardown),
		cmocka_unit_test_setup_teardown(includes_and_include_directories, setup, teardown),
		cmocka_unit_test_setup_teardown(an_include_path_names_the_host, setup, teardown),
		cmocka_unit_test_setup_teardown(continuations_and_comments, setup, teardown),
		cmocka_unit_test_setup_teardown(lines_as_sudo_s_lexer_reads_them, setup, teardown),
		cmocka_unit_test_setup_teardown(sudo_conf_names_the_sudoers_file, setup, teardown),
		cmocka_unit_test_setup_teardown(a_read_error_returns_errno_and_adds_nothing, setup, teardown),
		cmocka_unit_test_setup_teardown(pam_session_off_and_where, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
