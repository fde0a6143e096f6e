/* Unit tests of the pure policy core: dg_policy_decide and dg_policy_match.
 * No root, no NSS, no syscalls: rules are built by hand, as nss.c would
 * have resolved them. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "policy.h"
#include "match.h"
#include "strlist.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))
#define GIDS(...) ((struct dg_gids){(gid_t[]){__VA_ARGS__}, N(((gid_t[]){__VA_ARGS__}))})
/* Sets are sorted ascending, as dg_gids_from() makes them. */
#define NO_GIDS ((struct dg_gids){NULL, 0})

enum { ALICE = 1001, USERS = 100, AUDIO = 29, VIDEO = 44, ABUSERS = 2003,
       STUDENTS = 3000 };

static char *svc_ssh[] = {"sshd", "login"};
static char *svc_any[] = {"*"};
static char *users_alice[] = {"alice"};

static struct dg_rule_src src_ssh = {.name = "ssh", .file = "t.conf",
				     .line = 3,
				     .services = {svc_ssh, 2, 2}};

static struct dg_rule drop_rule(struct dg_gids named, bool all)
{
	return (struct dg_rule){.src = &src_ssh, .label = "ssh",
				.any_user = true, .mode = DG_MODE_DROP,
				.all = all, .named = named};
}

static struct dg_rule keep_rule(struct dg_gids named)
{
	struct dg_rule r = drop_rule(named, false);

	r.mode = DG_MODE_KEEP;
	return r;
}

/* A policy with these restricting gids and no restricting names. */
static struct dg_policy restricting_gids(struct dg_gids restricting)
{
	return (struct dg_policy){.restricting = restricting};
}

/* Run dg_policy_decide and compare the new list with `want`. */
static void expect_groups(const gid_t *cur, size_t n, gid_t primary,
			  struct dg_gids restricting, struct dg_rule rule,
			  struct dg_gids want, bool changed)
{
	struct dg_policy policy = restricting_gids(restricting);
	struct dg_decision d;

	assert_int_equal(
		dg_policy_decide(cur, n, primary, &policy, &rule, NULL, &d), 0);
	assert_int_equal(d.groups.n, want.n);
	for (size_t i = 0; i < want.n; i++)
		assert_int_equal(d.groups.v[i], want.v[i]);
	assert_int_equal(d.changed, changed);
	dg_policy_decision_free(&d);
}

static void drop_removes_named_groups_only(void **state)
{
	gid_t cur[] = {ALICE, USERS, AUDIO, VIDEO};

	(void)state;
	expect_groups(cur, N(cur), ALICE, NO_GIDS, drop_rule(GIDS(AUDIO), false),
		      GIDS(VIDEO, USERS, ALICE), true);
}

static void keep_drops_everything_not_named(void **state)
{
	gid_t cur[] = {ALICE, USERS, AUDIO, VIDEO};

	(void)state;
	expect_groups(cur, N(cur), ALICE, NO_GIDS, keep_rule(GIDS(USERS)),
		      GIDS(USERS, ALICE), true);
}

static void drop_star_drops_all_droppable(void **state)
{
	gid_t cur[] = {VIDEO, ALICE, ABUSERS, USERS, AUDIO};

	(void)state;
	expect_groups(cur, N(cur), ALICE, GIDS(ABUSERS),
		      drop_rule(NO_GIDS, true), GIDS(ALICE, ABUSERS), true);
}

static void keep_star_keeps_everything(void **state)
{
	gid_t cur[] = {ALICE, USERS, AUDIO};
	struct dg_rule r = keep_rule(NO_GIDS);

	(void)state;
	r.all = true;
	expect_groups(cur, N(cur), ALICE, NO_GIDS, r, GIDS(AUDIO, USERS, ALICE),
		      false);
}

static void restricting_group_is_never_dropped(void **state)
{
	gid_t cur[] = {ALICE, ABUSERS, AUDIO};
	struct dg_decision d;
	struct dg_policy policy = restricting_gids(GIDS(ABUSERS));
	struct dg_rule r = drop_rule(GIDS(AUDIO, ABUSERS), false);

	(void)state;

	assert_int_equal(
		dg_policy_decide(cur, N(cur), ALICE, &policy, &r, NULL, &d), 0);
	assert_int_equal(d.groups.n, 2);
	assert_int_equal(d.groups.v[0], ALICE);
	assert_int_equal(d.groups.v[1], ABUSERS);
	/* and the verdict says why, flagged for the LOG_NOTICE */
	assert_int_equal(d.verdicts[2].gid, ABUSERS);
	assert_true(d.verdicts[2].kept);
	assert_int_equal(d.verdicts[2].reason, DG_REASON_RESTRICTING);
	assert_true(d.verdicts[2].restricting_named);
	dg_policy_decision_free(&d);
}

