/* Unit tests of the PAM stack reader (pamstack.c): files given as text
 * through a made-up reader, read as libpam 1.5.2 (with Debian's
 * "@include") reads them.  No files, no root. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <security/_pam_types.h>

#include "pamstack.h"

#include "fake_pamd.h"

struct loaded {
	struct dg_pam_stack stack;
	struct dg_diags diags;
	int r;
};

#define LOAD(l, service, ...)                                                  \
	do {                                                                   \
		static const struct fake_file files_[] = {__VA_ARGS__};        \
		struct fake_pamd fs_ = {files_,                                \
					sizeof(files_) / sizeof(*files_)};     \
		struct dg_pam_reader rd_ = {fake_pamd_read, &fs_};             \
		(l)->diags = (struct dg_diags){0};                             \
		(l)->r = dg_pamstack_load(&rd_, service, &(l)->stack,          \
					  &(l)->diags);                        \
	} while (0)

static void unload(struct loaded *l)
{
	dg_pamstack_free(&l->stack);
	dg_diag_free(&l->diags);
}

/* "facility control module arg... @file:line" for line i. */
static char *describe(const struct dg_pam_line *l)
{
	char *s = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&s, &len);

	assert_non_null(f);
	fprintf(f, "%s %s %s", dg_pamstack_facility_name(l->facility),
		l->control, l->module);
	for (size_t i = 0; i < l->args.n; i++)
		fprintf(f, " <%s>", l->args.v[i]);
	fprintf(f, " @%s:%d", l->file, l->line);
	if (l->substack)
		fprintf(f, " sub%u", l->substack);
	fclose(f);
	return s;
}

static void assert_lines(const struct dg_pam_stack *st, const char **want,
			 size_t n)
{
	for (size_t i = 0; i < st->lines.n && i < n; i++) {
		char *got = describe(&st->lines.v[i]);

		if (strcmp(got, want[i]) != 0)
			fail_msg("line %zu: got [%s], want [%s]", i, got, want[i]);
		free(got);
	}
	assert_int_equal(st->lines.n, n);
}

#define ASSERT_LINES(st, ...)                                                  \
	do {                                                                   \
		const char *want_[] = {__VA_ARGS__};                           \
		assert_lines(st, want_, sizeof(want_) / sizeof(*want_));       \
	} while (0)

static void assert_diag(const struct dg_diags *d, size_t i,
			enum dg_severity sev, const char *file, int line,
			const char *needle)
{
	assert_true(i < d->n);
	assert_int_equal(d->v[i].severity, sev);
	assert_string_equal(d->v[i].file, file);
	assert_int_equal(d->v[i].line, line);
	if (!strstr(d->v[i].message, needle))
		fail_msg("diag [%s] lacks [%s]", d->v[i].message, needle);
}

static void test_lines_comments_and_blanks(void **state)
{
	struct loaded l;

	(void)state;
	LOAD(&l, "svc",
	     {"svc", "# a comment\n"
		     "\n"
		     "auth   required  pam_unix.so nullok # trailing comment\n"
		     "   \t\n"
		     "session optional pam_dropgroups.so debug#no space\n"
		     "account\trequired\tpam_permit.so"}); /* no final newline */
	assert_int_equal(l.r, 0);
	assert_int_equal(l.diags.n, 0);
	ASSERT_LINES(&l.stack, "auth required pam_unix.so <nullok> @/etc/pam.d/svc:3",
		     "session optional pam_dropgroups.so <debug> @/etc/pam.d/svc:5",
		     "account required pam_permit.so @/etc/pam.d/svc:6");
	assert_string_equal(l.stack.file, "/etc/pam.d/svc");
	unload(&l);
}

static void test_backslash_continues_a_line(void **state)
{
	struct loaded l;

	(void)state;
	/* libpam: a comment or blank line inside a continued line is
	 * skipped, and the line still goes on; "#" ends it, backslash or
	 * not; the line number is the first line's. */
	LOAD(&l, "svc",
	     {"svc", "session required \\\n"
		     "  pam_dropgroups.so \\   \n"
		     "# in between\n"
		     "\n"
		     "  config=/etc/x.conf\n"
		     "auth required pam_a.so # not continued \\\n"
		     "auth required pam_b.so\n"});
	assert_int_equal(l.r, 0);
	ASSERT_LINES(&l.stack,
		     "session required pam_dropgroups.so <config=/etc/x.conf> @/etc/pam.d/svc:1",
		     "auth required pam_a.so @/etc/pam.d/svc:6",
		     "auth required pam_b.so @/etc/pam.d/svc:7");
	unload(&l);
}

