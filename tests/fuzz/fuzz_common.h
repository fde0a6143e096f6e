/* Helpers shared by the libFuzzer targets in tests/fuzz/.
 *
 * Everything is static: each target is one translation unit linked with
 * the core objects.  A broken invariant calls fz_fail(), which prints
 * what broke and aborts, so libFuzzer saves the input as a crash. */
#ifndef DG_FUZZ_COMMON_H
#define DG_FUZZ_COMMON_H

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include "config.h"
#include "diag.h"
#include "policy.h"
#include "strlist.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

__attribute__((noreturn, format(printf, 1, 2), unused)) static void
fz_fail(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "fuzz invariant violated: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	abort();
}

/* A NUL-terminated copy of data (text stops at an embedded NUL, as it
 * would for any C string). */
/* Remove name in dirfd and everything under it, never following links
 * (a mode-0 directory is opened up first: an input can make one). */
__attribute__((unused)) static void fz_rm_tree(int dirfd, const char *name)
{
	struct dirent *de;
	DIR *d;
	int fd;

	if (unlinkat(dirfd, name, 0) == 0 || errno == ENOENT)
		return;
	(void)fchmodat(dirfd, name, 0700, 0);
	fd = openat(dirfd, name,
		    O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		fz_fail("cannot open %s for removal: %s", name,
			strerror(errno));
	if (!(d = fdopendir(fd)))
		abort();
	while ((de = readdir(d)))
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, ".."))
			fz_rm_tree(fd, de->d_name);
	closedir(d);
	if (unlinkat(dirfd, name, AT_REMOVEDIR) < 0)
		fz_fail("cannot remove %s: %s", name, strerror(errno));
}

__attribute__((unused)) static char *fz_text(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);

	if (!s)
		abort();
	if (size)
		memcpy(s, data, size);
	s[size] = '\0';
	return s;
}

/* A section of the input: [start, start + len). */
struct fz_span {
	const char *start;
	size_t len;
};

/* Does the line at p (within [p, end)) start with the directive dir? */
__attribute__((unused)) static bool fz_directive(const char *p, const char *end,
						 const char *dir)
{
	size_t n = strlen(dir);

	return (size_t)(end - p) >= n && memcmp(p, dir, n) == 0;
}

/* Split [buf, buf + size) at every line that starts with `sep`: span 0 is
 * what comes before the first such line, each further span starts at its
 * separator line.  Returns the number of spans (at most max, the last
 * one then takes the rest). */
__attribute__((unused)) static size_t
fz_split(const char *buf, size_t size, const char *sep, struct fz_span *spans,
	 size_t max)
{
	const char *end = buf + size, *p = buf, *cur = buf;
	size_t n = 0;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *next = nl ? nl + 1 : end;

		if (p != buf && n + 1 < max && fz_directive(p, end, sep)) {
			spans[n++] = (struct fz_span){cur, (size_t)(p - cur)};
			cur = p;
		}
		p = next;
	}
	spans[n++] = (struct fz_span){cur, (size_t)(end - cur)};
	return n;
}

/* Diagnostics: well formed, and every one formats.  With FUZZ_VERBOSE
 * set in the environment they are printed (to see what an input does). */
__attribute__((unused)) static void fz_check_diags(const struct dg_diags *d)
{
	static int verbose = -1;

	if (verbose < 0)
		verbose = getenv("FUZZ_VERBOSE") != NULL;
	if (d->n > d->cap)
		fz_fail("diags: n %zu > cap %zu", d->n, d->cap);
	if (d->lost)
		fz_fail("a diagnostic was lost without an allocation failure");
	for (size_t i = 0; i < d->n; i++) {
		char *line;

		if (!d->v[i].message)
			fz_fail("diag %zu has no message", i);
		if (d->v[i].severity != DG_WARNING &&
		    d->v[i].severity != DG_ERROR)
			fz_fail("diag %zu has severity %d", i,
				(int)d->v[i].severity);
		if (d->v[i].line < 0)
			fz_fail("diag %zu has line %d", i, d->v[i].line);
		if (!(line = dg_diag_format(&d->v[i])))
			fz_fail("dg_diag_format failed");
		if (verbose)
			fprintf(stderr, "  diag: %s\n", line);
		free(line);
	}
	if (dg_diag_failed(d) != (dg_diag_first_error(d) != NULL))
		fz_fail("dg_diag_failed disagrees with dg_diag_first_error");
}

