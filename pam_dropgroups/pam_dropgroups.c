/* pam_dropgroups: the PAM entry points.  Thin glue: parse the arguments,
 * ask the plan what to keep, then change the process's credentials in a
 * safe order (no_new_privs, then setgroups), logging through pam_syslog.
 *
 * Fail closed: on any error the groups are untouched, one LOG_ERR line says
 * why, and the caller's stack gets PAM_SESSION_ERR or PAM_CRED_ERR. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>

#include <security/pam_ext.h>
#include <security/pam_modules.h>

#include "kernel.h"
#include "nss.h"
#include "plan.h"
#include "util.h"

struct args {
	const char *config;
	bool debug;
	/* Fail with PAM_SYSTEM_ERR: sudo treats PAM_SESSION_ERR from
	 * pam_open_session as harmless and runs the command anyway. */
	bool system_err;
};

/* Parse the module arguments.  `system_err` is honoured even when another
 * argument is wrong, so that a typo elsewhere on a sudo line still fails
 * in a way sudo does not ignore. */
static int parse_args(pam_handle_t *pamh, int argc, const char **argv,
		      struct args *args)
{
	*args = (struct args){.config = DG_DEFAULT_CONFIG};
	for (int i = 0; i < argc; i++)
		if (strcmp(argv[i], "system_err") == 0)
			args->system_err = true;
	for (int i = 0; i < argc; i++) {
		if (strcmp(argv[i], "debug") == 0)
			args->debug = true;
		else if (strcmp(argv[i], "system_err") == 0)
			continue;
		else if (strncmp(argv[i], "config=", 7) == 0 &&
			 argv[i][7] == '/')
			args->config = argv[i] + 7;
		else if (strncmp(argv[i], "config=", 7) == 0) {
			pam_syslog(pamh, LOG_ERR,
				   "config=%s: the policy path must be absolute; "
				   "groups left unchanged",
				   argv[i] + 7);
			return -EINVAL;
		} else {
			/* Unlike modules that log and carry on, an option we
			 * do not understand may be a policy we are ignoring. */
			pam_syslog(pamh, LOG_ERR, "unknown option \"%s\"; "
				   "groups left unchanged", argv[i]);
			return -EINVAL;
		}
	}
	return 0;
}

/* The code a failure returns: the caller's, or PAM_SYSTEM_ERR. */
static int failure(const struct args *args, int fail_code)
{
	return args->system_err ? PAM_SYSTEM_ERR : fail_code;
}

static void log_diags(pam_handle_t *pamh, const struct dg_diags *diags,
		      bool failed)
{
	const struct dg_diag *first = dg_diags_first_error(diags);
	_cleanup_free_ char *line = NULL;

	if (failed) {
		/* One line, the first cause: the rest follow from it, and
		 * `dropgroups check` lists them all. */
		if (first && (line = dg_diag_format(first)))
			pam_syslog(pamh, LOG_ERR, "%s; groups left unchanged",
				   line);
		else
			pam_syslog(pamh, LOG_ERR, "out of memory while reading "
						  "the policy; groups left "
						  "unchanged");
		return;
	}
	for (size_t i = 0; i < diags->n; i++) {
		_cleanup_free_ char *l = dg_diag_format(&diags->v[i]);

		if (l)
			pam_syslog(pamh, diags->v[i].severity == DG_WARNING
						 ? LOG_WARNING
						 : LOG_NOTICE,
				   "%s", l);
	}
}

/* "audio(29), video(44)" for the verdicts with kept == want_kept and, if
 * only_noted, restricting_named set.  NULL on ENOMEM. */
static char *list_groups(const struct dg_decision *d, bool want_kept,
			 bool only_noted)
{
	char *s = strdup("");

	for (size_t i = 0; s && i < d->n_verdicts; i++) {
		const struct dg_verdict *v = &d->verdicts[i];
		_cleanup_free_ char *label = NULL;
		char *ns = NULL;

		if (v->kept != want_kept || (only_noted && !v->restricting_named))
			continue;
		if (!(label = dg_group_label(v->gid)) ||
		    asprintf(&ns, "%s%s%s", s, *s ? ", " : "", label) < 0)
			ns = NULL;
		free(s);
		s = ns;
	}
	return s;
}

