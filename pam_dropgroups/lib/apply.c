/* The one apply path of the module and `dropgroups run`: read the
 * groups, check them against the user namespace, decide, set no_new_privs,
 * setgroups and read back, under one lock (apply.h says why). */
#include "apply.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "idmap.h"
#include "kernel.h"
#include "util.h"

/* The one piece of mutable static state in the module, on purpose: the
 * groups are the process's, shared by its threads, so the read-decide-
 * write of two concurrent sessions must not interleave.  It cannot cover
 * other code in the process that calls setgroups(2) meanwhile. */
static pthread_mutex_t apply_lock = PTHREAD_MUTEX_INITIALIZER;

static int fail(struct dg_apply_error *why, enum dg_apply_step step, int err)
{
	*why = (struct dg_apply_error){.step = step, .err = err};
	return err;
}

/* A decision's answer r as the step that failed: out of memory while
 * deciding, or a gid (failed) NSS could not name. */
static int decided(struct dg_apply_error *why, int r, gid_t failed)
{
	if (r == -ENOMEM)
		return fail(why, DG_STEP_DECIDE, r);
	if (r < 0) {
		fail(why, DG_STEP_NAMES, r);
		why->gid = failed;
	}
	return r;
}

/* Are the process's groups now exactly want (sorted, distinct)? */
static int groups_are(const struct dg_gids *want)
{
	_cleanup_free_ gid_t *now = NULL;
	size_t n = 0;
	int r = dg_kernel_get_groups(&now, &n);

	if (r < 0)
		return r;
	n = dg_gids_normalize(now, n);
	if (n != want->n || (n && memcmp(now, want->v, n * sizeof(*now))))
		return -EPROTO;
	return 0;
}

/* A gid in current that this user namespace shows as the overflow gid
 * would be replaced, not kept, by setgroups. */
static int check_user_namespace(const gid_t *current, size_t n,
				struct dg_apply_error *why)
{
	struct dg_idmap map = {0};
	gid_t overflow = 65534, bad = 0;
	int r = dg_kernel_read_gid_map(&map, &overflow);

	if (r < 0)
		return fail(why, DG_STEP_USERNS, r);
	r = dg_idmap_check(&map, overflow, current, n, &bad);
	dg_idmap_free(&map);
	if (r < 0) {
		fail(why, DG_STEP_USERNS, r);
		why->gid = bad;
	}
	return r;
}

static int set_and_verify(const struct dg_outcome *o, const gid_t *current,
			  size_t n_current, struct dg_apply_error *why)
{
	int r = dg_kernel_set_groups(o->decision.groups.v,
				     o->decision.groups.n);

	if (r < 0)
		return fail(why, DG_STEP_SETGROUPS, r);
	/* As OpenSSH does after it sets credentials: read them back. */
	if ((r = groups_are(&o->decision.groups)) < 0) {
		fail(why, DG_STEP_VERIFY, r);
		why->restored = dg_kernel_set_groups(current, n_current) == 0;
	}
	return r;
}

/* Read the process's groups into *current and decide for them: 0, or
 * -errno with *why filled. */
static int decide_now(const struct dg_plan *plan,
		      const struct dg_gid_names *known,
		      struct dg_gid_names *take, struct dg_nss_probe *probe,
		      gid_t **current, size_t *n, struct dg_outcome *o,
		      struct dg_apply_error *why)
{
	gid_t failed = 0;
	int r;

	if ((r = dg_kernel_get_groups(current, n)) < 0)
		return fail(why, DG_STEP_GETGROUPS, r);
	/* take (known, ours to give) spares a copy of every name */
	r = take ? dg_plan_decide_taking(plan, *current, *n, take, probe, o,
					 &failed)
		 : dg_plan_decide(plan, *current, *n, known, probe, o, &failed);
	return decided(why, r, failed);
}

/* decide_now, then refuse what a user namespace hides: what an apply
 * and a preview both do before anything is written. */
static int decide_checked(const struct dg_plan *plan,
			  const struct dg_gid_names *known,
			  struct dg_gid_names *take, struct dg_nss_probe *probe,
			  gid_t **current, size_t *n, struct dg_outcome *o,
			  struct dg_apply_error *why)
{
	int r;

	r = decide_now(plan, known, take, probe, current, n, o, why);
	if (r < 0 || (r = check_user_namespace(*current, *n, why)) < 0)
		dg_plan_outcome_free(o);
	return r;
}

