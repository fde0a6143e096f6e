/* Which programs give a user back the groups a rule drops: the policy's
 * rules against the pam_dropgroups lines of each program's stack, judged
 * by the table of programs (where each calls initgroups) and by libpam's
 * rules for controls. */
#include "ways.h"

#include <errno.h>
#include <stdint.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include <security/_pam_types.h>

#include "args.h"
#include "nss.h"
#include "strlist.h"

/* --- one line --- */

/* The codes the module fails with in a facility.  In auth both count:
 * pam_setcred replays what pam_authenticate answered (libpam's cached
 * chain), and runs alone where the program never authenticates. */
static size_t failure_codes(enum dg_pam_facility f, bool system_err,
			    int codes[2])
{
	if (system_err && f != DG_PAM_PASSWORD) {
		codes[0] = PAM_SYSTEM_ERR;
		return 1;
	}
	switch (f) {
	case DG_PAM_AUTH:
		codes[0] = PAM_AUTH_ERR;
		codes[1] = PAM_CRED_ERR;
		return 2;
	case DG_PAM_ACCOUNT:
		codes[0] = PAM_PERM_DENIED;
		return 1;
	case DG_PAM_SESSION:
		codes[0] = PAM_SESSION_ERR;
		return 1;
	default:
		return 0;
	}
}

/* l's arguments as the module parses them (args.c): system_err and
 * report_only are read even when another argument is refused. */
static struct dg_args line_args(const struct dg_pam_line *l)
{
	struct dg_args args;
	_cleanup_free_ char *why = NULL;

	(void)dg_args_parse((int)l->args.n, (const char *const *)l->args.v,
			    &args, &why);
	return args;
}

static bool has_system_err(const struct dg_pam_line *l)
{
	return line_args(l).system_err;
}

/* A report_only line logs what it would drop and enforces nothing: it
 * trims nothing, and refuses nothing, not even a broken policy. */
static bool has_report_only(const struct dg_pam_line *l)
{
	return line_args(l).report_only;
}

/* Does the module's failure on l refuse the call?  A jump ignores it,
 * except in pam_setcred, where libpam treats the line as required. */
static bool fails_closed(const struct dg_pam_line *l)
{
	int codes[2];
	size_t n = failure_codes(l->facility, has_system_err(l), codes);

	if (has_report_only(l))
		return false;
	for (size_t i = 0; i < n; i++) {
		enum dg_pam_action a =
			dg_pamstack_control_action(l->control, codes[i]);

		if (a == DG_PAM_ACTION_IGNORE || a == DG_PAM_ACTION_RESET ||
		    (a == DG_PAM_ACTION_JUMP && l->facility != DG_PAM_AUTH))
			return false;
	}
	return true;
}

/* What l does for p; for a program not in the table, an auth or
 * session line is taken to trim (nothing better is known). */
static enum dg_effect effect_of(const struct dg_program *p,
				const struct dg_pam_line *l)
{
	if (p)
		return p->effect[l->facility];
	return l->facility == DG_PAM_ACCOUNT ? DG_EFFECT_CHECKS
	       : l->facility == DG_PAM_PASSWORD ? DG_EFFECT_UNKNOWN
						: DG_EFFECT_TRIMS;
}

static const char *name_of(const struct dg_program *p, const char *service)
{
	return p ? p->name : service;
}

/* Why l, a line in a facility where p's line trims, would still let a
 * login through with every group: NULL if it would not.  *msg (if
 * msg) gets the finding. */
static bool line_fails_open(const struct dg_program *p, const char *service,
			    const struct dg_pam_line *l, char **msg)
{
	const char *fac = dg_pamstack_facility_name(l->facility);
	int r = 0;

	if (has_report_only(l)) {
		if (msg)
			r = asprintf(msg, "for %s, the line says report_only: "
					  "the module only logs what it would "
					  "drop, and enforces nothing (no "
					  "group dropped, no login refused); "
					  "remove report_only to trim",
				     name_of(p, service));
	} else if (effect_of(p, l) == DG_EFFECT_FAILS_OPEN) {
		if (msg)
			r = asprintf(msg, "for %s, %s line trims, but a failure "
					  "does not stop it: %s; use \"%s\"",
				     p->name, fac, p->order, p->fix);
	} else if (p && p->session_needs_system_err &&
		   l->facility == DG_PAM_SESSION && !has_system_err(l)) {
		if (msg)
			r = asprintf(msg, "for %s, a session line needs "
					  "system_err: %s, and would run the "
					  "command with every group when the "
					  "policy is broken; use \"%s\"",
				     p->name, p->order, p->fix);
	} else if (!fails_closed(l)) {
		if (msg)
			r = asprintf(msg, "for %s, with \"%s\" a failure of "
					  "the module does not count: a broken "
					  "policy would let the login through "
					  "with every group; use \"required\"",
				     name_of(p, service), l->control);
	} else {
		return false;
	}
	if (r < 0 && msg)
		*msg = NULL;
	return true;
}

/* --- one service's stack --- */

static const struct dg_service_stack *
find_stack(const struct dg_service_stacks *stacks, const char *service)
{
	for (size_t i = 0; i < stacks->n; i++)
		if (strcmp(stacks->v[i].service, service) == 0)
			return &stacks->v[i];
	return NULL;
}

/* Is p on this host, with s its stack?  It is where s was read; and
 * where s is "other"'s, when the same program run another way has a
 * stack of its own (su -l, when su has one: libpam runs "other"). */
static bool installed(const struct dg_service_stacks *stacks,
		      const struct dg_service_stack *s,
		      const struct dg_program *p)
{
	const struct dg_service_stack *same;

	/* sshd with UsePAM no: installed, whatever its stack */
	if (s->status == 0 || s->not_run)
		return true;
	if (s->status != -ENOENT || !s->stack.file || !p || !p->same_program)
		return false;
	same = find_stack(stacks, p->same_program);
	return same && same->status == 0;
}

/* What a service's stack does with the module, for a rule that matches
 * it. */
enum dg_trim {
	DG_TRIM_YES,        /* a line trims, and a failure refuses */
	DG_TRIM_NO_LINE,    /* no pam_dropgroups line at all */
	DG_TRIM_UNDONE,     /* lines, none where they trim */
	DG_TRIM_FAILS_OPEN, /* trims, but a broken policy gets through */
	DG_TRIM_NOT_RUN,    /* the program runs no PAM stack at all */
};

