/* Property test of the policy core: 10,000 random (policy, starting
 * groups, user) cases through dg_policy_match and dg_policy_decide, each
 * checked against the invariants and against a simple independent oracle.
 *
 * The seed is fixed so that a failure reproduces; DG_PROPERTY_SEED and
 * DG_PROPERTY_CASES override it and the count. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "policy.h"
#include "strlist.h"

#define MAX_GIDS 48
#define MAX_RULES 5

static uint64_t rng_state;

static uint64_t rng(void)
{
	/* xorshift64*: small, fast, and the same everywhere */
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * 2685821657736338717ULL;
}

static unsigned below(unsigned n) { return (unsigned)(rng() % n); }
static bool chance(unsigned percent) { return below(100) < percent; }

/* A small universe, so that sets overlap often, plus a few extremes. */
static gid_t random_gid(void)
{
	static const gid_t extremes[] = {0, 1, 65534, 65535, 4294967294u};

	if (chance(5))
		return extremes[below(5)];
	return 100 + below(40);
}

static size_t random_gids(gid_t *v, size_t max)
{
	size_t n = below((unsigned)max + 1);

	for (size_t i = 0; i < n; i++)
		v[i] = random_gid();
	return n;
}

static char *services[] = {"sshd", "login", "su", "sudo", "*"};
static char *user_names[] = {"alice", "bob", "carol"};

struct random_rule {
	struct dg_rule_src src;
	char *svc[3];
	char *users[2];
	gid_t named[MAX_GIDS];
	gid_t user_groups[4];
	struct dg_user_group entries[4];
};

struct random_case {
	gid_t restricting[MAX_GIDS];
	struct random_rule rr[MAX_RULES];
	struct dg_rule rules[MAX_RULES];
	struct dg_policy policy;
	gid_t user_groups[MAX_GIDS];
	struct dg_user user;
	gid_t start[MAX_GIDS * 2];
	size_t n_start;
	const char *service;
};

static void make_case(struct random_case *c)
{
	size_t n;

	memset(c, 0, sizeof(*c));
	n = dg_gids_normalize(c->restricting, random_gids(c->restricting, 6));
	c->policy.restricting = (struct dg_gids){c->restricting, n};
	c->policy.n_rules = 1 + below(MAX_RULES);
	c->policy.rules = c->rules;
	for (size_t i = 0; i < c->policy.n_rules; i++) {
		struct random_rule *r = &c->rr[i];
		struct dg_rule *rule = &c->rules[i];
		size_t ns = 1 + below(3), nu = below(3), ng;

		for (size_t k = 0; k < ns; k++)
			r->svc[k] = services[below(5)];
		r->src.services = (struct dg_strlist){r->svc, ns, ns};
		r->src.users_given = chance(60);
		for (size_t k = 0; k < nu && r->src.users_given; k++)
			r->users[k] = chance(10) ? "*" : user_names[below(3)];
		r->src.users = (struct dg_strlist){
			r->users, r->src.users_given ? nu : 0, 2};
		r->src.mode = rule->mode = chance(50) ? DG_MODE_DROP : DG_MODE_KEEP;
		r->src.line = (int)i + 1;
		rule->src = &r->src;
		rule->label = "random";
		rule->any_user = !r->src.users_given;
		for (size_t k = 0; k < r->src.users.n; k++)
			if (strcmp(r->users[k], "*") == 0)
				rule->any_user = true;
		ng = r->src.users_given ? below(3) : 0;
		for (size_t k = 0; k < ng; k++)
			r->user_groups[k] = random_gid();
		ng = dg_gids_normalize(r->user_groups, ng);
		for (size_t k = 0; k < ng; k++)
			r->entries[k] = (struct dg_user_group){"g", r->user_groups[k], 1};
		rule->user_groups = r->entries;
		rule->n_user_groups = ng;
		rule->all = chance(20);
		n = dg_gids_normalize(r->named, random_gids(r->named, 12));
		rule->named = (struct dg_gids){r->named, n};
	}
	c->user.name = user_names[below(3)];
	c->user.primary_gid = random_gid();
	n = dg_gids_normalize(c->user_groups, random_gids(c->user_groups, 10));
	c->user.groups = (struct dg_gids){c->user_groups, n};
	c->user.member.listed = DG_LISTED_WHOLE;
	c->n_start = random_gids(c->start, MAX_GIDS * 2);
	c->service = chance(10) ? "cron" : services[below(4)];
}

static bool has(const gid_t *v, size_t n, gid_t g)
{
	for (size_t i = 0; i < n; i++)
		if (v[i] == g)
			return true;
	return false;
}

static bool has_str(char *const *v, size_t n, const char *s)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(v[i], s) == 0)
			return true;
	return false;
}