/* named: the names looked up ahead, which the outcome may take. */
static int apply_locked(const struct dg_plan *plan, bool always_nnp,
			struct dg_gid_names *named, struct dg_nss_probe *probe,
			struct dg_outcome *out, struct dg_apply_error *why)
{
	_cleanup_free_ gid_t *current = NULL;
	struct dg_outcome o = {0};
	size_t n = 0;
	int r;

	if ((r = decide_checked(plan, named, named, probe, &current, &n, &o,
				why)) < 0)
		return r;
	/* no_new_privs first: a failure after it can never leave fewer
	 * groups without it. */
	if ((always_nnp || plan->rule->src->no_new_privs) &&
	    (r = dg_kernel_set_no_new_privs()) < 0)
		fail(why, DG_STEP_NNP, r);
	else if (o.decision.changed)
		r = set_and_verify(&o, current, n, why);
	if (r < 0) {
		dg_plan_outcome_free(&o);
		return r;
	}
	*out = o;
	return 0;
}

/* The names the decision for the current groups needs, looked up before
 * the lock is taken: NSS can be slow (a directory, thousands of groups),
 * and other threads' sessions should not wait on it.  Inside the lock,
 * only a gid that appeared in between is still to be named. */
static int name_ahead(const struct dg_plan *plan,
		      const struct dg_gid_names *known,
		      struct dg_nss_probe *probe, struct dg_gid_names *out,
		      struct dg_apply_error *why)
{
	_cleanup_free_ gid_t *current = NULL;
	gid_t failed = 0;
	size_t n = 0;
	int r;

	/* decide_now, but the names alone (dg_plan_names): the decision
	 * is made again inside the lock */
	if ((r = dg_kernel_get_groups(&current, &n)) < 0)
		return fail(why, DG_STEP_GETGROUPS, r);
	r = dg_plan_names(plan, current, n, known, probe, out, &failed);
	return decided(why, r, failed);
}

int dg_apply(const struct dg_plan *plan, bool always_no_new_privs,
	     const struct dg_gid_names *known, struct dg_nss_probe *probe,
	     struct dg_outcome *out, struct dg_apply_error *why)
{
	struct dg_gid_names named = {0};
	int r = name_ahead(plan, known, probe, &named, why);

	if (r < 0)
		return r;
	if ((r = pthread_mutex_lock(&apply_lock)) != 0) {
		dg_gids_names_free(&named);
		return fail(why, DG_STEP_GETGROUPS, -r);
	}
	r = apply_locked(plan, always_no_new_privs, &named, probe, out, why);
	(void)pthread_mutex_unlock(&apply_lock);
	dg_gids_names_free(&named);
	return r;
}

/* Would setgroups refuse this process a drop?  -EPERM when it surely
 * would: in a user namespace whose setgroups is "deny", or, as
 * dg_apply_unprivileged_hint tells the cases, with no CAP_SETGID
 * and a kernel without subset-setgroups, with it off, or with it on but
 * no no_new_privs, neither now nor from the rule (dg_apply sets the
 * rule's before its setgroups).  0 when it may succeed, or when nothing
 * can be told: the trial then says what the rule decides, as before. */
static int setgroups_would_fail(const struct dg_plan *plan)
{
	_cleanup_free_ char *knob = NULL, *ns = NULL;
	int r;

	/* A user namespace whose setgroups is "deny" (what an unprivileged
	 * namespace is given) refuses every setgroups, CAP_SETGID or not:
	 * the enforcing line fails closed there with the capability in
	 * hand.  The file says "allow" in the initial namespace; an error
	 * reading it tells nothing, and the checks below go on. */
	if (dg_kernel_sysctl_read("/proc/self/setgroups", &ns) == 0 &&
	    strcmp(ns, "deny") == 0)
		return -EPERM;
	if (dg_kernel_has_cap_setgid() != 0)
		return 0;
	r = dg_kernel_sysctl_read(DG_SYSCTL_DROP, &knob);
	if (r == -ENOENT || (r == 0 && strcmp(knob, "0") == 0))
		return -EPERM;
	if (r == 0 && !plan->rule->src->no_new_privs &&
	    dg_kernel_no_new_privs() == 0)
		return -EPERM;
	return 0;
}

int dg_apply_preview(const struct dg_plan *plan,
		     const struct dg_gid_names *known,
		     struct dg_nss_probe *probe, struct dg_outcome *out,
		     struct dg_apply_error *why)
{
	_cleanup_free_ gid_t *current = NULL;
	struct dg_outcome o = {0};
	size_t n = 0;
	int r;

