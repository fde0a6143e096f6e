/* Unit tests of dropgroups lint's judgement (ways.c): a policy parsed by
 * the real parser, stacks read by the real reader from made-up files,
 * and each finding checked by file, line and words.  No files, no NSS. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "fake_pamd.h"
#include "programs.h"
#include "strlist.h"
#include "ways.h"

#define POLICY "/etc/security/dropgroups.conf"

struct linted {
	struct dg_config cfg;
	struct dg_service_stacks stacks;
	struct dg_diags diags;
};

/* What the stacks say of pam_group's file (dg_service_stacks). */
static bool pam_group_grants;

/* Parse policy, read every service lint would read from files, and
 * lint; nothing may fail on the way. */
static void lint(struct linted *l, const char *policy,
		 const struct fake_file *files, size_t n)
{
	struct fake_pamd fs = {files, n};
	struct dg_pam_reader rd = {fake_pamd_read, &fs};
	struct dg_strlist services = {0};
	struct dg_diags parse = {0};

	*l = (struct linted){0};
	assert_int_equal(dg_config_parse(&l->cfg, POLICY, policy, DG_MAIN_FILE,
					 &parse),
			 0);
	if (parse.n)
		fail_msg("policy: %s", parse.v[0].message);
	assert_int_equal(dg_ways_lint_services(&l->cfg, &services), 0);
	for (size_t i = 0; i < services.n; i++) {
		struct dg_service_stack s = {.service = strdup(services.v[i])};
		int r = dg_pamstack_load(&rd, s.service, &s.stack, &l->diags);

		if (r == -ENOENT) {
			s.status = r;
			r = dg_pamstack_load(&rd, "other", &s.stack, &l->diags);
		}
		assert_true(r == 0 || r == -ENOENT);
		assert_int_equal(DG_APPEND(&l->stacks, s), 0);
	}
	l->stacks.pam_group_grants = pam_group_grants;
	assert_int_equal(dg_ways_lint(&l->cfg, POLICY, &l->stacks, &l->diags),
			 0);
	dg_diag_unique(&l->diags);
	dg_strlist_free(&services);
	dg_diag_free(&parse);
}

#define LINT(l, policy, ...)                                                   \
	do {                                                                   \
		static const struct fake_file files_[] = {__VA_ARGS__};        \
		lint(l, policy, files_, sizeof(files_) / sizeof(*files_));     \
	} while (0)

static void done(struct linted *l)
{
	dg_ways_stacks_free(&l->stacks);
	dg_config_free(&l->cfg);
	dg_diag_free(&l->diags);
}

static void show(const struct dg_diags *d)
{
	for (size_t i = 0; i < d->n; i++)
		print_message("  %s:%d: %s%s\n", d->v[i].file ? d->v[i].file : "",
			      d->v[i].line,
			      d->v[i].severity == DG_WARNING ? "warning: " : "",
			      d->v[i].message);
}

/* Some finding at file:line (line -1: any) of severity sev says needle. */
static void assert_finding(const struct dg_diags *d, enum dg_severity sev,
			   const char *file, int line, const char *needle)
{
	for (size_t i = 0; i < d->n; i++)
		if (d->v[i].severity == sev && d->v[i].file &&
		    strcmp(d->v[i].file, file) == 0 &&
		    (line < 0 || d->v[i].line == line) &&
		    strstr(d->v[i].message, needle))
			return;
	show(d);
	fail_msg("no %s at %s:%d saying [%s]",
		 sev == DG_ERROR ? "error" : "warning", file, line, needle);
}

static size_t n_of(const struct dg_diags *d, enum dg_severity sev)
{
	size_t n = 0;

	for (size_t i = 0; i < d->n; i++)
		n += d->v[i].severity == sev;
	return n;
}

/* A rule for every program people reach, no_new_privs, every stack
 * with its shipped snippet: nothing to say. */
static const char *const all_closed =
	"version = 1; restricting = ( );\n"
	"rules = ( { services = \"*\"; drop = \"*\"; no_new_privs = true; } );\n";