struct judged {
	enum dg_trim trim;
	const struct dg_pam_line *good; /* the first line that trims */
	const struct dg_pam_line *report_only; /* the first such line */
	bool any, account, fails_open, account_skipped;
};

/* The codes on which an earlier line that skips the module's counts:
 * all but an expired password's.  Debian's common-account ends the
 * account stack on pam_unix's PAM_NEW_AUTHTOK_REQD ("new_authtok_reqd=
 * done"), so every sshd stack would be an error; the program then makes
 * the user change the password, and the auth line still trims. */
#define SKIP_CODES (UINT32_MAX & ~(UINT32_C(1) << PAM_NEW_AUTHTOK_REQD))

/* Does line i of s matter for p (it trims, or checks), and may libpam
 * skip it?  The line that skips it, or NULL. */
static const struct dg_pam_line *skipped_by(const struct dg_service_stack *s,
					    const struct dg_program *p,
					    size_t i, int *code)
{
	enum dg_effect e = effect_of(p, &s->stack.lines.v[i]);
	long k;

	if (e != DG_EFFECT_TRIMS && e != DG_EFFECT_FAILS_OPEN &&
	    e != DG_EFFECT_CHECKS)
		return NULL;
	k = dg_pamstack_skipped_by(&s->stack, i, SKIP_CODES, code);
	return k < 0 ? NULL : &s->stack.lines.v[k];
}

static struct judged judge(const struct dg_service_stack *s,
			   const struct dg_program *p)
{
	struct judged j = {0};

	if (s->not_run) {
		j.trim = DG_TRIM_NOT_RUN;
		return j;
	}
	for (size_t i = 0; i < s->stack.lines.n; i++) {
		const struct dg_pam_line *l = &s->stack.lines.v[i];
		enum dg_effect e = effect_of(p, l);
		int code;

		if (!dg_pamstack_is_dropgroups(l->module))
			continue;
		j.any = true;
		if (skipped_by(s, p, i, &code)) {
			/* it may not run: no better than failing open */
			j.account_skipped |= e == DG_EFFECT_CHECKS;
			j.fails_open |= e != DG_EFFECT_CHECKS;
			continue;
		}
		if (e == DG_EFFECT_CHECKS && fails_closed(l))
			j.account = true;
		if (e != DG_EFFECT_TRIMS && e != DG_EFFECT_FAILS_OPEN)
			continue;
		if (line_fails_open(p, s->service, l, NULL)) {
			j.fails_open = true;
			if (!j.report_only && has_report_only(l))
				j.report_only = l;
		} else if (!j.good)
			j.good = l;
	}
	j.trim = !j.any		       ? DG_TRIM_NO_LINE
		 : j.good && (!p || !p->needs_account || j.account)
			 ? DG_TRIM_YES
		 : j.good || j.fails_open ? DG_TRIM_FAILS_OPEN
					  : DG_TRIM_UNDONE;
	return j;
}

/* Is module (as written on a line) pam_group? */
static bool is_pam_group(const char *module)
{
	const char *base = strrchr(module, '/');

	return strcmp(base ? base + 1 : module, "pam_group.so") == 0;
}

/* Does line i of s trim for p, and refuse when the module fails? */
static bool trims_here(const struct dg_service_stack *s,
		       const struct dg_program *p, size_t i)
{
	const struct dg_pam_line *l = &s->stack.lines.v[i];
	int code;

	return dg_pamstack_is_dropgroups(l->module) &&
	       effect_of(p, l) == DG_EFFECT_TRIMS &&
	       !skipped_by(s, p, i, &code) &&
	       !line_fails_open(p, s->service, l, NULL);
}

/* The directory part of a path, as the module opens it ("." for none). */
static char *dir_of(const char *path)
{
	const char *slash = strrchr(path, '/');

	if (!slash)
		return strdup(".");
	return strndup(path, slash == path ? 1 : (size_t)(slash - path));
}

static bool same_inode(const char *a, const char *b)
{
	struct stat x, y;

	return stat(a, &x) == 0 && stat(b, &y) == 0 && x.st_dev == y.st_dev &&
	       x.st_ino == y.st_ino;
}

/* Do a line's config= and the policy explain read name one policy?  The
 * same text, or, spelled another way (explain -c with a relative path,
 * a "//" or a ".." in config=), the same file under the same name in
 * the same directory: otherwise a program that reads this very policy
 * would be called open.  The same inode is not enough: the module reads
 * the drop-ins named after the path (NAME.d, or include_dir relative to
 * its directory), so a hard link under another name, or in another
 * directory, is the same main file with other drop-ins. */
static bool same_policy(const char *config, const char *path)
{
	const char *cb = strrchr(config, '/'), *pb = strrchr(path, '/');
	_cleanup_free_ char *cd = NULL, *pd = NULL;

	if (strcmp(config, path) == 0)
		return true;
	cb = cb ? cb + 1 : config;
	pb = pb ? pb + 1 : path;
	if (strcmp(cb, pb) != 0 || !same_inode(config, path))
		return false;
	/* (out of memory: "another policy", which counts the program
	 * open, never closed) */
	cd = dir_of(config);
	pd = dir_of(path);
	return cd && pd && same_inode(cd, pd);
}

/* The module reads the policy its line's config= names: a line that
 * trims for p but reads another policy than path applies that one's
 * rules.  The first such line, when no line that trims for p reads
 * path; or NULL. */
static const struct dg_pam_line *other_policy(const struct dg_service_stack *s,
					      const struct dg_program *p,
					      const char *path)
{
	const struct dg_pam_line *other = NULL;

	for (size_t i = 0; i < s->stack.lines.n; i++) {
		const struct dg_pam_line *l = &s->stack.lines.v[i];

		if (!trims_here(s, p, i))
			continue;
		if (same_policy(line_args(l).config, path))
			return NULL;
		other = other ? other : l;
	}
	return other;
}

