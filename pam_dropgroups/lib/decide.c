/* The decision core (decide.h): pure, over plain arrays, and proved by
 * Frama-C WP against the contract in decide.h (make prove).  Keep it
 * free of the project's other headers, and of anything WP cannot read. */
#include "decide.h"

/* Why gid stays or goes: dg_reason_of() in decide.h. */
/*@ assigns \nothing;
    ensures \result == dg_reason_of(gid, f, primary);
*/
static enum dg_reason judge(gid_t gid, unsigned char f, gid_t primary)
{
	if (f & (DG_DECIDE_BY_GID | DG_DECIDE_BY_NAME))
		return DG_REASON_RESTRICTING;
	if (gid == primary)
		return DG_REASON_PRIMARY;
	/* NSS says this gid has no name.  An outage of a backend that sets
	 * no errno looks exactly like that, and the name it could not give
	 * might be a restricting one. */
	if (f & DG_DECIDE_UNNAMED)
		return DG_REASON_UNNAMED;
	return f & DG_DECIDE_NAMED ? DG_REASON_NAMED : DG_REASON_NOT_NAMED;
}

/* Does a gid judged for reason stay: dg_kept_bit() in decide.h. */
/*@ requires DG_REASON_RESTRICTING <= reason <= DG_REASON_UNNAMED;
    assigns \nothing;
    ensures \result != 0 <==>
	reason == DG_REASON_RESTRICTING || reason == DG_REASON_PRIMARY ||
	reason == DG_REASON_UNNAMED ||
	(reason == DG_REASON_NAMED && keep != 0) ||
	(reason == DG_REASON_NOT_NAMED && keep == 0);
*/
static bool stays(enum dg_reason reason, bool keep)
{
	switch (reason) {
	case DG_REASON_NAMED:
		return keep;
	case DG_REASON_NOT_NAMED:
		return !keep;
	default:
		return true; /* restricting, primary, unnamed */
	}
}

size_t dg_decide_gids(const gid_t *gids, const unsigned char *facts, size_t n,
		      gid_t primary, bool keep, unsigned char *verdicts,
		      gid_t *kept, size_t *from)
{
	size_t k = 0;

	/* Walk the input and copy a subset of it: whatever the verdicts
	 * say, nothing outside gids can reach kept. */
	/*@ loop invariant 0 <= i <= n && 0 <= k <= i;
	    loop invariant verdict: \forall integer m; 0 <= m < i ==>
		verdicts[m] == dg_verdict_of(gids[m], facts[m], primary, keep);
	    loop invariant from: \forall integer j; 0 <= j < k ==>
		0 <= from[j] < i && kept[j] == gids[from[j]] &&
		dg_stays(gids[from[j]], facts[from[j]], primary, keep);
	    loop invariant order: \forall integer a, b; 0 <= a < b < k ==>
		from[a] < from[b];
	    loop invariant complete: \forall integer m; 0 <= m < i ==>
		dg_stays(gids[m], facts[m], primary, keep) ==>
		\exists integer j; 0 <= j < k && kept[j] == gids[m];
	    loop assigns i, k, verdicts[0 .. n - 1], kept[0 .. n - 1],
		from[0 .. n - 1];
	    loop variant n - i;
	*/
	for (size_t i = 0; i < n; i++) {
		enum dg_reason reason = judge(gids[i], facts[i], primary);
		bool stay = stays(reason, keep);

		verdicts[i] = reason + (stay ? DG_DECIDE_KEPT : 0);
		if (stay) {
			kept[k] = gids[i];
			from[k] = i;
			k++;
		}
	}
	return k;
}