static void test_brackets_are_one_token(void **state)
{
	struct loaded l;

	(void)state;
	LOAD(&l, "svc",
	     {"svc", "session [success=ok  default=bad] pam_dropgroups.so "
		     "[a b\\]c] d\n"
		     "AUTH Required pam_x.so\n"
		     "-session optional pam_systemd.so\n"});
	assert_int_equal(l.r, 0);
	ASSERT_LINES(&l.stack,
		     "session [success=ok  default=bad] pam_dropgroups.so <a b]c> <d> @/etc/pam.d/svc:1",
		     "auth Required pam_x.so @/etc/pam.d/svc:2",
		     "session optional pam_systemd.so @/etc/pam.d/svc:3");
	unload(&l);
}

static void test_at_include_takes_every_facility(void **state)
{
	struct loaded l;

	(void)state;
	LOAD(&l, "svc", {"svc", "auth required pam_first.so\n@include common\n"},
	     {"common", "auth required pam_unix.so\n"
			"session required pam_dropgroups.so\n"});
	assert_int_equal(l.r, 0);
	ASSERT_LINES(&l.stack, "auth required pam_first.so @/etc/pam.d/svc:1",
		     "auth required pam_unix.so @/etc/pam.d/common:1",
		     "session required pam_dropgroups.so @/etc/pam.d/common:2");
	assert_int_equal(l.stack.files.n, 2);
	unload(&l);
}

static void test_include_takes_one_facility(void **state)
{
	struct loaded l;

	(void)state;
	/* su-l's way: "session include su" takes su's session lines only,
	 * and what su includes, filtered the same way */
	LOAD(&l, "su-l",
	     {"su-l", "auth include su\nsession optional pam_keyinit.so\n"
		      "session include su\n"},
	     {"su", "auth sufficient pam_rootok.so\n@include common-session\n"
		    "session required pam_limits.so\n"},
	     {"common-session", "session required pam_dropgroups.so\n"
				"auth required pam_never.so\n"});
	assert_int_equal(l.r, 0);
	ASSERT_LINES(&l.stack, "auth sufficient pam_rootok.so @/etc/pam.d/su:1",
		     "auth required pam_never.so @/etc/pam.d/common-session:2",
		     "session optional pam_keyinit.so @/etc/pam.d/su-l:2",
		     "session required pam_dropgroups.so @/etc/pam.d/common-session:1",
		     "session required pam_limits.so @/etc/pam.d/su:3");
	unload(&l);
}

/* libpam 1.5.2 reads a line with fgets into 1024 bytes: the rest of a
 * longer line is a line of its own (here, one that jumps). */
static void test_a_long_line_is_two_as_libpam_reads_it(void **state)
{
	char text[2 * DG_PAM_LINE_BUFFER];
	struct fake_file f = {"svc", text};
	struct fake_pamd fs = {&f, 1};
	struct dg_pam_reader rd = {fake_pamd_read, &fs};
	struct loaded l = {0};
	int n;

	(void)state;
	n = snprintf(text, sizeof(text), "auth optional pam_a.so %*s", 1000, "");
	assert_int_equal(n, DG_PAM_LINE_BUFFER - 1);
	snprintf(text + n, sizeof(text) - (size_t)n,
		 "auth [success=1 default=ignore] pam_b.so\n"
		 "auth required pam_dropgroups.so\n");
	l.r = dg_pamstack_load(&rd, "svc", &l.stack, &l.diags);
	assert_int_equal(l.r, 0);
	assert_int_equal(l.diags.n, 0);
	ASSERT_LINES(&l.stack, "auth optional pam_a.so @/etc/pam.d/svc:1",
		     "auth [success=1 default=ignore] pam_b.so @/etc/pam.d/svc:1",
		     "auth required pam_dropgroups.so @/etc/pam.d/svc:2");
	unload(&l);
	/* one byte less of padding: "a" ends the first, "uth" starts the
	 * second, a line of no type libpam knows */
	memmove(text + n - 1, text + n, strlen(text + n) + 1);
	l = (struct loaded){0};
	l.r = dg_pamstack_load(&rd, "svc", &l.stack, &l.diags);
	assert_int_equal(l.r, 0);
	assert_int_equal(l.diags.n, 1);
	assert_diag(&l.diags, 0, DG_WARNING, "/etc/pam.d/svc", 1,
		    "not a module type");
	ASSERT_LINES(&l.stack, "auth optional pam_a.so <a> @/etc/pam.d/svc:1",
		     "auth required pam_dropgroups.so @/etc/pam.d/svc:2");
	unload(&l);
}

