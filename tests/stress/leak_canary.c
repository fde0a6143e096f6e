/* leak_canary.c: a known leak, for proving that the valgrind stress tests
 * can fail.  Never part of the real module: tests/integration/95-stress.sh
 * links it into a throwaway copy with -Wl,--wrap=dg_get_groups, so that
 * every call of the module's dg_get_groups (once per pam_open_session and
 * per pam_setcred(PAM_ESTABLISH_CRED)) loses 64 bytes. */
#include <stdlib.h>
#include <sys/types.h>

int __real_dg_get_groups(gid_t **out, size_t *n);
int __wrap_dg_get_groups(gid_t **out, size_t *n);

int __wrap_dg_get_groups(gid_t **out, size_t *n)
{
	void *volatile lost = malloc(64);

	(void)lost;
	return __real_dg_get_groups(out, n);
}
