/* race_canary.c: a known data race, for proving that the ThreadSanitizer
 * stress test can fail.  Never part of the real module: the Makefile
 * links it into a throwaway TSan copy (build/stress/racy.so) with
 * -Wl,--wrap=dg_plan_prepare, so that every call of the module's
 * dg_plan_prepare (once per PAM handle, outside the module's apply lock)
 * bumps one static counter, with no lock, from whichever thread runs the
 * session. */
#include <stdbool.h>

struct dg_plan;
struct dg_diags;

int __real_dg_plan_prepare(const char *path, const char *service,
			   const char *username, bool want_user_groups,
			   struct dg_plan *plan, struct dg_diags *diags);
int __wrap_dg_plan_prepare(const char *path, const char *service,
			   const char *username, bool want_user_groups,
			   struct dg_plan *plan, struct dg_diags *diags);

static unsigned long calls;

int __wrap_dg_plan_prepare(const char *path, const char *service,
			   const char *username, bool want_user_groups,
			   struct dg_plan *plan, struct dg_diags *diags)
{
	calls++;
	return __real_dg_plan_prepare(path, service, username,
				      want_user_groups, plan, diags);
}