/* pam_group adds groups in pam_setcred, after the lines before it, and
 * nothing trims them unless a line that trims runs later: an auth line
 * after it, or a session line where the program calls pam_open_session
 * after pam_setcred (su, sudo, the systemd user manager: those whose
 * session lines trim).  The first auth pam_group line that runs after
 * every line that trims for p (s trims: DG_TRIM_YES), or NULL.  A
 * pam_group line libpam may skip still counts: it may run. */
static const struct dg_pam_line *regranted_by(const struct dg_service_stack *s,
					      const struct dg_program *p)
{
	const struct dg_pam_line *grants = NULL;

	/* what pam_group does for a program not in the table is unknown */
	if (!p)
		return NULL;
	for (size_t i = 0; i < s->stack.lines.n; i++) {
		const struct dg_pam_line *l = &s->stack.lines.v[i];

		if (l->facility == DG_PAM_SESSION && trims_here(s, p, i))
			return NULL; /* runs after pam_setcred, and trims */
		if (l->facility != DG_PAM_AUTH)
			continue;
		if (is_pam_group(l->module))
			grants = grants ? grants : l;
		else if (trims_here(s, p, i))
			grants = NULL; /* this one trims what it added */
	}
	return grants;
}

static void add(struct dg_diags *d, enum dg_severity sev, const char *file,
		int line, char *msg)
{
	if (!msg)
		d->lost = true;
	else
		dg_diag_add(d, sev, file, line, "%s", msg);
	free(msg);
}

/* A control that, on the module's PAM_SUCCESS, does more than count it:
 * the module answers PAM_SUCCESS whenever a rule matches (and
 * authenticates nobody), so the lines after it would not decide. */
static void report_success_action(const struct dg_pam_line *l,
				  struct dg_diags *d)
{
	enum dg_pam_action a =
		dg_pamstack_control_action(l->control, PAM_SUCCESS);
	const char *what = a == DG_PAM_ACTION_DONE    ? "ends the stack"
			   : a == DG_PAM_ACTION_JUMP  ? "skips the lines after it"
			   : a == DG_PAM_ACTION_RESET ? "forgets the failures "
							"before it"
						      : NULL;

	if (what)
		dg_diag_add(d, DG_ERROR, l->file, l->line,
			    "with \"%s\", the module's PAM_SUCCESS (its answer "
			    "whenever a rule matches: it authenticates "
			    "nobody) %s, so other modules do not decide; use "
			    "\"required\"",
			    l->control, what);
}

/* A line in a facility where it does nothing for p. */
static void report_undone(const struct dg_program *p,
			  const struct dg_pam_line *l, struct dg_diags *d)
{
	const char *fac = dg_pamstack_facility_name(l->facility);

	if (effect_of(p, l) == DG_EFFECT_CHECKS)
		dg_diag_add(d, DG_ERROR, l->file, l->line,
			    "for %s, an account line only checks the policy "
			    "and trims nothing; %s%s%s",
			    p->name, p->fix ? "use \"" : "",
			    p->fix ? p->fix : p->instead, p->fix ? "\"" : "");
	else if (p->fix)
		dg_diag_add(d, DG_ERROR, l->file, l->line,
			    "for %s, a %s line trims nothing: %s; use \"%s\"",
			    p->name, fac, p->order, p->fix);
	else
		dg_diag_add(d, DG_ERROR, l->file, l->line,
			    "for %s, no PAM line can trim: %s; %s", p->name,
			    p->order, p->instead);
}

/* Line i of s, which matters for p, may be skipped: say so, where no
 * other line makes up for it.  Whether it was reported. */
static bool report_skipped(const struct dg_service_stack *s,
			   const struct dg_program *p, size_t i,
			   const struct judged *j, struct dg_diags *d)
{
	const struct dg_pam_line *l = &s->stack.lines.v[i], *by;
	bool account = effect_of(p, l) == DG_EFFECT_CHECKS;
	int code;

	if (!(by = skipped_by(s, p, i, &code)))
		return false;
	if (account ? !p || !p->needs_account || j->account : j->good != NULL)
		return true; /* another line does its work */
	dg_diag_add(d, DG_ERROR, l->file, l->line,
		    "libpam skips this line whenever the module of %s:%d "
		    "(\"%s %s\") answers %s: that control ends the stack "
		    "or jumps past this line, so for %s the module does not "
		    "run, and the login goes on with every group",
		    by->file, by->line, by->control, by->module,
		    dg_pamstack_code_name(code), name_of(p, s->service));
	return true;
}

/* Judge s for p, and say in d what is wrong with its lines. */
static enum dg_trim judge_and_report(const struct dg_service_stack *s,
				     const struct dg_program *p,
				     struct dg_diags *d)
{
	struct judged j = judge(s, p);

	/* its lines never run: what they would do does not matter */
	if (j.trim == DG_TRIM_NOT_RUN) {
		dg_diag_add(d, DG_ERROR, s->not_run_file, s->not_run_line,
			    "%s: the module does not run there, so no rule "
			    "for service \"%s\" applies, and those logins "
			    "keep every group",
			    s->not_run, s->service);
		return j.trim;
	}
	for (size_t i = 0; i < s->stack.lines.n; i++) {
		const struct dg_pam_line *l = &s->stack.lines.v[i];
		char *msg = NULL;

		if (!dg_pamstack_is_dropgroups(l->module))
			continue;
		report_success_action(l, d);
		if (report_skipped(s, p, i, &j, d) || j.good)
			continue;
		if (line_fails_open(p, s->service, l, &msg))
			add(d, DG_ERROR, l->file, l->line, msg);
		else if (p && !j.fails_open)
			report_undone(p, l, d);
	}
	if (j.good && j.trim == DG_TRIM_FAILS_OPEN && !j.account_skipped)
		dg_diag_add(d, DG_ERROR, j.good->file, j.good->line,
			    "for %s, this line trims, but %s: add \"account "
			    "required pam_dropgroups.so\", which refuses a "
			    "broken policy before the session",
			    p->name, p->order);
	return j.trim;
}

/* --- the rules --- */

/* Said of a way back in for a rule that sets no_new_privs: its drops are
 * meant to hold, so the way back is an error, not a warning. */
#define NNP_MEANT "; a rule that sets no_new_privs means its drops to hold"

