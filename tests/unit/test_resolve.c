/* Unit tests of resolution (resolve.c): a policy parsed by the real
 * parser, built against NSS answers made up here.  No NSS, no root. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "resolve.h"
#include "match.h"
#include "strlist.h"

/* One made-up NSS answer: found (1, gid), absent (0) or failed (-errno). */
struct fake {
	const char *name;
	int status;
	gid_t gid;
};

static const struct fake world[] = {
	{"audio", 1, 29},
	{"games-abusers", 1, 2003},
	{"gamers", 1, 2003}, /* an alias of 2003 */
	{"ldap-down", 0, 0},         /* offline: "not found" */
	{"broken", -ENOENT, 0},      /* nslcd down: UNAVAIL, ENOENT */
	{"students", 1, 3000},
	{"users", 1, 100},
	{"alice", 1, 0},
};

/* The answers NSS would give for exactly the names the policy needs. */
static void answer(const struct dg_strlist *names, struct dg_name_answers *out)
{
	out->v = calloc(names->n + 1, sizeof(*out->v));
	out->n = names->n;
	assert_non_null(out->v);
	for (size_t i = 0; i < names->n; i++) {
		out->v[i] = (struct dg_name_answer){.name = strdup(names->v[i]),
						    .status = 0};
		for (size_t j = 0; j < sizeof(world) / sizeof(*world); j++)
			if (strcmp(world[j].name, names->v[i]) == 0) {
				out->v[i].status = world[j].status;
				out->v[i].gid = world[j].gid;
			}
	}
}

struct built {
	struct dg_config cfg;
	struct dg_policy policy;
	struct dg_diags diags;
};

/* Parse text, look its names up in `world`, and build the policy. */
static void build(struct built *b, const char *text, bool check_users)
{
	struct dg_strlist names = {0}, users = {0};
	struct dg_name_answers ga = {0}, ua = {0};

	*b = (struct built){0};
	assert_int_equal(dg_config_parse(&b->cfg, "t.conf", text, DG_MAIN_FILE,
					 &b->diags),
			 0);
	assert_false(dg_diag_failed(&b->diags));
	assert_int_equal(dg_resolve_group_names(&b->cfg, &names), 0);
	assert_int_equal(dg_resolve_user_names(&b->cfg, &users), 0);
	answer(&names, &ga);
	answer(&users, &ua);
	assert_int_equal(dg_resolve_policy(&b->cfg, &ga,
					   check_users ? &ua : NULL, &b->policy,
					   &b->diags),
			 0);
	dg_strlist_free(&names);
	dg_strlist_free(&users);
	dg_resolve_answers_free(&ga);
	dg_resolve_answers_free(&ua);
}

static void unbuild(struct built *b)
{
	dg_policy_free(&b->policy);
	dg_config_free(&b->cfg);
	dg_diag_free(&b->diags);
}

static void expect_first_error(struct built *b, int line, const char *what)
{
	const struct dg_diag *e = dg_diag_first_error(&b->diags);

	if (!e)
		fail_msg("no error, want \"%s\"", what);
	if (e->line != line || !strstr(e->message, what))
		fail_msg("want %d \"%s\", got %d \"%s\"", line, what, e->line,
			 e->message);
}

#define HEAD "version = 1;\n"

static void restricting_names_resolve_and_are_kept_as_names(void **state)
{
	struct built b;

	(void)state;
	build(&b, HEAD "restricting = ( \"games-abusers\", 7 );\n", false);
	assert_false(dg_diag_failed(&b.diags));
	assert_int_equal(b.policy.restricting.n, 2);
	assert_int_equal(b.policy.restricting.v[0], 7);
	assert_int_equal(b.policy.restricting.v[1], 2003);
	assert_int_equal(b.policy.restricting_names.n, 1);
	assert_string_equal(b.policy.restricting_names.v[0], "games-abusers");
	unbuild(&b);
}

/* An offline directory can answer "not found" for a group that exists. */
static void restricting_name_that_does_not_resolve_is_an_error(void **state)
{
	struct built b;

	(void)state;
	build(&b, HEAD "restricting = (\n \"games-abusers\",\n \"ldap-down\" );\n",
	      false);
	expect_first_error(&b, 4, "restricting group \"ldap-down\" does not exist");
	unbuild(&b);
}

