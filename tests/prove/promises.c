/* make prove: the promises of the decision core, each written from the
 * DG_DECIDE_* bits themselves rather than through decide.h's logic
 * functions, and proved from dg_decide_gids()'s contract alone (WP reads
 * a call through the callee's contract, never its body).  The contract
 * and decide.c can be weakened together and still prove each other
 * (drop BY_NAME from both): these goals then fail.  Keep them as the
 * plain statement of what the module promises:
 *   (1) nothing is added, (2) the primary gid stays, (3) every gid
 *   restricting by gid or by name stays. */
#include "decide.h"

/*@ requires \valid_read(gids + (0 .. n - 1));
    requires \valid_read(facts + (0 .. n - 1));
    requires \valid(verdicts + (0 .. n - 1));
    requires \valid(kept + (0 .. n - 1));
    requires \valid(from + (0 .. n - 1));
    requires \separated(gids + (0 .. n - 1), facts + (0 .. n - 1),
			verdicts + (0 .. n - 1), kept + (0 .. n - 1),
			from + (0 .. n - 1));
    assigns verdicts[0 .. n - 1], kept[0 .. n - 1], from[0 .. n - 1];
    // (1) nothing added: every gid kept is one of the input's
    ensures subset: \result <= n && \forall integer j; 0 <= j < \result ==>
	\exists integer i; 0 <= i < n && kept[j] == gids[i];
    // (2) the primary gid is kept
    ensures primary: \forall integer i; 0 <= i < n ==> gids[i] == primary ==>
	\exists integer j; 0 <= j < \result && kept[j] == primary;
    // (3) a gid restricting by gid, or by name, is kept
    ensures restricting: \forall integer i; 0 <= i < n ==>
	(facts[i] & (DG_DECIDE_BY_GID | DG_DECIDE_BY_NAME)) != 0 ==>
	\exists integer j; 0 <= j < \result && kept[j] == gids[i];
*/
size_t dg_promises(const gid_t *gids, const unsigned char *facts, size_t n,
		   gid_t primary, bool keep, unsigned char *verdicts,
		   gid_t *kept, size_t *from)
{
	return dg_decide_gids(gids, facts, n, primary, keep, verdicts, kept,
			      from);
}
