/* For the unit tests that match rules: dg_policy_match with the asks it
 * makes answered as a healthy directory would, and a check of one
 * answer. */
#ifndef DG_TEST_MATCH_H
#define DG_TEST_MATCH_H

#include "policy.h"

/* The rule that applies, -1 for none, or -2 when it cannot be decided;
 * every group entry asked for is read and lists nobody.  u's list must
 * be known (listed is not DG_LISTED_NOT_ASKED). */
static inline long match(const struct dg_policy *p, const char *service,
			 struct dg_user *u)
{
	struct dg_match m;

	for (;;) {
		dg_policy_match(p, service, u, &m);
		if (m.kind != DG_MATCH_ASK_ENTRY)
			break;
		assert_int_equal(dg_gids_add(&u->member.entry_silent,
					     m.group->gid), 0);
	}
	dg_gids_free(&u->member.entry_silent);
	assert_int_not_equal(m.kind, DG_MATCH_ASK_LIST);
	return m.kind == DG_MATCH_RULE ? (long)m.rule
	       : m.kind == DG_MATCH_NONE ? -1 : -2;
}

#endif
