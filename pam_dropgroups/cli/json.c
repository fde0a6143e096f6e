/* The --json documents of check, lint and explain (json.h).  Only this
 * file writes them; every string goes through dg_escape_json, so a name
 * or a path with quotes, controls or bytes that are not UTF-8 still
 * gives valid JSON. */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "escape.h"
#include "json.h"
#include "util.h"

/* A string, or null. */
static void string(FILE *f, const char *s)
{
	if (s)
		dg_escape_json(f, s);
	else
		fputs("null", f);
}

static const char *boolean(bool b)
{
	return b ? "true" : "false";
}

/* The end of a document: 0, or -EIO when it could not be written. */
static int finish(FILE *f)
{
	fputs("}\n", f);
	return fflush(f) == 0 && !ferror(f) ? 0 : -EIO;
}

/* "diagnostics": every diagnostic as print_diags prints it, then
 * "diagnostics_lost" (some could not be recorded: out of memory). */
static void diagnostics(FILE *f, const struct dg_diags *diags)
{
	fputs("\"diagnostics\": [", f);
	for (size_t i = 0; i < diags->n; i++) {
		const struct dg_diag *d = &diags->v[i];

		fprintf(f, "%s\n  {\"file\": ", i ? "," : "");
		string(f, d->file);
		fputs(", \"line\": ", f);
		if (d->file && d->line > 0)
			fprintf(f, "%d", d->line);
		else
			fputs("null", f);
		/* a syntax error's column, as the text form's FILE:LINE:COL: */
		fputs(", \"column\": ", f);
		if (d->file && d->line > 0 && d->column > 0)
			fprintf(f, "%d", d->column);
		else
			fputs("null", f);
		fprintf(f, ", \"severity\": \"%s\", \"message\": ",
			d->severity == DG_WARNING ? "warning" : "error");
		dg_escape_json(f, d->message);
		fputc('}', f);
	}
	fprintf(f, "%s], \"diagnostics_lost\": %s", diags->n ? "\n" : "",
		boolean(diags->lost));
}

int dg_json_check(FILE *f, const char *config, bool valid,
		  const struct dg_config *cfg, const struct dg_policy *policy,
		  const struct dg_diags *diags)
{
	fprintf(f, "{\"format\": %d, \"command\": \"check\", \"config\": ",
		DG_JSON_FORMAT);
	dg_escape_json(f, config);
	fprintf(f, ", \"valid\": %s, ", boolean(valid));
	if (valid)
		fprintf(f, "\"rules\": %zu, \"restricting_gids\": %zu, ",
			policy->n_rules, policy->restricting.n);
	else
		fputs("\"rules\": null, \"restricting_gids\": null, ", f);
	fputs("\"files\": [", f);
	for (size_t i = 0; i < cfg->files.n; i++) {
		fputs(i ? ", " : "", f);
		dg_escape_json(f, cfg->files.v[i]);
	}
	fputs("], ", f);
	diagnostics(f, diags);
	return finish(f);
}

int dg_json_lint(FILE *f, const char *config, const char *pam_dir,
		 long n_read, size_t errors, size_t warnings,
		 const struct dg_diags *diags)
{
	fprintf(f, "{\"format\": %d, \"command\": \"lint\", \"config\": ",
		DG_JSON_FORMAT);
	dg_escape_json(f, config);
	fputs(", \"pam_dir\": ", f);
	dg_escape_json(f, pam_dir);
	fputs(", \"stacks_read\": ", f);
	if (n_read >= 0)
		fprintf(f, "%ld", n_read);
	else
		fputs("null", f);
	fprintf(f, ", \"errors\": %zu, \"warnings\": %zu, ", errors, warnings);
	diagnostics(f, diags);
	return finish(f);
}

/* The name in label "name(gid)" (dg_nss_group_label), as a new string;
 * NULL when the gid has no name ("gid" alone), or on ENOMEM. */
static char *label_name(const char *label, gid_t gid)
{
	char *suffix = NULL;
	size_t n = label ? strlen(label) : 0, m;
	char *name = NULL;

	if (asprintf(&suffix, "(%u)", (unsigned)gid) < 0)
		return NULL; /* suffix is undefined after a failed asprintf */
	m = strlen(suffix);
	if (n > m && strcmp(label + n - m, suffix) == 0)
		name = strndup(label, n - m);
	free(suffix);
	return name;
}

/* {"gid": G, "name": N}, N as explain's text labels gid. */
static void group(FILE *f, gid_t gid, const char *label)
{
	_cleanup_free_ char *name = label_name(label, gid);

	fprintf(f, "{\"gid\": %u, \"name\": ", (unsigned)gid);
	string(f, name);
}

/* The label of gid, one of the user's: the verdicts are sorted by gid,
 * and a user may have 2,000 groups, each given back by several ways. */