/* How a way back in through p is reported, for rules of which one sets
 * no_new_privs (nnp).  Where no PAM line can trim (atd), what closes it
 * is a file lint does not read (at.deny): a warning, saying so. */
static enum dg_severity way_severity(const struct dg_program *p, bool nnp)
{
	return nnp && p->fix ? DG_ERROR : DG_WARNING;
}

static const char *way_suffix(const struct dg_program *p, bool nnp)
{
	if (!p->fix)
		return "; lint does not read those files, so this stays a "
		       "warning";
	return nnp ? NNP_MEANT : "";
}

static bool everyone(const struct dg_rule_src *r)
{
	return !r->users_given || dg_strlist_has(&r->users, "*");
}

/* Does r2 match every user that r matches (by what is written)? */
static bool covers_users(const struct dg_rule_src *r2,
			 const struct dg_rule_src *r)
{
	if (everyone(r2))
		return true;
	if (everyone(r))
		return false;
	for (size_t i = 0; i < r->users.n; i++)
		if (!dg_strlist_has(&r2->users, r->users.v[i]))
			return false;
	return true;
}

static bool matches_service(const struct dg_rule_src *r, const char *service)
{
	return dg_strlist_has(&r->services, service) ||
	       dg_strlist_has(&r->services, "*");
}

/* The first rule that names service itself (not by "*"), or NULL. */
static const struct dg_rule_src *naming_rule(const struct dg_config *cfg,
					     const char *service)
{
	for (size_t i = 0; i < cfg->rules.n; i++)
		if (dg_strlist_has(&cfg->rules.v[i].services, service))
			return &cfg->rules.v[i];
	return NULL;
}

/* Is r's every user matched by some rule for service? */
static bool covered(const struct dg_config *cfg, const char *service,
		    const struct dg_rule_src *r)
{
	for (size_t i = 0; i < cfg->rules.n; i++)
		if (matches_service(&cfg->rules.v[i], service) &&
		    covers_users(&cfg->rules.v[i], r))
			return true;
	return false;
}

/* --- what a rule keeps, by what is written --- */

/* Could a and b be one group?  Names as NSS may match them (a keep or
 * restricting name matches ignoring case), and a name may be any gid. */
static bool may_be_same(const struct dg_group_ref *a,
			const struct dg_group_ref *b)
{
	if (a->name && b->name)
		return strcasecmp(a->name, b->name) == 0;
	return a->name || b->name || a->gid == b->gid;
}

/* Are a and b surely one group: written alike? */
static bool surely_same(const struct dg_group_ref *a,
			const struct dg_group_ref *b)
{
	if (a->name && b->name)
		return strcmp(a->name, b->name) == 0;
	return !a->name && !b->name && a->gid == b->gid;
}

static bool refs_have(const struct dg_group_refs *refs,
		      const struct dg_group_ref *ref, bool surely)
{
	for (size_t i = 0; i < refs->n; i++)
		if (surely ? surely_same(&refs->v[i], ref)
			   : may_be_same(&refs->v[i], ref))
			return true;
	return false;
}

static bool all_of(const struct dg_rule_src *r)
{
	for (size_t i = 0; i < r->groups.n; i++)
		if (r->groups.v[i].name &&
		    strcmp(r->groups.v[i].name, "*") == 0)
			return true;
	return false;
}

static int print_ref(FILE *f, size_t n, const struct dg_group_ref *ref)
{
	return ref->name
		       ? fprintf(f, "%s\"%s\"", n ? ", " : "", ref->name)
		       : fprintf(f, "%s%u", n ? ", " : "", (unsigned)ref->gid);
}

/* The groups r drops that c may keep, by what the two rules write (the
 * decision of policy.c, over every group they name and one they do
 * not): "\"audio\", 1003" or "every group neither names", into f.
 * How many were printed, or -1. */
static int kept_by(FILE *f, const struct dg_config *cfg,
		   const struct dg_rule_src *c, const struct dg_rule_src *r)
{
	bool c_all = all_of(c), r_all = all_of(r);
	const char *what;
	int n = 0;

	/* c drops everything but what is restricting or primary, or r
	 * drops nothing */
	if ((c->mode == DG_MODE_DROP && c_all) ||
	    (r->mode == DG_MODE_KEEP && r_all))
		return 0;
	if (r->mode == DG_MODE_DROP && !r_all) {
		/* each group r names, unless c surely drops it too */
		for (size_t i = 0; i < r->groups.n; i++) {
			const struct dg_group_ref *g = &r->groups.v[i];
			bool dropped =
				c->mode == DG_MODE_DROP
					? refs_have(&c->groups, g, true)
					: !c_all && !refs_have(&c->groups, g,
							       false);

			if (dropped || refs_have(&cfg->restricting, g, true))
				continue;
			if (print_ref(f, (size_t)n++, g) < 0)
				return -1;
		}
		return n;
	}
	/* r drops every group (but those it keeps): c must keep no other */
	if (c->mode == DG_MODE_KEEP && !c_all) {
		for (size_t i = 0; i < c->groups.n; i++) {
			const struct dg_group_ref *g = &c->groups.v[i];

			if ((r->mode == DG_MODE_KEEP &&
			     refs_have(&r->groups, g, true)) ||
			    refs_have(&cfg->restricting, g, true))
				continue;
			if (print_ref(f, (size_t)n++, g) < 0)
				return -1;
		}
		return n;
	}
	what = c_all ? "every group" : "every group it does not name";
	return fputs(what, f) < 0 ? -1 : 1;
}

/* "rule "ssh" (FILE:LINE)", or "rule at FILE:LINE". */
static int print_rule(FILE *f, const struct dg_rule_src *r)
{
	return r->name ? fprintf(f, "rule \"%s\" (%s:%d)", r->name, r->file,
				 r->line)
		       : fprintf(f, "rule at %s:%d", r->file, r->line);
}

/* print_rule, as a string: NULL on ENOMEM. */
static char *rule_text(const struct dg_rule_src *r)
{
	char *s = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&s, &len);
	int printed, closed;

	if (!f)
		return NULL;
	/* fclose() whatever print_rule() says: the stream must be closed
	 * either way, and only then is s complete (or to be freed) */
	printed = print_rule(f, r);
	closed = fclose(f);
	if (printed < 0 || closed != 0) {
		free(s);
		return NULL;
	}
	return s;
}