/* A line continued past the end of the file, or past libpam's buffer:
 * libpam refuses the service.  "@include" is read ignoring case. */
static void test_lines_libpam_gives_up_on(void **state)
{
	static char text[3 * DG_PAM_LINE_BUFFER];
	struct fake_file f = {"svc", text};
	struct fake_pamd fs = {&f, 1};
	struct dg_pam_reader rd = {fake_pamd_read, &fs};
	struct loaded l = {0};

	(void)state;
	LOAD(&l, "svc",
	     {"svc", "@INCLUDE common\nauth required pam_dropgroups.so \\\n"},
	     {"common", "auth sufficient pam_permit.so\n"});
	assert_int_equal(l.r, 0);
	ASSERT_LINES(&l.stack, "auth sufficient pam_permit.so @/etc/pam.d/common:1");
	assert_int_equal(l.diags.n, 1);
	assert_diag(&l.diags, 0, DG_ERROR, "/etc/pam.d/svc", 2,
		    "cannot read this line");
	unload(&l);
	/* a backslash as the 1023rd byte of the buffer: glibc's fgets then
	 * has room for the NUL alone, reads nothing, and libpam asks again */
	snprintf(text, sizeof(text), "auth required pam_x.so %0999d\\more\n", 0);
	l = (struct loaded){0};
	l.r = dg_pamstack_load(&rd, "svc", &l.stack, &l.diags);
	assert_int_equal(l.r, 0);
	assert_int_equal(l.stack.lines.n, 0);
	assert_int_equal(l.diags.n, 1);
	assert_diag(&l.diags, 0, DG_ERROR, "/etc/pam.d/svc", 1,
		    "never finishes reading this line");
	unload(&l);
}

/* Which earlier line lets libpam skip a line: a jump counts an included
 * line as one and a whole substack as one; "done" in a substack ends
 * the substack alone. */
static void test_lines_libpam_may_skip(void **state)
{
	struct loaded l;
	int code = -1;

	(void)state;
	LOAD(&l, "svc",
	     {"svc", "auth [success=2 auth_err=1 default=ignore] pam_a.so\n"
		     "auth substack sub\n"
		     "@include inc\n"
		     "auth required pam_dropgroups.so\n"
		     "session [default=1] pam_b.so\n"
		     "session required pam_dropgroups.so\n"
		     "account required pam_dropgroups.so\n"},
	     {"sub", "auth sufficient pam_s.so\nauth required pam_dropgroups.so\n"},
	     {"inc", "auth required pam_i.so\n"});
	assert_int_equal(l.r, 0);
	ASSERT_LINES(&l.stack, "auth [success=2 auth_err=1 default=ignore] pam_a.so @/etc/pam.d/svc:1",
		     "auth sufficient pam_s.so @/etc/pam.d/sub:1 sub1",
		     "auth required pam_dropgroups.so @/etc/pam.d/sub:2 sub1",
		     "auth required pam_i.so @/etc/pam.d/inc:1",
		     "auth required pam_dropgroups.so @/etc/pam.d/svc:4",
		     "session [default=1] pam_b.so @/etc/pam.d/svc:5",
		     "session required pam_dropgroups.so @/etc/pam.d/svc:6",
		     "account required pam_dropgroups.so @/etc/pam.d/svc:7");
	/* in the substack: its "sufficient", or the jump over it */
	assert_int_equal(dg_pamstack_skipped_by(&l.stack, 2, UINT32_MAX, &code),
			 1);
	assert_int_equal(code, PAM_SUCCESS);
	assert_int_equal(
		dg_pamstack_skipped_by(&l.stack, 2, 1u << PAM_AUTH_ERR, &code),
		0);
	assert_int_equal(code, PAM_AUTH_ERR);
	/* auth_err=1 skips the substack alone; success=2 the substack and
	 * pam_i.so, landing on the module's line */
	assert_int_equal(dg_pamstack_skipped_by(&l.stack, 4, UINT32_MAX, &code),
			 -1);
	assert_int_equal(dg_pamstack_skipped_by(&l.stack, 3, UINT32_MAX, &code),
			 0);
	assert_int_equal(code, PAM_SUCCESS);
	/* facilities apart */
	assert_int_equal(dg_pamstack_skipped_by(&l.stack, 6, UINT32_MAX, &code),
			 5);
	assert_int_equal(dg_pamstack_skipped_by(&l.stack, 7, UINT32_MAX, &code),
			 -1);
	unload(&l);
}