static void optional_restricting_name_may_be_missing(void **state)
{
	struct built b;

	(void)state;
	build(&b, HEAD "restricting = ( { name = \"ldap-down\"; optional = true; } );\n",
	      false);
	assert_false(dg_diag_failed(&b.diags));
	assert_int_equal(b.diags.n, 1);
	assert_int_equal(b.diags.v[0].severity, DG_WARNING);
	/* still protected by name */
	assert_int_equal(b.policy.restricting.n, 0);
	assert_string_equal(b.policy.restricting_names.v[0], "ldap-down");
	unbuild(&b);
}

static void nss_failure_on_any_group_name_is_an_error(void **state)
{
	struct built b;

	(void)state;
	build(&b, HEAD "restricting = ( { name = \"broken\"; optional = true; } );\n",
	      false);
	expect_first_error(&b, 2, "looking up group \"broken\" in restricting failed");
	unbuild(&b);
	build(&b, HEAD "restricting = ( );\nrules = ( { services = \"s\";\n"
		       " keep = \"broken\"; } );\n",
	      false);
	expect_first_error(&b, 4, "looking up group \"broken\" in keep failed");
	unbuild(&b);
	/* check refuses it; the module refuses the users that reach the
	 * rule (dg_policy_match), and no one else */
	build(&b, HEAD "restricting = ( );\nrules = ( { services = \"s\";\n"
		       " users = \"%broken\"; drop = 1; } );\n",
	      true);
	expect_first_error(&b, 4, "looking up group \"broken\" in users of rule");
	unbuild(&b);
	build(&b, HEAD "restricting = ( );\nrules = ( { services = \"s\";\n"
		       " users = \"%broken\"; drop = 1; } );\n",
	      false);
	assert_false(dg_diag_failed(&b.diags));
	assert_int_equal(b.policy.rules[0].n_user_groups, 1);
	assert_int_equal(b.policy.rules[0].user_groups[0].status, -ENOENT);
	unbuild(&b);
}

/* Offline SSSD with a cold cache answers "not found" for a group that
 * exists: a "%group" that does not resolve refuses whoever reaches its
 * rule, unless written as optional. */
static void percent_group_that_does_not_resolve_refuses_unless_optional(void **state)
{
	struct built b;

	(void)state;
	build(&b, HEAD "restricting = ( );\nrules = ( { services = \"s\";\n"
		       " users = \"%ldap-down\"; drop = 1; } );\n",
	      true);
	expect_first_error(&b, 4, "group \"ldap-down\" in users of rule");
	unbuild(&b);
	build(&b, HEAD "restricting = ( );\nrules = ( { services = \"s\";\n"
		       " users = ( \"alice\", { name = \"%ldap-down\"; optional = true; } );\n"
		       " drop = 1; } );\n",
	      true);
	assert_false(dg_diag_failed(&b.diags));
	assert_int_equal(b.policy.rules[0].n_user_groups, 0);
	assert_non_null(strstr(b.diags.v[0].message,
			       "group \"ldap-down\" (optional) in users of rule"));
	unbuild(&b);
	/* optional covers "does not exist", never a failure */
	build(&b, HEAD "restricting = ( );\nrules = ( { services = \"s\";\n"
		       " users = ( { name = \"%broken\"; optional = true; } ); drop = 1; } );\n",
	      true);
	expect_first_error(&b, 4, "looking up group \"broken\" in users of rule");
	unbuild(&b);
}

static void unknown_drop_keep_and_percent_names_are_warnings(void **state)
{
	struct built b;

	(void)state;
	build(&b, HEAD "restricting = ( );\nrules = (\n"
		       " { services = \"s\"; users = \"%ldap-down\"; drop = \"ldap-down\"; },\n"
		       " { services = \"s\"; keep = [ \"users\", \"ldap-down\" ]; } );\n",
	      false);
	assert_false(dg_diag_failed(&b.diags));
	assert_int_equal(b.diags.n, 3);
	/* kept, with no answer: the users that reach the rule are refused */
	assert_int_equal(b.policy.rules[0].n_user_groups, 1);
	assert_int_equal(b.policy.rules[0].user_groups[0].status, 0);
	assert_int_equal(b.policy.rules[0].named.n, 0);
	/* keep keeps by name, found or not */
	assert_int_equal(b.policy.rules[1].named.n, 1);
	assert_int_equal(b.policy.rules[1].keep_names.n, 2);
	unbuild(&b);
}