static int setgroups_failed(pam_handle_t *pamh, int err)
{
	int cap = dg_has_cap_setgid();

	/* Say whether CAP_SETGID is there: without it, a stock kernel
	 * refuses every setgroups, even one that only drops groups. */
	if (cap == 0)
		pam_syslog(pamh, LOG_ERR,
			   "setgroups failed: %s; the process lacks "
			   "CAP_SETGID, and %s; groups left unchanged",
			   strerror(-err), dg_unprivileged_drop_hint());
	else if (cap > 0)
		pam_syslog(pamh, LOG_ERR,
			   "setgroups failed: %s, although the process has "
			   "CAP_SETGID; groups left unchanged",
			   strerror(-err));
	else
		pam_syslog(pamh, LOG_ERR,
			   "setgroups failed: %s (whether the process has "
			   "CAP_SETGID could not be checked: %s); groups left "
			   "unchanged",
			   strerror(-err), strerror(-cap));
	return -1;
}

/* Apply the decision: no_new_privs first, so a failure in between can
 * never leave fewer groups without it.  0 or -1 (logged). */
static int apply(pam_handle_t *pamh, const struct dg_plan *plan,
		 const struct dg_decision *d)
{
	int r;

	if (plan->rule->src->no_new_privs && (r = dg_set_no_new_privs()) < 0) {
		pam_syslog(pamh, LOG_ERR,
			   "cannot set no_new_privs: %s; groups left unchanged",
			   strerror(-r));
		return -1;
	}
	if (d->changed && (r = dg_set_groups(d->groups.v, d->groups.n)) < 0)
		return setgroups_failed(pamh, r);
	return 0;
}

/* The plan made for one handle, kept as PAM data so that every later
 * call on the handle (and on its copy in a forked child) acts on the
 * policy as it was read once.  sshd, for one, runs account management in
 * its monitor and pam_setcred in the child that becomes the session, and
 * ignores a pam_setcred failure after a public-key login: the account
 * check is what refuses a broken policy there, and the child must then
 * apply exactly what that check accepted. */
#define PLAN_DATA "pam_dropgroups:plan"

struct kept_plan {
	char *config, *service, *user;
	struct dg_plan plan;
};

static void kept_plan_free(struct kept_plan *k)
{
	if (!k)
		return;
	dg_plan_free(&k->plan);
	free(k->config);
	free(k->service);
	free(k->user);
	free(k);
}

static void kept_plan_cleanup(pam_handle_t *pamh, void *data, int status)
{
	(void)pamh, (void)status;
	kept_plan_free(data);
}

static bool kept_plan_fits(const struct kept_plan *k, const char *config,
			   const char *service, const char *user)
{
	return strcmp(k->config, config) == 0 &&
	       strcmp(k->service, service) == 0 && strcmp(k->user, user) == 0;
}

/* The plan for this handle's service and user: the kept one, or a new
 * one (then kept).  NULL on failure, logged (one LOG_ERR line). */
static const struct dg_plan *get_plan(pam_handle_t *pamh,
				      const struct args *args)
{
	const void *service = NULL, *user = NULL, *data = NULL;
	struct dg_diags diags = {0};
	struct kept_plan *k;
	int r;

	if (pam_get_item(pamh, PAM_SERVICE, &service) != PAM_SUCCESS ||
	    !service || pam_get_item(pamh, PAM_USER, &user) != PAM_SUCCESS ||
	    !user) {
		pam_syslog(pamh, LOG_ERR, "no service or user name is set; "
					  "groups left unchanged");
		return NULL;
	}
	if (pam_get_data(pamh, PLAN_DATA, &data) == PAM_SUCCESS && data &&
	    kept_plan_fits(data, args->config, service, user))
		return &((const struct kept_plan *)data)->plan;

	if (!(k = calloc(1, sizeof(*k))) || !(k->config = strdup(args->config)) ||
	    !(k->service = strdup(service)) || !(k->user = strdup(user))) {
		pam_syslog(pamh, LOG_ERR, "out of memory; groups left unchanged");
		kept_plan_free(k);
		return NULL;
	}
	r = dg_plan_prepare(args->config, service, user, false, &k->plan,
			    &diags);
	log_diags(pamh, &diags, r < 0);
	dg_diags_free(&diags);
	if (r < 0) {
		kept_plan_free(k);
		return NULL;
	}
	/* On success PAM owns k (and frees any plan it replaces). */
	if (pam_set_data(pamh, PLAN_DATA, k, kept_plan_cleanup) != PAM_SUCCESS) {
		pam_syslog(pamh, LOG_ERR, "cannot keep the policy with the PAM "
					  "handle; groups left unchanged");
		kept_plan_free(k);
		return NULL;
	}
	return &k->plan;
}