static void test_substack_counts_its_depth(void **state)
{
	struct loaded l;

	(void)state;
	LOAD(&l, "svc",
	     {"svc", "session substack inner\nsession required pam_b.so\n"},
	     {"inner", "session required pam_dropgroups.so\n"
		       "session substack deeper\n"},
	     {"deeper", "session requisite pam_c.so\n"});
	assert_int_equal(l.r, 0);
	ASSERT_LINES(&l.stack,
		     "session required pam_dropgroups.so @/etc/pam.d/inner:1 sub1",
		     "session requisite pam_c.so @/etc/pam.d/deeper:1 sub2",
		     "session required pam_b.so @/etc/pam.d/svc:2");
	unload(&l);
}

static void test_vendor_directory_and_at_include(void **state)
{
	struct loaded l;

	(void)state;
	/* systemd-user lives in /usr/lib/pam.d; its "@include" reads
	 * /etc/pam.d only (Debian), "include" both */
	LOAD(&l, "systemd-user",
	     {VENDOR "systemd-user", "@include common-session\n"
				     "session include vend\n@include vend\n"},
	     {"common-session", "session required pam_dropgroups.so\n"},
	     {VENDOR "vend", "session required pam_v.so\n"});
	assert_int_equal(l.r, 0);
	assert_string_equal(l.stack.file, "/usr/lib/pam.d/systemd-user");
	ASSERT_LINES(&l.stack,
		     "session required pam_dropgroups.so @/etc/pam.d/common-session:1",
		     "session required pam_v.so @/usr/lib/pam.d/vend:1");
	assert_int_equal(l.diags.n, 1);
	assert_diag(&l.diags, 0, DG_ERROR, "/usr/lib/pam.d/systemd-user", 3,
		    "@include vend: no such file; libpam refuses every call");
	unload(&l);
}

static void test_missing_included_files(void **state)
{
	struct loaded l;

	(void)state;
	LOAD(&l, "svc",
	     {"svc", "@include gone\nauth include gone-too\n"
		     "session substack\nsession required pam_ok.so\n"});
	assert_int_equal(l.r, 0);
	ASSERT_LINES(&l.stack, "session required pam_ok.so @/etc/pam.d/svc:4");
	assert_int_equal(l.diags.n, 3);
	assert_diag(&l.diags, 0, DG_ERROR, "/etc/pam.d/svc", 1,
		    "@include gone: no such file; libpam refuses every call "
		    "of this service (pam_start fails)");
	assert_diag(&l.diags, 1, DG_ERROR, "/etc/pam.d/svc", 2,
		    "auth include gone-too: no such file; every call of this "
		    "facility through this stack fails");
	assert_diag(&l.diags, 2, DG_ERROR, "/etc/pam.d/svc", 3,
		    "session substack names no file");
	unload(&l);
}

static void test_missing_service_file(void **state)
{
	struct loaded l;

	(void)state;
	LOAD(&l, "nosuch", {"other", "auth required pam_deny.so\n"});
	assert_int_equal(l.r, -ENOENT);
	assert_null(l.stack.file);
	assert_int_equal(l.stack.lines.n, 0);
	unload(&l);
}

static void test_include_loop_stops(void **state)
{
	struct loaded l;

	(void)state;
	LOAD(&l, "a", {"a", "@include b\n"}, {"b", "@include a\n"});
	assert_int_equal(l.r, 0);
	assert_true(l.diags.n >= 1);
	assert_true(strstr(l.diags.v[0].message, "nest deeper than 16") != NULL);
	unload(&l);
}

