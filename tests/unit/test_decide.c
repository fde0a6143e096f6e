/* Exhaustive tests of the decision core (lib/decide.c) and of the edge
 * that feeds it (dg_policy_decide in lib/policy.c), over every input up
 * to a bound.
 *
 * `make prove` proves the core's contract for every input; these tests
 * check the same promises by running the compiled code, so that a goal a
 * prover version cannot discharge is still covered (HACKING.md), and
 * check what no proof covers: that the edge computes the facts as the
 * decision did before the core was split out (old_judge() below is that
 * decision, as it was). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "decide.h"
#include "policy.h"
#include "strlist.h"

#define MAX_N 4
#define SENTINEL 0xa5

/* The verdict for one gid, written from the documentation, not from
 * decide.c: restricting, else primary, else unnamed, else the mode. */
static unsigned char oracle(gid_t g, unsigned char f, gid_t primary, bool keep)
{
	bool named = f & DG_DECIDE_NAMED;

	if (f & (DG_DECIDE_BY_GID | DG_DECIDE_BY_NAME))
		return DG_REASON_RESTRICTING | DG_DECIDE_KEPT;
	if (g == primary)
		return DG_REASON_PRIMARY | DG_DECIDE_KEPT;
	if (f & DG_DECIDE_UNNAMED)
		return DG_REASON_UNNAMED | DG_DECIDE_KEPT;
	if (named)
		return DG_REASON_NAMED | (keep ? DG_DECIDE_KEPT : 0);
	return DG_REASON_NOT_NAMED | (keep ? 0 : DG_DECIDE_KEPT);
}

static unsigned long n_core_cases;

/* One input through the core, checked against the oracle and against
 * each promise of the contract in decide.h. */
static void check_core(const gid_t *gids, const unsigned char *facts,
		       size_t n, gid_t primary, bool keep)
{
	unsigned char verdicts[MAX_N + 1];
	gid_t kept[MAX_N + 1];
	size_t from[MAX_N + 1];
	bool sorted = true;
	size_t k, j = 0;

	memset(verdicts, SENTINEL, sizeof(verdicts));
	memset(kept, SENTINEL, sizeof(kept));
	memset(from, SENTINEL, sizeof(from));
	k = dg_decide_gids(gids, facts, n, primary, keep, verdicts, kept, from);
	n_core_cases++;
	/* (4) no more than given, and nothing written past n */
	assert_true(k <= n);
	assert_int_equal(verdicts[n], SENTINEL);
	assert_int_equal(((unsigned char *)&kept[n])[0], SENTINEL);
	assert_int_equal(((unsigned char *)&from[n])[0], SENTINEL);
	for (size_t i = 0; i < n; i++) {
		unsigned char want = oracle(gids[i], facts[i], primary, keep);

		assert_int_equal(verdicts[i], want);
		/* (2) and (3): the primary gid and every restricting gid
		 * stay */
		if (gids[i] == primary ||
		    (facts[i] & (DG_DECIDE_BY_GID | DG_DECIDE_BY_NAME)))
			assert_true(verdicts[i] & DG_DECIDE_KEPT);
		/* (1) and (4): kept is exactly the gids that stay, in input
		 * order, each with its index */
		if (want & DG_DECIDE_KEPT) {
			assert_true(j < k);
			assert_int_equal(from[j], i);
			assert_int_equal(kept[j], gids[i]);
			j++;
		}
		if (i > 0 && gids[i - 1] >= gids[i])
			sorted = false;
	}
	assert_int_equal(j, k);
	if (sorted)
		for (size_t a = 1; a < k; a++)
			assert_true(kept[a - 1] < kept[a]);
}

/* Every facts byte of the bits the core reads, for each gid of gids. */
static void all_facts(const gid_t *gids, size_t n, size_t at,
		      unsigned char *facts, gid_t primary, bool keep)
{
	if (at == n) {
		check_core(gids, facts, n, primary, keep);
		/* DG_DECIDE_LISTED is the edge's note: the core ignores it */
		if (n > 0) {
			facts[0] |= DG_DECIDE_LISTED;
			check_core(gids, facts, n, primary, keep);
			facts[0] &= (unsigned char)~DG_DECIDE_LISTED;
		}
		return;
	}
	for (unsigned f = 0; f < 16; f++) {
		facts[at] = (unsigned char)f;
		all_facts(gids, n, at + 1, facts, primary, keep);
	}
}

