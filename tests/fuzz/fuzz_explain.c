/* libFuzzer target: what `dropgroups explain` does, minus the files.
 *
 * The input is policy text.  Lines in it that start with these directives
 * (comments to libconfig) choose the scenario:
 *
 *     #%service NAME      the PAM service (default "sshd")
 *     #%user NAME         one of FZ_USERS; any other name picks one of
 *                         them by a hash (default "root")
 *     #%primary N         override the user's primary gid
 *     #%gids TOKEN...     the starting groups: numbers, and
 *                         +user         the user's groups (initgroups)
 *                         +primary      the primary gid
 *                         +restricting  the policy's restricting gids
 *                         +named        the gids the rule names
 *
 * Without "#%gids" the start is "+user +primary +restricting +named".
 * The policy is parsed as a main file, resolved, the user looked up, the
 * first matching rule found, and then dg_policy_decide is run for the matching
 * rule and for every other rule, checking each result against the
 * contract in fuzz_common.h (a sorted, unique subset of the start keeping
 * every restricting gid and the primary gid).  abort() on violation. */
#include "fuzz_common.h"

#include "plan.h"

#include <ctype.h>

#include "initgroups.h"
#include "nss.h"
#include "strlist.h"

#define FZ_MAX_GIDS 512
#define FZ_MAX_RULES 64

/* Users every Debian system has (base-passwd). */
static const char *const FZ_USERS[] = {"root", "daemon", "bin", "sys",
				       "nobody"};
#define FZ_N_USERS (sizeof(FZ_USERS) / sizeof(FZ_USERS[0]))

enum {
	FZ_ADD_USER = 1,
	FZ_ADD_PRIMARY = 2,
	FZ_ADD_RESTRICTING = 4,
	FZ_ADD_NAMED = 8,
};

struct scenario {
	char service[65];
	const char *user;
	bool primary_given;
	gid_t primary;
	gid_t gids[FZ_MAX_GIDS];
	size_t n_gids;
	unsigned add;
};

/* Copy the rest of the line [p, end) without surrounding blanks. */
static void copy_word(char *dst, size_t cap, const char *p, const char *end)
{
	size_t n;

	while (p < end && isspace((unsigned char)*p))
		p++;
	while (end > p && isspace((unsigned char)end[-1]))
		end--;
	n = (size_t)(end - p);
	if (n >= cap)
		n = cap - 1;
	memcpy(dst, p, n);
	dst[n] = '\0';
}

static const char *pick_user(const char *name)
{
	unsigned h = 0;

	for (size_t i = 0; i < FZ_N_USERS; i++)
		if (strcmp(name, FZ_USERS[i]) == 0)
			return FZ_USERS[i];
	for (const char *c = name; *c; c++)
		h = h * 31 + (unsigned char)*c;
	return FZ_USERS[h % FZ_N_USERS];
}

static void parse_gids(struct scenario *sc, const char *p, const char *end)
{
	sc->add = 0;
	while (p < end) {
		const char *w;
		size_t n;

		while (p < end && isspace((unsigned char)*p))
			p++;
		w = p;
		while (p < end && !isspace((unsigned char)*p))
			p++;
		n = (size_t)(p - w);
		if (n == 0)
			break;
		if (n == 5 && memcmp(w, "+user", 5) == 0)
			sc->add |= FZ_ADD_USER;
		else if (n == 8 && memcmp(w, "+primary", 8) == 0)
			sc->add |= FZ_ADD_PRIMARY;
		else if (n == 12 && memcmp(w, "+restricting", 12) == 0)
			sc->add |= FZ_ADD_RESTRICTING;
		else if (n == 6 && memcmp(w, "+named", 6) == 0)
			sc->add |= FZ_ADD_NAMED;
		else if (isdigit((unsigned char)*w) &&
			 sc->n_gids < FZ_MAX_GIDS) {
			uint32_t v = 0; /* wraps, as a 32-bit gid would */

			for (size_t i = 0; i < n; i++) {
				if (!isdigit((unsigned char)w[i]))
					break;
				v = v * 10u + (uint32_t)(w[i] - '0');
			}
			sc->gids[sc->n_gids++] = (gid_t)v;
		}
	}
}

static void parse_directives(struct scenario *sc, const char *p,
			     const char *end)
{
	char word[65];

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *eol = nl ? nl : end;

		if (fz_directive(p, eol, "#%service ")) {
			copy_word(sc->service, sizeof(sc->service), p + 10,
				  eol);
		} else if (fz_directive(p, eol, "#%user ")) {
			copy_word(word, sizeof(word), p + 7, eol);
			sc->user = pick_user(word);
		} else if (fz_directive(p, eol, "#%primary ")) {
			copy_word(word, sizeof(word), p + 10, eol);
			sc->primary = (gid_t)strtoul(word, NULL, 10);
			sc->primary_given = true;
		} else if (fz_directive(p, eol, "#%gids")) {
			parse_gids(sc, p + 6, eol);
		}
		p = nl ? nl + 1 : end;
	}
}