static void test_lines_libpam_cannot_read(void **state)
{
	struct loaded l;

	(void)state;
	LOAD(&l, "svc",
	     {"svc", "sesion required pam_x.so\nsession required\n"
		     "session required pam_ok.so\n"});
	assert_int_equal(l.r, 0);
	ASSERT_LINES(&l.stack, "session required pam_ok.so @/etc/pam.d/svc:3");
	assert_int_equal(l.diags.n, 2);
	assert_diag(&l.diags, 0, DG_WARNING, "/etc/pam.d/svc", 1,
		    "not a module type");
	assert_diag(&l.diags, 1, DG_WARNING, "/etc/pam.d/svc", 2, "no module");
	unload(&l);
}

static void test_is_dropgroups(void **state)
{
	(void)state;
	assert_true(dg_pamstack_is_dropgroups("pam_dropgroups.so"));
	assert_true(
		dg_pamstack_is_dropgroups("/lib/security/pam_dropgroups.so"));
	assert_false(dg_pamstack_is_dropgroups("pam_dropgroups.so.bak"));
	assert_false(dg_pamstack_is_dropgroups("pam_group.so"));
}

static void test_control_words(void **state)
{
	(void)state;
	assert_int_equal(
		dg_pamstack_control_action("required", PAM_SESSION_ERR),
		DG_PAM_ACTION_BAD);
	assert_int_equal(
		dg_pamstack_control_action("Requisite", PAM_SESSION_ERR),
		DG_PAM_ACTION_DIE);
	assert_int_equal(dg_pamstack_control_action("required", PAM_IGNORE),
			 DG_PAM_ACTION_IGNORE);
	assert_int_equal(dg_pamstack_control_action("optional", PAM_CRED_ERR),
			 DG_PAM_ACTION_IGNORE);
	assert_int_equal(dg_pamstack_control_action("optional", PAM_SUCCESS),
			 DG_PAM_ACTION_OK);
	assert_int_equal(dg_pamstack_control_action("sufficient", PAM_AUTH_ERR),
			 DG_PAM_ACTION_IGNORE);
	assert_int_equal(dg_pamstack_control_action("sufficient", PAM_SUCCESS),
			 DG_PAM_ACTION_DONE);
}

static void test_control_brackets(void **state)
{
	const char *debian = "[success=ok ignore=ignore module_unknown=ignore "
			     "default=bad]";

	(void)state;
	assert_int_equal(dg_pamstack_control_action(debian, PAM_SESSION_ERR),
			 DG_PAM_ACTION_BAD);
	assert_int_equal(dg_pamstack_control_action(debian, PAM_IGNORE),
			 DG_PAM_ACTION_IGNORE);
	/* unnamed codes without a default are bad */
	assert_int_equal(
		dg_pamstack_control_action("[success=ok]", PAM_SYSTEM_ERR),
		DG_PAM_ACTION_BAD);
	/* default first, then a value: the value wins for its code */
	assert_int_equal(
		dg_pamstack_control_action("[default=ignore session_err=die]",
					   PAM_SESSION_ERR),
		DG_PAM_ACTION_DIE);
	assert_int_equal(
		dg_pamstack_control_action("[default=ignore session_err=die]",
					   PAM_CRED_ERR),
		DG_PAM_ACTION_IGNORE);
	assert_int_equal(dg_pamstack_control_action("[success=2 default=reset]",
						    PAM_SUCCESS),
			 DG_PAM_ACTION_JUMP);
	assert_int_equal(dg_pamstack_control_action("[success=2 default=reset]",
						    PAM_PERM_DENIED),
			 DG_PAM_ACTION_RESET);
	assert_int_equal(
		dg_pamstack_control_action("[ cred_err = done ]", PAM_CRED_ERR),
		DG_PAM_ACTION_DONE);
	/* what libpam cannot read makes every code bad */
	assert_int_equal(
		dg_pamstack_control_action("[default=ignore colour=red]",
					   PAM_SESSION_ERR),
		DG_PAM_ACTION_BAD);
	assert_int_equal(
		dg_pamstack_control_action("[default=0]", PAM_SESSION_ERR),
		DG_PAM_ACTION_BAD);
	assert_int_equal(dg_pamstack_control_action("requird", PAM_SUCCESS),
			 DG_PAM_ACTION_BAD);
	/* a bare pair is read as if bracketed */
	assert_int_equal(
		dg_pamstack_control_action("default=ignore", PAM_SESSION_ERR),
		DG_PAM_ACTION_IGNORE);
}