/* Strictly ascending: sorted and unique. */
__attribute__((unused)) static void fz_check_sorted(const struct dg_gids *s,
						    const char *what)
{
	if (s->n && !s->v)
		fz_fail("%s: %zu gids and no array", what, s->n);
	for (size_t i = 1; i < s->n; i++)
		if (s->v[i - 1] >= s->v[i])
			fz_fail("%s is not sorted and unique at %zu (%u, %u)",
				what, i, (unsigned)s->v[i - 1],
				(unsigned)s->v[i]);
}

/* A set resolved from a policy or NSS: sorted, unique and never
 * (gid_t)-1, which the kernel takes as "no change". */
__attribute__((unused)) static void fz_check_set(const struct dg_gids *s,
						 const char *what)
{
	fz_check_sorted(s, what);
	for (size_t i = 0; i < s->n; i++)
		if (s->v[i] == (gid_t)-1)
			fz_fail("%s holds (gid_t)-1", what);
}

__attribute__((unused)) static bool fz_is_file(const struct dg_config *cfg,
					       const char *file)
{
	for (size_t i = 0; i < cfg->files.n; i++)
		if (cfg->files.v[i] == file)
			return true;
	return false;
}

__attribute__((unused)) static void fz_check_refs(const struct dg_config *cfg,
						  const struct dg_group_refs *r,
						  const char *what)
{
	if (r->n > r->cap)
		fz_fail("%s: n %zu > cap %zu", what, r->n, r->cap);
	for (size_t i = 0; i < r->n; i++) {
		const struct dg_group_ref *ref = &r->v[i];

		if (!fz_is_file(cfg, ref->file))
			fz_fail("%s[%zu] points outside cfg->files", what, i);
		if (ref->name && !ref->name[0])
			fz_fail("%s[%zu] has an empty name", what, i);
		if (!ref->name && ref->gid == (gid_t)-1)
			fz_fail("%s[%zu] is gid (gid_t)-1", what, i);
	}
}

__attribute__((unused)) static void fz_check_strings(const struct dg_strlist *s,
						     const char *what)
{
	if (s->n > s->cap)
		fz_fail("%s: n %zu > cap %zu", what, s->n, s->cap);
	for (size_t i = 0; i < s->n; i++)
		if (!s->v[i] || !s->v[i][0])
			fz_fail("%s[%zu] is NULL or empty", what, i);
}

/* The parsed policy is well formed whatever the diagnostics say. */
__attribute__((unused)) static void fz_check_config(const struct dg_config *cfg)
{
	fz_check_refs(cfg, &cfg->restricting, "restricting");
	if (cfg->include_dir && !cfg->include_dir[0])
		fz_fail("include_dir is empty");
	if (cfg->rules.n > cfg->rules.cap)
		fz_fail("rules: n %zu > cap %zu", cfg->rules.n,
			cfg->rules.cap);
	for (size_t i = 0; i < cfg->rules.n; i++) {
		const struct dg_rule_src *r = &cfg->rules.v[i];
		char *label;

		if (!fz_is_file(cfg, r->file))
			fz_fail("rule %zu points outside cfg->files", i);
		if (r->mode != DG_MODE_DROP && r->mode != DG_MODE_KEEP)
			fz_fail("rule %zu has mode %d", i, (int)r->mode);
		if (!r->users_given && r->users.n)
			fz_fail("rule %zu has users but users_given unset", i);
		fz_check_strings(&r->services, "services");
		fz_check_strings(&r->users, "users");
		fz_check_refs(cfg, &r->groups, "drop/keep");
		if (!(label = dg_config_rule_label(r)))
			fz_fail("dg_config_rule_label failed");
		free(label);
	}
}