static void log_no_rule(pam_handle_t *pamh, const struct args *args,
			const struct dg_plan *plan)
{
	const void *service = NULL;

	if (!args->debug)
		return;
	(void)pam_get_item(pamh, PAM_SERVICE, &service);
	pam_syslog(pamh, LOG_DEBUG,
		   "no rule in %s matches service \"%s\" and user \"%s\"; "
		   "groups left unchanged",
		   args->config, service ? (const char *)service : "?",
		   plan->user.name);
}

/* PAM_SUCCESS, PAM_IGNORE (no rule matches) or fail_code. */
static int trim(pam_handle_t *pamh, int argc, const char **argv,
		int fail_code)
{
	struct dg_decision decision = {0};
	const struct dg_plan *plan;
	_cleanup_free_ gid_t *current = NULL;
	_cleanup_free_ char *dropped = NULL, *noted = NULL;
	struct args args;
	size_t n_current = 0;
	int ret, r;

	r = parse_args(pamh, argc, argv, &args);
	ret = fail_code = failure(&args, fail_code);
	if (r < 0 || !(plan = get_plan(pamh, &args)))
		return fail_code;
	if (!plan->rule) {
		log_no_rule(pamh, &args, plan);
		return PAM_IGNORE;
	}
	if ((r = dg_get_groups(&current, &n_current)) < 0) {
		pam_syslog(pamh, LOG_ERR, "getgroups failed: %s; groups left "
					  "unchanged", strerror(-r));
		return fail_code;
	}
	if (dg_plan_decide(plan, current, n_current, &decision) < 0 ||
	    !(dropped = list_groups(&decision, false, false)) ||
	    !(noted = list_groups(&decision, true, true))) {
		pam_syslog(pamh, LOG_ERR, "out of memory; groups left "
					  "unchanged");
		goto out;
	}
	if (*noted)
		pam_syslog(pamh, LOG_NOTICE,
			   "rule \"%s\" names restricting group(s) %s in drop; "
			   "they stay",
			   plan->rule->label, noted);
	if (apply(pamh, plan, &decision) < 0)
		goto out;
	pam_syslog(pamh, LOG_INFO, "user \"%s\", rule \"%s\": dropped %s%s",
		   plan->user.name, plan->rule->label,
		   *dropped ? dropped : "no groups",
		   plan->rule->src->no_new_privs ? "; no_new_privs set" : "");
	ret = PAM_SUCCESS;
out:
	dg_decision_free(&decision);
	return ret;
}

PAM_EXTERN int pam_sm_authenticate(pam_handle_t *pamh, int flags, int argc,
				   const char **argv)
{
	(void)pamh, (void)flags, (void)argc, (void)argv;
	/* Present in auth stacks only for setcred. */
	return PAM_IGNORE;
}

PAM_EXTERN int pam_sm_setcred(pam_handle_t *pamh, int flags, int argc,
			      const char **argv)
{
	if (flags & (PAM_ESTABLISH_CRED | PAM_REINITIALIZE_CRED))
		return trim(pamh, argc, argv, PAM_CRED_ERR);
	return PAM_SUCCESS; /* refresh or delete: nothing of ours to do */
}

/* Account management changes nothing: it reads and checks the policy and
 * the user, so that a broken policy refuses the login before a session
 * starts, even in programs that ignore a failing pam_setcred. */
PAM_EXTERN int pam_sm_acct_mgmt(pam_handle_t *pamh, int flags, int argc,
				const char **argv)
{
	const struct dg_plan *plan;
	struct args args;

	(void)flags;
	if (parse_args(pamh, argc, argv, &args) < 0 ||
	    !(plan = get_plan(pamh, &args)))
		return failure(&args, PAM_PERM_DENIED);
	if (!plan->rule) {
		log_no_rule(pamh, &args, plan);
		return PAM_IGNORE;
	}
	return PAM_SUCCESS;
}

PAM_EXTERN int pam_sm_open_session(pam_handle_t *pamh, int flags, int argc,
				   const char **argv)
{
	(void)flags;
	return trim(pamh, argc, argv, PAM_SESSION_ERR);
}

PAM_EXTERN int pam_sm_close_session(pam_handle_t *pamh, int flags, int argc,
				    const char **argv)
{
	(void)pamh, (void)flags, (void)argc, (void)argv;
	return PAM_SUCCESS;
}