static void test_shipped_snippets_are_clean(void **state)
{
	struct linted l;

	(void)state;
	LINT(&l, all_closed,
	     {"login", "auth required pam_dropgroups.so\n"},
	     {"sshd", "account required pam_dropgroups.so\n"
		      "auth required pam_dropgroups.so\n"},
	     {"su", "session required pam_dropgroups.so\n"},
	     {"su-l", "auth include su\nsession include su\n"},
	     {"sudo", "session required pam_dropgroups.so system_err\n"},
	     {"sudo-i", "session required pam_dropgroups.so system_err\n"},
	     {"cron", "auth required pam_dropgroups.so\n"},
	     {VENDOR "systemd-user", "session required pam_dropgroups.so\n"});
	show(&l.diags);
	assert_int_equal(l.diags.n, 0);
	done(&l);
}

static void test_named_service_without_a_line(void **state)
{
	struct linted l;

	(void)state;
	LINT(&l,
	     "version = 1; restricting = ( );\n"
	     "rules = ( { services = [ \"sshd\", \"mine\", \"gone\" ]; "
	     "drop = \"*\"; no_new_privs = true; } );\n",
	     {"sshd", "auth required pam_unix.so\n"},
	     {"other", "auth required pam_deny.so\n"});
	assert_finding(&l.diags, DG_ERROR, POLICY, 2,
		       "names service \"sshd\", but /etc/pam.d/sshd has no "
		       "pam_dropgroups line: the rule never applies");
	assert_finding(&l.diags, DG_ERROR, POLICY, 2,
		       "service \"mine\", which has no stack: libpam uses "
		       "/etc/pam.d/other, which has no pam_dropgroups line");
	done(&l);
}

static void test_line_in_the_wrong_facility(void **state)
{
	struct linted l;

	(void)state;
	LINT(&l,
	     "version = 1; restricting = ( );\n"
	     "rules = ( { services = [ \"login\", \"cron\", \"sshd\" ]; "
	     "drop = \"*\"; no_new_privs = true; } );\n",
	     {"login", "@include common-session\n"},
	     {"common-session", "session required pam_dropgroups.so\n"},
	     {"cron", "session required pam_dropgroups.so\n"},
	     {"sshd", "account required pam_dropgroups.so\n"});
	assert_finding(&l.diags, DG_ERROR, "/etc/pam.d/common-session", 1,
		       "for login (a console), a session line trims nothing: "
		       "it calls pam_open_session, then initgroups");
	assert_finding(&l.diags, DG_ERROR, "/etc/pam.d/cron", 1,
		       "use \"auth required pam_dropgroups.so\"");
	assert_finding(&l.diags, DG_ERROR, "/etc/pam.d/sshd", 1,
		       "an account line only checks the policy");
	done(&l);
}

static void test_controls_that_let_a_broken_policy_through(void **state)
{
	struct linted l;

	(void)state;
	LINT(&l,
	     "version = 1; restricting = ( );\n"
	     "rules = ( { services = [ \"su\", \"login\", \"cron\", \"x\" ]; "
	     "drop = \"*\"; no_new_privs = true; } );\n",
	     {"su", "session optional pam_dropgroups.so\n"},
	     {"login", "auth sufficient pam_dropgroups.so\n"},
	     {"cron", "auth [success=1 default=ignore] pam_dropgroups.so\n"},
	     {"x", "session [default=ignore session_err=bad] "
		   "pam_dropgroups.so system_err\n"});
	assert_finding(&l.diags, DG_ERROR, "/etc/pam.d/su", 1,
		       "with \"optional\" a failure of the module does not "
		       "count");
	assert_finding(&l.diags, DG_ERROR, "/etc/pam.d/login", 1,
		       "with \"sufficient\", the module's PAM_SUCCESS");
	assert_finding(&l.diags, DG_ERROR, "/etc/pam.d/login", 1,
		       "a failure of the module does not count");
	assert_finding(&l.diags, DG_ERROR, "/etc/pam.d/cron", 1,
		       "skips the lines after it");
	/* with system_err the module fails with PAM_SYSTEM_ERR, which this
	 * bracket ignores */
	assert_finding(&l.diags, DG_ERROR, "/etc/pam.d/x", 1,
		       "does not count");
	done(&l);
}

