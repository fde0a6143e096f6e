/* leak_canary.c: a known leak, for proving that the valgrind stress tests
 * can fail.  Never part of the real module: the Makefile links it into a
 * throwaway copy (build/stress/leaky.so) with -Wl,--wrap=dg_plan_prepare,
 * so that every call of the module's dg_plan_prepare (once per PAM handle)
 * loses 64 bytes. */
#include <stdbool.h>
#include <stdlib.h>

struct dg_plan;
struct dg_diags;

int __real_dg_plan_prepare(const char *path, const char *service,
			   const char *username, bool want_user_groups,
			   struct dg_plan *plan, struct dg_diags *diags);
int __wrap_dg_plan_prepare(const char *path, const char *service,
			   const char *username, bool want_user_groups,
			   struct dg_plan *plan, struct dg_diags *diags);

int __wrap_dg_plan_prepare(const char *path, const char *service,
			   const char *username, bool want_user_groups,
			   struct dg_plan *plan, struct dg_diags *diags)
{
	void *volatile lost = malloc(64);

	(void)lost;
	return __real_dg_plan_prepare(path, service, username,
				      want_user_groups, plan, diags);
}
