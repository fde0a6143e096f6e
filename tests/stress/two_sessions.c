/* two_sessions SERVICE_A SERVICE_B USER DELAY_MS: two threads of one
 * process open a session each, B starting DELAY_MS after A, and the
 * process's groups are printed at the end (sorted, one line).
 *
 * The groups belong to the process, not the thread.  If the module's
 * read-decide-write of one session could run between the getgroups and
 * the setgroups of the other, the second setgroups would put back what
 * the first dropped.  The test makes A slow inside that window (an NSS
 * look-up it must do takes long) and checks that both drops hold.
 *
 * Exit 0 when both sessions opened, 1 otherwise, 2 on a setup error. */
#include <grp.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include <security/pam_appl.h>

static const char *user;

static int conv(int n, const struct pam_message **msg,
		struct pam_response **resp, void *data)
{
	(void)n, (void)msg, (void)resp, (void)data;
	return PAM_CONV_ERR;
}

static void *session(void *service)
{
	struct pam_conv c = {conv, NULL};
	pam_handle_t *h = NULL;
	long r = pam_start(service, user, &c, &h);

	if (r == PAM_SUCCESS)
		r = pam_open_session(h, 0);
	fprintf(stderr, "two_sessions: %s: pam_open_session %ld\n",
		(const char *)service, r);
	if (h)
		pam_end(h, (int)r);
	return (void *)r;
}

static int cmp(const void *a, const void *b)
{
	gid_t x = *(const gid_t *)a, y = *(const gid_t *)b;

	return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
	struct timespec delay;
	pthread_t a, b;
	void *ra, *rb;
	gid_t groups[256];
	int n;

	if (argc != 5) {
		fprintf(stderr, "usage: two_sessions SERVICE_A SERVICE_B USER DELAY_MS\n");
		return 2;
	}
	user = argv[3];
	delay.tv_sec = atoi(argv[4]) / 1000;
	delay.tv_nsec = (long)(atoi(argv[4]) % 1000) * 1000000;
	if (pthread_create(&a, NULL, session, argv[1]) != 0)
		return 2;
	nanosleep(&delay, NULL);
	if (pthread_create(&b, NULL, session, argv[2]) != 0)
		return 2;
	pthread_join(a, &ra);
	pthread_join(b, &rb);
	if ((n = getgroups(256, groups)) < 0)
		return 2;
	qsort(groups, (size_t)n, sizeof(*groups), cmp);
	for (int i = 0; i < n; i++)
		printf("%s%u", i ? " " : "", (unsigned)groups[i]);
	printf("\n");
	return ra == (void *)PAM_SUCCESS && rb == (void *)PAM_SUCCESS ? 0 : 1;
}
