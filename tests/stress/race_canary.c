/* race_canary.c: a known data race, for proving that the ThreadSanitizer
 * stress test can fail.  Never part of the real module:
 * tests/integration/95-stress.sh links it into a throwaway TSan copy with
 * -Wl,--wrap=dg_get_groups, so that every call of the module's
 * dg_get_groups (once per pam_open_session) bumps one static counter, with
 * no lock, from whichever thread runs the session. */
#include <stddef.h>
#include <sys/types.h>

int __real_dg_get_groups(gid_t **out, size_t *n);
int __wrap_dg_get_groups(gid_t **out, size_t *n);

static unsigned long calls;

int __wrap_dg_get_groups(gid_t **out, size_t *n)
{
	calls++;
	return __real_dg_get_groups(out, n);
}