/* The module matches user names as written and never looks them up;
 * check looks them up only to warn about typos. */
static void user_names_are_looked_up_only_for_check(void **state)
{
	struct built b;
	const char *text = HEAD "restricting = ( );\n"
			   "rules = ( { services = \"s\"; users = [ \"alice\", \"alcie\" ]; drop = 1; } );\n";

	(void)state;
	build(&b, text, false);
	assert_int_equal(b.diags.n, 0);
	assert_false(b.policy.rules[0].any_user);
	unbuild(&b);
	build(&b, text, true);
	assert_int_equal(b.diags.n, 1);
	assert_non_null(strstr(b.diags.v[0].message, "user \"alcie\""));
	unbuild(&b);
}

/* Every way of saying "everyone", and an empty list meaning nobody. */
static void users_star_absent_and_empty(void **state)
{
	struct built b;

	(void)state;
	build(&b, HEAD "restricting = ( );\nrules = (\n"
		       " { services = \"s\"; drop = 1; },\n"
		       " { services = \"s\"; users = [ \"bob\", \"*\" ]; drop = 1; },\n"
		       " { services = \"s\"; users = [ ]; drop = 1; } );\n",
	      false);
	assert_true(b.policy.rules[0].any_user);
	assert_true(b.policy.rules[1].any_user);
	assert_false(b.policy.rules[2].any_user);
	assert_int_equal(b.policy.rules[2].n_user_groups, 0);
	unbuild(&b);
}

static void drop_naming_a_restricting_group_warns(void **state)
{
	struct built b;

	(void)state;
	build(&b, HEAD "restricting = ( \"games-abusers\" );\n"
		       "rules = ( { name = \"r\"; services = \"s\";\n"
		       " drop = ( \"gamers\", 2003, \"audio\" ); } );\n",
	      false);
	assert_false(dg_diag_failed(&b.diags));
	assert_int_equal(b.diags.n, 2);
	assert_non_null(strstr(b.diags.v[0].message,
			       "names restricting group gamers(2003) in drop"));
	assert_non_null(strstr(b.diags.v[1].message,
			       "names restricting gid 2003 in drop"));
	unbuild(&b);
}

/* Matching and deciding through the real parser and resolver, not
 * through rules built by hand. */
static struct dg_user user_alice(void)
{
	static gid_t groups[] = {29, 100, 3000};

	return (struct dg_user){.name = "alice", .uid = 1001,
				.primary_gid = 1001,
				.groups = {groups, 3},
				.member = {.listed = DG_LISTED_WHOLE}};
}

static void empty_users_matches_nobody(void **state)
{
	struct built b;
	struct dg_user u = user_alice();

	(void)state;
	build(&b, HEAD "restricting = ( );\nrules = (\n"
		       " { services = \"s\"; users = [ ]; drop = 1; } );\n",
	      false);
	assert_int_equal(match(&b.policy, "s", &u), -1);
	unbuild(&b);
}

/* Services and user names match as written: "SSHD" is not "sshd". */
static void services_and_users_match_case_sensitively(void **state)
{
	struct built b;
	struct dg_user u = user_alice();

	(void)state;
	build(&b, HEAD "restricting = ( );\nrules = (\n"
		       " { services = \"S\"; drop = 1; },\n"
		       " { services = \"t\"; users = [ \"ALICE\" ]; drop = 1; } );\n",
	      false);
	assert_int_equal(match(&b.policy, "s", &u), -1);
	assert_int_equal(match(&b.policy, "S", &u), 0);
	assert_int_equal(match(&b.policy, "t", &u), -1);
	u.name = "ALICE";
	assert_int_equal(match(&b.policy, "t", &u), 1);
	unbuild(&b);
}

/* "%g" counts the primary gid as membership, even where the user's group
 * list (as NSS gave it) does not hold it. */
