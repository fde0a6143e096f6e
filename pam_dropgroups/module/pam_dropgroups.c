/* pam_dropgroups: the PAM entry points.  Thin glue: parse the arguments,
 * prepare the plan (kept with the PAM handle), apply it (apply.c), and
 * log through pam_syslog.
 *
 * Fail closed: on any error the groups are untouched, one LOG_ERR line says
 * why, and the caller's stack gets the failure of the call it made:
 * PAM_SESSION_ERR from open_session, PAM_CRED_ERR from setcred,
 * PAM_PERM_DENIED from account management, PAM_AUTH_ERR from
 * authenticate; or PAM_SYSTEM_ERR from any of them with system_err.
 * Two failures refuse nothing, and answer PAM_IGNORE (let_through): a
 * report_only line's, and one for a user every NSS service calls uid 0. */
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>

#include <security/pam_ext.h>
#include <security/pam_modules.h>

#include "apply.h"
#include "args.h"
#include "initgroups.h"
#include "kernel.h"
#include "logline.h"
#include "nss.h"
#include "plan.h"
#include "uid0.h"
#include "util.h"

struct kept_plan;

/* One call of the module: the handle, the arguments, the plan once there
 * is one, and the code the call answers once it has failed (set by
 * fail_with). */
struct call {
	pam_handle_t *pamh;
	struct dg_args args;
	struct kept_plan *k; /* (its logged flag is set by the call) */
	int fail_code; /* the caller's failure, or PAM_SYSTEM_ERR */
	int failed;    /* what the call answers after a failure */
	/* this call's look at nsswitch.conf, nscd and /etc/group (nss.h):
	 * never kept with the plan, which later calls reuse; released when
	 * the call ends (end_call) */
	struct dg_nss_probe probe;
};

/* The end of every call that ran a step: r, what it answers. */
static int end_call(struct call *c, int r)
{
	dg_nss_probe_release(&c->probe);
	return r;
}

