/* Unit tests of the sshd_config reader (lint/sshdconf.c): whether sshd
 * runs its PAM stack, as OpenSSH 9.2 reads UsePAM, Include and Match,
 * and where that is decided.  Each test writes its files in a directory
 * of its own (mkdtemp), which is also where relative Includes look (as
 * /etc/ssh is for sshd), removed at the end. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <grp.h>
#include <sys/wait.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sshdconf.h"

struct fixture {
	char dir[64];
	struct dg_sshdconf c;
};

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));

	if (!f)
		return -1;
	strcpy(f->dir, "/tmp/dg-test-sshdconf.XXXXXX");
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

	dg_sshdconf_free(&f->c);
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

/* Write len bytes of text to dir/name. */
static void write_bytes(const struct fixture *f, const char *name,
			const char *text, size_t len)
{
	char *p = path_of(f, name);
	FILE *fp = fopen(p, "w");

	assert_non_null(fp);
	assert_int_equal(fwrite(text, 1, len, fp), len);
	assert_int_equal(fclose(fp), 0);
	free(p);
}

static void write_file(const struct fixture *f, const char *name,
		       const char *text)
{
	write_bytes(f, name, text, strlen(text));
}

/* Read dir/main (written with text, unless NULL) into f->c. */
static void read_main(struct fixture *f, const char *text)
{
	char *p = path_of(f, "main");

	if (text)
		write_file(f, "main", text);
	dg_sshdconf_free(&f->c);
	assert_int_equal(dg_sshdconf_read(p, f->dir, &f->c), 0);
	free(p);
}

/* f->c says pam, decided at dir/name:line (name NULL: no file). */
static void expect(const struct fixture *f, enum dg_sshdconf_pam pam,
		   const char *name, int line)
{
	char *p = name ? path_of(f, name) : NULL;

	assert_int_equal(f->c.pam, pam);
	if (p)
		assert_string_equal(f->c.file, p);
	assert_int_equal(f->c.line, line);
	assert_true((pam == DG_SSHDCONF_UNKNOWN) == (f->c.why != NULL));
	free(p);
}

static void the_first_usepam_wins_and_none_means_no(void **state)
{
	struct fixture *f = *state;

	read_main(f, "Port 22\nusepam No\nUsePAM yes\n");
	expect(f, DG_SSHDCONF_NO_PAM, "main", 2);
	read_main(f, "UsePAM yes\nUsePAM no\n");
	expect(f, DG_SSHDCONF_PAM, "main", 1);
	/* sshd's compiled-in default: no (Debian's file says yes) */
	read_main(f, "Port 22\n# UsePAM yes\n");
	expect(f, DG_SSHDCONF_NO_PAM, "main", 0);
	read_main(f, "");
	expect(f, DG_SSHDCONF_NO_PAM, "main", 0);
	/* no file: sshd does not start */
	assert_int_equal(unlink(f->c.file), 0);
	read_main(f, NULL);
	assert_int_equal(f->c.pam, DG_SSHDCONF_ABSENT);
}

/* Keywords in any case, "=" or blanks, quotes and comments: sshd -T
 * agrees on each (checked by hand against OpenSSH 9.2). */
static void keywords_values_quotes_and_comments(void **state)
{
	struct fixture *f = *state;
	static const char *const no[] = {
		"UsePAM=no\n", "UsePAM = no\n", "USEPAM\tNO # yes\n",
		"  \tUsePAM \"no\"  \r\n", "\"UsePAM\" no\n", "UsePAM 'no'\n",
	};
	static const char *const refused[] = {
		"UsePAM==no\n", "UsePAM no#yes\n", "UsePAM no yes\n",
		"UsePAM\n", "UsePAM # no\n", "UsePAM \"no\n", "UsePAM maybe\n",
		"Port \"22\nUsePAM no\n",
	};

	for (size_t i = 0; i < sizeof(no) / sizeof(*no); i++) {
		read_main(f, no[i]);
		expect(f, DG_SSHDCONF_NO_PAM, "main", 1);
	}
	for (size_t i = 0; i < sizeof(refused) / sizeof(*refused); i++) {
		read_main(f, refused[i]);
		expect(f, DG_SSHDCONF_UNKNOWN, "main", 1);
	}
	read_main(f, "# UsePAM no\n  # UsePAM no\nUsePAM yes # no\n");
	expect(f, DG_SSHDCONF_PAM, "main", 3);
}