static void test_required_brackets_and_jumps_that_fail_closed(void **state)
{
	struct linted l;

	(void)state;
	/* Debian's bracket for a required line; a jump in auth counts in
	 * pam_setcred (libpam treats the line as required there) */
	LINT(&l,
	     "version = 1; restricting = ( );\n"
	     "rules = ( { services = [ \"su\", \"cron\" ]; drop = \"*\"; "
	     "no_new_privs = true; } );\n",
	     {"su", "session [success=ok ignore=ignore default=bad] "
		    "pam_dropgroups.so\n"},
	     {"cron", "auth [success=ok default=2] pam_dropgroups.so\n"});
	show(&l.diags);
	assert_int_equal(n_of(&l.diags, DG_ERROR), 0);
	done(&l);
}

static void test_arguments_the_module_refuses(void **state)
{
	struct linted l;

	(void)state;
	LINT(&l, all_closed,
	     {"su", "session required pam_dropgroups.so colour=red\n"},
	     {"sudo", "session required pam_dropgroups.so system_err "
		      "config=rel.conf\n"},
	     {"other", "session required pam_dropgroups.so "
		       "config=/etc/other.conf\n"});
	assert_finding(&l.diags, DG_ERROR, "/etc/pam.d/su", 1,
		       "the module refuses this line (unknown option "
		       "\"colour=red\"): every call through it fails");
	assert_finding(&l.diags, DG_ERROR, "/etc/pam.d/sudo", 1,
		       "config=rel.conf: the policy path must be absolute");
	assert_finding(&l.diags, DG_WARNING, "/etc/pam.d/other", 1,
		       "reads the policy /etc/other.conf, not " POLICY);
	done(&l);
}

static void test_sudo_needs_system_err_and_sshd_an_account_line(void **state)
{
	struct linted l;

	(void)state;
	LINT(&l,
	     "version = 1; restricting = ( );\n"
	     "rules = ( { services = [ \"sudo\", \"sshd\", \"sudo-i\" ]; "
	     "drop = \"*\"; no_new_privs = true; } );\n",
	     {"sudo", "session required pam_dropgroups.so\n"},
	     {"sudo-i", "auth required pam_dropgroups.so\n"},
	     {"sshd", "auth required pam_dropgroups.so\n"});
	assert_finding(&l.diags, DG_ERROR, "/etc/pam.d/sudo", 1,
		       "a session line needs system_err");
	assert_finding(&l.diags, DG_ERROR, "/etc/pam.d/sudo-i", 1,
		       "pam_setcred (whose failure it ignores)");
	assert_finding(&l.diags, DG_ERROR, "/etc/pam.d/sshd", 1,
		       "add \"account required pam_dropgroups.so\"");
	done(&l);
}

/* A report_only line enforces nothing: it counts as a line that trims
 * nothing, and as an account line that refuses nothing. */
static void test_a_report_only_line_enforces_nothing(void **state)
{
	struct linted l;

	(void)state;
	LINT(&l,
	     "version = 1; restricting = ( );\n"
	     "rules = ( { services = [ \"su\", \"sudo\", \"sshd\", \"x\" ]; "
	     "drop = \"*\"; no_new_privs = true; } );\n",
	     {"su", "session required pam_dropgroups.so report_only\n"},
	     {"sudo", "session required pam_dropgroups.so system_err "
		      "report_only\n"},
	     {"sshd", "account required pam_dropgroups.so report_only\n"
		      "auth required pam_dropgroups.so\n"},
	     {"x", "session required pam_dropgroups.so report_only\n"});
	assert_finding(&l.diags, DG_ERROR, "/etc/pam.d/su", 1,
		       "for su, the line says report_only: the module only "
		       "logs what it would drop, and enforces nothing");
	assert_finding(&l.diags, DG_ERROR, "/etc/pam.d/sudo", 1,
		       "says report_only");
	assert_finding(&l.diags, DG_ERROR, "/etc/pam.d/x", 1,
		       "for x, the line says report_only");
	assert_finding(&l.diags, DG_ERROR, "/etc/pam.d/sshd", 2,
		       "add \"account required pam_dropgroups.so\"");
	done(&l);
}

/* pam_group adds groups in pam_setcred: after every line that trims
 * (auth lines, and for su the session line that runs after
 * pam_setcred), what it adds stays, when its file grants anything. */
