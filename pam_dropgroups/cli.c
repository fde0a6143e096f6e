/* dropgroups(8): check a policy and explain its decisions, with the very
 * code the module runs (plan.c), so the two can never disagree. */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "apply.h"
#include "kernel.h"
#include "nss.h"
#include "plan.h"
#include "util.h"

#ifndef DG_VERSION
#define DG_VERSION "unknown"
#endif

enum { EXIT_OK = 0, EXIT_INVALID = 1, EXIT_USAGE = 2 };

/* The PAM service name `dropgroups run` matches rules with. */
#define DG_RUN_SERVICE "dropgroups"

static const char usage_text[] =
	"Usage: dropgroups check [-c FILE]\n"
	"       dropgroups explain [-c FILE] SERVICE USER\n"
	"       dropgroups probe\n"
	"       dropgroups run [-c FILE] [-s SERVICE] -- COMMAND [ARG...]\n"
	"       dropgroups sync-kernel [-c FILE]\n"
	"       dropgroups --help | --version\n"
	"\n"
	"  check        validate the policy as pam_dropgroups would read it\n"
	"  explain      show which rule matches SERVICE and USER, and which of\n"
	"               USER's groups a session would keep or drop, and why\n"
	"  probe        say whether this kernel lets a process without\n"
	"               CAP_SETGID drop groups, and how it is configured\n"
	"  run          run COMMAND with the groups the policy keeps for you\n"
	"               (service " DG_RUN_SERVICE " unless -s), under no_new_privs\n"
	"  sync-kernel  write the policy's restricting gids to\n"
	"               kernel.setgroups_sticky_gids\n"
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

/* Parse "-c FILE" (and, where service is not NULL, "-s SERVICE") for a
 * subcommand; returns optind or -1. */