static void restricting_group_survives_keep_rule(void **state)
{
	gid_t cur[] = {ALICE, ABUSERS, AUDIO};

	(void)state;
	expect_groups(cur, N(cur), ALICE, GIDS(ABUSERS), keep_rule(NO_GIDS),
		      GIDS(ALICE, ABUSERS), true);
}

/* An alias is another name for the same gid: resolution maps both names
 * to one gid, so naming the alias in drop cannot shed the restricting
 * group. */

static void primary_group_is_never_dropped(void **state)
{
	gid_t cur[] = {ALICE, USERS};

	(void)state;
	expect_groups(cur, N(cur), ALICE, NO_GIDS,
		      drop_rule(GIDS(USERS, ALICE), false), GIDS(ALICE), true);
	expect_groups(cur, N(cur), ALICE, NO_GIDS, keep_rule(NO_GIDS),
		      GIDS(ALICE), true);
}

static void keep_never_adds_a_group(void **state)
{
	gid_t cur[] = {ALICE, AUDIO};

	(void)state;
	expect_groups(cur, N(cur), ALICE, GIDS(ABUSERS),
		      keep_rule(GIDS(VIDEO, USERS, ABUSERS)), GIDS(ALICE), true);
}

static void primary_not_in_list_is_not_added(void **state)
{
	gid_t cur[] = {USERS, AUDIO};

	(void)state;
	expect_groups(cur, N(cur), ALICE, NO_GIDS, drop_rule(GIDS(AUDIO), false),
		      GIDS(USERS), true);
}

static void result_is_sorted_and_unique(void **state)
{
	gid_t cur[] = {VIDEO, USERS, VIDEO, ALICE, USERS};

	(void)state;
	expect_groups(cur, N(cur), ALICE, NO_GIDS, drop_rule(NO_GIDS, false),
		      GIDS(VIDEO, USERS, ALICE), false);
}

static void gid_zero_and_large_gids(void **state)
{
	gid_t cur[] = {0, 4294967294u, ALICE};

	(void)state;
	expect_groups(cur, N(cur), ALICE, NO_GIDS,
		      drop_rule(GIDS(0, 4294967294u), false), GIDS(ALICE), true);
}

static void empty_start_gives_empty_result(void **state)
{
	(void)state;
	expect_groups(NULL, 0, ALICE, NO_GIDS, drop_rule(NO_GIDS, true), NO_GIDS,
		      false);
}

static void explain_reasons(void **state)
{
	gid_t cur[] = {USERS, AUDIO, ALICE, ABUSERS};
	struct dg_policy policy = restricting_gids(GIDS(ABUSERS));
	struct dg_rule r = drop_rule(GIDS(AUDIO), false);
	struct dg_decision d;

	(void)state;

	assert_int_equal(
		dg_policy_decide(cur, N(cur), ALICE, &policy, &r, NULL, &d), 0);
	/* sorted: 29 audio, 100 users, 1001 alice, 2003 abusers */
	assert_string_equal(dg_policy_reason_text(d.verdicts[0].reason),
			    "named");
	assert_false(d.verdicts[0].kept);
	assert_string_equal(dg_policy_reason_text(d.verdicts[1].reason),
			    "not named");
	assert_true(d.verdicts[1].kept);
	assert_string_equal(dg_policy_reason_text(d.verdicts[2].reason),
			    "primary");
	assert_string_equal(dg_policy_reason_text(d.verdicts[3].reason),
			    "restricting");
	assert_false(d.verdicts[3].restricting_named);
	dg_policy_decision_free(&d);
}

/* --- names: two groups can share a name --- */

enum { ABUSERS_TOO = 2005 };

static char *abusers_names[] = {"games-abusers"};

/* games-abusers is 2003 by getgrnam_r, and NSS also calls 2005 so (a
 * directory group of the same name, say). */
static struct dg_gid_name seen_names[] = {{AUDIO, "audio"},
					  {ABUSERS_TOO, "games-abusers"}};

static gid_t abusers_gid[] = {ABUSERS};