/* load_server_config keeps a line up to a NUL byte, newline included:
 * the next line joins it. */
static void a_nul_byte_joins_the_next_line(void **state)
{
	struct fixture *f = *state;
	char *p = path_of(f, "main");

	write_bytes(f, "main", "Use\0PAM yes\nPAM no\n", 19);
	dg_sshdconf_free(&f->c);
	assert_int_equal(dg_sshdconf_read(p, f->dir, &f->c), 0);
	expect(f, DG_SSHDCONF_NO_PAM, "main", 1);
	free(p);
}

static void includes_are_globs_relative_to_the_directory(void **state)
{
	struct fixture *f = *state;
	char *d = path_of(f, "d"), *text;

	assert_int_equal(mkdir(d, 0700), 0);
	write_file(f, "d/20-b.conf", "UsePAM yes\n");
	write_file(f, "d/10-a.conf", "Port 22\nUsePAM no\n");
	write_file(f, "d/10-a.conf~", "UsePAM yes\n");
	/* in glob order, where the Include line is: before the lines after */
	read_main(f, "Include d/*.conf\nUsePAM yes\n");
	expect(f, DG_SSHDCONF_NO_PAM, "d/10-a.conf", 2);
	/* a line before the Include wins */
	read_main(f, "UsePAM yes\nInclude d/*.conf\n");
	expect(f, DG_SSHDCONF_PAM, "main", 1);
	/* a glob that matches nothing is no error; an absolute path */
	assert_true(asprintf(&text, "Include nothing-*.conf %s/d/20-b.conf\n",
			     f->dir) >= 0);
	read_main(f, text);
	expect(f, DG_SSHDCONF_PAM, "d/20-b.conf", 1);
	free(text);
	free(d);
}

static void an_include_loop_or_too_deep_is_refused(void **state)
{
	struct fixture *f = *state;
	char name[16], text[32];

	read_main(f, "Port 22\nInclude main\n");
	expect(f, DG_SSHDCONF_UNKNOWN, "main", 2);
	assert_non_null(strstr(f->c.why, "loop"));
	write_file(f, "a", "Include b\n");
	write_file(f, "b", "Include a\n");
	read_main(f, "Include a\n");
	expect(f, DG_SSHDCONF_UNKNOWN, "b", 1);
	/* sshd reads includes 16 deep, not 17 */
	for (int i = 0; i < 17; i++) {
		snprintf(name, sizeof(name), "n%d", i);
		snprintf(text, sizeof(text), "Include n%d\n", i + 1);
		write_file(f, name, text);
	}
	write_file(f, "n17", "UsePAM no\n");
	read_main(f, "Include n2\n");
	expect(f, DG_SSHDCONF_NO_PAM, "n17", 1);
	read_main(f, "Include n1\n");
	expect(f, DG_SSHDCONF_UNKNOWN, "n16", 1);
}

/* UsePAM is global: at start every Match block is inactive but "Match
 * all", and sshd refuses a global keyword in an inactive one. */
static void usepam_in_a_match_block(void **state)
{
	struct fixture *f = *state;

	read_main(f, "Match User bob\n  UsePAM no\n");
	expect(f, DG_SSHDCONF_UNKNOWN, "main", 2);
	read_main(f, "Match all\nUsePAM no\n");
	expect(f, DG_SSHDCONF_NO_PAM, "main", 2);
	read_main(f, "Match all User bob\nUsePAM no\n");
	expect(f, DG_SSHDCONF_UNKNOWN, "main", 1);
	read_main(f, "Match # nothing\nUsePAM no\n");
	expect(f, DG_SSHDCONF_UNKNOWN, "main", 1);
	/* an included file starts in the block of its Include line ... */
	write_file(f, "x.conf", "Match all\nUsePAM no\n");
	read_main(f, "Match Group g\nInclude x.conf\nMatch all\nUsePAM yes\n");
	expect(f, DG_SSHDCONF_UNKNOWN, "x.conf", 2);
	/* ... and its Match lines end with it */
	write_file(f, "y.conf", "Match User bob\n");
	read_main(f, "Include y.conf\nUsePAM no\n");
	expect(f, DG_SSHDCONF_NO_PAM, "main", 2);
}

