/* service_switch SERVICE USER OTHER: the application changes PAM_SERVICE
 * between calls, as a login program may.
 *
 *   pam_start(SERVICE, USER), pam_acct_mgmt    the module keeps its plan
 *                                              with pam_set_data
 *   pam_set_item(PAM_SERVICE, OTHER)
 *   pam_open_session                           libpam loads OTHER's stack
 *                                              and unloads SERVICE's
 *   pam_end                                    runs the kept cleanup
 *
 * If OTHER's stack does not load the module, libpam dlclose()s it before
 * pam_end calls the cleanup function pam_set_data kept, which then points
 * at unmapped code: a crash in a program running as root, unless the
 * module stays mapped (it is linked with -z nodelete).
 *
 * Prints each step; exit 0 when pam_end returned, 2 on a setup error (a
 * crash kills the process with SIGSEGV instead). */
#include <stdio.h>

#include <security/pam_appl.h>

static int conv(int n, const struct pam_message **msg,
		struct pam_response **resp, void *data)
{
	(void)n, (void)msg, (void)resp, (void)data;
	return PAM_CONV_ERR;
}

int main(int argc, char **argv)
{
	struct pam_conv c = {conv, NULL};
	pam_handle_t *h = NULL;
	int r;

	if (argc != 4) {
		fprintf(stderr, "usage: service_switch SERVICE USER OTHER\n");
		return 2;
	}
	if ((r = pam_start(argv[1], argv[2], &c, &h)) != PAM_SUCCESS) {
		fprintf(stderr, "pam_start: %d\n", r);
		return 2;
	}
	printf("pam_acct_mgmt under %s: %d\n", argv[1], pam_acct_mgmt(h, 0));
	if ((r = pam_set_item(h, PAM_SERVICE, argv[3])) != PAM_SUCCESS) {
		fprintf(stderr, "pam_set_item: %d\n", r);
		return 2;
	}
	printf("pam_open_session under %s: %d\n", argv[3],
	       pam_open_session(h, 0));
	fflush(stdout);
	r = pam_end(h, PAM_SUCCESS);
	printf("pam_end returned %d\n", r);
	return 0;
}
