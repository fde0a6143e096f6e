/* item_switch SERVICE USER user|service OTHER: the application changes
 * PAM_USER or PAM_SERVICE between calls on one handle, as a login
 * program may change its service, or a later module set the user again
 * (a canonical name).
 *
 *   pam_start(SERVICE, USER), pam_acct_mgmt    the module keeps a plan
 *                                              for SERVICE and USER with
 *                                              pam_set_data
 *   pam_set_item(PAM_USER or PAM_SERVICE, OTHER)
 *   pam_open_session                           the plan kept is not for
 *                                              this service and user;
 *                                              a new service's stack is
 *                                              loaded, the old unloaded
 *   pam_end                                    runs the kept cleanup
 *
 * If OTHER's stack does not load the module, libpam dlclose()s it before
 * pam_end calls the cleanup function pam_set_data kept, which then points
 * at unmapped code: a crash in a program running as root, unless the
 * module stays mapped (it is linked with -z nodelete).
 *
 * Prints each call's result, whether a pam_dropgroups object is still
 * mapped just before pam_end (from /proc/self/maps: whether the old
 * cleanup pointer is safe is decided there), then the groups the
 * process holds, as getgroups(2) gives them, on one line.  Exit 0 when
 * every step ran, 2 on a setup error, 3 when the module was unmapped:
 * pam_end is then not called, as what a call into code that is gone
 * does depends on what was mapped at its address since (a crash, a
 * return, or worse), and the test needs the fact, not that luck. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <security/pam_appl.h>

static int conv(int n, const struct pam_message **msg,
		struct pam_response **resp, void *data)
{
	(void)n, (void)msg, (void)resp, (void)data;
	return PAM_CONV_ERR;
}

/* module_mapped: 1 when a mapping of a pam_dropgroups object (a file
 * whose name starts so: not a directory of that name on the path) is in
 * /proc/self/maps, 0 when none is, -1 when the file cannot be read. */
static int module_mapped(void)
{
	FILE *f = fopen("/proc/self/maps", "re");
	char *line = NULL;
	size_t cap = 0;
	int found = 0;

	if (!f)
		return -1;
	while (!found && getline(&line, &cap, f) > 0) {
		const char *base = strrchr(line, '/');

		found = base && strncmp(base + 1, "pam_dropgroups",
					strlen("pam_dropgroups")) == 0;
	}
	free(line);
	fclose(f);
	return found;
}

int main(int argc, char **argv)
{
	struct pam_conv c = {conv, NULL};
	pam_handle_t *h = NULL;
	gid_t groups[256];
	int r, n, item;

	if (argc != 5 ||
	    (strcmp(argv[3], "user") && strcmp(argv[3], "service"))) {
		fprintf(stderr, "usage: item_switch SERVICE USER "
				"user|service OTHER\n");
		return 2;
	}
	item = strcmp(argv[3], "user") == 0 ? PAM_USER : PAM_SERVICE;
	if ((r = pam_start(argv[1], argv[2], &c, &h)) != PAM_SUCCESS) {
		fprintf(stderr, "pam_start: %d\n", r);
		return 2;
	}
	printf("pam_acct_mgmt: %d\n", pam_acct_mgmt(h, 0));
	if ((r = pam_set_item(h, item, argv[4])) != PAM_SUCCESS) {
		fprintf(stderr, "pam_set_item: %d\n", r);
		return 2;
	}
	r = pam_open_session(h, 0);
	printf("pam_open_session: %d\n", r);
	switch (module_mapped()) {
	case 1: printf("module mapped before pam_end: yes\n"); break;
	case 0: printf("module mapped before pam_end: no\n"); return 3;
	default: perror("/proc/self/maps"); return 2;
	}
	fflush(stdout); /* before a crash in pam_end */
	printf("pam_end returned %d\n", pam_end(h, r));
	if ((n = getgroups(256, groups)) < 0) {
		perror("getgroups");
		return 2;
	}
	printf("groups:");
	for (int i = 0; i < n; i++)
		printf(" %u", (unsigned)groups[i]);
	printf("\n");
	return 0;
}
