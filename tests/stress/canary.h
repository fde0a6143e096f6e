/* canary.h: what the planted-bug canaries (leak_canary.c, race_canary.c)
 * wrap.  The Makefile links each into a throwaway copy of the module with
 * -Wl,--wrap=dg_plan_prepare: the module's calls of dg_plan_prepare (once
 * per PAM handle, outside its apply lock) reach __wrap_dg_plan_prepare,
 * which plants the bug and calls the real one.  leak_canary.c goes into a
 * copy of the CLI too (build/stress/dropgroups-leaky), where explain and
 * run call dg_plan_prepare. */
#ifndef DG_CANARY_H
#define DG_CANARY_H

#include <stdbool.h>

struct dg_plan;
struct dg_diags;
struct dg_nss_probe;

int __real_dg_plan_prepare(const char *path, const char *service,
			   const char *username, bool want_user_groups,
			   struct dg_nss_probe *probe, struct dg_plan *plan,
			   struct dg_diags *diags);
int __wrap_dg_plan_prepare(const char *path, const char *service,
			   const char *username, bool want_user_groups,
			   struct dg_nss_probe *probe, struct dg_plan *plan,
			   struct dg_diags *diags);

#define CANARY_CALL_REAL()                                                     \
	__real_dg_plan_prepare(path, service, username, want_user_groups,      \
			       probe, plan, diags)

#endif
