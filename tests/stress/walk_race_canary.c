/* walk_race_canary.c: a known data race in the audit's parallel walk,
 * for proving that its ThreadSanitizer test can fail
 * (tests/integration/96-cli-checkers.sh).  The Makefile links it into a
 * throwaway copy of the TSan CLI with -Wl,--wrap=dg_evidence_add: every
 * piece of evidence a walk thread records (audit/walk.c, record()) bumps
 * one static counter, with no lock, then is added as usual. */
#include "evidence.h"

int __real_dg_evidence_add(struct dg_evidence_store *s, bool by_gid,
			   gid_t gid, const char *name, enum dg_ev_kind kind,
			   char *where);
int __wrap_dg_evidence_add(struct dg_evidence_store *s, bool by_gid,
			   gid_t gid, const char *name, enum dg_ev_kind kind,
			   char *where);

static unsigned long added;

int __wrap_dg_evidence_add(struct dg_evidence_store *s, bool by_gid,
			   gid_t gid, const char *name, enum dg_ev_kind kind,
			   char *where)
{
	added++;
	return __real_dg_evidence_add(s, by_gid, gid, name, kind, where);
}