static void test_pam_group_after_every_line_that_trims(void **state)
{
	static const char *const policy =
		"version = 1; restricting = ( );\n"
		"rules = ( { services = [ \"login\", \"cron\", \"su\" ]; "
		"drop = \"*\"; no_new_privs = true; } );\n";
	struct linted l;

	(void)state;
	pam_group_grants = true;
	LINT(&l, policy,
	     {"login", "auth required pam_dropgroups.so\n"
		       "auth optional pam_group.so\n"},
	     {"cron", "auth optional /lib/security/pam_group.so\n"
		      "auth required pam_dropgroups.so\n"},
	     {"su", "auth required pam_dropgroups.so\n"
		    "auth optional pam_group.so\n"
		    "session required pam_dropgroups.so\n"});
	assert_finding(&l.diags, DG_ERROR, "/etc/pam.d/login", 2,
		       "a way back in: for login (a console), pam_group runs "
		       "in pam_setcred after every pam_dropgroups line that "
		       "trims");
	/* before the line that trims, and before su's session line */
	assert_int_equal(n_of(&l.diags, DG_ERROR), 1);
	done(&l);
	/* a file that grants nothing: pam_group adds nothing */
	pam_group_grants = false;
	LINT(&l, policy,
	     {"login", "auth required pam_dropgroups.so\n"
		       "auth optional pam_group.so\n"},
	     {"cron", "auth required pam_dropgroups.so\n"},
	     {"su", "session required pam_dropgroups.so\n"});
	assert_int_equal(n_of(&l.diags, DG_ERROR), 0);
	done(&l);
}

static void test_ways_back_in(void **state)
{
	struct linted l;

	(void)state;
	/* ssh drops for alice; nothing covers her in cron, su -l, atd */
	LINT(&l,
	     "version = 1; restricting = ( );\n"
	     "rules = ( { name = \"ssh\"; services = \"sshd\"; users = \"alice\"; "
	     "drop = \"*\"; },\n"
	     "  { services = [ \"su\", \"cron\" ]; users = [ \"bob\", \"alice\" ]; "
	     "keep = \"users\"; no_new_privs = true; } );\n",
	     {"sshd", "account required pam_dropgroups.so\n"
		      "auth required pam_dropgroups.so\n"},
	     {"su", "session required pam_dropgroups.so\n"},
	     {"su-l", "session include su\n"},
	     {"cron", "auth required pam_dropgroups.so\n"},
	     {"atd", "session required pam_unix.so\n"});
	assert_finding(&l.diags, DG_WARNING, POLICY, 2,
		       "does not set no_new_privs");
	assert_finding(&l.diags, DG_WARNING, "/etc/pam.d/su-l", 0,
		       "su -l starts their processes with every group, as no "
		       "rule for service \"su-l\" matches the users of rule "
		       "\"ssh\" (" POLICY ":2)");
	/* at.deny closes atd, which lint does not read: a warning, even
	 * for a rule that sets no_new_privs */
	assert_finding(&l.diags, DG_WARNING, "/etc/pam.d/atd", 0,
		       "the users of rule \"ssh\" (" POLICY ":2), rule at "
		       POLICY ":3; deny at to these users in /etc/at.deny (or "
		       "leave them out of /etc/at.allow); lint does not read "
		       "those files, so this stays a warning");
	/* cron reaches alice through the second rule, which keeps what
	 * "ssh" drops */
	assert_finding(&l.diags, DG_WARNING, POLICY, 3,
		       "cron (a crontab job) applies this rule to the users of "
		       "rule \"ssh\" (" POLICY ":2), and this rule keeps "
		       "\"users\", which that rule drops");
	/* cron covers alice (and bob); su -l is set-user-ID, and the second
	 * rule's sessions run under no_new_privs */
	for (size_t i = 0; i < l.diags.n; i++)
		if (l.diags.v[i].file &&
		    (!strcmp(l.diags.v[i].file, "/etc/pam.d/su-l") ||
		     !strcmp(l.diags.v[i].file, "/etc/pam.d/cron")))
			assert_null(strstr(l.diags.v[i].message, "rule at"));
	/* a rule names sshd, for alice alone: bob, of the second rule,
	 * reaches no rule there */
	assert_finding(&l.diags, DG_ERROR, "/etc/pam.d/sshd", 0,
		       "no rule for service \"sshd\" matches the users of "
		       "rule at " POLICY ":3");
	/* ... and alice there gets rule "ssh", without no_new_privs */
	assert_finding(&l.diags, DG_ERROR, POLICY, 2,
		       "sshd (ssh to this host) applies this rule to the users "
		       "of rule at " POLICY ":3, and this rule does not set "
		       "no_new_privs: from there sg and newgrp give back");
	assert_int_equal(n_of(&l.diags, DG_ERROR), 2);
	done(&l);
}

