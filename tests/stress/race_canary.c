/* race_canary.c: a known data race, for proving that the ThreadSanitizer
 * stress test can fail (canary.h says how it is linked): every new PAM
 * handle bumps one static counter, with no lock, from whichever thread
 * runs the session. */
#include "canary.h"

static unsigned long calls;

int __wrap_dg_plan_prepare(const char *path, const char *service,
			   const char *username, bool want_user_groups,
			   struct dg_nss_probe *probe, struct dg_plan *plan,
			   struct dg_diags *diags)
{
	calls++;
	return CANARY_CALL_REAL();
}