static void core_on(const gid_t *gids, size_t n)
{
	/* the primary gid: each gid of the domain, and one outside it */
	static const gid_t primaries[] = {1, 2, 3, 4, 4294967295u};
	unsigned char facts[MAX_N];

	for (size_t p = 0; p < sizeof(primaries) / sizeof(*primaries); p++)
		for (int keep = 0; keep <= 1; keep++)
			all_facts(gids, n, 0, facts, primaries[p], keep);
}

/* Up to 3 gids: every sequence over {1, 2, 3, 4} (repeats and any order
 * too: the core must keep the order it is given); 4 gids: the sorted set
 * the edge would pass.  Every facts byte, both modes, every primary. */
static void test_core_exhaustive(void **state)
{
	gid_t gids[MAX_N];

	for (size_t n = 0; n <= 3; n++) {
		size_t count = 1;

		for (size_t i = 0; i < n; i++)
			count *= 4;
		for (size_t c = 0; c < count; c++) {
			size_t x = c;

			for (size_t i = 0; i < n; i++, x /= 4)
				gids[i] = (gid_t)(1 + x % 4);
			core_on(gids, n);
		}
	}
	gids[0] = 1, gids[1] = 2, gids[2] = 3, gids[3] = 4;
	core_on(gids, 4);
	/* 85 sequences x 16^n facts x 2 (LISTED) x 5 x 2, and the 4-set */
	assert_true(n_core_cases > 3000000);
}

/* --- the edge: dg_policy_decide against the decision as it was --- */

/* judge() of lib/policy.c before the core moved to decide.c, verbatim. */
static struct dg_verdict old_judge(gid_t gid, gid_t primary_gid,
				   const struct dg_policy *policy,
				   const struct dg_rule *rule,
				   const struct dg_gid_name *asked)
{
	const char *name = asked ? asked->name : NULL;
	bool listed = dg_gids_contains(&rule->named, gid);
	bool named = rule->all || listed ||
		     (rule->mode == DG_MODE_KEEP && name &&
		      dg_strlist_has_nocase(&rule->keep_names, name));
	bool by_gid = dg_gids_contains(&policy->restricting, gid);
	bool by_name = !by_gid && name &&
		       dg_strlist_has_nocase(&policy->restricting_names, name);
	struct dg_verdict v = {.gid = gid};

	if (by_gid || by_name) {
		v.kept = true;
		v.reason = DG_REASON_RESTRICTING;
		v.by_name = by_name;
		v.restricting_named = rule->mode == DG_MODE_DROP && listed;
	} else if (gid == primary_gid) {
		v.kept = true;
		v.reason = DG_REASON_PRIMARY;
	} else if (asked && !name && policy->restricting_names.n) {
		v.kept = true;
		v.reason = DG_REASON_UNNAMED;
	} else {
		v.kept = rule->mode == DG_MODE_DROP ? !named : named;
		v.reason = named ? DG_REASON_NAMED : DG_REASON_NOT_NAMED;
	}
	return v;
}

#define N_EDGE 3
static const gid_t edge_gids[N_EDGE] = {10, 11, 12};
/* what NSS says of a gid: not asked, asked and no name, or a name */
enum { NOT_ASKED, NO_NAME, N_NAME_KINDS = 5 };
static char *edge_names[N_NAME_KINDS] = {NULL, NULL, "adm", "ADM", "web"};

struct edge_case {
	struct dg_policy policy;
	struct dg_rule rule;
	struct dg_gid_names names;
	gid_t primary;
};

static unsigned long n_edge_cases;

/* current: the gids of mask, unsorted and with a repeat, as a process's
 * list can be. */