/* Every control word and every action, with the codes the module fails
 * with: what libpam does with each (Linux-PAM 1.5.2, pam_handlers.c and
 * pam_misc.c). */
static void test_every_control_value(void **state)
{
	static const struct {
		const char *control;
		int code;
		enum dg_pam_action want;
	} cases[] = {
		{"required", PAM_SUCCESS, DG_PAM_ACTION_OK},
		{"required", PAM_NEW_AUTHTOK_REQD, DG_PAM_ACTION_OK},
		{"required", PAM_AUTH_ERR, DG_PAM_ACTION_BAD},
		{"REQUIRED", PAM_PERM_DENIED, DG_PAM_ACTION_BAD},
		{"requisite", PAM_NEW_AUTHTOK_REQD, DG_PAM_ACTION_OK},
		{"requisite", PAM_IGNORE, DG_PAM_ACTION_IGNORE},
		{"requisite", PAM_SYSTEM_ERR, DG_PAM_ACTION_DIE},
		{"optional", PAM_NEW_AUTHTOK_REQD, DG_PAM_ACTION_OK},
		{"optional", PAM_SESSION_ERR, DG_PAM_ACTION_IGNORE},
		{"Sufficient", PAM_NEW_AUTHTOK_REQD, DG_PAM_ACTION_DONE},
		{"sufficient", PAM_SESSION_ERR, DG_PAM_ACTION_IGNORE},
		{"[default=ok]", PAM_SESSION_ERR, DG_PAM_ACTION_OK},
		{"[default=done]", PAM_SESSION_ERR, DG_PAM_ACTION_DONE},
		{"[default=bad]", PAM_SESSION_ERR, DG_PAM_ACTION_BAD},
		{"[default=die]", PAM_SESSION_ERR, DG_PAM_ACTION_DIE},
		{"[default=ignore]", PAM_SESSION_ERR, DG_PAM_ACTION_IGNORE},
		{"[default=reset]", PAM_SESSION_ERR, DG_PAM_ACTION_RESET},
		{"[default=3]", PAM_SESSION_ERR, DG_PAM_ACTION_JUMP},
		/* a value named before default= keeps its action */
		{"[session_err=bad default=ignore]", PAM_SESSION_ERR,
		 DG_PAM_ACTION_BAD},
		{"[session_err=bad default=ignore]", PAM_AUTH_ERR,
		 DG_PAM_ACTION_IGNORE},
		{"[session_err=bad default=2]", PAM_SESSION_ERR,
		 DG_PAM_ACTION_BAD},
		{"[session_err=bad default=2]", PAM_PERM_DENIED,
		 DG_PAM_ACTION_JUMP},
		/* values and actions are read case-sensitively: what libpam
		 * cannot read makes every code bad */
		{"[DEFAULT=ignore]", PAM_SESSION_ERR, DG_PAM_ACTION_BAD},
		{"[default=Ignore]", PAM_SESSION_ERR, DG_PAM_ACTION_BAD},
		{"[Session_err=ignore default=bad]", PAM_SESSION_ERR,
		 DG_PAM_ACTION_BAD},
		/* no jump of 0 lines, or backwards */
		{"[default=0]", PAM_SESSION_ERR, DG_PAM_ACTION_BAD},
		{"[default=-1]", PAM_SESSION_ERR, DG_PAM_ACTION_BAD},
		{"[default=+1]", PAM_SESSION_ERR, DG_PAM_ACTION_BAD},
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		enum dg_pam_action a = dg_pamstack_control_action(
			cases[i].control, cases[i].code);

		if (a != cases[i].want)
			fail_msg("%s on %s: want %d, got %d", cases[i].control,
				 dg_pamstack_code_name(cases[i].code),
				 cases[i].want, a);
	}
}

/* "Include" and "SUBSTACK" are includes: libpam reads them ignoring
 * case. */
