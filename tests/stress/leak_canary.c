/* leak_canary.c: a known leak, for proving that the valgrind stress tests
 * can fail (canary.h says how it is linked): every new PAM handle loses
 * 64 bytes. */
#include <stdlib.h>

#include "canary.h"

int __wrap_dg_plan_prepare(const char *path, const char *service,
			   const char *username, bool want_user_groups,
			   struct dg_nss_probe *probe, struct dg_plan *plan,
			   struct dg_diags *diags)
{
	void *volatile lost = malloc(64);

	(void)lost;
	return CANARY_CALL_REAL();
}