/* The rules whose users no rule for p's service covers (those with
 * no_new_privs left out where p is reached set-user-ID), as one clause;
 * NULL when none (or on ENOMEM, with *oom).  *nnp: one of them sets
 * no_new_privs. */
static char *uncovered_rules(const struct dg_config *cfg,
			     const struct dg_program *p, bool *oom, bool *nnp)
{
	char *s = NULL;
	size_t len = 0, n = 0;
	FILE *f = open_memstream(&s, &len);
	bool bad = !f;

	for (size_t i = 0; f && i < cfg->rules.n; i++) {
		const struct dg_rule_src *r = &cfg->rules.v[i];

		if ((r->no_new_privs && p->setuid) || covered(cfg, p->service, r))
			continue;
		*nnp |= r->no_new_privs;
		bad |= fprintf(f, "%s", n++ ? ", " : "") < 0 ||
		       print_rule(f, r) < 0;
	}
	if (f && fclose(f) != 0)
		bad = true;
	*oom = bad;
	if (bad || !n) {
		free(s);
		return NULL;
	}
	return s;
}

/* --- lint --- */

/* Every pam_dropgroups line's arguments, as the module would parse them
 * (args.c), once per line however many stacks include it. */
static void lint_args(const struct dg_service_stacks *stacks,
		      const char *policy_path, struct dg_diags *d)
{
	for (size_t i = 0; i < stacks->n; i++) {
		const struct dg_pam_lines *ls = &stacks->v[i].stack.lines;

		for (size_t k = 0; k < ls->n; k++) {
			const struct dg_pam_line *l = &ls->v[k];
			_cleanup_free_ char *why = NULL;
			struct dg_args args;

			if (!dg_pamstack_is_dropgroups(l->module))
				continue;
			if (dg_args_parse((int)l->args.n,
					  (const char *const *)l->args.v, &args,
					  &why) < 0)
				dg_diag_add(d, DG_ERROR, l->file, l->line,
					    "the module refuses this line "
					    "(%s): every call through it "
					    "fails",
					    why ? why : "out of memory");
			else if (strcmp(args.config, policy_path) != 0)
				dg_diag_add(d, DG_WARNING, l->file, l->line,
					    "this line reads the policy %s, "
					    "not %s: lint it with -c %s too",
					    args.config, policy_path,
					    args.config);
		}
	}
}

static void lint_no_new_privs(const struct dg_config *cfg, struct dg_diags *d)
{
	for (size_t i = 0; i < cfg->rules.n; i++) {
		const struct dg_rule_src *r = &cfg->rules.v[i];

		if (!r->no_new_privs)
			dg_diag_add(d, DG_WARNING, r->file, r->line,
				    "a way back in: the rule does not set "
				    "no_new_privs, so its users take a "
				    "dropped group back with sg or newgrp "
				    "(set-user-ID): its drops are a "
				    "convenience, not enforced");
	}
}

/* A service a rule names: its stack must carry out the rule. */
static void lint_named(const struct dg_service_stack *s,
		       const struct dg_rule_src *r, struct dg_diags *d)
{
	const struct dg_program *p = dg_programs_find(s->service);
	enum dg_trim t = judge_and_report(s, p, d);
	const char *where = s->stack.file;

	if (t == DG_TRIM_NO_LINE && p && !p->fix)
		dg_diag_add(d, DG_ERROR, r->file, r->line,
			    "the rule names service \"%s\", but for %s no "
			    "PAM line can trim: %s; %s",
			    s->service, p->name, p->order, p->instead);
	else if (t == DG_TRIM_NO_LINE && s->status == 0)
		dg_diag_add(d, DG_ERROR, r->file, r->line,
			    "the rule names service \"%s\", but %s has no "
			    "pam_dropgroups line: the rule never applies",
			    s->service, where);
	else if (t == DG_TRIM_NO_LINE && where)
		dg_diag_add(d, DG_ERROR, r->file, r->line,
			    "the rule names service \"%s\", which has no "
			    "stack: libpam uses %s, which has no "
			    "pam_dropgroups line, so the rule never applies",
			    s->service, where);
	else if (t == DG_TRIM_NO_LINE)
		dg_diag_add(d, DG_ERROR, r->file, r->line,
			    "the rule names service \"%s\", which has no "
			    "stack, and there is no \"other\": libpam refuses "
			    "the service, so the rule never applies",
			    s->service);
	else if (t == DG_TRIM_UNDONE && !p)
		dg_diag_add(d, DG_ERROR, r->file, r->line,
			    "the rule names service \"%s\", but its stack has "
			    "pam_dropgroups in account or password only, "
			    "where it trims nothing",
			    s->service);
}

/* The rules whose users no rule for p's service matches: a way back in
 * through p.  1 if there were any, 0, or -ENOMEM. */
static int lint_uncovered(const struct dg_config *cfg,
			  const struct dg_service_stack *s,
			  const struct dg_program *p, struct dg_diags *d)
{
	bool oom = false, nnp = false;
	_cleanup_free_ char *rules = uncovered_rules(cfg, p, &oom, &nnp);

	if (oom)
		return -ENOMEM;
	if (!rules)
		return 0;
	dg_diag_add(d, way_severity(p, nnp), s->stack.file, 0,
		    "a way back in: %s starts their processes with every "
		    "group, as no rule for service \"%s\" matches the users "
		    "of %s%s%s%s",
		    p->name, p->service, rules, p->fix ? "" : "; ",
		    p->fix ? "" : p->instead, way_suffix(p, nnp));
	return 1;
}

/* A program of the table that no rule names: a way back in, unless
 * rules for "*" cover it and its stack trims. */