static void test_atd_has_no_line_that_trims(void **state)
{
	struct linted l;

	(void)state;
	LINT(&l,
	     "version = 1; restricting = ( );\n"
	     "rules = ( { services = [ \"atd\", \"cron\" ]; drop = \"*\"; "
	     "no_new_privs = true; } );\n",
	     {"atd", "auth required pam_dropgroups.so\n"},
	     {"cron", "auth required pam_dropgroups.so\n"});
	assert_finding(&l.diags, DG_ERROR, "/etc/pam.d/atd", 1,
		       "for atd (an at or batch job), no PAM line can trim: it "
		       "makes every PAM call in its own process");
	assert_finding(&l.diags, DG_ERROR, "/etc/pam.d/atd", 1,
		       "/etc/at.deny");
	done(&l);
}

static void test_star_rule_and_a_stack_without_the_module(void **state)
{
	struct linted l;

	(void)state;
	LINT(&l, all_closed, {"cron", "auth required pam_unix.so\n"},
	     {"login", "auth required pam_dropgroups.so\n"});
	/* the rule sets no_new_privs: its drops are to hold, an error */
	assert_finding(&l.diags, DG_ERROR, "/etc/pam.d/cron", 0,
		       "a rule matches every service, but this stack has no "
		       "pam_dropgroups line, so cron (a crontab job) starts "
		       "processes with every group; use auth required");
	assert_int_equal(l.diags.n, 1);
	done(&l);
}

/* no_new_privs on the "*" rule disarms a set-user-ID program whose stack
 * has no line (su): no way back in there; without it, there is one. */
static void test_no_new_privs_disarms_a_set_user_id_program(void **state)
{
	struct linted l;

	(void)state;
	LINT(&l, all_closed, {"su", "auth required pam_unix.so\n"});
	for (size_t i = 0; i < l.diags.n; i++)
		if (strstr(l.diags.v[i].message, "a way back in")) {
			show(&l.diags);
			fail_msg("no_new_privs did not disarm su");
		}
	done(&l);
	LINT(&l,
	     "version = 1; restricting = ( );\n"
	     "rules = ( { services = \"*\"; drop = \"*\"; } );\n",
	     {"su", "auth required pam_unix.so\n"});
	assert_finding(&l.diags, DG_WARNING, "/etc/pam.d/su", 0,
		       "a rule matches every service, but this stack has no "
		       "pam_dropgroups line, so su");
	done(&l);
}

/* The rule that applies at cron to the users of "desk" (services su),
 * against what "desk" drops: each case, the finding at cron's rule (line
 * 3), or none. */