static int log_fail(struct call *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Every line the module logs goes out here, as one line of printable
 * ASCII (dg_logline_one_line): the names in it are not all the admin's,
 * and in sshd's auth stack the user name is whatever the client sent.
 * text is the caller's, and may be changed. */
static void say_text(pam_handle_t *pamh, int pri, char *text)
{
	bool oom;
	_cleanup_free_ char *line = dg_logline_one_line(text, &oom);

	if (oom) /* no room to escape: each such byte becomes a '?' */
		for (char *p = text; *p; p++)
			if ((unsigned char)*p < 0x20 || (unsigned char)*p >= 0x7f)
				*p = '?';
	pam_syslog(pamh, pri, "%s", line ? line : text);
}

static void say(pam_handle_t *pamh, int pri, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void say(pam_handle_t *pamh, int pri, const char *fmt, ...)
{
	_cleanup_free_ char *text = NULL;
	va_list ap;

	va_start(ap, fmt);
	text = dg_util_vasprintf(fmt, ap);
	va_end(ap);
	if (text) {
		say_text(pamh, pri, text);
		return;
	}
	/* Out of memory formatting it: libpam's own format may still find
	 * the room, and a failure's line must not be lost (its names then
	 * go as they are). */
	va_start(ap, fmt);
	pam_vsyslog(pamh, pri, fmt, ap);
	va_end(ap);
}

/* Parse the module arguments (args.c); a refused one is logged as the
 * call's one fail-closed line.  report_only and system_err are read
 * even then. */
static int parse_args(struct call *c, int argc, const char **argv,
		      int fail_code)
{
	_cleanup_free_ char *why = NULL;
	int r = dg_args_parse(argc, argv, &c->args, &why);

	c->fail_code = c->args.system_err ? PAM_SYSTEM_ERR : fail_code;
	if (r < 0)
		return log_fail(c, "%s", why ? why : "out of memory");
	return PAM_SUCCESS;
}

/* Why a failure does not refuse this call, or NULL: it refuses.
 *
 * Root is never locked out: uid 0 can set any groups anyway, so refusing
 * its session protects nothing, and a typo in the policy must not cost
 * the console, su and sudo.  But the module knows the user by name, and
 * a name that glibc looks up as uid 0 may be another uid's name in a
 * directory ("sudo -u '#5000'"), so only a name that every NSS passwd
 * service calls uid 0 counts (uid0.c); any doubt refuses, "root" too.
 * A report_only line enforces nothing, so it refuses nothing either;
 * root is asked first even there, so that a trial says what the line
 * would do enforced: for root, not refuse either. */
static const char *let_through(const struct call *c, bool *oom)
{
	const void *user = NULL;
	int r = 0;

	*oom = false;
	if (pam_get_item(c->pamh, PAM_USER, &user) == PAM_SUCCESS && user) {
		r = dg_uid0_sure(user);
		*oom = r == -ENOMEM;
	}
	if (r > 0)
		return "the user is uid 0, who can set any groups anyway";
	if (c->args.report_only)
		return "report_only enforces nothing";
	return NULL;
}

/* Log the failure (what; outcome) as the call's one LOG_ERR line, and
 * return what the call answers: PAM_IGNORE where let_through lets it
 * through, else c->fail_code. */
static char *call_fields(const struct call *c, const char *result,
			 const char *dropped, size_t more, long long kept);

/* Set on the handle once a failure that refuses nothing is logged. */
#define LET_THROUGH_DATA "pam_dropgroups:let-through-logged"

static int fail_with(struct call *c, const char *what, const char *outcome)
{
	bool oom;
	const char *why = let_through(c, &oom);
	_cleanup_free_ char *fields =
		call_fields(c, why ? "not-refused" : "refused", NULL, 0, -1);

	if (!what)
		what = "out of memory";
	c->failed = why ? PAM_IGNORE : c->fail_code;
	/* A failure that refuses nothing goes on to the next facility,
	 * which fails the same way: the login's one err line is the first,
	 * and the others go to debug (with debug). */
	if (why && pam_get_data(c->pamh, LET_THROUGH_DATA, &(const void *){0}) ==
			   PAM_SUCCESS) {
		if (c->args.debug)
			say(c->pamh, LOG_DEBUG, "%s: %s; %s, and the "
			    "session is not refused: %s",
			    fields ? fields : "result=not-refused",
			    what, outcome, why);
		return c->failed;
	}
	if (why)
		(void)pam_set_data(c->pamh, LET_THROUGH_DATA, (void *)1, NULL);
	if (why)
		say(c->pamh, LOG_ERR, "%s: %s; %s, and the session is "
		    "not refused: %s",
		    fields ? fields : "result=not-refused", what,
		    outcome, why);
	else
		say(c->pamh, LOG_ERR, "%s: %s; %s%s",
		    fields ? fields : "result=refused", what, outcome,
		    oom ? " (out of memory looking up the user)" : "");
	return c->failed;
}

/* The one way the module reports that it failed closed: one LOG_ERR line
 * that ends in the outcome, so every such line can be grepped for it. */
static int log_fail(struct call *c, const char *fmt, ...)
{
	_cleanup_free_ char *what = NULL;
	va_list ap;

	va_start(ap, fmt);
	what = dg_util_vasprintf(fmt, ap);
	va_end(ap);
	return fail_with(c, what, "groups left unchanged");
}

/* At most this many warnings per call reach syslog: a policy with
 * thousands of unknown names must not flood the log on every login. */
#define LOGGED_WARNINGS_MAX 10

static void log_diags(struct call *c, const struct dg_diags *diags,
		      bool failed)
{
	const struct dg_diag *first = dg_diag_first_error(diags);
	_cleanup_free_ char *line = NULL;
	size_t logged = 0;

	if (failed) {
		/* One line, the first cause: the rest follow from it, and
		 * `dropgroups check` lists them all. */
		if (first && (line = dg_diag_format(first)))
			log_fail(c, "%s", line);
		else
			log_fail(c, "out of memory while reading the policy");
		return;
	}
	for (size_t i = 0; i < diags->n; i++) {
		_cleanup_free_ char *l = NULL;

		if (logged == LOGGED_WARNINGS_MAX) {
			say(c->pamh, LOG_WARNING,
			    "%zu more warnings; dropgroups check lists "
			    "them all",
			    diags->n - i);
			break;
		}
		if ((l = dg_diag_format(&diags->v[i]))) {
			say(c->pamh, LOG_WARNING, "%s", l);
			logged++;
		}
	}
}

/* At most this many groups are named in a log line; beyond that, a
 * count.  A syslog datagram holds a few KB, and 65,536 names do not. */
#define LOGGED_GROUPS_MAX 16

/* "audio(29), video(44)" for the verdicts with kept == want_kept and, if
 * only_noted, restricting_named set, with " and N more" past
 * LOGGED_GROUPS_MAX; with fields, also "audio(29),video(44)" there and
 * the count in *more instead: one walk and one name look-up for both.
 * NULL on ENOMEM (and *fields NULL). */
static char *list_groups_as(const struct dg_outcome *o, bool want_kept,
			    bool only_noted, char **fields, size_t *fields_more)
{
	const struct dg_decision *d = &o->decision;
	struct dg_util_sb b = {0}, f = {0};
	size_t shown = 0, more = 0, at = 0;
	char *text;

	/* (dg_util_sb, not open_memstream and fprintf: see util.h) */
	for (size_t i = 0; !b.bad && i < d->n_verdicts; i++) {
		const struct dg_verdict *v = &d->verdicts[i];
		_cleanup_free_ char *label = NULL;
		const char *name;
		bool asked;
		size_t start;

		if (v->kept != want_kept || (only_noted && !v->restricting_named))
			continue;
		if (shown == LOGGED_GROUPS_MAX) {
			more++;
			continue;
		}
		if (shown)
			dg_util_sb_add(&b, ", ", 2);
		start = b.len;
		/* verdicts and names are both sorted by gid: walked together
		 * (a bsearch for each was a tenth of a small login's line) */
		while (at < o->names.n && o->names.v[at].gid < v->gid)
			at++;
		asked = at < o->names.n && o->names.v[at].gid == v->gid;
		name = asked ? o->names.v[at].name : NULL;
		if (name) {
			/* "(gid)" spelled here, one append for it: a third
			 * of the appends of a line of 15 names */
			char num[sizeof("(4294967295)")];
			size_t k = sizeof(num);
			unsigned g = (unsigned)v->gid;

			num[--k] = ')';
			do
				num[--k] = (char)('0' + g % 10);
			while ((g /= 10) != 0);
			num[--k] = '(';
			dg_util_sb_puts(&b, name);
			dg_util_sb_add(&b, num + k, sizeof(num) - k);
		} else if (asked) {
			/* the decision asked, and NSS gave no name: the line
			 * says what the decision saw, not a second answer */
			dg_util_sb_uint(&b, v->gid);
		} else if ((label = dg_nss_group_label(v->gid))) {
			dg_util_sb_puts(&b, label);
		} else {
			b.bad = true;
		}
		if (fields && !b.bad) {
			if (shown)
				dg_util_sb_putc(&f, ',');
			dg_util_sb_add(&f, b.s + start, b.len - start);
		}
		shown++;
	}
	if (fields) {
		*fields_more = more;
		f.bad |= b.bad;
		*fields = dg_util_sb_take(&f);
	}
	if (more) {
		dg_util_sb_add(&b, " and ", 5);
		dg_util_sb_uint(&b, more);
		dg_util_sb_add(&b, " more", 5);
	}
	text = dg_util_sb_take(&b);
	if (fields && !text) {
		free(*fields);
		*fields = NULL;
	}
	return text;
}

static char *list_groups(const struct dg_outcome *o, bool want_kept,
			 bool only_noted)
{
	return list_groups_as(o, want_kept, only_noted, NULL, NULL);
}

/* The plan made for one handle, kept as PAM data so that every later
 * call on the handle (and on its copy in a forked child) acts on the
 * policy as it was read once.  sshd, for one, runs account management in
 * its monitor and pam_setcred in the child that becomes the session, and
 * ignores a pam_setcred failure after a public-key login: the account
 * check is what refuses a broken policy there, and the child must then
 * apply exactly what that check accepted.  So the check also names,
 * ahead, the gids the rule would drop (names keeps them): the child then
 * has no look-up left to fail that it was not already checked for. */
#define PLAN_DATA "pam_dropgroups:plan"

struct kept_plan {
	/* (into strings, below: one allocation for the plan's key) */
	const char *config, *service, *user;
	struct dg_plan plan;
	struct dg_gid_names names;
	/* The login's line is logged: a later trim on the same handle (su
	 * with the profile trims in setcred and again in open_session)
	 * logs nothing more at info.  A forked child inherits it. */
	bool logged;
	/* A report_only line's "would drop" is logged.  Kept apart from
	 * logged: a trial line and an enforcing one can share a handle (a
	 * trial in sshd's own stack, the profile enforcing in
	 * common-session), and the trial's "nothing changed" must not be
	 * the one line of a login whose groups the other line changed. */
	bool reported;
	char strings[];
};

/* The fields that lead each line (logline.c), from what the call knows:
 * PAM's service and user, and the plan's uid and rule once there is one. */
static char *call_fields(const struct call *c, const char *result,
			 const char *dropped, size_t more, long long kept)
{
	const void *service = NULL, *user = NULL;
	const struct dg_plan *plan = c->k ? &c->k->plan : NULL;

	(void)pam_get_item(c->pamh, PAM_SERVICE, &service);
	(void)pam_get_item(c->pamh, PAM_USER, &user);
	return dg_logline_fields(&(struct dg_logline){
		.service = service,
		.user = user,
		.uid = plan && plan->user.name ? (long long)plan->user.uid : -1,
		.rule = plan && plan->rule ? plan->rule->label : NULL,
		.result = result,
		.dropped = dropped,
		.dropped_more = more,
		.kept = kept,
	});
}

static void kept_plan_free(struct kept_plan *k)
{
	if (!k)
		return;
	dg_plan_free(&k->plan);
	dg_gids_names_free(&k->names);
	free(k);
}

static void kept_plan_cleanup(pam_handle_t *pamh, void *data, int status)
{
	(void)pamh, (void)status;
	kept_plan_free(data);
}

/* A kept plan for config, service and user, their copies in k->strings
 * (a strdup each cost a small login three allocations more); NULL on
 * ENOMEM. */
static struct kept_plan *new_kept_plan(const char *config,
				       const char *service, const char *user)
{
	size_t lc = strlen(config) + 1, ls = strlen(service) + 1,
	       lu = strlen(user) + 1;
	struct kept_plan *k;

	/* (three C strings in memory already: the sum cannot wrap) */
	if (!(k = calloc(1, sizeof(*k) + lc + ls + lu)))
		return NULL;
	k->config = memcpy(k->strings, config, lc);
	k->service = memcpy(k->strings + lc, service, ls);
	k->user = memcpy(k->strings + lc + ls, user, lu);
	return k;
}

static bool kept_plan_fits(const struct kept_plan *k, const char *config,
			   const char *service, const char *user)
{
	return strcmp(k->config, config) == 0 &&
	       strcmp(k->service, service) == 0 && strcmp(k->user, user) == 0;
}

/* The plan for this handle's service and user: the kept one, or a new
 * one (then kept).  NULL on failure, logged (one LOG_ERR line), with
 * c->failed set. */
static struct kept_plan *get_plan(struct call *c)
{
	const void *service = NULL, *user = NULL, *data = NULL;
	const struct dg_args *args = &c->args;
	pam_handle_t *pamh = c->pamh;
	struct dg_diags diags = {0};
	struct kept_plan *k;
	int r;

	if (pam_get_item(pamh, PAM_SERVICE, &service) != PAM_SUCCESS ||
	    !service || pam_get_item(pamh, PAM_USER, &user) != PAM_SUCCESS ||
	    !user) {
		log_fail(c, "no service or user name is set");
		return NULL;
	}
	/* (PAM data is ours to change: pam_get_data hands out const only
	 * because the caller may not own it) */
	if (pam_get_data(pamh, PLAN_DATA, &data) == PAM_SUCCESS && data &&
	    kept_plan_fits(data, args->config, service, user))
		return c->k = (struct kept_plan *)(uintptr_t)data;

	if (!(k = new_kept_plan(args->config, service, user))) {
		log_fail(c, "out of memory");
		return NULL;
	}
	r = dg_plan_prepare(args->config, service, user, false, &c->probe,
			    &k->plan, &diags);
	log_diags(c, &diags, r < 0);
	dg_diag_free(&diags);
	if (r < 0) {
		kept_plan_free(k);
		return NULL;
	}
	/* On success PAM owns k (and frees any plan it replaces). */
	if (pam_set_data(pamh, PLAN_DATA, k, kept_plan_cleanup) != PAM_SUCCESS) {
		log_fail(c, "cannot keep the policy with the PAM handle");
		kept_plan_free(k);
		return NULL;
	}
	c->k = k;
	return k;
}

/* Is this the process whose groups the session's processes inherit?
 * initgroups(3) always lists the user's primary group, so a process that
 * holds it has been through it for the user.  One that holds none of
 * its groups but some of its own (runuser -g, sudo -P) is the user's
 * too.  But a process with no groups, or root's [0] alone, as sshd's
 * privileged monitor, or login and cron before they set the user's
 * groups, is a daemon's: its trim is not the login's line (the process
 * that becomes the session logs it).  When the groups cannot be read,
 * yes: a line too many beats none. */
static bool users_process(const struct dg_plan *plan,
			  const struct dg_gids *now)
{
	_cleanup_free_ gid_t *got = NULL;
	const gid_t *v;
	size_t n = 0;

	if (now) {
		v = now->v;
		n = now->n;
	} else if (dg_kernel_get_groups(&got, &n) < 0) {
		return true;
	} else {
		v = got;
	}
	for (size_t i = 0; i < n; i++)
		if (v[i] == plan->user.primary_gid)
			return true;
	return n > 1 || (n == 1 && v[0] != 0);
}

/* Should this trim write the login's line at info?  Once per handle, and
 * only in the user's process; else it goes to debug, with debug set.
 * A report_only trim (trial) has its own once, and none after a line
 * that enforced: it would preview groups trimmed already.
 * now: the groups the process holds, when the apply has just set them
 * and read them back (NULL: read them here). */
static int login_line_priority(struct call *c, const struct dg_gids *now,
			       bool trial)
{
	struct kept_plan *k = c->k;
	bool *done = trial ? &k->reported : &k->logged;

	if (!k->logged && !*done && users_process(&k->plan, now)) {
		*done = true;
		return LOG_INFO;
	}
	return c->args.debug ? LOG_DEBUG : -1;
}

static void log_no_rule(struct call *c)
{
	_cleanup_free_ char *fields = NULL;
	/* (the same line either way: a trial's counts as the login's) */
	int pri = login_line_priority(c, NULL, false);

	if (pri < 0)
		return;
	fields = call_fields(c, "no-rule", NULL, 0, -1);
	say(c->pamh, pri,
	    "%s: no rule in %s matches service \"%s\" and user "
	    "\"%s\"; groups left unchanged",
	    fields ? fields : "result=no-rule", c->args.config,
	    c->k->service, c->k->plan.user.name);
}

/* What was dropped, or with report_only what would have been. */
static void log_applied(struct call *c, const struct dg_outcome *o,
			bool report_only)
{
	const struct dg_plan *plan = &c->k->plan;
	_cleanup_free_ char *listed = NULL, *fields = NULL, *text = NULL;
	struct dg_util_sb line = {0};
	size_t more = 0;
	_cleanup_free_ char *dropped = list_groups_as(o, false, false, &listed,
						      &more);
	_cleanup_free_ char *noted = list_groups(o, true, true);
	bool nnp = plan->rule->src->no_new_privs;
	/* an apply that succeeded leaves exactly the decision's groups
	 * (set and read back, or left as read): no getgroups again */
	int pri = login_line_priority(c,
				      report_only ? NULL : &o->decision.groups,
				      report_only);

	/* The groups are set by now: a log line lost to ENOMEM is all that
	 * can go wrong here, and it must not turn success into failure. */
	if (pri < 0)
		return;
	if (noted && *noted)
		say(c->pamh, LOG_NOTICE,
		    "rule \"%s\" names restricting group(s) %s in drop; "
		    "they stay",
		    plan->rule->label, noted);
	fields = call_fields(c, report_only ? "would-drop" : "dropped",
			     listed, more,
			     (long long)o->decision.groups.n);
	/* The line's pieces, spelled once.  Logged as one "%s" joined here:
	 * libpam formats the message again, and a format of nine strings
	 * cost a small login more than joining them did.  If joining runs
	 * out of memory, the same pieces through libpam's format: its one
	 * allocation may still succeed, and the line must not lose its
	 * fields, user and rule to ours. */
	const char *piece[] = {
		fields ? fields : report_only ? "result=would-drop"
					      : "result=dropped",
		": user \"", plan->user.name, "\", rule \"", plan->rule->label,
		report_only ? "\": would drop " : "\": dropped ",
		!dropped ? "(out of memory naming them)"
		: *dropped ? dropped : "no groups",
		!nnp ? "" : report_only ? "; would set no_new_privs"
					: "; no_new_privs set",
		report_only ? "; report_only: nothing changed" : "",
	};

	for (size_t i = 0; i < sizeof(piece) / sizeof(*piece); i++)
		dg_util_sb_puts(&line, piece[i]);
	if ((text = dg_util_sb_take(&line)))
		say_text(c->pamh, pri, text);
	else
		say(c->pamh, pri, "%s%s%s%s%s%s%s%s%s", piece[0],
		    piece[1], piece[2], piece[3], piece[4], piece[5],
		    piece[6], piece[7], piece[8]);
}

static int log_apply_error(struct call *c, const struct dg_apply_error *why)
{
	_cleanup_free_ char *text = dg_apply_error_text(why);

	if (why->step == DG_STEP_VERIFY && !why->restored)
		return fail_with(c, text ? text : "the groups read back are "
						  "wrong",
				 "the groups could not be set back");
	return log_fail(c, "%s", text ? text : "out of memory");
}

/* PAM_SUCCESS, PAM_IGNORE (no rule matches, or report_only) or the
 * failure (fail_with). */
static int trim(struct call *c)
{
	struct dg_outcome outcome = {0};
	struct dg_apply_error why;
	struct kept_plan *k = get_plan(c);
	bool report = c->args.report_only;
	int r;

	if (!k)
		return c->failed;
	if (!k->plan.rule) {
		log_no_rule(c);
		return PAM_IGNORE;
	}
	r = report ? dg_apply_preview(&k->plan, &k->names, &c->probe, &outcome,
				      &why)
		   : dg_apply(&k->plan, false, &k->names, &c->probe, &outcome,
			      &why);
	if (r < 0)
		return log_apply_error(c, &why);
	log_applied(c, &outcome, report);
	dg_plan_outcome_free(&outcome);
	return report ? PAM_IGNORE : PAM_SUCCESS;
}

/* What account management and authentication check, changing nothing:
 * the policy, the user, and, when the rule decides by name, the names of
 * the gids it would drop from the user's groups as NSS lists them (kept
 * with the plan, for the apply that comes later, maybe in a child that
 * cannot refuse the login any more).  PAM_SUCCESS, PAM_IGNORE (no rule
 * matches, or report_only) or the failure (fail_with). */
static int check_ahead(struct call *c)
{
	struct kept_plan *k = get_plan(c);
	struct dg_outcome o = {0};
	struct dg_apply_error why = {.step = DG_STEP_NAMES};
	int ok = c->args.report_only ? PAM_IGNORE : PAM_SUCCESS;
	struct dg_user *user;
	int r;

	if (!k)
		return c->failed;
	if (!k->plan.rule) {
		/* the trim that follows logs the login's line */
		if (c->args.debug)
			say(c->pamh, LOG_DEBUG, "no rule matches; "
			    "checked ahead");
		return PAM_IGNORE;
	}
	if (!dg_policy_needs_names(&k->plan.policy, k->plan.rule))
		return ok;
	/* The gids named ahead are those the user's list has.  A partial
	 * list names fewer; the apply step names any other gid the session
	 * holds itself, and fails closed if it cannot. */
	user = &k->plan.user;
	if (user->member.listed == DG_LISTED_NOT_ASKED &&
	    dg_initgroups(user) < 0)
		return log_fail(c, "out of memory");
	r = dg_plan_decide(&k->plan, user->groups.v, user->groups.n, &k->names,
			   &c->probe, &o, &why.gid);
	if (r < 0) {
		why.err = r;
		why.step = r == -ENOMEM ? DG_STEP_DECIDE : DG_STEP_NAMES;
		return log_apply_error(c, &why);
	}
	dg_gids_names_free(&k->names);
	k->names = o.names;
	o.names = (struct dg_gid_names){0};
	dg_plan_outcome_free(&o);
	return ok;
}

/* What authenticate, account management and open_session do once their
 * arguments are read: check_ahead or trim. */
typedef int (*pam_step)(struct call *c);

/* Parse the arguments and run step: every failure is the call's own
 * fail_code, or PAM_SYSTEM_ERR with system_err (or PAM_IGNORE, where
 * let_through says so). */
static int run_step(pam_handle_t *pamh, int argc, const char **argv,
		    pam_step step, int fail_code)
{
	struct call c = {.pamh = pamh};

	if (parse_args(&c, argc, argv, fail_code) != PAM_SUCCESS)
		return c.failed;
	return end_call(&c, step(&c));
}

/* Not an authentication: the module never says who someone is.  But
 * libpam replays the results of pam_authenticate in pam_setcred on the
 * same handle, and ignores there every module that said PAM_IGNORE here,
 * so a module that trims in setcred must not answer PAM_IGNORE when its
 * rule matches: its setcred failure would then not count (login with a
 * password, sshd with a password).  It answers as account management
 * does, after the same check; the line belongs after the stack's real
 * authentication modules, like pam_group's. */
PAM_EXTERN int pam_sm_authenticate(pam_handle_t *pamh, int flags, int argc,
				   const char **argv)
{
	(void)flags;
	return run_step(pamh, argc, argv, check_ahead, PAM_AUTH_ERR);
}

PAM_EXTERN int pam_sm_setcred(pam_handle_t *pamh, int flags, int argc,
			      const char **argv)
{
	struct call c = {.pamh = pamh};

	if (!(flags & (PAM_ESTABLISH_CRED | PAM_REINITIALIZE_CRED)))
		return PAM_SUCCESS; /* refresh or delete: nothing of ours to do */
	if (parse_args(&c, argc, argv, PAM_CRED_ERR) != PAM_SUCCESS)
		return c.failed;
	/* A screen locker reinitialises the credentials of a session that
	 * is running already, from the user's own process: it cannot set
	 * groups, and has nothing of the login to trim. */
	if ((flags & PAM_REINITIALIZE_CRED) &&
	    dg_kernel_has_cap_setgid() == 0) {
		if (c.args.debug)
			say(pamh, LOG_DEBUG,
			    "PAM_REINITIALIZE_CRED without CAP_SETGID: "
			    "nothing to trim");
		return PAM_IGNORE;
	}
	return end_call(&c, trim(&c));
}

/* Account management changes nothing: it reads and checks the policy and
 * the user (check_ahead), so that a broken policy refuses the login before
 * a session starts, even in programs that ignore a failing pam_setcred. */
PAM_EXTERN int pam_sm_acct_mgmt(pam_handle_t *pamh, int flags, int argc,
				const char **argv)
{
	(void)flags;
	return run_step(pamh, argc, argv, check_ahead, PAM_PERM_DENIED);
}

PAM_EXTERN int pam_sm_open_session(pam_handle_t *pamh, int flags, int argc,
				   const char **argv)
{
	(void)flags;
	return run_step(pamh, argc, argv, trim, PAM_SESSION_ERR);
}

PAM_EXTERN int pam_sm_close_session(pam_handle_t *pamh, int flags, int argc,
				    const char **argv)
{
	(void)pamh, (void)flags, (void)argc, (void)argv;
	return PAM_SUCCESS;
}
