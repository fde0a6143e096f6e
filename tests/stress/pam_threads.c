/* pam_threads SERVICE USER THREADS M [MODE [fail]]: THREADS threads, each
 * running M whole PAM conversations on its own handle, all at once:
 *
 *   MODE session (the default):
 *     pam_start, pam_acct_mgmt, pam_open_session, pam_close_session, pam_end
 *   MODE setcred:
 *     pam_start, pam_acct_mgmt, pam_setcred(PAM_ESTABLISH_CRED),
 *     pam_setcred(PAM_DELETE_CRED), pam_end
 *
 * for a race detector (valgrind --tool=helgrind, or ThreadSanitizer with
 * the driver and the module both built with -fsanitize=thread).  PAM
 * handles are not shared between threads, so whatever state the module
 * shares between them (static or global data, anything not reached
 * through its own handle) shows up as a race.
 *
 * The threads run in rounds, one conversation each per round, all at
 * once (barriers); between rounds one thread puts the process's starting
 * groups back, so that in every round the module really reads, trims and
 * sets the groups (setgroups applies to every thread of the process: the
 * first session of a round drops them for all, and the others find them
 * dropped).  Every call must return PAM_SUCCESS; with "fail", the calls
 * where the module acts (pam_acct_mgmt, and pam_open_session or
 * pam_setcred(ESTABLISH)) must each fail instead (a broken policy: the
 * fail-closed path, with its log line, in every thread at once), every
 * one of them is made, and pam_close_session only after a session that
 * opened.
 *
 * Exit 0 if every call of every thread succeeded, 1 otherwise, 2 on a
 * usage or setup error. */
#include <errno.h>
#include <grp.h>
#include <limits.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <security/pam_appl.h>

#define MAX_THREADS 64

static const char *service, *user;
static long cycles;
static bool setcred_mode, want_fail;
static gid_t start[NGROUPS_MAX + 1];
static int n_start;
static pthread_barrier_t go;

struct worker {
	pthread_t tid;
	int index;
	long done;  /* cycles that succeeded */
	int failed; /* set on the first call that did not */
};

static int conv(int n, const struct pam_message **msg,
		struct pam_response **resp, void *data)
{
	(void)n, (void)msg, (void)resp, (void)data;
	return PAM_CONV_ERR;
}

static int report(struct worker *w, long cycle, const char *call, int r)
{
	fprintf(stderr, "pam_threads: thread %d, cycle %ld: %s returned %d\n",
		w->index, cycle, call, r);
	w->failed = 1;
	return r;
}

/* One call where the module acts returned r: report it unless it is
 * what was wanted (PAM_SUCCESS, or with "fail" anything but). */
static int acted(struct worker *w, long cycle, const char *call, int r)
{
	if ((r == PAM_SUCCESS) == want_fail)
		report(w, cycle, call, r);
	return r;
}

/* The calls of one conversation after pam_start: the last code. */
static int converse(struct worker *w, long i, pam_handle_t *pamh)
{
	int r = acted(w, i, "pam_acct_mgmt", pam_acct_mgmt(pamh, 0));

	if (r != PAM_SUCCESS && !want_fail)
		return r;
	if (setcred_mode) {
		acted(w, i, "pam_setcred(ESTABLISH)",
		      pam_setcred(pamh, PAM_ESTABLISH_CRED));
		if ((r = pam_setcred(pamh, PAM_DELETE_CRED)) != PAM_SUCCESS)
			report(w, i, "pam_setcred(DELETE)", r);
		return r;
	}
	if ((r = acted(w, i, "pam_open_session", pam_open_session(pamh, 0))) !=
	    PAM_SUCCESS)
		return r;
	if ((r = pam_close_session(pamh, 0)) != PAM_SUCCESS)
		report(w, i, "pam_close_session", r);
	return r;
}

static void *run(void *arg)
{
	struct worker *w = arg;
	const struct pam_conv c = {conv, NULL};

	for (long i = 1; i <= cycles; i++) {
		pam_handle_t *pamh = NULL;
		int failed = w->failed, r;

		/* The groups are the process's: one thread puts them back
		 * between rounds, never while a session runs, where the
		 * module's read-back would rightly see them change under it
		 * and fail closed.  (Every thread runs every round, so the
		 * barriers always fill.) */
		pthread_barrier_wait(&go);
		if (w->index == 0 && setgroups((size_t)n_start, start) < 0)
			report(w, i, "setgroups", -errno);
		pthread_barrier_wait(&go);
		if ((r = pam_start(service, user, &c, &pamh)) != PAM_SUCCESS) {
			report(w, i, "pam_start", r);
			continue;
		}
		r = converse(w, i, pamh);
		if ((r = pam_end(pamh, r)) != PAM_SUCCESS)
			report(w, i, "pam_end", r);
		if (w->failed == failed)
			w->done++;
	}
	return NULL;
}

int main(int argc, char **argv)
{
	static struct worker workers[MAX_THREADS];
	long n_threads, total = 0;
	char *end1, *end2;
	int failed = 0, r;

	if (argc < 5 || argc > 7 ||
	    (argc > 5 && strcmp(argv[5], "session") &&
	     strcmp(argv[5], "setcred")) ||
	    (argc > 6 && strcmp(argv[6], "fail"))) {
		fprintf(stderr, "usage: pam_threads SERVICE USER THREADS M "
				"[session|setcred [fail]]\n");
		return 2;
	}
	setcred_mode = argc > 5 && !strcmp(argv[5], "setcred");
	want_fail = argc > 6;
	service = argv[1];
	user = argv[2];
	errno = 0;
	n_threads = strtol(argv[3], &end1, 10);
	cycles = strtol(argv[4], &end2, 10);
	if (errno || *end1 || *end2 || end1 == argv[3] || end2 == argv[4] ||
	    n_threads < 1 || n_threads > MAX_THREADS || cycles < 1) {
		fprintf(stderr, "pam_threads: THREADS must be 1..%d, M at "
				"least 1\n", MAX_THREADS);
		return 2;
	}
	n_start = getgroups(NGROUPS_MAX + 1, start);
	if (n_start < 0) {
		perror("pam_threads: getgroups");
		return 2;
	}
	if ((r = pthread_barrier_init(&go, NULL, (unsigned)n_threads))) {
		fprintf(stderr, "pam_threads: barrier: %s\n", strerror(r));
		return 2;
	}
	for (int i = 0; i < n_threads; i++) {
		workers[i].index = i;
		if ((r = pthread_create(&workers[i].tid, NULL, run,
					&workers[i]))) {
			fprintf(stderr, "pam_threads: pthread_create: %s\n",
				strerror(r));
			return 2;
		}
	}
	for (int i = 0; i < n_threads; i++) {
		pthread_join(workers[i].tid, NULL);
		total += workers[i].done;
		failed |= workers[i].failed;
	}
	pthread_barrier_destroy(&go);
	printf("pam_threads: %ld threads x %ld cycles: %ld %s%s\n",
	       n_threads, cycles, total,
	       want_fail ? "failed closed" : "succeeded",
	       failed ? ", some FAILED" : "");
	return failed || total != n_threads * cycles;
}