static int lint_unnamed(const struct dg_config *cfg,
			const struct dg_service_stack *s,
			const struct dg_program *p, struct dg_diags *d)
{
	bool star = false, disarmed = p->setuid, nnp = false;
	enum dg_trim t = DG_TRIM_YES;
	int r = lint_uncovered(cfg, s, p, d);

	if (r < 0)
		return r;
	for (size_t i = 0; i < cfg->rules.n; i++) {
		const struct dg_rule_src *rule = &cfg->rules.v[i];

		if (!dg_strlist_has(&rule->services, "*"))
			continue;
		star = true;
		nnp |= rule->no_new_privs;
		/* set-user-ID, and every session it could start from runs
		 * under no_new_privs */
		disarmed &= rule->no_new_privs;
	}
	if (star)
		t = judge_and_report(s, p, d);
	if (r == 0 && star && t == DG_TRIM_NO_LINE && !disarmed)
		dg_diag_add(d, way_severity(p, nnp), s->stack.file, 0,
			    "a way back in: a rule matches every service, but "
			    "this stack has no pam_dropgroups line, so %s "
			    "starts processes with every group; %s%s%s",
			    p->name, p->fix ? "use " : "",
			    p->fix ? p->fix : p->instead, way_suffix(p, nnp));
	return 0;
}

/* Does r drop any group, by what it writes? */
static bool drops_some(const struct dg_rule_src *r)
{
	return r->mode == DG_MODE_DROP ? r->groups.n > 0 : !all_of(r);
}

/* Might r and c match one user, by what they write?  A "%group" may
 * hold anyone. */
static bool may_share_users(const struct dg_rule_src *c,
			    const struct dg_rule_src *r)
{
	if (everyone(c) || everyone(r))
		return true;
	for (size_t i = 0; i < r->users.n; i++)
		if (r->users.v[i][0] == '%' ||
		    dg_strlist_has(&c->users, r->users.v[i]))
			return true;
	for (size_t i = 0; i < c->users.n; i++)
		if (c->users.v[i][0] == '%')
			return true;
	return false;
}

/* The rule for p's service that r's users reach first, for each of
 * them, must drop what r drops: else p gives it back.  Rules are
 * tried in order, so each rule for the service up to the one that
 * covers all of r's users (or r itself) applies to some of them. */
static int lint_kept_by(const struct dg_config *cfg,
			const struct dg_service_stack *s,
			const struct dg_program *p, const struct dg_rule_src *r,
			struct dg_diags *d)
{
	for (size_t i = 0; i < cfg->rules.n; i++) {
		const struct dg_rule_src *c = &cfg->rules.v[i];
		_cleanup_free_ char *kept = NULL, *label = NULL;
		size_t len = 0;
		FILE *f;
		int n;

		if (!matches_service(c, p->service))
			continue;
		if (c == r)
			break;
		if (!may_share_users(c, r))
			continue;
		if (!(f = open_memstream(&kept, &len)))
			return -ENOMEM;
		n = kept_by(f, cfg, c, r);
		if (fclose(f) != 0 || n < 0 ||
		    (n > 0 && !(label = rule_text(r))))
			return -ENOMEM;
		if (n == 0 && r->no_new_privs && !c->no_new_privs &&
		    drops_some(r) && !(label = rule_text(r)))
			return -ENOMEM;
		if (n == 0 && label)
			dg_diag_add(d, DG_ERROR, c->file, c->line,
				    "a way back in: %s applies this rule to the "
				    "users of %s, and this rule does not set "
				    "no_new_privs: from there sg and newgrp "
				    "give back what that rule drops" NNP_MEANT,
				    p->name, label);
		if (n > 0)
			dg_diag_add(d, r->no_new_privs ? DG_ERROR : DG_WARNING,
				    c->file, c->line,
				    "a way back in: %s applies this rule to "
				    "the users of %s, and this rule keeps %s, "
				    "which that rule drops%s",
				    p->name, label, kept,
				    r->no_new_privs ? NNP_MEANT : "");
		if (covers_users(c, r))
			break;
	}
	return 0;
}

static int lint_kept(const struct dg_config *cfg,
		     const struct dg_service_stack *s,
		     const struct dg_program *p, struct dg_diags *d)
{
	for (size_t i = 0; i < cfg->rules.n; i++) {
		const struct dg_rule_src *r = &cfg->rules.v[i];
		int e;

		if (r->no_new_privs && p->setuid)
			continue;
		if ((e = lint_kept_by(cfg, s, p, r, d)) < 0)
			return e;
	}
	return 0;
}

/* A program whose stack trims, but runs pam_group after (regranted_by):
 * the groups pam_group adds stay, whichever rule applies.  A way back
 * in, an error when a rule for the program sets no_new_privs. */
static void lint_regranted(const struct dg_config *cfg,
			   const struct dg_service_stack *s,
			   const struct dg_program *p, struct dg_diags *d)
{
	const struct dg_pam_line *g;
	bool any = false, nnp = false;

	for (size_t i = 0; i < cfg->rules.n; i++)
		if (matches_service(&cfg->rules.v[i], p->service)) {
			any = true;
			nnp |= cfg->rules.v[i].no_new_privs;
		}
	/* no rule, or no line that trims: reported as such */
	if (!any || judge(s, p).trim != DG_TRIM_YES ||
	    !(g = regranted_by(s, p)))
		return;
	dg_diag_add(d, way_severity(p, nnp), g->file, g->line,
		    "a way back in: for %s, pam_group runs in pam_setcred "
		    "after every pam_dropgroups line that trims, so the "
		    "groups %s grants stay, those a rule drops too; put the "
		    "pam_dropgroups auth line after this one%s",
		    p->name, DG_PAM_GROUP_CONF, way_suffix(p, nnp));
}

int dg_ways_lint(const struct dg_config *cfg, const char *policy_path,
		 const struct dg_service_stacks *stacks, struct dg_diags *diags)
{
	lint_args(stacks, policy_path, diags);
	lint_no_new_privs(cfg, diags);
	for (size_t i = 0; i < stacks->n; i++) {
		const struct dg_service_stack *s = &stacks->v[i];
		const struct dg_rule_src *r = naming_rule(cfg, s->service);
		const struct dg_program *p = dg_programs_find(s->service);
		bool here = installed(stacks, s, p);

		if (r)
			lint_named(s, r, diags);
		if (r && p && p->user_reaches && here &&
		    lint_uncovered(cfg, s, p, diags) < 0)
			return -ENOMEM;
		if (!r && p && p->user_reaches && here &&
		    lint_unnamed(cfg, s, p, diags) < 0)
			return -ENOMEM;
		/* where no line can trim (atd), no rule applies: reported */
		if (p && p->user_reaches && p->fix && here &&
		    lint_kept(cfg, s, p, diags) < 0)
			return -ENOMEM;
		if (stacks->pam_group_grants && p && p->fix && here)
			lint_regranted(cfg, s, p, diags);
	}
	return 0;
}