static struct dg_policy abusers_by_name(void)
{
	/* (static data: a compound literal would die with this call) */
	return (struct dg_policy){
		.restricting = {abusers_gid, 1},
		.restricting_names = {abusers_names, 1, 1},
	};
}

static void restricting_name_keeps_every_gid_of_that_name(void **state)
{
	gid_t cur[] = {ALICE, ABUSERS, ABUSERS_TOO, AUDIO};
	struct dg_policy policy = abusers_by_name();
	struct dg_gid_names names = {.v = seen_names, .n = N(seen_names)};
	struct dg_rule r = drop_rule(NO_GIDS, true);
	struct dg_decision d;

	(void)state;
	assert_true(dg_policy_needs_names(&policy, &r));
	assert_int_equal(
		dg_policy_decide(cur, N(cur), ALICE, &policy, &r, &names, &d),
		0);
	/* sorted: 29 audio, 1001 alice, 2003, 2005 */
	assert_false(d.verdicts[0].kept);
	assert_true(d.verdicts[2].kept);
	assert_false(d.verdicts[2].by_name);
	assert_true(d.verdicts[3].kept);
	assert_true(d.verdicts[3].by_name);
	assert_int_equal(d.verdicts[3].reason, DG_REASON_RESTRICTING);
	assert_int_equal(d.groups.n, 3);
	dg_policy_decision_free(&d);
}

/* The baseline of the test above: without the names, 2005 goes. */
static void without_names_the_second_gid_is_dropped(void **state)
{
	gid_t cur[] = {ALICE, ABUSERS, ABUSERS_TOO, AUDIO};
	struct dg_policy policy = abusers_by_name();
	struct dg_rule r = drop_rule(NO_GIDS, true);
	struct dg_gids dropped;
	struct dg_decision d;

	(void)state;
	assert_int_equal(
		dg_policy_decide(cur, N(cur), ALICE, &policy, &r, NULL, &d), 0);
	assert_int_equal(d.groups.n, 2);
	/* ... and it is among the gids to name before deciding again */
	assert_int_equal(dg_policy_dropped(&d, &dropped), 0);
	assert_int_equal(dropped.n, 2);
	assert_int_equal(dropped.v[0], AUDIO);
	assert_int_equal(dropped.v[1], ABUSERS_TOO);
	dg_gids_free(&dropped);
	dg_policy_decision_free(&d);
}

static void keep_keeps_every_gid_of_a_kept_name(void **state)
{
	static char *users_name[] = {"users"};
	static struct dg_gid_name local_and_directory[] = {
		{USERS, "users"}, {7100, "users"}, {7200, "staff"}};
	gid_t cur[] = {ALICE, USERS, 7100, 7200};
	struct dg_policy policy = {0};
	struct dg_rule r = keep_rule(GIDS(USERS));
	struct dg_gid_names names = {.v = local_and_directory, .n = 3};

	(void)state;
	r.keep_names = (struct dg_strlist){users_name, 1, 1};
	assert_true(dg_policy_needs_names(&policy, &r));
	expect_groups(cur, N(cur), ALICE, NO_GIDS, r, GIDS(USERS, ALICE),
		      true);
	{
		struct dg_decision d;

		assert_int_equal(dg_policy_decide(cur, N(cur), ALICE, &policy,
						  &r, &names, &d),
				 0);
		assert_int_equal(d.groups.n, 3);
		assert_int_equal(d.groups.v[2], 7100);
		dg_policy_decision_free(&d);
	}
}

/* sudo compares group names ignoring case by default: so does the check
 * of restricting names, and of keep names. */
static void names_match_ignoring_case(void **state)
{
	static struct dg_gid_name upper[] = {{AUDIO, "AUDIO"},
					     {ABUSERS_TOO, "GAMES-ABUSERS"}};
	static char *audio_name[] = {"audio"};
	gid_t cur[] = {ALICE, AUDIO, ABUSERS_TOO};
	struct dg_policy policy = abusers_by_name();
	struct dg_rule r = keep_rule(NO_GIDS);
	struct dg_gid_names names = {.v = upper, .n = 2};
	struct dg_decision d;

	(void)state;
	r.keep_names = (struct dg_strlist){audio_name, 1, 1};
	assert_int_equal(
		dg_policy_decide(cur, N(cur), ALICE, &policy, &r, &names, &d),
		0);
	assert_int_equal(d.groups.n, 3);
	assert_true(d.verdicts[2].by_name);
	assert_int_equal(d.verdicts[0].reason, DG_REASON_NAMED);
	dg_policy_decision_free(&d);
}