static const char *label_of(const struct dg_json_explain *x, gid_t gid)
{
	const struct dg_decision *d = &x->outcome.decision;
	size_t lo = 0, hi = d->n_verdicts;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (d->verdicts[mid].gid == gid)
			return x->labels[mid];
		if (d->verdicts[mid].gid < gid)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

static void verdicts(FILE *f, const struct dg_json_explain *x)
{
	const struct dg_decision *d = &x->outcome.decision;

	fputs("\"groups\": [", f);
	for (size_t i = 0; x->decided && i < d->n_verdicts; i++) {
		const struct dg_verdict *v = &d->verdicts[i];

		fputs(i ? ",\n  " : "\n  ", f);
		group(f, v->gid, x->labels[i]);
		fprintf(f, ", \"verdict\": \"%s\", \"reason\": ",
			v->kept ? "kept" : "dropped");
		dg_escape_json(f, dg_policy_reason_text(v->reason));
		fputs(", \"by_name\": ", f);
		string(f, v->by_name ? dg_gids_name_get(&x->outcome.names,
							 v->gid)
				     : NULL);
		fputc('}', f);
	}
	fprintf(f, "], \"groups_after\": ");
	if (!x->decided)
		fputs("null", f);
	for (size_t i = 0; x->decided && i < d->groups.n; i++)
		fprintf(f, "%s%u", i ? ", " : "[", (unsigned)d->groups.v[i]);
	if (x->decided)
		fputs("]", f);
}

static void ways(FILE *f, const struct dg_json_explain *x)
{
	fputs("\"ways_back\": ", f);
	if (!x->ways_read) {
		fputs("null", f);
		return;
	}
	fputc('[', f);
	for (size_t i = 0; i < x->ways.n; i++) {
		const struct dg_way *w = &x->ways.v[i];

		fputs(i ? ",\n  {\"program\": " : "\n  {\"program\": ", f);
		dg_escape_json(f, w->program);
		fprintf(f, ", \"verdict\": \"%s\", \"groups\": ", w->verdict);
		if (!w->back_known)
			fputs("null", f);
		for (size_t j = 0; w->back_known && j < w->back.n; j++) {
			fputs(j ? ", " : "[", f);
			group(f, w->back.v[j], label_of(x, w->back.v[j]));
			fputc('}', f);
		}
		if (w->back_known)
			fputs(w->back.n ? "]" : "[]", f);
		fputs(", \"message\": ", f);
		dg_escape_json(f, w->message);
		fputc('}', f);
	}
	fputs(x->ways.n ? "\n]" : "]", f);
}

static void rule(FILE *f, const struct dg_json_explain *x)
{
	const struct dg_rule_src *r = x->rule;

	fputs("\"rule\": ", f);
	if (!r) {
		fputs("null, \"no_new_privs\": null", f);
		return;
	}
	fputs("{\"name\": ", f);
	string(f, r->name);
	fputs(", \"file\": ", f);
	dg_escape_json(f, r->file);
	fprintf(f, ", \"line\": %d, \"mode\": \"%s\"}, \"no_new_privs\": %s",
		r->line, r->mode == DG_MODE_DROP ? "drop" : "keep",
		boolean(r->no_new_privs));
}

int dg_json_explain(FILE *f, const struct dg_json_explain *x,
		    const struct dg_diags *diags)
{
	const struct dg_user *u = x->user;

	fprintf(f, "{\"format\": %d, \"command\": \"explain\", "
		   "\"service\": ",
		DG_JSON_FORMAT);
	dg_escape_json(f, x->service);
	fputs(", \"user\": ", f);
	if (u) {
		fputs("{\"name\": ", f);
		dg_escape_json(f, u->name);
		fprintf(f, ", \"uid\": %u, \"primary_gid\": %u}",
			(unsigned)u->uid, (unsigned)u->primary_gid);
	} else {
		fputs("null", f);
	}
	fputs(",\n\"not_run\": ", f);
	if (x->not_run) {
		fputs("{\"message\": ", f);
		dg_escape_json(f, x->not_run);
		fputs(", \"file\": ", f);
		string(f, x->not_run_file);
		fputs(", \"line\": ", f);
		if (x->not_run_line)
			fprintf(f, "%d}", x->not_run_line);
		else
			fputs("null}", f);
	} else {
		fputs("null", f);
	}
	fputs(",\n", f);
	rule(f, x);
	fputs(",\n", f);
	verdicts(f, x);
	fputs(",\n", f);
	ways(f, x);
	fputs(",\n", f);
	diagnostics(f, diags);
	return finish(f);
}

void dg_json_explain_free(struct dg_json_explain *x)
{
	for (size_t i = 0; x->labels && i < x->outcome.decision.n_verdicts;
	     i++)
		free(x->labels[i]);
	free(x->labels);
	free(x->not_run);
	free(x->not_run_file);
	dg_plan_outcome_free(&x->outcome);
	dg_ways_free(&x->ways);
	*x = (struct dg_json_explain){0};
}