static void test_the_rule_that_applies_at_a_way_back(void **state)
{
	static const struct {
		const char *desk, *cron, *kept; /* kept NULL: no finding */
		bool no_nnp; /* cron's rule lacks no_new_privs */
	} cases[] = {
		/* the same drops, but sg gives them back from cron */
		{"drop = [ \"audio\" ];", "drop = [ \"audio\" ];",
		 "does not set no_new_privs: from there sg", true},
		{"drop = [ \"audio\" ];", "drop = [ \"audio\" ];", NULL, false},
		{"keep = \"*\";", "drop = [ ];", NULL, true},
		{"drop = [ \"audio\" ];", "drop = [ \"audio\", \"video\" ];", NULL, false},
		{"drop = [ \"audio\" ];", "drop = [ \"video\" ];", "keeps \"audio\"", false},
		{"drop = ( \"audio\", 44 );", "drop = [ \"audio\" ];", "keeps 44,", false},
		/* a name may be any gid: 29 is not surely "audio" */
		{"drop = [ \"audio\" ];", "drop = [ 29 ];", "keeps \"audio\"", false},
		{"drop = [ \"audio\" ];", "drop = \"*\";", NULL, false},
		{"drop = [ \"audio\" ];", "keep = [ \"users\" ];", NULL, false},
		{"drop = [ \"audio\" ];", "keep = [ \"AUDIO\" ];", "keeps \"audio\"", false},
		{"drop = [ \"audio\" ];", "keep = [ 29 ];", "keeps \"audio\"", false},
		{"drop = [ \"audio\" ];", "keep = \"*\";", "keeps \"audio\"", false},
		{"drop = \"*\";", "drop = [ \"audio\" ];", "keeps every group it does not name", false},
		{"drop = \"*\";", "keep = [ \"users\" ];", "keeps \"users\"", false},
		{"drop = \"*\";", "keep = [ ];", NULL, false},
		{"keep = [ \"users\" ];", "keep = [ \"users\" ];", NULL, false},
		{"keep = [ \"users\" ];", "keep = [ \"users\", \"audio\" ];", "keeps \"audio\"", false},
		{"keep = [ \"users\" ];", "drop = [ \"audio\" ];", "keeps every group it does not name", false},
		{"keep = \"*\";", "drop = [ ];", NULL, false},
		/* a restricting group is kept under every rule */
		{"drop = [ \"audio\", \"games\" ];", "drop = [ \"audio\" ];", NULL, false},
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		struct fake_file files[] = {
			{"su", "session required pam_dropgroups.so\n"},
			{"cron", "auth required pam_dropgroups.so\n"},
		};
		_cleanup_free_ char *policy = NULL;
		struct linted l;
		bool found = false;

		assert_true(asprintf(&policy,
				     "version = 1; restricting = ( \"games\" );\n"
				     "rules = ( { name = \"desk\"; services = \"su\"; "
				     "%s no_new_privs = true; },\n"
				     "  { services = \"cron\"; %s%s } );\n",
				     cases[i].desk, cases[i].cron,
				     cases[i].no_nnp ? ""
						     : " no_new_privs = true;") > 0);
		lint(&l, policy, files, 2);
		for (size_t k = 0; k < l.diags.n; k++) {
			const struct dg_diag *g = &l.diags.v[k];

			if (!strstr(g->message, "cron (a crontab job) applies "
						"this rule"))
				continue;
			print_message("case %zu: %s\n", i, g->message);
			assert_int_equal(g->line, 3);
			assert_int_equal(g->severity, DG_ERROR);
			assert_non_null(cases[i].kept);
			assert_non_null(strstr(g->message, cases[i].kept));
			found = true;
		}
		if (cases[i].kept && !found)
			fail_msg("case %zu: no finding at cron", i);
		done(&l);
	}
}

/* Users by name: a rule for other users before the one that covers
 * alice is passed by; a "%group" or "*" may hold her, and is judged. */
static void test_the_first_rule_for_each_user_applies(void **state)
{
	static const struct fake_file files[] = {
		{"su", "session required pam_dropgroups.so\n"},
		{"cron", "auth required pam_dropgroups.so\n"},
	};
	struct linted l;

	(void)state;
	lint(&l,
	     "version = 1; restricting = ( );\n"
	     "rules = ( { name = \"desk\"; services = \"su\"; users = \"alice\"; "
	     "drop = [ \"audio\" ]; },\n"
	     "  { services = \"cron\"; users = \"bob\"; keep = \"*\"; },\n"
	     "  { services = \"cron\"; users = \"%staff\"; keep = \"*\"; },\n"
	     "  { services = \"cron\"; users = \"alice\"; keep = \"*\"; },\n"
	     "  { services = \"cron\"; keep = \"*\"; } );\n",
	     files, 2);
	assert_finding(&l.diags, DG_WARNING, POLICY, 4,
		       "cron (a crontab job) applies this rule to the users "
		       "of rule \"desk\"");
	assert_finding(&l.diags, DG_WARNING, POLICY, 5, "keeps \"audio\"");
	for (size_t k = 0; k < l.diags.n; k++)
		if (l.diags.v[k].line == 3 || l.diags.v[k].line == 6)
			assert_null(strstr(l.diags.v[k].message, "applies this"));
	done(&l);
}