/* A gid NSS has no name for might carry a restricting name that an
 * outage hides: with restricting names in the policy, it stays. */
static void unnamed_gid_stays_when_restricting_names_exist(void **state)
{
	static struct dg_gid_name no_name[] = {{AUDIO, "audio"}, {7001, NULL}};
	gid_t cur[] = {ALICE, AUDIO, 7001};
	struct dg_policy policy = abusers_by_name();
	struct dg_rule r = drop_rule(NO_GIDS, true);
	struct dg_gid_names names = {.v = no_name, .n = 2};
	struct dg_decision d;

	(void)state;
	assert_int_equal(
		dg_policy_decide(cur, N(cur), ALICE, &policy, &r, &names, &d),
		0);
	assert_int_equal(d.groups.n, 2);
	assert_int_equal(d.verdicts[2].gid, 7001);
	assert_true(d.verdicts[2].kept);
	assert_string_equal(dg_policy_reason_text(d.verdicts[2].reason),
			    "no name from NSS");
	dg_policy_decision_free(&d);
	/* without restricting names, a name cannot matter: it goes */
	policy = restricting_gids(NO_GIDS);
	assert_int_equal(
		dg_policy_decide(cur, N(cur), ALICE, &policy, &r, &names, &d),
		0);
	assert_int_equal(d.groups.n, 1);
	dg_policy_decision_free(&d);
}

/* A drop rule does not drop by name: only the gid the name resolved to. */
static void drop_does_not_drop_by_name(void **state)
{
	static struct dg_gid_name names_v[] = {{AUDIO, "audio"},
					       {7029, "audio"}};
	gid_t cur[] = {ALICE, AUDIO, 7029};
	struct dg_policy policy = {0};
	struct dg_rule r = drop_rule(GIDS(AUDIO), false);
	struct dg_gid_names names = {.v = names_v, .n = 2};
	struct dg_decision d;

	(void)state;
	assert_false(dg_policy_needs_names(&policy, &r));
	assert_int_equal(
		dg_policy_decide(cur, N(cur), ALICE, &policy, &r, &names, &d),
		0);
	assert_int_equal(d.groups.n, 2);
	assert_int_equal(d.groups.v[1], 7029);
	dg_policy_decision_free(&d);
}

/* --- matching --- */

static struct dg_user alice(void)
{
	static gid_t groups[] = {USERS, ALICE, STUDENTS};

	return (struct dg_user){.name = "alice", .uid = ALICE,
				.primary_gid = ALICE,
				.groups = {groups, N(groups)},
				.member = {.listed = DG_LISTED_WHOLE}};
}

static struct dg_user_group students_group[] = {{"students", STUDENTS, 1}};

/* dg_policy_match says kind, for rule (and group, where not NULL). */
static void expect_match(const struct dg_policy *p, const struct dg_user *u,
			 enum dg_match_kind kind, size_t rule,
			 const struct dg_user_group *group)
{
	struct dg_match m;

	dg_policy_match(p, "su", u, &m);
	assert_int_equal(m.kind, kind);
	assert_int_equal(m.rule, rule);
	if (group)
		assert_ptr_equal(m.group, group);
}

static void first_matching_rule_decides(void **state)
{
	struct dg_rule_src s1 = {.services = {svc_ssh, 2, 2}};
	struct dg_rule_src s2 = {.services = {svc_any, 1, 1}};
	struct dg_rule rules[] = {
		{.src = &s1, .any_user = true},
		{.src = &s2, .any_user = true},
	};
	struct dg_policy p = {.rules = rules, .n_rules = 2};
	struct dg_user u = alice();

	(void)state;
	assert_int_equal(match(&p, "sshd", &u), 0);
	assert_int_equal(match(&p, "login", &u), 0);
	assert_int_equal(match(&p, "su", &u), 1);
	p.n_rules = 1;
	assert_int_equal(match(&p, "su", &u), -1);
}

static void user_name_matching(void **state)
{
	struct dg_rule_src s = {.services = {svc_any, 1, 1},
				.users_given = true,
				.users = {users_alice, 1, 1}};
	struct dg_rule rules[] = {{.src = &s}};
	struct dg_policy p = {.rules = rules, .n_rules = 1};
	struct dg_user u = alice();

	(void)state;
	assert_int_equal(match(&p, "su", &u), 0);
	u.name = "bob";
	assert_int_equal(match(&p, "su", &u), -1);
}