static int parse_opts(int argc, char **argv, const char **config,
		      const char **service)
{
	static const struct option opts[] = {
		{"config", required_argument, NULL, 'c'},
		{"service", required_argument, NULL, 's'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	bool seen = false, seen_s = false;
	int c;

	optind = 1;
	while ((c = getopt_long(argc, argv, service ? "+c:s:h" : "+c:h", opts,
				NULL)) != -1) {
		switch (c) {
		case 'c':
			if (seen) {
				usage_error("-c may be given only once");
				return -1;
			}
			seen = true;
			*config = optarg;
			break;
		case 's':
			if (!service) {
				usage_error("-s is for run only");
				return -1;
			}
			if (seen_s) {
				usage_error("-s may be given only once");
				return -1;
			}
			seen_s = true;
			*service = optarg;
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
	int first = parse_opts(argc, argv, &config, NULL);
	int r;

	if (first < 0)
		return EXIT_USAGE;
	if (first != argc)
		return usage_error("check: unexpected argument \"%s\"",
				   argv[first]);
	r = dg_policy_load(config, true, &cfg, &policy, &diags);
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

static void print_verdicts(const struct dg_outcome *o)
{
	const struct dg_decision *d = &o->decision;

	for (size_t i = 0; i < d->n_verdicts; i++) {
		const struct dg_verdict *v = &d->verdicts[i];
		_cleanup_free_ char *label = dg_group_label(v->gid);

		printf("  %-8s %-24s %s%s%s%s\n", v->kept ? "kept" : "dropped",
		       label ? label : "?", dg_reason_text(v->reason),
		       v->by_name ? " (by name: " : "",
		       v->by_name ? dg_gid_names_get(&o->names, v->gid) : "",
		       v->by_name ? ")" : "");
	}
}

static int explain(const struct dg_plan *plan, const char *service)
{
	struct dg_outcome o = {0};
	const struct dg_user *u = &plan->user;
	gid_t failed = 0;
	int r;

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
	r = dg_plan_decide(plan, u->groups.v, u->groups.n, &o, &failed);
	if (r < 0) {
		struct dg_apply_error why = {.step = DG_STEP_NAMES, .err = r,
					     .gid = failed};
		_cleanup_free_ char *text = dg_apply_error_text(&why);

		fprintf(stderr, "dropgroups: %s\n",
			r == -ENOMEM || !text ? "out of memory" : text);
		return EXIT_INVALID;
	}
	print_verdicts(&o);
	printf("groups after:");
	for (size_t i = 0; i < o.decision.groups.n; i++)
		printf(" %u", (unsigned)o.decision.groups.v[i]);
	printf("\n");
	dg_outcome_free(&o);
	return EXIT_OK;
}

static int cmd_explain(int argc, char **argv)
{
	const char *config = DG_DEFAULT_CONFIG;
	struct dg_diags diags = {0};
	struct dg_plan plan = {0};
	int first = parse_opts(argc, argv, &config, NULL);
	int r, ret;

	if (first < 0)
		return EXIT_USAGE;
	if (argc - first != 2)
		return usage_error("explain needs SERVICE and USER");
	/* As the module sees it: Linux-PAM lowercases the service name. */
	for (char *c = argv[first]; *c; c++)
		*c = (char)tolower((unsigned char)*c);
	r = dg_plan_prepare(config, argv[first], argv[first + 1], true, &plan,
			    &diags);
	print_diags(&diags);
	if (r == -ENOMEM)
		fprintf(stderr, "dropgroups: out of memory\n");
	ret = r < 0 ? EXIT_INVALID : explain(&plan, argv[first]);
	dg_plan_free(&plan);
	dg_diags_free(&diags);
	return ret;
}

/* --- the kernel side --- */

/* In a forked child (so the caller sees no change): clear every
 * capability, then try to drop one group (or set the same empty list),
 * first without no_new_privs, then with it.  Exit status: bit 0 set if
 * the first try worked, bit 1 if the second did, 4 if the test could not
 * be set up. */
static int probe_child(void)
{
	_cleanup_free_ gid_t *groups = NULL;
	size_t n = 0, keep;
	int status = 0;

	if (dg_get_groups(&groups, &n) < 0 || dg_drop_all_caps() < 0)
		return 4;
	keep = n ? n - 1 : 0; /* a real drop where there is a group */
	if (dg_set_groups(groups, keep) == 0)
		status |= 1;
	if (dg_set_no_new_privs() < 0)
		return 4;
	if (dg_set_groups(groups, keep) == 0)
		status |= 2;
	return status;
}

static void print_sysctl(const char *name, const char *path)
{
	_cleanup_free_ char *value = NULL;
	int r = dg_sysctl_read(path, &value);

	if (r == 0)
		printf("%s: %s\n", name, *value ? value : "(empty)");
	else if (r == -ENOENT)
		printf("%s: absent (this kernel lacks the patch)\n", name);
	else
		printf("%s: unreadable: %s\n", name, strerror(-r));
}

static int cmd_probe(int argc, char **argv)
{
	pid_t pid;
	int status;

	if (argc > 1 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
		fputs(usage_text, stdout);
		return EXIT_OK;
	}
	if (argc != 1)
		return usage_error("probe takes no arguments");
	fflush(stdout);
	pid = fork();
	if (pid < 0) {
		fprintf(stderr, "dropgroups: fork: %s\n", strerror(errno));
		return EXIT_INVALID;
	}
	if (pid == 0)
		_exit(probe_child());
	if (waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) ||
	    WEXITSTATUS(status) > 3) {
		fprintf(stderr, "dropgroups: the probe could not run\n");
		return EXIT_INVALID;
	}
	status = WEXITSTATUS(status);
	print_sysctl("kernel.setgroups_unprivileged_drop", DG_SYSCTL_DROP);
	print_sysctl("kernel.setgroups_sticky_gids", DG_SYSCTL_STICKY);
	printf("unprivileged drop without no_new_privs: %s\n",
	       status & 1 ? "allowed" : "refused");
	printf("unprivileged drop with no_new_privs: %s\n",
	       status & 2 ? "allowed" : "refused");
	if (status & 2)
		printf("this kernel lets processes without CAP_SETGID drop "
		       "groups%s\n",
		       status & 1 ? "" : " under no_new_privs");
	else
		printf("this kernel does not let processes without CAP_SETGID "
		       "drop groups: %s\n",
		       dg_unprivileged_drop_hint());
	return status & 2 ? EXIT_OK : EXIT_INVALID;
}

static int cmd_run(int argc, char **argv)
{
	const char *config = DG_DEFAULT_CONFIG, *service = DG_RUN_SERVICE;
	struct dg_diags diags = {0};
	struct dg_outcome o = {0};
	struct dg_plan plan = {0};
	struct dg_apply_error why;
	_cleanup_free_ char *user = NULL;
	int first = parse_opts(argc, argv, &config, &service);
	int r;

	if (first < 0)
		return EXIT_USAGE;
	if (first >= argc)
		return usage_error("run needs a COMMAND (after --)");
	/* Never a setuid helper: it must change only what the caller
	 * could change anyway, and drops what it is told to. */
	if (getuid() != geteuid() || getgid() != getegid()) {
		fprintf(stderr, "dropgroups: run must not be set-user-ID or "
				"set-group-ID\n");
		return EXIT_INVALID;
	}
	if (!(user = dg_user_name(getuid()))) {
		fprintf(stderr, "dropgroups: cannot find the name of uid %u\n",
			(unsigned)getuid());
		return EXIT_INVALID;
	}
	r = dg_plan_prepare(config, service, user, false, &plan, &diags);
	print_diags(&diags);
	dg_diags_free(&diags);
	if (r < 0)
		goto fail;
	if (!plan.rule) {
		fprintf(stderr, "dropgroups: no rule matches service \"%s\" and "
				"user \"%s\"; refusing to run with every group\n",
			service, user);
		goto fail;
	}
	/* Always under no_new_privs: the unprivileged drop needs it, and
	 * COMMAND then gains nothing from set-user-ID programs. */
	if (dg_plan_apply(&plan, true, &o, &why) < 0) {
		_cleanup_free_ char *text = dg_apply_error_text(&why);

		fprintf(stderr, "dropgroups: %s\n", text ? text : "out of memory");
		goto fail;
	}
	dg_outcome_free(&o);
	dg_plan_free(&plan);
	execvp(argv[first], argv + first);
	fprintf(stderr, "dropgroups: %s: %s\n", argv[first], strerror(errno));
	return 127;
fail:
	dg_plan_free(&plan);
	return EXIT_INVALID;
}

static int cmd_sync_kernel(int argc, char **argv)
{
	const char *config = DG_DEFAULT_CONFIG;
	struct dg_diags diags = {0};
	struct dg_config cfg = {0};
	struct dg_policy policy = {0};
	_cleanup_free_ char *list = strdup("");
	int first = parse_opts(argc, argv, &config, NULL);
	int r, ret = EXIT_INVALID;

	if (first < 0)
		return EXIT_USAGE;
	if (first != argc)
		return usage_error("sync-kernel: unexpected argument \"%s\"",
				   argv[first]);
	r = dg_policy_load(config, false, &cfg, &policy, &diags);
	print_diags(&diags);
	if (r < 0 || !list)
		goto out;
	for (size_t i = 0; i < policy.restricting.n; i++) {
		char *l = NULL;

		if (asprintf(&l, "%s%s%u", list, i ? "," : "",
			     (unsigned)policy.restricting.v[i]) < 0)
			goto out;
		free(list);
		list = l;
	}
	/* An empty list is written as a newline: it clears the kernel's. */
	r = dg_sysctl_write(DG_SYSCTL_STICKY, *list ? list : "\n");
	if (r == -ENOENT)
		fprintf(stderr, "dropgroups: this kernel lacks "
				"kernel.setgroups_sticky_gids (patch 0004 of the "
				"kernel/ series); nothing written\n");
	else if (r == -EPERM || r == -EACCES)
		fprintf(stderr, "dropgroups: writing %s: %s (it needs "
				"CAP_SYS_ADMIN)\n", DG_SYSCTL_STICKY,
			strerror(-r));
	else if (r < 0)
		fprintf(stderr, "dropgroups: writing %s: %s\n",
			DG_SYSCTL_STICKY, strerror(-r));
	else {
		printf("kernel.setgroups_sticky_gids = %s\n",
		       *list ? list : "(empty)");
		ret = EXIT_OK;
	}
out:
	dg_policy_free(&policy);
	dg_config_free(&cfg);
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
	if (strcmp(argv[1], "probe") == 0)
		return cmd_probe(argc - 1, argv + 1);
	if (strcmp(argv[1], "run") == 0)
		return cmd_run(argc - 1, argv + 1);
	if (strcmp(argv[1], "sync-kernel") == 0)
		return cmd_sync_kernel(argc - 1, argv + 1);
	return usage_error("unknown command \"%s\"", argv[1]);
}