/* The stack of sshd when sshd runs none (UsePAM no, as cli.c reads
 * sshd_config): relint with not_run set on it. */
static void relint_not_run(struct linted *l)
{
	struct dg_service_stack *s = NULL;

	for (size_t i = 0; i < l->stacks.n; i++)
		if (strcmp(l->stacks.v[i].service, "sshd") == 0)
			s = &l->stacks.v[i];
	assert_non_null(s);
	s->not_run = strdup("UsePAM is \"no\", so sshd runs no PAM stack");
	s->not_run_file = strdup("/etc/ssh/sshd_config");
	s->not_run_line = 7;
	assert_non_null(s->not_run);
	assert_non_null(s->not_run_file);
	dg_diag_free(&l->diags);
	l->stacks.pam_group_grants = pam_group_grants;
	assert_int_equal(dg_ways_lint(&l->cfg, POLICY, &l->stacks, &l->diags),
			 0);
}

/* A stack that does not run trims nothing, whatever its lines: a rule
 * for sshd (by name or by "*") is then an error at the line of
 * sshd_config that says so, and the lines themselves are not judged. */
static void test_a_stack_the_program_does_not_run(void **state)
{
	static const char *const policies[] = {
		"version = 1; restricting = ( );\n"
		"rules = ( { services = \"sshd\"; drop = \"*\"; "
		"no_new_privs = true; } );\n",
		all_closed,
	};
	struct linted l;

	(void)state;
	for (size_t i = 0; i < 2; i++) {
		LINT(&l, policies[i],
		     {"sshd", "account required pam_dropgroups.so\n"
			      "auth required pam_dropgroups.so\n"
			      "session sufficient pam_dropgroups.so\n"});
		/* the baseline: the stack runs, and trims */
		assert_finding(&l.diags, DG_ERROR, "/etc/pam.d/sshd", 3,
			       "\"sufficient\"");
		relint_not_run(&l);
		assert_finding(&l.diags, DG_ERROR, "/etc/ssh/sshd_config", 7,
			       "UsePAM is \"no\", so sshd runs no PAM stack: "
			       "the module does not run there, so no rule for "
			       "service \"sshd\" applies, and those logins "
			       "keep every group");
		assert_int_equal(n_of(&l.diags, DG_ERROR), 1);
		done(&l);
	}
}

static void test_every_program_has_a_line_or_a_way_out(void **state)
{
	size_t n;
	const struct dg_program *p = dg_programs(&n);

	(void)state;
	for (size_t i = 0; i < n; i++) {
		bool trims = false;

		for (int f = 0; f < DG_PAM_FACILITIES; f++)
			trims |= p[i].effect[f] == DG_EFFECT_TRIMS;
		/* a row that trims somewhere says with what; one that cannot
		 * says what to do instead */
		assert_true(trims ? p[i].fix != NULL : p[i].instead != NULL);
		assert_ptr_equal(dg_programs_find(p[i].service), &p[i]);
	}
	assert_null(dg_programs_find("nosuch"));
}

/* Each action a failure of the module can meet, judged as libpam runs it:
 * "reset" forgets the failure (and every one before it), a jump skips it
 * outside auth, and in auth both of the module's codes count (pam_setcred
 * replays pam_authenticate's answer). */