static void percent_group_matches_the_primary_gid(void **state)
{
	struct built b;
	struct dg_user u = user_alice();

	(void)state;
	build(&b, HEAD "restricting = ( );\nrules = (\n"
		       " { services = \"s\"; users = \"%users\"; drop = 1; } );\n",
	      false);
	u.groups = (struct dg_gids){0};
	assert_int_equal(match(&b.policy, "s", &u), -1);
	u.primary_gid = 100;
	assert_int_equal(match(&b.policy, "s", &u), 0);
	unbuild(&b);
}

/* An alias: restricting names "gamers", the rule drops "games-abusers",
 * the same gid 2003: it stays. */
static void alias_of_a_restricting_name_stays(void **state)
{
	struct built b;
	struct dg_decision d;
	gid_t cur[] = {29, 1001, 2003};

	(void)state;
	build(&b, HEAD "restricting = ( \"gamers\" );\nrules = (\n"
		       " { services = \"s\"; drop = ( \"games-abusers\", \"audio\" ); } );\n",
	      false);
	assert_int_equal(dg_policy_decide(cur, 3, 1001, &b.policy,
					  &b.policy.rules[0], NULL, &d),
			 0);
	assert_int_equal(d.groups.n, 2);
	assert_int_equal(d.groups.v[0], 1001);
	assert_int_equal(d.groups.v[1], 2003);
	dg_policy_decision_free(&d);
	unbuild(&b);
}

/* The names whose "not found" NSS is asked twice: the "%group" entries
 * of users lists, once each, and no other name the policy gives. */
static void user_groups_are_the_percent_entries_alone(void **state)
{
	struct dg_config cfg = {0};
	struct dg_diags diags = {0};
	struct dg_strlist names = {0};

	(void)state;
	assert_int_equal(dg_config_parse(&cfg, "t.conf",
					 HEAD "restricting = ( \"games-abusers\" );\n"
					 "rules = (\n"
					 " { services = \"s\"; users = ( \"%users\", \"alice\", \"%students\" ); drop = \"audio\"; },\n"
					 " { services = \"t\"; users = \"%students\"; drop = 1; } );\n",
					 DG_MAIN_FILE, &diags),
			 0);
	assert_false(dg_diag_failed(&diags));
	assert_int_equal(dg_resolve_user_group_names(&cfg, &names), 0);
	assert_int_equal(names.n, 2);
	assert_string_equal(names.v[0], "students");
	assert_string_equal(names.v[1], "users");
	dg_strlist_free(&names);
	dg_config_free(&cfg);
	dg_diag_free(&diags);

	assert_int_equal(dg_config_parse(&cfg, "t.conf",
					 HEAD "restricting = ( );\n"
					 "rules = ( { services = \"s\"; users = \"alice\"; drop = 1; } );\n",
					 DG_MAIN_FILE, &diags),
			 0);
	assert_int_equal(dg_resolve_user_group_names(&cfg, &names), 0);
	assert_int_equal(names.n, 0);
	dg_strlist_free(&names);
	dg_config_free(&cfg);
	dg_diag_free(&diags);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(restricting_names_resolve_and_are_kept_as_names),
		cmocka_unit_test(restricting_name_that_does_not_resolve_is_an_error),
		cmocka_unit_test(optional_restricting_name_may_be_missing),
		cmocka_unit_test(nss_failure_on_any_group_name_is_an_error),
		cmocka_unit_test(unknown_drop_keep_and_percent_names_are_warnings),
		cmocka_unit_test(percent_group_that_does_not_resolve_refuses_unless_optional),
		cmocka_unit_test(user_names_are_looked_up_only_for_check),
		cmocka_unit_test(users_star_absent_and_empty),
		cmocka_unit_test(drop_naming_a_restricting_group_warns),
		cmocka_unit_test(empty_users_matches_nobody),
		cmocka_unit_test(services_and_users_match_case_sensitively),
		cmocka_unit_test(percent_group_matches_the_primary_gid),
		cmocka_unit_test(alias_of_a_restricting_name_stays),
		cmocka_unit_test(user_groups_are_the_percent_entries_alone),
	};

	return cmocka_run_group_tests_name("resolve", tests, NULL, NULL);
}