int dg_ways_lint_services(const struct dg_config *cfg, struct dg_strlist *out)
{
	size_t n;
	const struct dg_program *programs = dg_programs(&n);

	for (size_t i = 0; i < n; i++)
		if (dg_strlist_add(out, programs[i].service) < 0)
			return -ENOMEM;
	for (size_t i = 0; i < cfg->rules.n; i++) {
		const struct dg_strlist *sv = &cfg->rules.v[i].services;

		for (size_t k = 0; k < sv->n; k++)
			if (strcmp(sv->v[k], "*") != 0 &&
			    dg_strlist_add(out, sv->v[k]) < 0)
				return -ENOMEM;
	}
	dg_strlist_sort_unique(out);
	return 0;
}

/* --- explain --- */

/* Add the way through program: verdict, the gids it gives back (back
 * NULL: that cannot be told now), and why (fmt).  0 or -ENOMEM. */
static int add_way(struct dg_ways *out, const char *program,
		   const char *verdict, const struct dg_gids *back,
		   const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));

static int add_way(struct dg_ways *out, const char *program,
		   const char *verdict, const struct dg_gids *back,
		   const char *fmt, ...)
{
	struct dg_way w = {.verdict = verdict, .back_known = back != NULL};
	va_list ap;

	va_start(ap, fmt);
	w.message = dg_util_vasprintf(fmt, ap);
	va_end(ap);
	w.program = strdup(program);
	if (w.message && w.program &&
	    (!back || dg_gids_from(&w.back, back->v, back->n) == 0) &&
	    DG_APPEND(out, w) == 0)
		return 0;
	free(w.message);
	free(w.program);
	dg_gids_free(&w.back);
	return -ENOMEM;
}

/* The gids `mine` drops that rule keeps for the plan's user into
 * *given, and as labels ("audio(1003), video(1004)") into *labels (NULL
 * when none).  0, -ENOMEM, or another -errno when NSS could not name
 * *failed. */
static int given_back(const struct dg_plan *plan, const struct dg_rule *rule,
		      const struct dg_outcome *mine, struct dg_gids *given,
		      char **labels, gid_t *failed)
{
	struct dg_plan there = *plan;
	struct dg_outcome o = {0};
	const struct dg_decision *d = &mine->decision;
	char *s = NULL;
	size_t len = 0;
	FILE *f;
	int r;

	*labels = NULL;
	there.rule = rule;
	r = dg_plan_decide(&there, plan->user.groups.v, plan->user.groups.n,
			   &mine->names, NULL, &o, failed);
	if (r < 0)
		return r;
	if (!(f = open_memstream(&s, &len))) {
		dg_plan_outcome_free(&o);
		return -ENOMEM;
	}
	for (size_t i = 0; i < d->n_verdicts && r == 0; i++) {
		gid_t gid = d->verdicts[i].gid;
		_cleanup_free_ char *label = NULL;

		if (d->verdicts[i].kept ||
		    !dg_gids_contains(&o.decision.groups, gid))
			continue;
		if (!(label = dg_nss_group_label(gid)) ||
		    fprintf(f, "%s%s", given->n ? ", " : "", label) < 0 ||
		    dg_gids_add(given, gid) < 0)
			r = -ENOMEM;
	}
	dg_plan_outcome_free(&o);
	if (fclose(f) != 0 && r == 0)
		r = -ENOMEM;
	if (r < 0 || given->n == 0)
		free(s);
	else
		*labels = s;
	return r;
}

/* p's stack trims under rule: open if rule keeps a group the plan's
 * own rule drops (each of `dropped`).  0 or -ENOMEM. */
static int other_rule(const struct dg_plan *plan, const struct dg_outcome *mine,
		      const struct dg_gids *dropped, const struct dg_program *p,
		      const struct dg_rule *rule, struct dg_ways *out)
{
	_cleanup_free_ char *labels = NULL, *name = NULL;
	struct dg_gids given = {0};
	gid_t failed = 0;
	int r;

	if (rule == plan->rule)
		return 0; /* the same rule: the same decision */
	if (!(name = rule_text(rule->src)))
		return -ENOMEM;
	r = mine ? given_back(plan, rule, mine, &given, &labels, &failed)
		 : -EIO;
	if (r == -ENOMEM) {
		dg_gids_free(&given);
		return r;
	}
	if (r < 0)
		return add_way(out, p->name, "other_rule_undecided", NULL,
			       "%s applies there, and which groups it "
			       "keeps cannot be told now (NSS could not "
			       "name gid %u), so it is counted as open",
			       name, (unsigned)failed);
	if (labels) {
		r = add_way(out, p->name, "other_rule_keeps", &given,
			    "%s applies there, and keeps %s", name, labels);
		dg_gids_free(&given);
		return r;
	}
	/* the same groups go, but from there a set-user-ID sg gives them
	 * back: this rule's no_new_privs holds only in its own sessions */
	if (mine->decision.changed && plan->rule->src->no_new_privs &&
	    !rule->src->no_new_privs)
		return add_way(out, p->name, "other_rule_no_new_privs",
			       dropped,
			       "%s applies there, without "
			       "no_new_privs: from there sg and newgrp "
			       "give back what this rule drops",
			       name);
	return 0;
}

/* The way through p, if it is open for the plan's user: 0 or -ENOMEM.
 * mine: the decision under the plan's own rule, or NULL when NSS could
 * not make it (then any other rule is counted as open); dropped: the
 * gids it drops (NULL with it), which a login with every group gets
 * back; grants: pam_group may add groups (dg_service_stacks);
 * policy_path: the policy plan was read from. */