static void test_every_action_on_a_failure(void **state)
{
	struct linted l;

	(void)state;
	LINT(&l,
	     "version = 1; restricting = ( );\n"
	     "rules = ( { services = [ \"su\", \"y\", \"cron\", \"x\" ]; "
	     "drop = \"*\"; no_new_privs = true; } );\n",
	     {"su", "session [success=ok default=reset] pam_dropgroups.so\n"},
	     {"y", "session [success=ok default=1] pam_dropgroups.so\n"},
	     {"cron", "auth [success=ok cred_err=ignore default=bad] "
		      "pam_dropgroups.so\n"},
	     {"x", "auth [success=ok auth_err=ignore default=bad] "
		   "pam_dropgroups.so\n"});
	assert_finding(&l.diags, DG_ERROR, "/etc/pam.d/su", 1,
		       "with \"[success=ok default=reset]\" a failure of the "
		       "module does not count");
	assert_finding(&l.diags, DG_ERROR, "/etc/pam.d/y", 1,
		       "with \"[success=ok default=1]\" a failure of the "
		       "module does not count");
	assert_finding(&l.diags, DG_ERROR, "/etc/pam.d/cron", 1,
		       "a failure of the module does not count");
	assert_finding(&l.diags, DG_ERROR, "/etc/pam.d/x", 1,
		       "a failure of the module does not count");
	done(&l);
	/* the same lines with the failure counted: nothing to say */
	LINT(&l,
	     "version = 1; restricting = ( );\n"
	     "rules = ( { services = [ \"su\", \"y\", \"cron\" ]; "
	     "drop = \"*\"; no_new_privs = true; } );\n",
	     {"su", "session [success=ok default=die] pam_dropgroups.so\n"},
	     {"y", "session [success=ok default=ok] pam_dropgroups.so\n"},
	     {"cron", "auth [success=ok auth_err=bad default=done] "
		      "pam_dropgroups.so\n"});
	show(&l.diags);
	assert_int_equal(n_of(&l.diags, DG_ERROR), 0);
	done(&l);
}

/* On the module's PAM_SUCCESS, "reset" forgets the failures of the lines
 * before it: a wrong password would be forgotten. */
static void test_success_that_resets_is_reported(void **state)
{
	struct linted l;

	(void)state;
	LINT(&l,
	     "version = 1; restricting = ( );\n"
	     "rules = ( { services = [ \"login\" ]; drop = \"*\"; "
	     "no_new_privs = true; } );\n",
	     {"login", "auth required pam_unix.so\n"
		       "auth [success=reset default=bad] pam_dropgroups.so\n"});
	assert_finding(&l.diags, DG_ERROR, "/etc/pam.d/login", 2,
		       "forgets the failures before it");
	done(&l);
}

/* A bracket whose pairs a vertical tab parts ignores the failure, as
 * libpam reads it: lint must say so, not read every code as "bad". */
static void test_a_bracket_parted_by_any_blank(void **state)
{
	struct linted l;

	(void)state;
	LINT(&l,
	     "version = 1; restricting = ( );\n"
	     "rules = ( { services = [ \"su\", \"y\" ]; drop = \"*\"; "
	     "no_new_privs = true; } );\n",
	     {"su", "session [success=ok\vdefault=ignore] pam_dropgroups.so\n"},
	     {"y", "session [success=ok default=4294967297] "
		   "pam_dropgroups.so\n"});
	assert_finding(&l.diags, DG_ERROR, "/etc/pam.d/su", 1,
		       "a failure of the module does not count");
	assert_finding(&l.diags, DG_ERROR, "/etc/pam.d/y", 1,
		       "a failure of the module does not count");
	done(&l);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_shipped_snippets_are_clean),
		cmocka_unit_test(test_named_service_without_a_line),
		cmocka_unit_test(test_line_in_the_wrong_facility),
		cmocka_unit_test(test_controls_that_let_a_broken_policy_through),
		cmocka_unit_test(test_required_brackets_and_jumps_that_fail_closed),
		cmocka_unit_test(test_every_action_on_a_failure),
		cmocka_unit_test(test_success_that_resets_is_reported),
		cmocka_unit_test(test_a_bracket_parted_by_any_blank),
		cmocka_unit_test(test_arguments_the_module_refuses),
		cmocka_unit_test(test_sudo_needs_system_err_and_sshd_an_account_line),
		cmocka_unit_test(test_a_report_only_line_enforces_nothing),
		cmocka_unit_test(test_ways_back_in),
		cmocka_unit_test(test_pam_group_after_every_line_that_trims),
		cmocka_unit_test(test_the_rule_that_applies_at_a_way_back),
		cmocka_unit_test(test_the_first_rule_for_each_user_applies),
		cmocka_unit_test(test_atd_has_no_line_that_trims),
		cmocka_unit_test(test_star_rule_and_a_stack_without_the_module),
		cmocka_unit_test(test_a_stack_the_program_does_not_run),
		cmocka_unit_test(test_every_program_has_a_line_or_a_way_out),
		cmocka_unit_test(test_no_new_privs_disarms_a_set_user_id_program),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