static void percent_group_matches_members(void **state)
{
	struct dg_rule_src s = {.services = {svc_any, 1, 1},
				.users_given = true};
	struct dg_rule rules[] = {{.src = &s, .user_groups = students_group,
				   .n_user_groups = 1}};
	struct dg_policy p = {.rules = rules, .n_rules = 1};
	struct dg_user u = alice();

	(void)state;
	assert_int_equal(match(&p, "su", &u), 0);
	u.groups = GIDS(USERS);
	assert_int_equal(match(&p, "su", &u), -1);
	/* the primary group counts as membership, as for initgroups */
	u.primary_gid = STUDENTS;
	assert_int_equal(match(&p, "su", &u), 0);
}

/* "%students" names a group: a user called "%students" is no member. */
static void percent_entry_is_never_a_user_name(void **state)
{
	static char *users_group[] = {"%students", "*x"};
	struct dg_rule_src s = {.services = {svc_any, 1, 1},
				.users_given = true,
				.users = {users_group, 2, 2}};
	struct dg_rule rules[] = {{.src = &s}};
	struct dg_policy p = {.rules = rules, .n_rules = 1};
	struct dg_user u = alice();

	(void)state;
	u.name = "%students";
	assert_int_equal(match(&p, "su", &u), -1);
	u.name = "*x";
	assert_int_equal(match(&p, "su", &u), 0);
}


/* Two rules: "%students" first, everyone after.  The review's case: a
 * directory whose membership search fails while single look-ups answer
 * gave a short list, and the second rule applied. */
static struct dg_rule_src students_src = {.services = {svc_any, 1, 1},
					  .users_given = true};
static struct dg_rule_src rest_src = {.services = {svc_any, 1, 1}};

static struct dg_policy students_then_rest(struct dg_rule rules[2],
					   struct dg_user_group *g)
{
	rules[0] = (struct dg_rule){.src = &students_src, .user_groups = g,
				    .n_user_groups = 1};
	rules[1] = (struct dg_rule){.src = &rest_src, .any_user = true};
	return (struct dg_policy){.rules = rules, .n_rules = 2};
}

static void percent_group_asks_the_list_then_the_entry(void **state)
{
	struct dg_rule rules[2];
	struct dg_policy p = students_then_rest(rules, students_group);
	struct dg_user u = alice();
	(void)state;
	u.groups = GIDS(USERS, ALICE);
	u.member.listed = DG_LISTED_NOT_ASKED;
	expect_match(&p, &u, DG_MATCH_ASK_LIST, 0, NULL);
	/* a whole list without the gid: the entry is still asked (a cold
	 * cache answers a clean "none" for a user it does not know yet) */
	u.member.listed = DG_LISTED_WHOLE;
	expect_match(&p, &u, DG_MATCH_ASK_ENTRY, 0, &students_group[0]);
	assert_int_equal(dg_gids_add(&u.member.entry_silent, STUDENTS), 0);
	expect_match(&p, &u, DG_MATCH_RULE, 1, NULL);
	dg_gids_free(&u.member.entry_silent);
}

static void partial_list_never_moves_a_user_to_a_later_rule(void **state)
{
	struct dg_rule rules[2];
	struct dg_policy p = students_then_rest(rules, students_group);
	struct dg_user u = alice();
	(void)state;
	u.groups = GIDS(USERS, ALICE);
	u.member.listed = DG_LISTED_PARTIAL;
	assert_int_equal(dg_gids_add(&u.member.entry_silent, STUDENTS), 0);
	expect_match(&p, &u, DG_MATCH_UNDECIDED, 0, &students_group[0]);
	/* the baseline: the same answers from a whole list */
	u.member.listed = DG_LISTED_WHOLE;
	expect_match(&p, &u, DG_MATCH_RULE, 1, NULL);
	/* an entry that failed is no answer either */
	dg_gids_free(&u.member.entry_silent);
	assert_int_equal(dg_gids_add(&u.member.entry_failed, STUDENTS), 0);
	expect_match(&p, &u, DG_MATCH_UNDECIDED, 0, NULL);
	dg_gids_free(&u.member.entry_failed);
}