	/* What apply_locked checks and decides, without the lock: nothing
	 * is written, so nothing can interleave. */
	if ((r = decide_checked(plan, known, NULL, probe, &current, &n, &o,
				why)) < 0)
		return r;
	/* The trial of an enforcing line must not promise a drop that the
	 * line would refuse the session over instead. */
	if (o.decision.changed && (r = setgroups_would_fail(plan)) < 0) {
		dg_plan_outcome_free(&o);
		fail(why, DG_STEP_SETGROUPS, r);
		why->foreseen = true;
		return r;
	}
	*out = o;
	return 0;
}

const char *dg_apply_unprivileged_hint(void)
{
	_cleanup_free_ char *knob = NULL;
	int r = dg_kernel_sysctl_read(DG_SYSCTL_DROP, &knob);

	if (r == -ENOENT)
		return "dropping groups without it needs a kernel with "
		       "subset-setgroups (the unprivileged-drop patch)";
	if (r < 0)
		return "dropping groups without it needs a kernel with "
		       "subset-setgroups (the unprivileged-drop patch; its "
		       "sysctl could not be read)";
	if (strcmp(knob, "0") == 0)
		return "this kernel has subset-setgroups, but "
		       "kernel.setgroups_unprivileged_drop is 0";
	if (dg_kernel_no_new_privs() != 1)
		return "kernel.setgroups_unprivileged_drop is on, but an "
		       "unprivileged drop also needs no_new_privs (set "
		       "no_new_privs = true in the rule)";
	return "the kernel refused the drop although it allows unprivileged "
	       "drops: it would remove a gid in kernel.setgroups_sticky_gids";
}

/* did: "failed", or "would fail" for a setgroups only foreseen. */
static char *setgroups_text(int err, const char *did)
{
	int cap = dg_kernel_has_cap_setgid();
	char *s = NULL;
	int r;

	/* Say whether CAP_SETGID is there: without it, a stock kernel
	 * refuses every setgroups, even one that only drops groups. */
	if (cap == 0)
		r = asprintf(&s,
			     "setgroups %s: %s; the process lacks "
			     "CAP_SETGID, and %s",
			     did, strerror(-err), dg_apply_unprivileged_hint());
	else if (cap > 0)
		r = asprintf(&s, "setgroups %s: %s, although the process "
				 "has CAP_SETGID",
			     did, strerror(-err));
	else
		r = asprintf(&s, "setgroups %s: %s (whether the process "
				 "has CAP_SETGID could not be checked: %s)",
			     did, strerror(-err), strerror(-cap));
	return r < 0 ? NULL : s;
}

char *dg_apply_setgroups_failure_text(int err)
{
	return setgroups_text(err, "failed");
}

char *dg_apply_error_text(const struct dg_apply_error *why)
{
	char *s = NULL;
	int r = -1;

	switch (why->step) {
	case DG_STEP_GETGROUPS:
		r = asprintf(&s, "getgroups failed: %s", strerror(-why->err));
		break;
	case DG_STEP_USERNS:
		if (why->err == -EOVERFLOW)
			r = asprintf(&s, "the group list holds gid %u, which "
					 "this user namespace cannot show as it "
					 "is (an unmapped gid appears as the "
					 "overflow gid); setgroups would drop the "
					 "real gid and could add the overflow gid",
				     (unsigned)why->gid);
		else
			r = asprintf(&s, "cannot read /proc/self/gid_map to "
					 "check the user namespace: %s",
				     strerror(-why->err));
		break;
	case DG_STEP_NAMES:
		r = asprintf(&s, "looking up the name of gid %u failed: %s "
				 "(the policy decides by name whether it "
				 "stays)",
			     (unsigned)why->gid, strerror(-why->err));
		break;
	case DG_STEP_DECIDE:
		r = asprintf(&s, "out of memory");
		break;
	case DG_STEP_NNP:
		r = asprintf(&s, "cannot set no_new_privs: %s",
			     strerror(-why->err));
		break;
	case DG_STEP_SETGROUPS:
		return setgroups_text(why->err,
				      why->foreseen ? "would fail" : "failed");
	case DG_STEP_VERIFY:
		r = asprintf(&s, "the groups read back after setgroups are not "
				 "the ones set%s",
			     why->restored ? "; the old list was set back" : "");
		break;
	}
	return r < 0 ? NULL : s;
}