/* A file sshd cannot read stops it: "cannot tell".  No word of a file
 * is ever in the answer (a --sshd-config may include /etc/shadow). */
static void an_unreadable_file_and_no_word_shown(void **state)
{
	struct fixture *f = *state;
	char *d = path_of(f, "dir.conf");

	/* sshd reads an included directory, and /dev/null, as empty */
	assert_int_equal(mkdir(d, 0700), 0);
	read_main(f, "Include *.conf\nUsePAM yes\n");
	expect(f, DG_SSHDCONF_PAM, "main", 2);
	read_main(f, "Include /dev/null\nUsePAM yes\n");
	expect(f, DG_SSHDCONF_PAM, "main", 2);
	read_main(f, "Include ~/x\nUsePAM yes\n");
	expect(f, DG_SSHDCONF_UNKNOWN, "main", 1);
	read_main(f, "root:$y$j9T$SECRETHASH:19000:0:99999:7:::\n");
	expect(f, DG_SSHDCONF_UNKNOWN, "main", 1);
	assert_null(strstr(f->c.why, "SECRET"));
	free(d);
}

/* Read dir/main as nobody (in a child): what the reader says, as a
 * wait status of 0 when it said "cannot tell" naming the line. */
static void as_nobody_cannot_tell(struct fixture *f, int line)
{
	pid_t pid = fork();
	int status;

	assert_true(pid >= 0);
	if (pid == 0) {
		char *p = path_of(f, "main");
		struct dg_sshdconf c;

		if (setgroups(0, NULL) < 0 || setresgid(65534, 65534, 65534) < 0 ||
		    setresuid(65534, 65534, 65534) < 0 ||
		    dg_sshdconf_read(p, f->dir, &c) < 0)
			_exit(2);
		_exit(c.pam == DG_SSHDCONF_UNKNOWN && c.line == line &&
				      strstr(c.why, "cannot be read")
			      ? 0
			      : 1);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
}

/* lint run without root: a directory an Include names that it may not
 * read must not look empty, as glob(3) makes it, for sshd (root) reads
 * the UsePAM there. */
static void an_include_we_may_not_read_cannot_tell(void **state)
{
	struct fixture *f = *state;
	char *d = path_of(f, "d");

	if (geteuid() != 0)
		skip();
	assert_int_equal(chmod(f->dir, 0755), 0);
	assert_int_equal(mkdir(d, 0700), 0);
	write_file(f, "d/10-no.conf", "UsePAM no\n");
	read_main(f, "Include d/*.conf\nUsePAM yes\n");
	expect(f, DG_SSHDCONF_NO_PAM, "d/10-no.conf", 1); /* as root */
	assert_int_equal(chmod(f->c.file, 0644), 0);
	as_nobody_cannot_tell(f, 1);
	/* a literal path in it, which glob(3) only stats */
	read_main(f, "Include d/10-no.conf\nUsePAM yes\n");
	expect(f, DG_SSHDCONF_NO_PAM, "d/10-no.conf", 1);
	as_nobody_cannot_tell(f, 1);
	/* the baseline: a directory that is not there is no match */
	read_main(f, "Include nod/*.conf\nInclude nod/x\nUsePAM yes\n");
	expect(f, DG_SSHDCONF_PAM, "main", 3);
	free(d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(the_first_usepam_wins_and_none_means_no, setup, teardown),
		cmocka_unit_test_setup_teardown(keywords_values_quotes_and_comments, setup, teardown),
		cmocka_unit_test_setup_teardown(a_nul_byte_joins_the_next_line, setup, teardown),
		cmocka_unit_test_setup_teardown(includes_are_globs_relative_to_the_directory, setup, teardown),
		cmocka_unit_test_setup_teardown(an_include_loop_or_too_deep_is_refused, setup, teardown),
		cmocka_unit_test_setup_teardown(an_include_we_may_not_read_cannot_tell, setup, teardown),
		cmocka_unit_test_setup_teardown(usepam_in_a_match_block, setup, teardown),
		cmocka_unit_test_setup_teardown(an_unreadable_file_and_no_word_shown, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