/* Any source that says "member" decides, partial list or not. */
static void a_member_is_a_member_whatever_failed(void **state)
{
	struct dg_rule rules[2];
	struct dg_policy p = students_then_rest(rules, students_group);
	struct dg_user u = alice();
	(void)state;
	u.member.listed = DG_LISTED_PARTIAL; /* groups has STUDENTS */
	expect_match(&p, &u, DG_MATCH_RULE, 0, NULL);
	u.groups = GIDS(USERS, ALICE);
	assert_int_equal(dg_gids_add(&u.member.entry_lists, STUDENTS), 0);
	expect_match(&p, &u, DG_MATCH_RULE, 0, NULL);
	dg_gids_free(&u.member.entry_lists);
	u.primary_gid = STUDENTS;
	expect_match(&p, &u, DG_MATCH_RULE, 0, NULL);
}

/* A "%group" that did not resolve (no such group, not optional; or NSS
 * failed) decides nothing: whoever reaches its rule is refused, unless a
 * name or another entry of the rule matches. */
static void unresolved_percent_group_refuses_who_reaches_it(void **state)
{
	static struct dg_user_group missing[] = {{"contractors", 0, 0},
						 {"students", STUDENTS, 1}};
	static struct dg_user_group failed[] = {{"contractors", 0, -EIO}};
	struct dg_rule rules[2];
	struct dg_policy p = students_then_rest(rules, missing);
	struct dg_user u = alice();
	(void)state;
	u.groups = GIDS(USERS, ALICE);
	expect_match(&p, &u, DG_MATCH_UNDECIDED, 0, &missing[0]);
	/* students says yes: the rule applies */
	rules[0].n_user_groups = 2;
	u.groups = GIDS(USERS, ALICE, STUDENTS);
	expect_match(&p, &u, DG_MATCH_RULE, 0, NULL);
	rules[0].user_groups = failed;
	rules[0].n_user_groups = 1;
	expect_match(&p, &u, DG_MATCH_UNDECIDED, 0, NULL);
	/* a rule for another service is never reached: no refusal there */
	students_src.services = (struct dg_strlist){svc_ssh, 2, 2};
	expect_match(&p, &u, DG_MATCH_RULE, 1, NULL);
	students_src.services = (struct dg_strlist){svc_any, 1, 1};
}

static void normalize_and_contains(void **state)
{
	gid_t v[] = {5, 3, 5, 1, 3};
	struct dg_gids s;

	(void)state;
	s.v = v;
	s.n = dg_gids_normalize(v, N(v));
	assert_int_equal(s.n, 3);
	assert_true(dg_gids_contains(&s, 1));
	assert_true(dg_gids_contains(&s, 5));
	assert_false(dg_gids_contains(&s, 4));
	assert_false(dg_gids_contains(&NO_GIDS, 4));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(drop_removes_named_groups_only),
		cmocka_unit_test(keep_drops_everything_not_named),
		cmocka_unit_test(drop_star_drops_all_droppable),
		cmocka_unit_test(keep_star_keeps_everything),
		cmocka_unit_test(restricting_group_is_never_dropped),
		cmocka_unit_test(restricting_group_survives_keep_rule),
		cmocka_unit_test(primary_group_is_never_dropped),
		cmocka_unit_test(keep_never_adds_a_group),
		cmocka_unit_test(primary_not_in_list_is_not_added),
		cmocka_unit_test(result_is_sorted_and_unique),
		cmocka_unit_test(gid_zero_and_large_gids),
		cmocka_unit_test(empty_start_gives_empty_result),
		cmocka_unit_test(explain_reasons),
		cmocka_unit_test(restricting_name_keeps_every_gid_of_that_name),
		cmocka_unit_test(without_names_the_second_gid_is_dropped),
		cmocka_unit_test(keep_keeps_every_gid_of_a_kept_name),
		cmocka_unit_test(drop_does_not_drop_by_name),
		cmocka_unit_test(unnamed_gid_stays_when_restricting_names_exist),
		cmocka_unit_test(names_match_ignoring_case),
		cmocka_unit_test(first_matching_rule_decides),
		cmocka_unit_test(user_name_matching),
		cmocka_unit_test(percent_group_matches_members),
		cmocka_unit_test(percent_entry_is_never_a_user_name),
		cmocka_unit_test(percent_group_asks_the_list_then_the_entry),
		cmocka_unit_test(partial_list_never_moves_a_user_to_a_later_rule),
		cmocka_unit_test(a_member_is_a_member_whatever_failed),
		cmocka_unit_test(unresolved_percent_group_refuses_who_reaches_it),
		cmocka_unit_test(normalize_and_contains),
	};

	return cmocka_run_group_tests_name("policy", tests, NULL, NULL);
}
