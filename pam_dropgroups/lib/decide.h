/* The decision core: which of a process's gids stay, given what the
 * caller (policy.c, "the edge") already found out about each of them.
 *
 * This file and decide.c include no header of the project and nothing
 * beyond the standard types: Frama-C parses them alone, and WP proves the
 * contract below (make prove; HACKING.md says what is proved and what is
 * not).  Every look-up, into sorted gid sets or case-insensitive name
 * lists, happens at the edge and reaches the core as bits of one byte per
 * gid, so that the core is a loop over plain arrays. */
#ifndef DG_DECIDE_H
#define DG_DECIDE_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

enum dg_reason {
	DG_REASON_RESTRICTING, /* kept: a negative credential */
	DG_REASON_PRIMARY,     /* kept: the user's primary group */
	DG_REASON_NAMED,       /* named by the rule (dropped, or kept by keep) */
	DG_REASON_NOT_NAMED,   /* not named (kept by drop, dropped by keep) */
	/* kept: the policy has restricting names, and NSS gave this gid
	 * none (an outage can look like that), so it might be one */
	DG_REASON_UNNAMED,
};

/* What the edge knows of one gid: a byte of these bits.
 * BY_GID:  restricting: listed, or a restricting name resolves to it
 * BY_NAME: restricting: NSS calls it by a restricting name
 * UNNAMED: NSS was asked, gave no name, and the policy has restricting
 *          names
 * NAMED:   the rule names it: "*", its gid, or (keep) its name */
#define DG_DECIDE_BY_GID  0x01
#define DG_DECIDE_BY_NAME 0x02
#define DG_DECIDE_UNNAMED 0x04
#define DG_DECIDE_NAMED   0x08
/* the rule lists its gid: not read by the core, kept for the edge's notice
 * that a drop rule lists a restricting gid */
#define DG_DECIDE_LISTED  0x10

/* A verdict: an enum dg_reason, with this bit when the gid stays. */
#define DG_DECIDE_KEPT    0x80

/*@ // The decision for one gid, as logic: what decide.c must compute.
    // Restricting: by gid or by name.
    predicate dg_restricting(integer f) =
	(f & (DG_DECIDE_BY_GID | DG_DECIDE_BY_NAME)) != 0;
    // Stays: restricting, primary, unnamed, or as the rule's mode says.
    logic integer dg_kept_bit(integer g, integer f, integer primary,
			      integer keep) =
	(f & (DG_DECIDE_BY_GID | DG_DECIDE_BY_NAME)) != 0 || g == primary ||
	(f & DG_DECIDE_UNNAMED) != 0 ||
	(keep != 0 && (f & DG_DECIDE_NAMED) != 0) ||
	(keep == 0 && (f & DG_DECIDE_NAMED) == 0) ? DG_DECIDE_KEPT : 0;
    predicate dg_stays(integer g, integer f, integer primary, integer keep) =
	dg_kept_bit(g, f, primary, keep) != 0;
    // Why: the first of these that holds.
    logic integer dg_reason_of(integer g, integer f, integer primary) =
	(f & (DG_DECIDE_BY_GID | DG_DECIDE_BY_NAME)) != 0 ?
	DG_REASON_RESTRICTING :
	g == primary ? DG_REASON_PRIMARY :
	(f & DG_DECIDE_UNNAMED) != 0 ? DG_REASON_UNNAMED :
	(f & DG_DECIDE_NAMED) != 0 ? DG_REASON_NAMED : DG_REASON_NOT_NAMED;
    logic integer dg_verdict_of(integer g, integer f, integer primary,
				integer keep) =
	dg_reason_of(g, f, primary) + dg_kept_bit(g, f, primary, keep);
*/

/* Judge the n gids (the caller's sorted, distinct set; the core keeps
 * their order whatever it is) with facts[i] the DG_DECIDE_* bits of
 * gids[i], under a keep rule (keep) or a drop rule (!keep).  Sets
 * verdicts[i] to the reason for gids[i], with DG_DECIDE_KEPT if it stays,
 * and puts the gids that stay in kept[] and their indexes in from[], in
 * input order.  Returns how many stay.
 *
 * A gid stays if it is restricting (by gid or by name), else if it is
 * the primary gid, else if it is unnamed, else as the rule's mode says:
 * drop keeps what it does not name, keep keeps what it names. */
/*@ requires \valid_read(gids + (0 .. n - 1));
    requires \valid_read(facts + (0 .. n - 1));
    requires \valid(verdicts + (0 .. n - 1));
    requires \valid(kept + (0 .. n - 1));
    requires \valid(from + (0 .. n - 1));
    requires \separated(gids + (0 .. n - 1), facts + (0 .. n - 1),
			verdicts + (0 .. n - 1), kept + (0 .. n - 1),
			from + (0 .. n - 1));
    assigns verdicts[0 .. n - 1], kept[0 .. n - 1], from[0 .. n - 1];

    // (4) no more than it was given
    ensures count: 0 <= \result <= n;
    // each verdict is the one the logic above gives
    ensures verdict: \forall integer i; 0 <= i < n ==>
	verdicts[i] == dg_verdict_of(gids[i], facts[i], primary, keep);
    // (1) every gid that stays is one of the input gids, judged to stay
    ensures from: \forall integer j; 0 <= j < \result ==>
	0 <= from[j] < n && kept[j] == gids[from[j]] &&
	dg_stays(gids[from[j]], facts[from[j]], primary, keep);
    ensures subset: \forall integer j; 0 <= j < \result ==>
	\exists integer i; 0 <= i < n && kept[j] == gids[i];
    // (4) in input order, so sorted and distinct if the input is
    ensures order: \forall integer a, b; 0 <= a < b < \result ==>
	from[a] < from[b];
    ensures sorted: (\forall integer a, b; 0 <= a < b < n ==>
			gids[a] < gids[b]) ==>
	(\forall integer a, b; 0 <= a < b < \result ==> kept[a] < kept[b]);
    // every gid judged to stay is in the output
    ensures complete: \forall integer i; 0 <= i < n ==>
	dg_stays(gids[i], facts[i], primary, keep) ==>
	\exists integer j; 0 <= j < \result && kept[j] == gids[i];
    // (2) the primary gid stays
    ensures primary: \forall integer i; 0 <= i < n ==> gids[i] == primary ==>
	\exists integer j; 0 <= j < \result && kept[j] == primary;
    // (3) every restricting gid, by gid or by name, stays
    ensures restricting: \forall integer i; 0 <= i < n ==>
	dg_restricting(facts[i]) ==>
	\exists integer j; 0 <= j < \result && kept[j] == gids[i];
*/
size_t dg_decide_gids(const gid_t *gids, const unsigned char *facts, size_t n,
		      gid_t primary, bool keep, unsigned char *verdicts,
		      gid_t *kept, size_t *from);

#endif