/* The resolved policy matches the config it came from. */
__attribute__((unused)) static void
fz_check_policy(const struct dg_config *cfg, const struct dg_policy *pol)
{
	fz_check_set(&pol->restricting, "policy restricting");
	if (pol->restricting.n > cfg->restricting.n)
		fz_fail("more restricting gids (%zu) than written (%zu)",
			pol->restricting.n, cfg->restricting.n);
	if (pol->n_rules != cfg->rules.n)
		fz_fail("%zu rules resolved from %zu", pol->n_rules,
			cfg->rules.n);
	for (size_t i = 0; i < pol->n_rules; i++) {
		const struct dg_rule *r = &pol->rules[i];

		if (r->src != &cfg->rules.v[i])
			fz_fail("rule %zu resolved from the wrong source", i);
		if (!r->label)
			fz_fail("rule %zu has no label", i);
		if (r->mode != r->src->mode)
			fz_fail("rule %zu changed its mode", i);
		if (!r->src->users_given && !r->any_user)
			fz_fail("rule %zu has no users and is not any_user", i);
		/* one entry per "%group" of users at most, each with a
		 * status resolve.c can give */
		if (r->n_user_groups > r->src->users.n)
			fz_fail("rule %zu: %zu %%groups from %zu users", i,
				r->n_user_groups, r->src->users.n);
		for (size_t k = 0; k < r->n_user_groups; k++)
			if (r->user_groups[k].status > 1 || !r->user_groups[k].name)
				fz_fail("rule %zu: %%group %zu has status %d", i,
					k, r->user_groups[k].status);
		fz_check_set(&r->named, "named");
		if (r->named.n > r->src->groups.n)
			fz_fail("rule %zu: %zu named gids from %zu entries", i,
				r->named.n, r->src->groups.n);
	}
}

/* dg_policy_decide's contract (policy.h, dropgroups.conf(5)) when no gid has a
 * name: for the groups in `start`, the new list is a sorted, unique
 * subset of them that keeps every restricting gid and the primary gid,
 * and otherwise keeps exactly what the rule's mode says. */
__attribute__((unused)) static void
fz_check_decision(const gid_t *start, size_t n_start, gid_t primary,
		  const struct dg_gids *restricting, const struct dg_rule *rule,
		  const struct dg_decision *d)
{
	struct dg_gids s = {0};
	size_t n_kept = 0;

	if (dg_gids_from(&s, start, n_start) < 0)
		abort();
	/* The start may hold anything (even (gid_t)-1, which the
	 * kernel never reports); the result must be a subset of it. */
	fz_check_sorted(&d->groups, "decision groups");
	if (d->n_verdicts != s.n)
		fz_fail("%zu verdicts for %zu distinct gids", d->n_verdicts,
			s.n);
	for (size_t i = 0; i < s.n; i++) {
		const struct dg_verdict *v = &d->verdicts[i];
		gid_t g = s.v[i];
		bool in_result = dg_gids_contains(&d->groups, g);
		bool named = rule->all || dg_gids_contains(&rule->named, g);

		if (v->gid != g)
			fz_fail("verdict %zu is for gid %u, not %u", i,
				(unsigned)v->gid, (unsigned)g);
		if (v->kept != in_result)
			fz_fail("gid %u: verdict kept=%d but in result=%d",
				(unsigned)g, v->kept, in_result);
		n_kept += v->kept;
		if (dg_gids_contains(restricting, g)) {
			if (!in_result)
				fz_fail("restricting gid %u was dropped",
					(unsigned)g);
		} else if (g == primary) {
			if (!in_result)
				fz_fail("primary gid %u was dropped",
					(unsigned)g);
		} else if (in_result !=
			   (rule->mode == DG_MODE_DROP ? !named : named)) {
			fz_fail("gid %u: kept=%d under a %s rule, named=%d",
				(unsigned)g, in_result,
				rule->mode == DG_MODE_DROP ? "drop" : "keep",
				named);
		}
	}
	for (size_t i = 0; i < d->groups.n; i++)
		if (!dg_gids_contains(&s, d->groups.v[i]))
			fz_fail("gid %u was added", (unsigned)d->groups.v[i]);
	if (n_kept != d->groups.n)
		fz_fail("%zu verdicts kept, %zu gids in the result", n_kept,
			d->groups.n);
	if (d->changed != (d->groups.n != s.n))
		fz_fail("changed=%d with %zu of %zu kept", d->changed,
			d->groups.n, s.n);
	dg_gids_free(&s);
}

#endif