/* Append set to v (bounded by FZ_MAX_GIDS * 4). */
static void append(gid_t *v, size_t *n, const gid_t *add, size_t n_add)
{
	for (size_t i = 0; i < n_add && *n < FZ_MAX_GIDS * 4; i++)
		v[(*n)++] = add[i];
}

static void decide_and_check(const struct scenario *sc,
			     const struct dg_policy *pol,
			     const struct dg_user *user,
			     const struct dg_rule *rule)
{
	gid_t *start = calloc(FZ_MAX_GIDS * 4, sizeof(*start));
	struct dg_decision d = {0};
	size_t n = 0;

	if (!start)
		abort();
	append(start, &n, sc->gids, sc->n_gids);
	if (sc->add & FZ_ADD_USER)
		append(start, &n, user->groups.v, user->groups.n);
	if (sc->add & FZ_ADD_PRIMARY)
		append(start, &n, &user->primary_gid, 1);
	if (sc->add & FZ_ADD_RESTRICTING)
		append(start, &n, pol->restricting.v, pol->restricting.n);
	if (sc->add & FZ_ADD_NAMED)
		append(start, &n, rule->named.v, rule->named.n);

	if (dg_policy_decide(start, n, user->primary_gid, pol, rule, NULL, &d) <
	    0)
		fz_fail("dg_policy_decide failed");
	fz_check_decision(start, n, user->primary_gid, &pol->restricting,
			  rule, &d);
	dg_policy_decision_free(&d);
	free(start);
}

static bool has(const struct dg_strlist *s, const char *str)
{
	for (size_t i = 0; i < s->n; i++)
		if (strcmp(s->v[i], str) == 0)
			return true;
	return false;
}

/* Part of rule_matches() restated: enough to catch a match that skips a
 * rule it should have taken, or takes one it should not. */
static void check_match(const struct dg_policy *pol, long m,
			const char *service, const struct dg_user *user)
{
	if (m < -1 || m >= (long)pol->n_rules)
		fz_fail("dg_policy_match returned %ld of %zu rules", m,
			pol->n_rules);
	for (size_t i = 0; i < pol->n_rules; i++) {
		const struct dg_rule *r = &pol->rules[i];
		bool service_ok = has(&r->src->services, service) ||
				  has(&r->src->services, "*");
		bool surely = service_ok &&
			      (r->any_user || has(&r->src->users, user->name));

		if ((long)i == m) {
			if (!service_ok)
				fz_fail("rule %zu matched service \"%s\" it "
					"does not list", i, service);
			break;
		}
		if (surely)
			fz_fail("rule %zu matches, but %ld was chosen", i, m);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct scenario *sc = calloc(1, sizeof(*sc));
	struct dg_config cfg = {0};
	struct dg_policy pol = {0};
	struct dg_diags diags = {0};
	struct dg_user user = {0};
	struct dg_match match;
	char *text = fz_text(data, size);
	long m;
	int r;

	if (!sc)
		abort();
	strcpy(sc->service, "sshd");
	sc->user = "root";
	sc->add = FZ_ADD_USER | FZ_ADD_PRIMARY | FZ_ADD_RESTRICTING |
		  FZ_ADD_NAMED;
	parse_directives(sc, (const char *)data, (const char *)data + size);

	r = dg_config_parse(&cfg, "fuzz.conf", text, DG_MAIN_FILE, &diags);
	if (r < 0)
		fz_fail("dg_config_parse returned %d", r);
	fz_check_config(&cfg);
	if ((r = dg_load_resolve(&cfg, false, NULL, &pol, &diags)) < 0)
		fz_fail("dg_load_resolve returned %d", r);
	fz_check_policy(&cfg, &pol);
	fz_check_diags(&diags);

	r = dg_nss_user_lookup(sc->user, &user);
	if (r <= 0 || dg_initgroups(&user) < 0)
		goto out; /* not on this machine: nothing to explain */
	fz_check_set(&user.groups, "user groups");
	if (sc->primary_given)
		user.primary_gid = sc->primary;

	if (dg_plan_match(&pol, sc->service, &user, &match) < 0)
		fz_fail("dg_plan_match failed");
	/* an undecided rule stops the walk as a match does: no rule before
	 * it may surely match, and it must list the service */
	m = match.kind == DG_MATCH_NONE ? -1 : (long)match.rule;
	check_match(&pol, m, sc->service, &user);
	if (match.kind != DG_MATCH_RULE)
		m = -1;
	if (m >= 0)
		decide_and_check(sc, &pol, &user, &pol.rules[m]);
	for (size_t i = 0; i < pol.n_rules && i < FZ_MAX_RULES; i++)
		if ((long)i != m)
			decide_and_check(sc, &pol, &user, &pol.rules[i]);
out:
	dg_policy_user_free(&user);
	dg_policy_free(&pol);
	dg_config_free(&cfg);
	dg_diag_free(&diags);
	free(text);
	free(sc);
	return 0;
}
