/* Unit tests of the pure policy core: dg_decide and dg_policy_match.
 * No root, no NSS, no syscalls: rules are built by hand, as nss.c would
 * have resolved them. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "policy.h"

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

/* Run dg_decide and compare the new list with `want`. */
static void expect_groups(const gid_t *cur, size_t n, gid_t primary,
			  struct dg_gids restricting, struct dg_rule rule,
			  struct dg_gids want, bool changed)
{
	struct dg_decision d;

	assert_int_equal(dg_decide(cur, n, primary, &restricting, &rule, &d),
			 0);
	assert_int_equal(d.groups.n, want.n);
	for (size_t i = 0; i < want.n; i++)
		assert_int_equal(d.groups.v[i], want.v[i]);
	assert_int_equal(d.changed, changed);
	dg_decision_free(&d);
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
	struct dg_gids restricting = GIDS(ABUSERS);
	struct dg_rule r = drop_rule(GIDS(AUDIO, ABUSERS), false);

	(void)state;
	assert_int_equal(dg_decide(cur, N(cur), ALICE, &restricting, &r, &d), 0);
	assert_int_equal(d.groups.n, 2);
	assert_int_equal(d.groups.v[0], ALICE);
	assert_int_equal(d.groups.v[1], ABUSERS);
	/* and the verdict says why, flagged for the LOG_NOTICE */
	assert_int_equal(d.verdicts[2].gid, ABUSERS);
	assert_true(d.verdicts[2].kept);
	assert_int_equal(d.verdicts[2].reason, DG_REASON_RESTRICTING);
	assert_true(d.verdicts[2].restricting_named);
	dg_decision_free(&d);
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
static void alias_of_restricting_gid_is_restricting(void **state)
{
	gid_t cur[] = {ALICE, ABUSERS};

	(void)state;
	expect_groups(cur, N(cur), ALICE, GIDS(ABUSERS),
		      drop_rule(GIDS(ABUSERS), false), GIDS(ALICE, ABUSERS),
		      false);
}

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
	struct dg_gids restricting = GIDS(ABUSERS);
	struct dg_rule r = drop_rule(GIDS(AUDIO), false);
	struct dg_decision d;

	(void)state;
	assert_int_equal(dg_decide(cur, N(cur), ALICE, &restricting, &r, &d), 0);
	/* sorted: 29 audio, 100 users, 1001 alice, 2003 abusers */
	assert_string_equal(dg_reason_text(d.verdicts[0].reason), "named");
	assert_false(d.verdicts[0].kept);
	assert_string_equal(dg_reason_text(d.verdicts[1].reason), "not named");
	assert_true(d.verdicts[1].kept);
	assert_string_equal(dg_reason_text(d.verdicts[2].reason), "primary");
	assert_string_equal(dg_reason_text(d.verdicts[3].reason), "restricting");
	assert_false(d.verdicts[3].restricting_named);
	dg_decision_free(&d);
}

/* --- matching --- */

static struct dg_user alice(void)
{
	static gid_t groups[] = {USERS, ALICE, STUDENTS};

	return (struct dg_user){.name = "alice", .uid = ALICE,
				.primary_gid = ALICE,
				.groups = {groups, N(groups)}};
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
	assert_int_equal(dg_policy_match(&p, "sshd", &u), 0);
	assert_int_equal(dg_policy_match(&p, "login", &u), 0);
	assert_int_equal(dg_policy_match(&p, "su", &u), 1);
	p.n_rules = 1;
	assert_int_equal(dg_policy_match(&p, "su", &u), -1);
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
	assert_int_equal(dg_policy_match(&p, "su", &u), 0);
	u.name = "bob";
	assert_int_equal(dg_policy_match(&p, "su", &u), -1);
}

static void percent_group_matches_members(void **state)
{
	struct dg_rule_src s = {.services = {svc_any, 1, 1},
				.users_given = true};
	struct dg_rule rules[] = {{.src = &s, .user_groups = GIDS(STUDENTS)}};
	struct dg_policy p = {.rules = rules, .n_rules = 1};
	struct dg_user u = alice();

	(void)state;
	assert_int_equal(dg_policy_match(&p, "su", &u), 0);
	u.groups = GIDS(USERS);
	assert_int_equal(dg_policy_match(&p, "su", &u), -1);
	/* the primary group counts as membership, as for initgroups */
	u.primary_gid = STUDENTS;
	assert_int_equal(dg_policy_match(&p, "su", &u), 0);
}

static void empty_users_matches_nobody(void **state)
{
	struct dg_rule_src s = {.services = {svc_any, 1, 1},
				.users_given = true};
	struct dg_rule rules[] = {{.src = &s}};
	struct dg_policy p = {.rules = rules, .n_rules = 1};
	struct dg_user u = alice();

	(void)state;
	assert_int_equal(dg_policy_match(&p, "su", &u), -1);
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
		cmocka_unit_test(alias_of_restricting_gid_is_restricting),
		cmocka_unit_test(primary_group_is_never_dropped),
		cmocka_unit_test(keep_never_adds_a_group),
		cmocka_unit_test(primary_not_in_list_is_not_added),
		cmocka_unit_test(result_is_sorted_and_unique),
		cmocka_unit_test(gid_zero_and_large_gids),
		cmocka_unit_test(empty_start_gives_empty_result),
		cmocka_unit_test(explain_reasons),
		cmocka_unit_test(first_matching_rule_decides),
		cmocka_unit_test(user_name_matching),
		cmocka_unit_test(percent_group_matches_members),
		cmocka_unit_test(empty_users_matches_nobody),
		cmocka_unit_test(normalize_and_contains),
	};

	return cmocka_run_group_tests_name("policy", tests, NULL, NULL);
}