static void test_include_and_substack_ignore_case(void **state)
{
	struct loaded l;

	(void)state;
	LOAD(&l, "svc",
	     {"svc", "session Include inc\nauth SUBSTACK sub\n"},
	     {"inc", "session required pam_dropgroups.so\n"},
	     {"sub", "auth required pam_dropgroups.so\n"});
	assert_int_equal(l.r, 0);
	ASSERT_LINES(&l.stack,
		     "session required pam_dropgroups.so @/etc/pam.d/inc:1",
		     "auth required pam_dropgroups.so @/etc/pam.d/sub:1 sub1");
	unload(&l);
}

/* libpam reads the blanks of a bracket with isspace(): a vertical tab, a
 * form feed or a carriage return parts two pairs as a space does.  Read
 * as text it cannot parse, every code would be "bad" and a bracket that
 * ignores the module's failure would look as if it counted it. */
static void test_every_blank_parts_pairs(void **state)
{
	static const char *const controls[] = {
		"[success=ok default=ignore]",	"[success=ok\tdefault=ignore]",
		"[success=ok\vdefault=ignore]", "[success=ok\fdefault=ignore]",
		"[success=ok\rdefault=ignore]", "[\rdefault\v=\fignore\r]",
	};

	(void)state;
	for (size_t i = 0; i < sizeof(controls) / sizeof(*controls); i++)
		if (dg_pamstack_control_action(controls[i], PAM_SESSION_ERR) !=
		    DG_PAM_ACTION_IGNORE)
			fail_msg("control %zu is not default=ignore", i);
}

/* libpam 1.5.2 reads a jump into an int that wraps at 2^32 (Debian 12's
 * build: 4294967297 lines is a jump of 1, 4294967291 is libpam's code of
 * "reset", -5); a number that wraps to 0 is refused like 0. */
static void test_numbers_wrap_as_libpam_reads_them(void **state)
{
	static const struct {
		const char *control;
		enum dg_pam_action want;
	} cases[] = {
		{"[default=4294967297]", DG_PAM_ACTION_JUMP},
		{"[default=2147483647]", DG_PAM_ACTION_JUMP},
		{"[default=4294967295]", DG_PAM_ACTION_OK},
		{"[default=4294967294]", DG_PAM_ACTION_DONE},
		{"[default=4294967291]", DG_PAM_ACTION_RESET},
		/* -6, libpam's "not set": the bracket's default, bad */
		{"[session_err=ignore session_err=4294967290]",
		 DG_PAM_ACTION_BAD},
		/* ... and a later default fills it in, as it fills in any
		 * value not set: libpam ignores the failure */
		{"[session_err=4294967290 default=ignore]",
		 DG_PAM_ACTION_IGNORE},
		/* a code no action has, and 0 */
		{"[default=2147483648]", DG_PAM_ACTION_BAD},
		{"[default=4294967296]", DG_PAM_ACTION_BAD},
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		enum dg_pam_action a = dg_pamstack_control_action(
			cases[i].control, PAM_SESSION_ERR);

		if (a != cases[i].want)
			fail_msg("%s: want %d, got %d", cases[i].control,
				 cases[i].want, a);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lines_comments_and_blanks),
		cmocka_unit_test(test_backslash_continues_a_line),
		cmocka_unit_test(test_brackets_are_one_token),
		cmocka_unit_test(test_a_long_line_is_two_as_libpam_reads_it),
		cmocka_unit_test(test_lines_libpam_gives_up_on),
		cmocka_unit_test(test_at_include_takes_every_facility),
		cmocka_unit_test(test_include_takes_one_facility),
		cmocka_unit_test(test_substack_counts_its_depth),
		cmocka_unit_test(test_lines_libpam_may_skip),
		cmocka_unit_test(test_vendor_directory_and_at_include),
		cmocka_unit_test(test_missing_included_files),
		cmocka_unit_test(test_missing_service_file),
		cmocka_unit_test(test_include_loop_stops),
		cmocka_unit_test(test_lines_libpam_cannot_read),
		cmocka_unit_test(test_is_dropgroups),
		cmocka_unit_test(test_control_words),
		cmocka_unit_test(test_control_brackets),
		cmocka_unit_test(test_every_control_value),
		cmocka_unit_test(test_include_and_substack_ignore_case),
		cmocka_unit_test(test_every_blank_parts_pairs),
		cmocka_unit_test(test_numbers_wrap_as_libpam_reads_them),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