static void check_edge(const struct edge_case *c, unsigned mask)
{
	gid_t current[2 * N_EDGE];
	size_t n = 0, n_old = 0, at = 0;
	struct dg_decision d;

	for (int i = N_EDGE - 1; i >= 0; i--)
		if (mask & (1u << i)) {
			current[n++] = edge_gids[i];
			if (i == 1)
				current[n++] = edge_gids[i];
		}
	assert_int_equal(dg_policy_decide(current, n, c->primary, &c->policy,
					  &c->rule, &c->names, &d), 0);
	n_edge_cases++;
	assert_int_equal(d.n_verdicts, __builtin_popcount(mask));
	for (size_t i = 0, v = 0; i < N_EDGE; i++) {
		const struct dg_gid_name *asked = NULL;
		struct dg_verdict want;

		if (!(mask & (1u << i)))
			continue;
		while (at < c->names.n && c->names.v[at].gid < edge_gids[i])
			at++;
		if (at < c->names.n && c->names.v[at].gid == edge_gids[i])
			asked = &c->names.v[at];
		want = old_judge(edge_gids[i], c->primary, &c->policy, &c->rule,
				 asked);
		assert_int_equal(d.verdicts[v].gid, want.gid);
		assert_int_equal(d.verdicts[v].kept, want.kept);
		assert_int_equal(d.verdicts[v].reason, want.reason);
		assert_int_equal(d.verdicts[v].by_name, want.by_name);
		assert_int_equal(d.verdicts[v].restricting_named,
				 want.restricting_named);
		if (want.kept) {
			assert_true(n_old < d.groups.n);
			assert_int_equal(d.groups.v[n_old], want.gid);
			n_old++;
		}
		v++;
	}
	assert_int_equal(d.groups.n, n_old);
	assert_int_equal(d.changed, n_old != d.n_verdicts);
	dg_policy_decision_free(&d);
}

/* Every combination, over 3 gids, of: what NSS says of each (5 ways),
 * which are restricting by gid, restricting names or none, the rule's
 * mode, "*", the gids it lists, its keep names, the primary gid; and
 * every subset of the gids as the process's list.  Both with and
 * without names (names NULL: nothing asked). */
static void test_edge_matches_old_judge(void **state)
{
	static char *adm[] = {"adm"}, *web[] = {"WEB"};
	static const gid_t primaries[] = {10, 12, 99};
	gid_t restricting[N_EDGE], listed[N_EDGE];
	struct dg_gid_name name_v[N_EDGE];
	struct edge_case c;

	for (unsigned nm = 0; nm < 125; nm++)
	for (unsigned rg = 0; rg < 4; rg++)
	for (unsigned rn = 0; rn < 2; rn++)
	for (unsigned mode = 0; mode < 2; mode++)
	for (unsigned all = 0; all < 2; all++)
	for (unsigned ls = 0; ls < 4; ls++)
	for (unsigned kn = 0; kn < 2; kn++)
	for (size_t p = 0; p < 3; p++) {
		unsigned x = nm;

		memset(&c, 0, sizeof(c));
		c.names.v = name_v;
		for (size_t i = 0; i < N_EDGE; i++, x /= N_NAME_KINDS) {
			if (x % N_NAME_KINDS == NOT_ASKED)
				continue;
			name_v[c.names.n++] = (struct dg_gid_name){
				edge_gids[i], edge_names[x % N_NAME_KINDS]};
		}
		/* restricting by gid: subsets of {10, 11} */
		c.policy.restricting.v = restricting;
		for (size_t i = 0; i < 2; i++)
			if (rg & (1u << i))
				restricting[c.policy.restricting.n++] = edge_gids[i];
		if (rn)
			c.policy.restricting_names =
				(struct dg_strlist){adm, 1, 1};
		c.rule.mode = mode ? DG_MODE_KEEP : DG_MODE_DROP;
		c.rule.all = all;
		/* listed by the rule: subsets of {11, 12} */
		c.rule.named.v = listed;
		for (size_t i = 1; i < N_EDGE; i++)
			if (ls & (1u << (i - 1)))
				listed[c.rule.named.n++] = edge_gids[i];
		if (kn)
			c.rule.keep_names = (struct dg_strlist){web, 1, 1};
		c.primary = primaries[p];
		for (unsigned mask = 0; mask < (1u << N_EDGE); mask++) {
			check_edge(&c, mask);
			if (nm == 0) {
				/* names NULL: as if nothing was asked */
				struct edge_case none = c;

				none.names = (struct dg_gid_names){0};
				check_edge(&none, mask);
			}
		}
	}
	assert_true(n_edge_cases > 700000);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_core_exhaustive),
		cmocka_unit_test(test_edge_matches_old_judge),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