/* The oracle: the same rules, written the slow and obvious way. */
static long oracle_match(const struct random_case *c)
{
	for (size_t i = 0; i < c->policy.n_rules; i++) {
		const struct dg_rule *r = &c->rules[i];
		const struct dg_rule_src *s = r->src;
		bool svc = has_str(s->services.v, s->services.n, c->service) ||
			   has_str(s->services.v, s->services.n, "*");
		bool usr = !s->users_given ||
			   has_str(s->users.v, s->users.n, "*") ||
			   has_str(s->users.v, s->users.n, c->user.name);

		for (size_t k = 0; k < r->n_user_groups; k++)
			if (r->user_groups[k].gid == c->user.primary_gid ||
			    has(c->user.groups.v, c->user.groups.n,
				r->user_groups[k].gid))
				usr = true;
		if (svc && usr)
			return (long)i;
	}
	return -1;
}

static bool oracle_keeps(const struct random_case *c, const struct dg_rule *r,
			 gid_t g)
{
	bool named = r->all || has(r->named.v, r->named.n, g);

	if (has(c->policy.restricting.v, c->policy.restricting.n, g) ||
	    g == c->user.primary_gid)
		return true;
	return r->mode == DG_MODE_DROP ? !named : named;
}

/* dg_policy_match, with every group entry it asks for read and listing
 * nobody (the list is whole): the rule index, or -1. */
static long match(const struct random_case *c)
{
	struct dg_user u = c->user;
	struct dg_match m;

	for (;;) {
		dg_policy_match(&c->policy, c->service, &u, &m);
		if (m.kind != DG_MATCH_ASK_ENTRY)
			break;
		assert_int_equal(dg_gids_add(&u.member.entry_silent,
					     m.group->gid), 0);
	}
	dg_gids_free(&u.member.entry_silent);
	if (m.kind != DG_MATCH_RULE && m.kind != DG_MATCH_NONE)
		fail_msg("dg_policy_match left kind %d", m.kind);
	return m.kind == DG_MATCH_RULE ? (long)m.rule : -1;
}

static void check_case(const struct random_case *c, unsigned long long id)
{
	long m = match(c);
	struct dg_decision d1, d2;
	const struct dg_rule *r;

	if (m != oracle_match(c))
		fail_msg("case %llu: matched rule %ld, oracle %ld", id, m,
			 oracle_match(c));
	if (m < 0)
		return;
	r = &c->rules[m];
	assert_int_equal(dg_policy_decide(c->start, c->n_start,
					  c->user.primary_gid, &c->policy, r,
					  NULL, &d1),
			 0);
	assert_int_equal(dg_policy_decide(c->start, c->n_start,
					  c->user.primary_gid, &c->policy, r,
					  NULL, &d2),
			 0);
	/* deterministic */
	if (d1.groups.n != d2.groups.n || d1.changed != d2.changed ||
	    (d1.groups.n && memcmp(d1.groups.v, d2.groups.v,
				   d1.groups.n * sizeof(gid_t))))
		fail_msg("case %llu: two runs disagree", id);
	/* sorted, unique, and a subset of the start */
	for (size_t i = 0; i < d1.groups.n; i++) {
		if (i && d1.groups.v[i - 1] >= d1.groups.v[i])
			fail_msg("case %llu: result not sorted/unique", id);
		if (!has(c->start, c->n_start, d1.groups.v[i]))
			fail_msg("case %llu: gid %u was added", id,
				 (unsigned)d1.groups.v[i]);
	}
	/* restricting and primary stay; everything else as the oracle says */
	for (size_t i = 0; i < c->n_start; i++) {
		gid_t g = c->start[i];
		bool kept = has(d1.groups.v, d1.groups.n, g);

		if (has(c->policy.restricting.v, c->policy.restricting.n, g) &&
		    !kept)
			fail_msg("case %llu: restricting gid %u dropped", id,
				 (unsigned)g);
		if (g == c->user.primary_gid && !kept)
			fail_msg("case %llu: primary gid %u dropped", id,
				 (unsigned)g);
		if (kept != oracle_keeps(c, r, g))
			fail_msg("case %llu: gid %u kept=%d, oracle says %d", id,
				 (unsigned)g, kept, oracle_keeps(c, r, g));
	}
	if (d1.changed != (d1.groups.n != d1.n_verdicts))
		fail_msg("case %llu: changed flag is wrong", id);
	dg_policy_decision_free(&d1);
	dg_policy_decision_free(&d2);
}

static void random_cases_keep_the_invariants(void **state)
{
	const char *seed = getenv("DG_PROPERTY_SEED");
	const char *count = getenv("DG_PROPERTY_CASES");
	unsigned long long n = count ? strtoull(count, NULL, 10) : 10000;
	unsigned long long matched = 0;
	struct random_case *c = malloc(sizeof(*c));

	(void)state;
	assert_non_null(c);
	rng_state = seed ? strtoull(seed, NULL, 0) : 0x5eed0f6a11ULL;
	if (!rng_state)
		rng_state = 1;
	printf("# property: %llu cases, seed %s\n", n, seed ? seed : "0x5eed0f6a11");
	for (unsigned long long i = 0; i < n; i++) {
		make_case(c);
		check_case(c, i);
		matched += match(c) >= 0;
	}
	printf("# property: %llu of %llu cases matched a rule\n", matched, n);
	/* a generator that never matches would prove nothing */
	assert_true(matched > n / 4);
	free(c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(random_cases_keep_the_invariants),
	};

	return cmocka_run_group_tests_name("property", tests, NULL, NULL);
}