static int way_through(struct dg_plan *plan, const struct dg_outcome *mine,
		       const struct dg_gids *dropped,
		       const struct dg_program *p,
		       const struct dg_service_stack *s, bool grants,
		       const char *policy_path, struct dg_ways *out)
{
	const char *user = plan->user.name;
	const struct dg_pam_line *g;
	struct dg_match m;
	struct judged j;

	/* whatever rule would match, the module never runs there */
	if (s->not_run)
		return add_way(out, p->name, "not_run", dropped,
			       "%s, and its logins keep every group (%s%s%.0d)",
			       s->not_run, s->not_run_file,
			       s->not_run_line ? ":" : "", s->not_run_line);
	if (dg_plan_match(&plan->policy, p->service, &plan->user, &m) < 0)
		return -ENOMEM;
	/* Undecided: the module refuses that login now, but NSS decides
	 * which rule applies once it answers again, and that rule may keep
	 * the group: never called closed. */
	if (m.kind == DG_MATCH_UNDECIDED)
		return add_way(out, p->name, "undecided", NULL,
			       "which rule applies to user \"%s\" "
			       "cannot be told now (NSS cannot say whether "
			       "they are in group \"%s\"), so it is counted "
			       "as open",
			       user, m.group->name);
	if (m.kind == DG_MATCH_NONE)
		return add_way(out, p->name, "no_rule", dropped,
			       "no rule matches service \"%s\" and user \"%s\"",
			       p->service, user);
	j = judge(s, p);
	/* the rules of another policy apply there: not this one's to say */
	if (j.trim == DG_TRIM_YES && (g = other_policy(s, p, policy_path)))
		return add_way(out, p->name, "other_policy", NULL,
			       "%s:%d reads the policy %s, not %s, so which "
			       "groups it keeps cannot be told here (explain "
			       "with -c %s), and it is counted as open",
			       g->file, g->line, line_args(g).config,
			       policy_path, line_args(g).config);
	/* whichever rule applies, what pam_group adds after it stays; which
	 * groups depends on the time and the terminal, so it is not told */
	if (j.trim == DG_TRIM_YES && grants && (g = regranted_by(s, p)))
		return add_way(out, p->name, "pam_group", NULL,
			       "pam_group (%s:%d) runs after every "
			       "pam_dropgroups line that trims, so the groups "
			       "%s grants stay",
			       g->file, g->line, DG_PAM_GROUP_CONF);
	if (j.trim == DG_TRIM_YES)
		return other_rule(plan, mine, dropped, p,
				  &plan->policy.rules[m.rule], out);
	if (!p->fix)
		return add_way(out, p->name, "cannot_trim", dropped,
			       "no PAM line can trim (%s); %s", p->order,
			       p->instead);
	if (j.trim == DG_TRIM_FAILS_OPEN && j.report_only && !j.good)
		return add_way(out, p->name, "report_only", dropped,
			       "%s:%d says report_only: enforces nothing",
			       j.report_only->file, j.report_only->line);
	if (j.trim == DG_TRIM_FAILS_OPEN)
		return add_way(out, p->name, "fails_open", dropped,
			       "%s trims, but would let a broken policy "
			       "through (dropgroups lint says why)",
			       s->stack.file);
	return add_way(out, p->name, "no_line", dropped,
		       "%s has no pam_dropgroups line where it trims (%s)",
		       s->stack.file, p->fix);
}

static int ways_open(struct dg_plan *plan, const struct dg_outcome *mine,
		     const struct dg_gids *dropped,
		     const struct dg_program *programs, size_t n,
		     const struct dg_service_stacks *stacks,
		     const char *policy_path, struct dg_ways *out)
{
	bool nnp = plan->rule->src->no_new_privs;

	if (!nnp && add_way(out, "sg, newgrp", "no_new_privs_unset", dropped,
			    "the rule does not set no_new_privs, and these "
			    "set-user-ID programs give back any group \"%s\" "
			    "is a member of",
			    plan->user.name) < 0)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		const struct dg_program *p = &programs[i];
		const struct dg_service_stack *s = find_stack(stacks, p->service);

		/* not installed, not the user's to use, or disarmed */
		if (!s || !installed(stacks, s, p) || !p->user_reaches ||
		    (nnp && p->setuid))
			continue;
		if (way_through(plan, mine, dropped, p, s,
				stacks->pam_group_grants, policy_path,
				out) < 0)
			return -ENOMEM;
	}
	return 0;
}

/* The gids mine drops: what a login that keeps every group gives back.
 * 0 or -ENOMEM. */
static int dropped_by(const struct dg_outcome *mine, struct dg_gids *out)
{
	const struct dg_decision *d = &mine->decision;

	for (size_t i = 0; i < d->n_verdicts; i++)
		if (!d->verdicts[i].kept &&
		    dg_gids_add(out, d->verdicts[i].gid) < 0)
			return -ENOMEM;
	return 0;
}

int dg_ways_open(struct dg_plan *plan, const char *policy_path,
		 const struct dg_service_stacks *stacks, struct dg_ways *out)
{
	size_t n;
	const struct dg_program *programs = dg_programs(&n);
	struct dg_outcome mine = {0};
	struct dg_gids dropped = {0};
	gid_t failed = 0;
	int r = dg_plan_decide(plan, plan->user.groups.v, plan->user.groups.n,
			       NULL, NULL, &mine, &failed);

	/* NSS could not make the decision explain printed: every other
	 * rule then counts as open (explain has already failed) */
	if (r == -ENOMEM)
		return r;
	if (r == 0 && dropped_by(&mine, &dropped) < 0)
		r = -ENOMEM;
	else
		r = ways_open(plan, r == 0 ? &mine : NULL,
			      r == 0 ? &dropped : NULL, programs, n, stacks,
			      policy_path, out);
	dg_gids_free(&dropped);
	dg_plan_outcome_free(&mine);
	return r;
}

void dg_ways_free(struct dg_ways *w)
{
	for (size_t i = 0; i < w->n; i++) {
		free(w->v[i].program);
		free(w->v[i].message);
		dg_gids_free(&w->v[i].back);
	}
	free(w->v);
	*w = (struct dg_ways){0};
}

void dg_ways_stacks_free(struct dg_service_stacks *s)
{
	for (size_t i = 0; i < s->n; i++) {
		free(s->v[i].service);
		free(s->v[i].not_run);
		free(s->v[i].not_run_file);
		dg_pamstack_free(&s->v[i].stack);
	}
	free(s->v);
	*s = (struct dg_service_stacks){0};
}
