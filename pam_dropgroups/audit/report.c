/* The report of dropgroups audit (report.h): the text and --json forms
 * of the rows, and nothing else.  Its lines are a contract (dropgroups(8),
 * docs/audit.md and the tests read them), so they are written in one
 * place, from data, with every name escaped (escape.c). */
#include <stdio.h>

#include "escape.h"
#include "report.h"

/* The kinds of a row, defeated by dropping first, then the
 * informational ones after their label. */
static void text_counts(FILE *f, const struct dg_group_row *r)
{
	for (int pass = 0; pass < 2; pass++) {
		bool any = false;

		for (int k = 0; k < DG_EV_KINDS; k++) {
			if (!r->counts[k] || dg_evidence_defeated(k) != !pass)
				continue;
			if (!any && pass)
				fprintf(f, "%s informational, not defeated by "
					   "dropping (judged from NSS membership):",
					r->defeated ? ";" : "");
			fprintf(f, "%s %s %zu", any ? "," : "",
				dg_evidence_kind_name(k), r->counts[k]);
			any = true;
		}
	}
}

void dg_report_text(FILE *f, const struct dg_groups *g)
{
	for (size_t i = 0; i < g->n; i++) {
		const struct dg_group_row *r = &g->v[i];
		char buf[32];

		dg_escape_text(f, dg_groups_row_key(r, buf));
		if (r->by_gid)
			fprintf(f, " gid %u:", (unsigned)r->gid);
		else
			fprintf(f, " (no such group):");
		text_counts(f, r);
		fprintf(f, "; e.g.");
		/* three examples */
		for (size_t j = 0; j < r->count && j < 3; j++) {
			fprintf(f, "%s ", j ? "," : "");
			dg_escape_text(f, r->ev[j].where);
		}
		fprintf(f, "\n");
	}
}

static void json_counts(FILE *f, const struct dg_group_row *r)
{
	bool first = true;

	fprintf(f, "\"counts\": {");
	for (int k = 0; k < DG_EV_KINDS; k++) {
		if (!r->counts[k])
			continue;
		fprintf(f, "%s\"%s\": %zu", first ? "" : ", ",
			dg_evidence_kind_name(k), r->counts[k]);
		first = false;
	}
	fprintf(f, "}");
}

static void json_evidence(FILE *f, const struct dg_group_row *r)
{
	fprintf(f, "\"evidence\": [");
	for (size_t j = 0; j < r->count; j++) {
		const struct dg_evidence *e = &r->ev[j];

		fprintf(f, "%s\n    {\"kind\": \"%s\", \"informational\": %s, "
			   "\"where\": ",
			j ? "," : "", dg_evidence_kind_name(e->kind),
			dg_evidence_defeated(e->kind) ? "false" : "true");
		dg_escape_json(f, e->where);
		fprintf(f, "}");
	}
	fprintf(f, "]");
}

void dg_report_json(FILE *f, const struct dg_groups *g)
{
	fprintf(f, "{\"groups\": [");
	for (size_t i = 0; i < g->n; i++) {
		const struct dg_group_row *r = &g->v[i];

		fprintf(f, "%s\n  {\"name\": ", i ? "," : "");
		if (r->name)
			dg_escape_json(f, r->name);
		else
			fprintf(f, "null");
		fprintf(f, ", \"gid\": ");
		if (r->by_gid)
			fprintf(f, "%u", (unsigned)r->gid);
		else
			fprintf(f, "null");
		fprintf(f, ", \"defeated_by_dropping\": %s, ",
			r->defeated ? "true" : "false");
		json_counts(f, r);
		fprintf(f, ", ");
		json_evidence(f, r);
		fprintf(f, "}");
	}
	fprintf(f, "%s]}\n", g->n ? "\n" : "");
}
