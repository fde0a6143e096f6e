/* dropgroups(8): check a policy and explain its decisions, with the very
 * code the module runs (plan.c), so the two can never disagree. */
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nss.h"
#include "plan.h"
#include "util.h"

#ifndef DG_VERSION
#define DG_VERSION "unknown"
#endif

enum { EXIT_OK = 0, EXIT_INVALID = 1, EXIT_USAGE = 2 };

static const char usage_text[] =
	"Usage: dropgroups check [-c FILE]\n"
	"       dropgroups explain [-c FILE] SERVICE USER\n"
	"       dropgroups --help | --version\n"
	"\n"
	"  check    validate the policy as pam_dropgroups would read it\n"
	"  explain  show which rule matches SERVICE and USER, and which of\n"
	"           USER's groups a session would keep or drop, and why\n"
	"\n"
	"  -c, --config FILE  the policy (default " DG_DEFAULT_CONFIG ")\n";

static int usage_error(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));

static int usage_error(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "dropgroups: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\nTry 'dropgroups --help'.\n");
	return EXIT_USAGE;
}

/* Print every diagnostic on stderr as FILE:LINE: message. */
static void print_diags(const struct dg_diags *diags)
{
	for (size_t i = 0; i < diags->n; i++) {
		_cleanup_free_ char *line = dg_diag_format(&diags->v[i]);
		const char *tag = diags->v[i].severity == DG_ERROR ? ""
				  : diags->v[i].severity == DG_WARNING
					  ? "warning: "
					  : "note: ";
		const char *file = diags->v[i].file;

		if (!line)
			continue;
		if (*tag && file) {
			/* FILE:LINE: warning: message */
			size_t prefix = strlen(line) - strlen(diags->v[i].message);
			fprintf(stderr, "%.*s%s%s\n", (int)prefix, line, tag,
				diags->v[i].message);
		} else
			fprintf(stderr, "%s%s\n", tag, line);
	}
	if (diags->lost)
		fprintf(stderr, "dropgroups: out of memory; some problems "
				"could not be reported\n");
}

/* Parse "-c FILE" for a subcommand; returns optind or -1. */
static int parse_config_opt(int argc, char **argv, const char **config)
{
	static const struct option opts[] = {
		{"config", required_argument, NULL, 'c'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	bool seen = false;
	int c;

	optind = 1;
	while ((c = getopt_long(argc, argv, "+c:h", opts, NULL)) != -1) {
		switch (c) {
		case 'c':
			if (seen) {
				usage_error("-c may be given only once");
				return -1;
			}
			seen = true;
			*config = optarg;
			break;
		case 'h':
			fputs(usage_text, stdout);
			exit(EXIT_OK);
		default:
			fprintf(stderr, "Try 'dropgroups --help'.\n");
			return -1;
		}
	}
	return optind;
}

static int cmd_check(int argc, char **argv)
{
	const char *config = DG_DEFAULT_CONFIG;
	struct dg_diags diags = {0};
	struct dg_config cfg = {0};
	struct dg_policy policy = {0};
	int first = parse_config_opt(argc, argv, &config);
	int r;

	if (first < 0)
		return EXIT_USAGE;
	if (first != argc)
		return usage_error("check: unexpected argument \"%s\"",
				   argv[first]);
	r = dg_policy_load(config, &cfg, &policy, &diags);
	print_diags(&diags);
	if (r == -ENOMEM)
		fprintf(stderr, "dropgroups: out of memory\n");
	else if (r == 0)
		printf("%s: valid: %zu rule(s), %zu restricting gid(s), %zu "
		       "file(s) read\n",
		       config, policy.n_rules, policy.restricting.n,
		       cfg.files.n);
	dg_policy_free(&policy);
	dg_config_free(&cfg);
	dg_diags_free(&diags);
	return r == 0 ? EXIT_OK : EXIT_INVALID;
}

static void print_verdicts(const struct dg_decision *d)
{
	for (size_t i = 0; i < d->n_verdicts; i++) {
		const struct dg_verdict *v = &d->verdicts[i];
		_cleanup_free_ char *label = dg_group_label(v->gid);

		printf("  %-8s %-24s %s\n", v->kept ? "kept" : "dropped",
		       label ? label : "?", dg_reason_text(v->reason));
	}
}

static int explain(const struct dg_plan *plan, const char *service)
{
	struct dg_decision d = {0};
	const struct dg_user *u = &plan->user;

	printf("service \"%s\", user \"%s\" (uid %u, primary gid %u)\n",
	       service, u->name, (unsigned)u->uid, (unsigned)u->primary_gid);
	if (!plan->rule) {
		printf("no rule matches: the module returns PAM_IGNORE and "
		       "every group stays\n");
		return EXIT_OK;
	}
	if (plan->rule->src->name)
		printf("rule \"%s\" (%s:%d) matches: ", plan->rule->src->name,
		       plan->rule->src->file, plan->rule->src->line);
	else
		printf("rule at %s:%d matches: ", plan->rule->src->file,
		       plan->rule->src->line);
	printf("%s%s\n", plan->rule->mode == DG_MODE_DROP ? "drop" : "keep",
	       plan->rule->src->no_new_privs ? ", no_new_privs" : "");
	if (dg_plan_decide(plan, u->groups.v, u->groups.n, &d) < 0) {
		fprintf(stderr, "dropgroups: out of memory\n");
		return EXIT_INVALID;
	}
	print_verdicts(&d);
	printf("groups after:");
	for (size_t i = 0; i < d.groups.n; i++)
		printf(" %u", (unsigned)d.groups.v[i]);
	printf("\n");
	dg_decision_free(&d);
	return EXIT_OK;
}

static int cmd_explain(int argc, char **argv)
{
	const char *config = DG_DEFAULT_CONFIG;
	struct dg_diags diags = {0};
	struct dg_plan plan = {0};
	int first = parse_config_opt(argc, argv, &config);
	int r, ret;

	if (first < 0)
		return EXIT_USAGE;
	if (argc - first != 2)
		return usage_error("explain needs SERVICE and USER");
	r = dg_plan_prepare(config, argv[first], argv[first + 1], &plan,
			    &diags);
	print_diags(&diags);
	if (r == -ENOMEM)
		fprintf(stderr, "dropgroups: out of memory\n");
	ret = r < 0 ? EXIT_INVALID : explain(&plan, argv[first]);
	dg_plan_free(&plan);
	dg_diags_free(&diags);
	return ret;
}

int main(int argc, char **argv)
{
	if (argc < 2)
		return usage_error("a command is required");
	if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
		fputs(usage_text, stdout);
		return EXIT_OK;
	}
	if (strcmp(argv[1], "--version") == 0) {
		printf("dropgroups %s\n", DG_VERSION);
		return EXIT_OK;
	}
	if (strcmp(argv[1], "check") == 0)
		return cmd_check(argc - 1, argv + 1);
	if (strcmp(argv[1], "explain") == 0)
		return cmd_explain(argc - 1, argv + 1);
	return usage_error("unknown command \"%s\"", argv[1]);
}
