/* dropgroups(8): check a policy, lint the PAM stacks that carry it out,
 * explain its decisions, run a command with the groups it keeps, and
 * look at and set the kernel's support for unprivileged drops.  Every
 * command goes through the module's own code (plan.c, apply.c, args.c),
 * so the CLI and the module cannot disagree.
 *
 * A command is one row of `verbs` below: its name, its synopsis, what it
 * does, and the function that runs it. */
#include <ctype.h>
#include <err.h>
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>

#include "apply.h"
#include "audit.h"
#include "edit.h"
#include "help.h"
#include "json.h"
#include "kernel.h"
#include "nss.h"
#include "nsswitch.h"
#include "pamread.h"
#include "plan.h"
#include "sshdconf.h"
#include "strlist.h"
#include "sudoconf.h"
#include "sudoers.h"
#include "util.h"
#include "ways.h"

#ifndef DG_VERSION
#define DG_VERSION "unknown"
#endif

/* How dropgroups exits (dropgroups(8), EXIT STATUS). */
enum {
	EXIT_OK = 0,
	/* the policy is invalid or insecure, a look-up failed, or the
	 * command refused: what makes the module fail closed */
	EXIT_REFUSED = 1,
	EXIT_USAGE = 2,
	/* the system failed us (memory, fork): nothing about the policy */
	EXIT_SYSTEM = 3,
	/* run: COMMAND was found but could not be run, or was not found,
	 * as env(1) and setpriv(1) say it */
	EXIT_CANNOT_EXEC = 126,
	EXIT_NOT_FOUND = 127,
};

/* The PAM service name `dropgroups run` matches rules with. */
#define DG_RUN_SERVICE "dropgroups"

struct verb {
	const char *name;
	const char *synopsis;
	const char *help;
	int (*run)(int argc, char **argv);
};

static const struct verb *verbs_table(size_t *n);

static void usage(FILE *out)
{
	size_t n;
	const struct verb *verbs = verbs_table(&n);

	for (size_t i = 0; i < n; i++)
		fprintf(out, "%s dropgroups %s%s%s\n", i ? "      " : "Usage:",
			verbs[i].name, *verbs[i].synopsis ? " " : "",
			verbs[i].synopsis);
	fprintf(out, "       dropgroups --help | --version\n\n");
	for (size_t i = 0; i < n; i++)
		fprintf(out, "  %-12s %s\n", verbs[i].name, verbs[i].help);
	fprintf(out, "\n  -c, --config FILE  the policy (default %s)\n",
		DG_DEFAULT_CONFIG);
	fprintf(out, "  --pam-dir DIR      the PAM stacks (default %s, then %s)\n",
		DG_PAM_CONF_DIR, DG_PAM_VENDOR_DIR);
	fprintf(out, "  --sshd-config FILE whether sshd runs its stack "
		     "(default %s)\n",
		DG_SSHDCONF_PATH);
}

/* `dropgroups VERB --help`: VERB's usage, options and exit codes
 * (help.c). */
static void verb_usage(const char *name)
{
	size_t n;
	const struct verb *verbs = verbs_table(&n);

	for (size_t i = 0; i < n; i++)
		if (strcmp(verbs[i].name, name) == 0 &&
		    dg_help_verb(stdout, name, verbs[i].synopsis,
				 verbs[i].help) == 0)
			return;
	usage(stdout); /* a verb help.c lacks: its test fails */
}

static int usage_error(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));

static int usage_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vwarnx(fmt, ap);
	va_end(ap);
	fprintf(stderr, "Try 'dropgroups --help'.\n");
	return EXIT_USAGE;
}

/* Print every diagnostic on stderr as FILE:LINE: message (a syntax
 * error as FILE:LINE:COLUMN: message). */
static void print_diags(const struct dg_diags *diags)
{
	for (size_t i = 0; i < diags->n; i++) {
		const struct dg_diag *d = &diags->v[i];
		const char *tag = d->severity == DG_WARNING ? "warning: " : "";

		if (d->file && d->line > 0 && d->column > 0)
			fprintf(stderr, "%s:%d:%d: %s%s\n", d->file, d->line,
				d->column, tag, d->message);
		else if (d->file && d->line > 0)
			fprintf(stderr, "%s:%d: %s%s\n", d->file, d->line, tag,
				d->message);
		else if (d->file)
			fprintf(stderr, "%s: %s%s\n", d->file, tag, d->message);
		else
			fprintf(stderr, "%s%s\n", tag, d->message);
	}
	if (diags->lost)
		warnx("out of memory; some problems could not be reported");
}

/* The exit status for a failed load, prepare or decide. */
static int failed(int r)
{
	if (r == -ENOMEM) {
		warnx("out of memory");
		return EXIT_SYSTEM;
	}
	return EXIT_REFUSED;
}

/* ret, or EXIT_SYSTEM when the --json document could not be written
 * (wrote < 0): the caller would read half a document. */
static int json_written(int wrote, int ret)
{
	if (wrote == 0)
		return ret;
	warnx("writing the JSON document to standard output failed");
	return EXIT_SYSTEM;
}

/* What a command's options set; a NULL field is an option the command
 * does not take. */
struct opts {
	const char **config;  /* -c, --config FILE */
	const char **service; /* -s, --service SERVICE (run) */
	const char **drop_in; /* -d, --drop-in FILE (check) */
	const char **as;      /* --as NAME or PATH (check) */
	const char **pam_dir; /* --pam-dir DIR (lint, explain) */
	const char **sshd_config; /* --sshd-config FILE (lint, explain) */
	bool *json;		  /* --json (check, lint, explain) */
};

/* getopt's values for --pam-dir, --as and --sshd-config, which have no
 * short form */
#define OPT_PAM_DIR 'P'
#define OPT_AS 'A'
#define OPT_SSHD_CONFIG 'S'
#define OPT_JSON 'J'

/* "-c", or "--pam-dir": how the user wrote option c. */
static const char *opt_name(int c, char out[sizeof("--sshd-config")])
{
	if (c == OPT_PAM_DIR)
		return strcpy(out, "--pam-dir");
	if (c == OPT_SSHD_CONFIG)
		return strcpy(out, "--sshd-config");
	if (c == OPT_AS)
		return strcpy(out, "--as");
	if (c == OPT_JSON)
		return strcpy(out, "--json");
	out[0] = '-';
	out[1] = (char)c;
	out[2] = '\0';
	return out;
}

/* Parse a command's options; returns optind, or -1 after a usage
 * message.  Each option may be given once. */
static int parse_opts(int argc, char **argv, const struct opts *o)
{
	static const struct option longopts[] = {
		{"config", required_argument, NULL, 'c'},
		{"service", required_argument, NULL, 's'},
		{"drop-in", required_argument, NULL, 'd'},
		{"pam-dir", required_argument, NULL, OPT_PAM_DIR},
		{"as", required_argument, NULL, OPT_AS},
		{"sshd-config", required_argument, NULL, OPT_SSHD_CONFIG},
		{"json", no_argument, NULL, OPT_JSON},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	bool seen[UCHAR_MAX + 1] = {false};
	char name[sizeof("--sshd-config")];
	const char *flag; /* where a flag's (absent) argument goes */
	int c;

	optind = 1;
	while ((c = getopt_long(argc, argv, "+c:s:d:h", longopts, NULL)) != -1) {
		const char **target = c == 'c'   ? o->config
				      : c == 's' ? o->service
				      : c == 'd' ? o->drop_in
				      : c == OPT_PAM_DIR ? o->pam_dir
				      : c == OPT_AS	 ? o->as
				      : c == OPT_SSHD_CONFIG ? o->sshd_config
				      : c == OPT_JSON && o->json ? &flag
						 : NULL;

		if (c == 'h') {
			verb_usage(argv[0]);
			exit(EXIT_OK);
		}
		if (c == '?') {
			fprintf(stderr, "Try 'dropgroups --help'.\n");
			return -1;
		}
		if (!target)
			return usage_error("%s is not an option of %s",
					   opt_name(c, name), argv[0]),
			       -1;
		if (seen[c])
			return usage_error("%s may be given only once",
					   opt_name(c, name)),
			       -1;
		seen[c] = true;
		*target = optarg;
	}
	if (o->json)
		*o->json = seen[OPT_JSON];
	return optind;
}

/* Parse the options of a command that takes no operands: EXIT_OK, or
 * the exit status of a usage message. */
static int parse_opts_only(int argc, char **argv, const struct opts *o)
{
	int first = parse_opts(argc, argv, o);

	if (first < 0)
		return EXIT_USAGE;
	if (first != argc)
		return usage_error("%s: unexpected argument \"%s\"", argv[0],
				   argv[first]);
	return EXIT_OK;
}

/* --- check --- */

/* --as without --drop-in is the absolute path FILE will be installed at
 * (judged as if it were there: its include_dir, the drop-ins and
 * directories there, the copy itself on its own descriptor); with
 * --drop-in, a name the module reads, or a path to one.  EXIT_OK, or the
 * exit status of a usage message. */
static int check_as(const char *as, const char *drop_in)
{
	if (!as)
		return EXIT_OK;
	if (!drop_in && (as[0] != '/' || as[strlen(as) - 1] == '/'))
		return usage_error("check: --as \"%s\" without --drop-in: the "
				   "absolute path FILE will be installed at",
				   as);
	/* a name the module would skip: the file installed under it would
	 * never be read, whatever its content */
	if (drop_in && strchr(as, '/') && as[0] != '/')
		return usage_error("check: --as \"%s\": a drop-in's NAME, or "
				   "the absolute path it will be installed at",
				   as);
	if (drop_in && !dg_load_is_drop_in_name(
			       strrchr(as, '/') ? strrchr(as, '/') + 1 : as))
		return usage_error("check: --as \"%s\": a drop-in is named "
				   "NAME.conf, without \"/\" or a leading "
				   "dot",
				   as);
	return EXIT_OK;
}

static int cmd_check(int argc, char **argv)
{
	const char *config = DG_DEFAULT_CONFIG, *drop_in = NULL, *as = NULL;
	struct dg_diags diags = {0};
	struct dg_config cfg = {0};
	struct dg_policy policy = {0};
	bool json = false;
	int ret = parse_opts_only(argc, argv,
				  &(struct opts){.config = &config,
						 .drop_in = &drop_in,
						 .as = &as,
						 .json = &json});
	int r, wrote = 0;

	if (ret != EXIT_OK || (ret = check_as(as, drop_in)) != EXIT_OK)
		return ret;
	if (as && !drop_in)
		r = dg_load_policy_as(as,
				      &(struct dg_load_as){.main_from = config},
				      true, &cfg, &policy, &diags);
	else
		r = dg_load_policy_as(config,
				      &(struct dg_load_as){.drop_in = drop_in,
							   .drop_in_as = as},
				      true, &cfg, &policy, &diags);
	if (json)
		wrote = dg_json_check(stdout, config, r == 0, &cfg, &policy,
				      &diags);
	else
		print_diags(&diags);
	if (r == 0 && !json)
		printf("%s: valid: %zu rule(s), %zu restricting gid(s), %zu "
		       "file(s) read\n",
		       config, policy.n_rules, policy.restricting.n,
		       cfg.files.n);
	dg_policy_free(&policy);
	dg_config_free(&cfg);
	dg_diag_free(&diags);
	return json_written(wrote, r == 0 ? EXIT_OK : failed(r));
}

/* --- edit --- */

static int cmd_edit(int argc, char **argv)
{
	const char *config = DG_DEFAULT_CONFIG, *drop_in = NULL;
	int ret = parse_opts_only(argc, argv,
				  &(struct opts){.config = &config,
						 .drop_in = &drop_in});

	if (ret != EXIT_OK)
		return ret;
	/* a name the module would skip: what is installed under it would
	 * never be read */
	if (drop_in &&
	    (strchr(drop_in, '/') || !dg_load_is_drop_in_name(drop_in)))
		return usage_error("edit: -d \"%s\": a drop-in is named "
				   "NAME.conf, without \"/\" or a leading dot",
				   drop_in);
	_Static_assert((int)DG_EDIT_REFUSED == (int)EXIT_REFUSED &&
			       (int)DG_EDIT_SYSTEM == (int)EXIT_SYSTEM,
		       "edit.h's statuses are dropgroups(8)'s");
	return (int)dg_edit_run(config, drop_in, print_diags);
}

/* --- the PAM stacks: lint, and explain's ways back in --- */

/* Where the stacks are: --pam-dir DIR alone, or as libpam looks. */
static struct dg_pam_dirs pam_dirs(const char *pam_dir)
{
	if (pam_dir)
		return (struct dg_pam_dirs){.conf = pam_dir};
	return (struct dg_pam_dirs){.conf = DG_PAM_CONF_DIR,
				    .vendor = DG_PAM_VENDOR_DIR};
}

/* Whether sshd, configured by path, runs its PAM stack: *why NULL when
 * it does (or does not start at all: no file), else why not, as a
 * clause, and where that is decided.  0 or -ENOMEM. */
static int sshd_not_run(const char *path, char **why, char **file, int *line)
{
	struct dg_sshdconf c;
	int r = dg_sshdconf_read(path, DG_SSHDCONF_DIR, &c);

	*why = *file = NULL;
	*line = 0;
	if (r < 0)
		return r;
	if (c.pam == DG_SSHDCONF_NO_PAM && c.line)
		*why = strdup("UsePAM is \"no\", so sshd runs no PAM stack");
	else if (c.pam == DG_SSHDCONF_NO_PAM)
		*why = strdup("no line sets UsePAM, whose default is \"no\", "
			      "so sshd runs no PAM stack");
	else if (c.pam == DG_SSHDCONF_UNKNOWN &&
		 asprintf(why, "whether sshd runs its PAM stack cannot be "
			       "told (%s), so it is counted as running none",
			  c.why) < 0)
		*why = NULL; /* undefined after a failed asprintf */
	if (*why) {
		*file = DG_TAKE(c.file);
		*line = c.line;
	} else if (c.pam == DG_SSHDCONF_NO_PAM ||
		   c.pam == DG_SSHDCONF_UNKNOWN) {
		r = -ENOMEM;
	}
	dg_sshdconf_free(&c);
	return r;
}

/* The file that names sudo's sudoers file (sudoers_file=). */
#define DG_SUDO_CONF "/etc/sudo.conf"

/* For whom a scoped Defaults turns pam_session off. */
static const char *sudo_scope_text(char scope)
{
	switch (scope) {
	case ':':
		return " for some users";
	case '>':
		return " for some target users";
	case '@':
		return " on some hosts";
	case '!':
		return " for some commands";
	}
	return "";
}

/* Why sudo runs no session stack, by what its sudoers say (off), or by
 * the first error that kept them from being read (r < 0): a clause into
 * *why and where into *file and *line, or -ENOMEM. */
static int sudo_why(int r, const struct dg_sudoers_session *off,
		    const struct dg_diags *diags, char **why, char **file,
		    int *line)
{
	const struct dg_diag *e = dg_diag_first_error(diags);
	int n;

	if (r < 0) {
		n = asprintf(why, "whether sudo opens a PAM session cannot be "
				  "told (%s), so it is counted as opening none",
			     e ? e->message : strerror(-r));
		*file = strdup(e && e->file ? e->file : DG_SUDO_CONF);
		*line = e ? e->line : 0;
	} else {
		n = asprintf(why, "%s !pam_session, so sudo opens no PAM "
				  "session%s",
			     off->defaults, sudo_scope_text(off->scope));
		*file = strdup(off->file);
		*line = off->line;
	}
	if (n < 0)
		*why = NULL; /* undefined after a failed asprintf */
	return *why && *file ? 0 : -ENOMEM;
}

/* Whether sudo opens a PAM session, so that its session stack runs:
 * pam_session in the sudoers file sudo.conf names and what it includes,
 * read as root's sudo reads them (one lint may not read cannot be told).
 * *why NULL when it does (or no sudoers exists), else as sshd_not_run.
 * 0 or -ENOMEM. */
static int sudo_not_run(char **why, char **file, int *line)
{
	_cleanup_free_ char *sudoers = NULL;
	struct dg_diags diags = {0};
	struct dg_sudoers_session off = {0};
	struct utsname uts;
	struct dg_sudoers_how how = {.strict = true,
				     .shost = dg_sudoers_short_host(&uts)};
	int r = dg_sudoconf_read(DG_SUDO_CONF, &sudoers, &diags);

	if (r == 0) {
		const char *paths[] = {sudoers};

		r = dg_sudoers_pam_session(paths, 1, &how, &off, &diags);
	}
	if (r == -ENOMEM || diags.lost)
		r = -ENOMEM;
	else if (r < 0 || off.file)
		r = sudo_why(r, &off, &diags, why, file, line);
	if (r < 0) {
		free(*why);
		free(*file);
		*why = *file = NULL;
	}
	dg_sudoers_session_free(&off);
	dg_diag_free(&diags);
	return r;
}

/* Whether the program of service runs its PAM stack at all, by its own
 * configuration: sshd (sshd_config, UsePAM) and sudo (sudoers,
 * pam_session).  *why NULL when it does, else why not, as a clause, and
 * where that is decided.  0 or -ENOMEM. */
static int program_not_run(const char *service, const char *sshd_config,
			   char **why, char **file, int *line)
{
	*why = *file = NULL;
	*line = 0;
	if (strcmp(service, "sshd") == 0)
		return sshd_not_run(sshd_config, why, file, line);
	if (strcmp(service, "sudo") == 0 || strcmp(service, "sudo-i") == 0)
		return sudo_not_run(why, file, line);
	return 0;
}

/* Read one service's stack into *s, or "other"'s where it has none, as
 * libpam would; for sshd and sudo, whether it runs it at all
 * (program_not_run).  0 or -ENOMEM; other failures are in diags. */
static int read_stack(const struct dg_pam_dirs *dirs,
		      const char *sshd_config, const char *service,
		      struct dg_service_stack *s, struct dg_diags *diags)
{
	struct dg_pam_reader rd = dg_pamread_dirs(dirs);
	int r;

	*s = (struct dg_service_stack){.service = strdup(service)};
	if (!s->service)
		return -ENOMEM;
	r = dg_pamstack_load(&rd, service, &s->stack, diags);
	if (r == -ENOENT) {
		s->status = r;
		/* the failed load holds memory too (its first frame): freed
		 * before the second load starts the stack afresh */
		dg_pamstack_free(&s->stack);
		r = dg_pamstack_load(&rd, "other", &s->stack, diags);
		if (r == -ENOENT)
			r = 0;
	}
	if (r < 0 && r != -ENOMEM) {
		dg_diag_add(diags, DG_ERROR, dirs->conf, 0,
			    "cannot read the stack of \"%s\": %s", service,
			    strerror(-r));
		s->status = r;
		r = 0;
	}
	if (r == 0)
		r = program_not_run(service, sshd_config, &s->not_run,
				    &s->not_run_file, &s->not_run_line);
	return r;
}

/* Whether pam_group may add a group: its file holds a line that is not
 * blank or a comment (pam_group's "#" starts one anywhere), or cannot
 * be read, where it says nothing then.  Its lines are not matched
 * here: which apply depends on the time and the terminal of a login. */
static bool pam_group_grants(void)
{
	FILE *f = fopen(DG_PAM_GROUP_CONF, "re");
	_cleanup_free_ char *line = NULL;
	size_t size = 0;
	bool grants = false;

	if (!f)
		return errno != ENOENT;
	while (!grants && getline(&line, &size, f) >= 0) {
		/* (a backslash only joins lines) */
		char first = line[strspn(line, " \t\r\n\v\f\\")];

		grants = first != '#' && first != '\0';
	}
	/* a read error: what the rest says cannot be told */
	if (ferror(f))
		grants = true;
	if (fclose(f) != 0)
		grants = true;
	return grants;
}

static int read_stacks(const struct dg_pam_dirs *dirs,
		       const char *sshd_config,
		       const struct dg_strlist *services,
		       struct dg_service_stacks *out, struct dg_diags *diags)
{
	out->pam_group_grants = pam_group_grants();
	for (size_t i = 0; i < services->n; i++) {
		struct dg_service_stack s;
		int r = read_stack(dirs, sshd_config, services->v[i], &s,
				   diags);

		if (r == 0 && (r = DG_APPEND(out, s)) == 0)
			continue;
		free(s.service);
		free(s.not_run);
		free(s.not_run_file);
		dg_pamstack_free(&s.stack);
		return r;
	}
	return 0;
}

/* Lint the stacks against a loaded policy: 0 or -ENOMEM. */
static int lint(const char *config, const struct dg_config *cfg,
		const char *pam_dir, const char *sshd_config,
		struct dg_diags *diags, size_t *n_read)
{
	struct dg_pam_dirs dirs = pam_dirs(pam_dir);
	struct dg_strlist services = {0};
	struct dg_service_stacks stacks = {0};
	int r;

	if ((r = dg_ways_lint_services(cfg, &services)) == 0 &&
	    (r = read_stacks(&dirs, sshd_config, &services, &stacks,
			      diags)) == 0)
		r = dg_ways_lint(cfg, config, &stacks, diags);
	*n_read = stacks.n;
	dg_ways_stacks_free(&stacks);
	dg_strlist_free(&services);
	return r;
}

static size_t count(const struct dg_diags *d, enum dg_severity sev)
{
	size_t n = 0;

	for (size_t i = 0; i < d->n; i++)
		n += d->v[i].severity == sev;
	return n;
}

static int cmd_lint(int argc, char **argv)
{
	const char *config = DG_DEFAULT_CONFIG, *pam_dir = NULL;
	const char *sshd_config = DG_SSHDCONF_PATH;
	struct dg_diags diags = {0};
	struct dg_config cfg = {0};
	struct dg_policy policy = {0};
	size_t n_read = 0;
	bool json = false;
	int ret = parse_opts_only(argc, argv,
				  &(struct opts){.config = &config,
						 .pam_dir = &pam_dir,
						 .sshd_config = &sshd_config,
						 .json = &json});
	int r, wrote = 0;

	if (ret != EXIT_OK)
		return ret;
	/* the stacks are judged against the policy: a broken one first */
	r = dg_load_policy(config, NULL, NULL, false, &cfg, &policy, &diags);
	if (r == 0)
		r = lint(config, &cfg, pam_dir, sshd_config, &diags, &n_read);
	dg_diag_unique(&diags);
	if (json)
		wrote = dg_json_lint(stdout, config,
				     pam_dir ? pam_dir : DG_PAM_CONF_DIR,
				     r == 0 ? (long)n_read : -1,
				     count(&diags, DG_ERROR),
				     count(&diags, DG_WARNING), &diags);
	else
		print_diags(&diags);
	if (r == 0 && !json)
		printf("%s: %zu stack(s) read: %zu error(s), %zu warning(s)\n",
		       pam_dir ? pam_dir : DG_PAM_CONF_DIR, n_read,
		       count(&diags, DG_ERROR), count(&diags, DG_WARNING));
	if (r == 0 && dg_diag_failed(&diags))
		r = -EINVAL;
	dg_policy_free(&policy);
	dg_config_free(&cfg);
	dg_diag_free(&diags);
	return json_written(wrote, r == 0 ? EXIT_OK : failed(r));
}

/* The ways back in that stay open for the plan's user, into x: 0 or
 * -ENOMEM. */
static int read_ways(struct dg_plan *plan, const char *config,
		     const char *pam_dir, const char *sshd_config,
		     struct dg_json_explain *x)
{
	struct dg_pam_dirs dirs = pam_dirs(pam_dir);
	struct dg_strlist services = {0};
	struct dg_service_stacks stacks = {0};
	struct dg_diags ignored = {0}; /* lint reports the stacks' problems */
	size_t n;
	const struct dg_program *programs = dg_programs(&n);
	int r = 0;

	for (size_t i = 0; i < n && r == 0; i++)
		r = dg_strlist_add(&services, programs[i].service);
	if (r == 0 &&
	    (r = read_stacks(&dirs, sshd_config, &services, &stacks,
			     &ignored)) == 0 &&
	    (r = dg_ways_open(plan, config, &stacks, &x->ways)) == 0)
		x->ways_read = true;
	dg_strlist_free(&services);
	dg_ways_stacks_free(&stacks);
	dg_diag_free(&ignored);
	return r;
}

static void print_ways(const struct dg_ways *ways)
{
	printf("ways back in that stay open:%s\n",
	       ways->n ? "" : " none found (dropgroups lint checks them)");
	for (size_t i = 0; i < ways->n; i++)
		printf("  %s: %s\n", ways->v[i].program, ways->v[i].message);
}

/* --- explain --- */

/* The label of each verdict of x's decision, as text and --json show
 * it: 0 or -ENOMEM. */
static int label_verdicts(struct dg_json_explain *x)
{
	const struct dg_decision *d = &x->outcome.decision;

	if (!(x->labels = calloc(d->n_verdicts + 1, sizeof(*x->labels))))
		return -ENOMEM;
	for (size_t i = 0; i < d->n_verdicts; i++)
		if (!(x->labels[i] = dg_nss_group_label(d->verdicts[i].gid)))
			return -ENOMEM;
	return 0;
}

static void print_verdicts(const struct dg_json_explain *x)
{
	const struct dg_outcome *o = &x->outcome;
	const struct dg_decision *d = &o->decision;

	for (size_t i = 0; i < d->n_verdicts; i++) {
		const struct dg_verdict *v = &d->verdicts[i];
		const char *label = x->labels[i];

		printf("  %-8s %-24s %s%s%s%s\n", v->kept ? "kept" : "dropped",
		       label ? label : "?", dg_policy_reason_text(v->reason),
		       v->by_name ? " (by name: " : "",
		       v->by_name ? dg_gids_name_get(&o->names, v->gid) : "",
		       v->by_name ? ")" : "");
	}
}

/* For service sshd or sudo, when the program runs no PAM stack (or no
 * session), say so before any verdict: the module never runs there. */
static void print_not_run(const struct dg_json_explain *x)
{
	if (x->not_run && x->not_run_line)
		printf("the module never runs for service \"%s\": %s "
		       "(%s:%d); every group stays, and what follows is what "
		       "it would decide if it ran\n",
		       x->service, x->not_run, x->not_run_file,
		       x->not_run_line);
	else if (x->not_run)
		printf("the module never runs for service \"%s\": %s "
		       "(%s); every group stays, and what follows is what it "
		       "would decide if it ran\n",
		       x->service, x->not_run, x->not_run_file);
}

/* The text form of x, as far as explain got. */
static void print_explain(const struct dg_json_explain *x)
{
	const struct dg_user *u = x->user;
	const struct dg_rule_src *src = x->rule;

	printf("service \"%s\", user \"%s\" (uid %u, primary gid %u)\n",
	       x->service, u->name, (unsigned)u->uid,
	       (unsigned)u->primary_gid);
	print_not_run(x);
	if (x->matched && !src)
		printf("no rule matches: the module returns PAM_IGNORE and "
		       "every group stays\n");
	if (!src)
		return;
	if (src->name)
		printf("rule \"%s\" (%s:%d) matches: ", src->name, src->file,
		       src->line);
	else
		printf("rule at %s:%d matches: ", src->file, src->line);
	printf("%s%s\n", src->mode == DG_MODE_DROP ? "drop" : "keep",
	       src->no_new_privs ? ", no_new_privs" : "");
	if (!x->decided)
		return;
	print_verdicts(x);
	printf("groups after:");
	for (size_t i = 0; i < x->outcome.decision.groups.n; i++)
		printf(" %u", (unsigned)x->outcome.decision.groups.v[i]);
	printf("\n");
	if (x->ways_read)
		print_ways(&x->ways);
}

/* What explain shows, into x, step by step: 0; -ENOMEM; or another
 * -errno when NSS could not name a gid of the decision, with why in
 * diags (the steps after it are not taken). */
static int explain_gather(struct dg_plan *plan, const char *config,
			  const char *pam_dir, const char *sshd_config,
			  struct dg_json_explain *x, struct dg_diags *diags)
{
	gid_t failed_gid = 0;
	int r;

	x->user = &plan->user;
	if ((r = program_not_run(x->service, sshd_config, &x->not_run,
				 &x->not_run_file, &x->not_run_line)) < 0)
		return r;
	x->matched = true;
	if (!(x->rule = plan->rule ? plan->rule->src : NULL))
		return 0;
	r = dg_plan_decide(plan, plan->user.groups.v, plan->user.groups.n,
			   NULL, NULL, &x->outcome, &failed_gid);
	if (r < 0 && r != -ENOMEM) {
		struct dg_apply_error why = {.step = DG_STEP_NAMES, .err = r,
					     .gid = failed_gid};
		_cleanup_free_ char *text = dg_apply_error_text(&why);

		if (!text)
			return -ENOMEM;
		dg_diag_add(diags, DG_ERROR, NULL, 0, "%s", text);
	}
	if (r < 0 || (r = label_verdicts(x)) < 0)
		return r;
	x->decided = true;
	return read_ways(plan, config, pam_dir, sshd_config, x);
}

static int explain(struct dg_plan *plan, const char *config,
		   const char *service, const char *pam_dir,
		   const char *sshd_config, bool json, struct dg_diags *diags)
{
	struct dg_json_explain x = {.service = service};
	size_t n_before = diags->n;
	int r = explain_gather(plan, config, pam_dir, sshd_config, &x, diags);
	int wrote = 0;

	if (json)
		wrote = dg_json_explain(stdout, &x, diags);
	else
		print_explain(&x);
	/* the text form says why NSS failed after what it printed */
	for (size_t i = n_before; !json && i < diags->n; i++)
		warnx("%s", diags->v[i].message);
	dg_json_explain_free(&x);
	return json_written(wrote, r == 0 ? EXIT_OK : failed(r));
}

static int cmd_explain(int argc, char **argv)
{
	const char *config = DG_DEFAULT_CONFIG, *pam_dir = NULL;
	const char *sshd_config = DG_SSHDCONF_PATH;
	struct dg_diags diags = {0};
	struct dg_plan plan = {0};
	struct dg_json_explain none = {0};
	bool json = false;
	int first = parse_opts(argc, argv,
			       &(struct opts){.config = &config,
					      .pam_dir = &pam_dir,
					      .sshd_config = &sshd_config,
					      .json = &json});
	int r, ret;

	if (first < 0)
		return EXIT_USAGE;
	if (argc - first != 2)
		return usage_error("explain needs SERVICE and USER");
	/* As the module sees it: Linux-PAM lowercases the service name. */
	for (char *c = argv[first]; *c; c++)
		*c = (char)tolower((unsigned char)*c);
	none.service = argv[first];
	r = dg_plan_prepare(config, argv[first], argv[first + 1], true, NULL,
			    &plan, &diags);
	if (!json)
		print_diags(&diags);
	if (r < 0 && json) /* no user, no rule: the diagnostics say why */
		ret = json_written(dg_json_explain(stdout, &none, &diags),
				   failed(r));
	else
		ret = r < 0 ? failed(r)
			    : explain(&plan, config, argv[first], pam_dir,
				      sshd_config, json, &diags);
	dg_plan_free(&plan);
	dg_diag_free(&diags);
	return ret;
}

/* --- the kernel side --- */

/* What the probe's child found, as its exit status. */
enum {
	PROBE_DROPS = 1 << 0,          /* dropped without no_new_privs */
	PROBE_DROPS_WITH_NNP = 1 << 1, /* dropped with no_new_privs */
	PROBE_BROKEN = 1 << 2,         /* could not set the test up */
};

/* In a forked child (so the caller sees no change): clear every
 * capability, then try to drop one group (or set the same empty list),
 * first without no_new_privs, then with it. */
static int probe_child(void)
{
	_cleanup_free_ gid_t *groups = NULL;
	size_t n = 0, keep;
	int found = 0;

	if (dg_kernel_get_groups(&groups, &n) < 0 ||
	    dg_kernel_drop_all_caps() < 0)
		return PROBE_BROKEN;
	keep = n ? n - 1 : 0; /* a real drop where there is a group */
	if (dg_kernel_set_groups(groups, keep) == 0)
		found |= PROBE_DROPS;
	if (dg_kernel_set_no_new_privs() < 0)
		return PROBE_BROKEN;
	if (dg_kernel_set_groups(groups, keep) == 0)
		found |= PROBE_DROPS_WITH_NNP;
	return found;
}

static void print_sysctl(const char *name, const char *path)
{
	_cleanup_free_ char *value = NULL;
	int r = dg_kernel_sysctl_read(path, &value);

	/* The sticky list reads as an empty line until it is written once;
	 * until then the kernel refuses to turn the drop on. */
	if (r == 0)
		printf("%s: %s\n", name,
		       *value ? value : "(not set since boot)");
	else if (r == -ENOENT)
		printf("%s: absent (this kernel lacks the patch)\n", name);
	else
		printf("%s: unreadable: %s\n", name, strerror(-r));
}

static int cmd_probe(int argc, char **argv)
{
	pid_t pid;
	int status;

	if (argc == 2 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
		verb_usage("probe");
		return EXIT_OK;
	}
	if (argc != 1)
		return usage_error("probe takes no arguments");
	fflush(stdout);
	if ((pid = fork()) < 0) {
		warn("fork");
		return EXIT_SYSTEM;
	}
	if (pid == 0)
		_exit(probe_child());
	if (waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) ||
	    (WEXITSTATUS(status) & PROBE_BROKEN)) {
		warnx("the probe could not run");
		return EXIT_SYSTEM;
	}
	status = WEXITSTATUS(status);
	print_sysctl("kernel.setgroups_unprivileged_drop", DG_SYSCTL_DROP);
	print_sysctl("kernel.setgroups_sticky_gids", DG_SYSCTL_STICKY);
	printf("unprivileged drop without no_new_privs: %s\n",
	       status & PROBE_DROPS ? "allowed" : "refused");
	printf("unprivileged drop with no_new_privs: %s\n",
	       status & PROBE_DROPS_WITH_NNP ? "allowed" : "refused");
	if (status & PROBE_DROPS_WITH_NNP)
		printf("this kernel lets processes without CAP_SETGID drop "
		       "groups%s\n",
		       status & PROBE_DROPS ? "" : " under no_new_privs");
	else
		printf("this kernel does not let processes without CAP_SETGID "
		       "drop groups: %s\n",
		       dg_apply_unprivileged_hint());
	return status & PROBE_DROPS_WITH_NNP ? EXIT_OK : EXIT_REFUSED;
}

/* The plan for the invoking user under service, or an exit status. */
static int prepare_run(const char *config, const char *service,
		       struct dg_plan *plan)
{
	_cleanup_free_ char *user = NULL;
	struct dg_diags diags = {0};
	int r;

	/* Never a setuid helper: it must change only what the caller
	 * could change anyway, and drops what it is told to. */
	if (getuid() != geteuid() || getgid() != getegid()) {
		warnx("run must not be set-user-ID or set-group-ID");
		return EXIT_REFUSED;
	}
	if (!(user = dg_nss_user_name(getuid()))) {
		warnx("cannot find the name of uid %u", (unsigned)getuid());
		return EXIT_REFUSED;
	}
	r = dg_plan_prepare(config, service, user, false, NULL, plan, &diags);
	print_diags(&diags);
	dg_diag_free(&diags);
	if (r < 0)
		return failed(r);
	if (!plan->rule) {
		warnx("no rule matches service \"%s\" and user \"%s\"; refusing "
		      "to run with every group",
		      service, user);
		return EXIT_REFUSED;
	}
	return EXIT_OK;
}

static int cmd_run(int argc, char **argv)
{
	const char *config = DG_DEFAULT_CONFIG, *service = DG_RUN_SERVICE;
	struct dg_outcome o = {0};
	struct dg_plan plan = {0};
	struct dg_apply_error why;
	int first = parse_opts(argc, argv,
			       &(struct opts){.config = &config,
					      .service = &service});
	int ret;

	if (first < 0)
		return EXIT_USAGE;
	if (first >= argc)
		return usage_error("run needs a COMMAND (after --)");
	ret = prepare_run(config, service, &plan);
	/* Always under no_new_privs: the unprivileged drop needs it, and
	 * COMMAND then gains nothing from set-user-ID programs. */
	if (ret == EXIT_OK && dg_apply(&plan, true, NULL, NULL, &o, &why) < 0) {
		_cleanup_free_ char *text = dg_apply_error_text(&why);

		warnx("%s", text ? text : "out of memory");
		ret = EXIT_REFUSED;
	}
	dg_plan_outcome_free(&o);
	dg_plan_free(&plan);
	if (ret != EXIT_OK)
		return ret;
	execvp(argv[first], argv + first);
	warn("%s", argv[first]);
	return errno == ENOENT ? EXIT_NOT_FOUND : EXIT_CANNOT_EXEC;
}

/* "2003,2004": the gids of set, as the sticky sysctl takes them; NULL
 * on ENOMEM. */
static char *gid_list(const struct dg_gids *set)
{
	char *s = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&s, &len);
	bool bad = !f;

	for (size_t i = 0; f && i < set->n; i++)
		bad |= fprintf(f, "%s%u", i ? "," : "", (unsigned)set->v[i]) < 0;
	if (f && fclose(f) != 0)
		bad = true;
	if (bad) {
		free(s);
		return NULL;
	}
	return s;
}

static int write_sticky(const char *list)
{
	/* The kernel takes a value in one write(2), whole or not at all, and
	 * refuses a write of a multiple of 1 KiB that does not end the line,
	 * which it cannot tell from stdio's first block of a longer value:
	 * so one write, always ending with a newline.  The empty list is
	 * spelled "none"; the kernel refuses an empty line. */
	_cleanup_free_ char *value = NULL;
	int r;

	if (asprintf(&value, "%s\n", *list ? list : "none") < 0)
		return failed(-ENOMEM);
	r = dg_kernel_sysctl_write(DG_SYSCTL_STICKY, value);

	if (r == -ENOENT)
		warnx("this kernel lacks kernel.setgroups_sticky_gids (the "
		      "sticky-gids patch of the kernel/ series); nothing "
		      "written");
	else if (r == -EPERM || r == -EACCES)
		warnx("writing %s: %s (it needs CAP_SYS_ADMIN)",
		      DG_SYSCTL_STICKY, strerror(-r));
	else if (r < 0)
		warnx("writing %s: %s", DG_SYSCTL_STICKY, strerror(-r));
	else
		printf("kernel.setgroups_sticky_gids = %s\n",
		       *list ? list : "(empty)");
	return r < 0 ? EXIT_REFUSED : EXIT_OK;
}

/* Does an NSS service of the group database list every group it holds
 * to a walk (getgrent)?  The local files do, and systemd's records.  A
 * directory need not: SSSD does not by default, and nslcd stops at the
 * server's size limit; nor need compat, whose "+" entries ask another
 * service.  Only what the walk lists reaches the kernel. */
static bool lists_every_group(const char *service)
{
	return !strcmp(service, "files") || !strcmp(service, "systemd");
}

/* The first service of nsswitch.conf's group line that may not list its
 * groups, as a new string in *out (NULL: every one does): 0, or -errno
 * (nsswitch.conf could not be read, or only more than one way). */
static int unlisting_service(char **out)
{
	struct dg_nss_services s = {0};
	int r = dg_nss_read_nsswitch("group", &s);

	*out = NULL;
	for (size_t i = 0; r >= 0 && i < s.n && !*out; i++)
		if (!lists_every_group(s.v[i].name) &&
		    !(*out = strdup(s.v[i].name)))
			r = -ENOMEM;
	dg_nsswitch_services_free(&s);
	return r < 0 ? r : 0;
}

/* The restricting names whose gids the kernel may not all hold, each
 * named on stderr: EXIT_OK when there is none (or no name), else
 * EXIT_REFUSED.  The list was written already: every gid that could be
 * known is better in the kernel than none. */
static int names_not_covered(const struct dg_policy *policy)
{
	_cleanup_free_ char *service = NULL, *why = NULL;
	int r;

	if (!policy->restricting_names.n)
		return EXIT_OK;
	if ((r = unlisting_service(&service)) == -ENOMEM)
		return failed(r);
	if (r == 0 && !service)
		return EXIT_OK;
	if (r < 0 ? asprintf(&why, "nsswitch.conf could not be read (%s)",
			     strerror(-r)) < 0
		  : asprintf(&why, "the group database also asks \"%s\", "
				   "which need not list its groups",
			     service) < 0) {
		why = NULL; /* undefined after a failed asprintf */
		return failed(-ENOMEM);
	}
	for (size_t i = 0; i < policy->restricting_names.n; i++) {
		const char *name = policy->restricting_names.v[i];

		warnx("restricting group \"%s\" may have gids the kernel does "
		      "not hold: %s, and only the gids a walk of it listed "
		      "were written; list each gid of \"%s\" in restricting, "
		      "by number",
		      name, why, name);
	}
	return EXIT_REFUSED;
}

static int cmd_sync_kernel(int argc, char **argv)
{
	const char *config = DG_DEFAULT_CONFIG;
	struct dg_diags diags = {0};
	struct dg_config cfg = {0};
	struct dg_policy policy = {0};
	_cleanup_free_ char *list = NULL;
	int ret = parse_opts_only(argc, argv,
				  &(struct opts){.config = &config});
	int r;

	if (ret != EXIT_OK)
		return ret;
	r = dg_load_policy(config, NULL, NULL, false, &cfg, &policy, &diags);
	print_diags(&diags);
	/* The kernel knows gids only: add every gid the group database calls
	 * by a restricting name, as the module would keep it by name. */
	if (r == 0 && (r = dg_nss_walk_named(&policy.restricting_names,
					     &policy.restricting)) < 0 &&
	    r != -ENOMEM)
		warnx("walking the group database failed: %s", strerror(-r));
	if (r < 0)
		ret = failed(r);
	else if (!(list = gid_list(&policy.restricting)))
		ret = failed(-ENOMEM);
	else if ((ret = write_sticky(list)) == EXIT_OK)
		ret = names_not_covered(&policy);
	dg_policy_free(&policy);
	dg_config_free(&cfg);
	dg_diag_free(&diags);
	return ret;
}

/* --- help, audit --- */

/* `dropgroups help [COMMAND]`: the global help, or COMMAND's. */
static int cmd_help(int argc, char **argv)
{
	size_t n;
	const struct verb *verbs = verbs_table(&n);
	const char *verb;

	if (argc == 1) {
		usage(stdout);
		return EXIT_OK;
	}
	if (argc > 2)
		return usage_error("help takes one COMMAND at most");
	/* `help --help` is help's own, as every verb's --help */
	verb = strcmp(argv[1], "-h") && strcmp(argv[1], "--help") ? argv[1]
								  : argv[0];
	for (size_t i = 0; i < n; i++)
		if (strcmp(verb, verbs[i].name) == 0) {
			verb_usage(verb);
			return EXIT_OK;
		}
	return usage_error("help: unknown command \"%s\"", verb);
}

static void audit_help(void)
{
	verb_usage("audit");
}

static int cmd_audit(int argc, char **argv)
{
	return dg_audit_main(argc, argv, audit_help);
}

/* --- the commands --- */

static const struct verb verbs[] = {
	{"check",
	 "[-c FILE] [--as PATH | -d DROP-IN [--as NAME|PATH]] [--json]",
	 "validate the policy as pam_dropgroups would read it (FILE\n"
	 "               as if installed at PATH; with DROP-IN, a drop-in yet\n"
	 "               to be installed, as one of it, in place of the\n"
	 "               installed NAME)",
	 cmd_check},
	{"edit", "[-c FILE] [-d DROP-IN]",
	 "edit the policy, or its drop-in DROP-IN, as visudo edits\n"
	 "               sudoers: locked, and installed only if it passes "
	 "check",
	 cmd_edit},
	{"lint", "[-c FILE] [--pam-dir DIR] [--sshd-config FILE] [--json]",
	 "check that the PAM stacks carry the policy out, and name\n"
	 "               the ways back in they leave open",
	 cmd_lint},
	{"explain",
	 "[-c FILE] [--pam-dir DIR] [--sshd-config FILE] [--json] SERVICE USER",
	 "show which rule matches SERVICE and USER, which of USER's\n"
	 "               groups a session would keep or drop, and why, and\n"
	 "               the ways back in that stay open",
	 cmd_explain},
	{"probe", "",
	 "say whether this kernel lets a process without CAP_SETGID\n"
	 "               drop groups, and how it is configured",
	 cmd_probe},
	{"run", "[-c FILE] [-s SERVICE] -- COMMAND [ARG...]",
	 "run COMMAND with the groups the policy keeps for you\n"
	 "               (service " DG_RUN_SERVICE " unless -s), under "
	 "no_new_privs",
	 cmd_run},
	{"sync-kernel", "[-c FILE]",
	 "write the policy's restricting gids to\n"
	 "               kernel.setgroups_sticky_gids",
	 cmd_sync_kernel},
	{"audit", "[--sudoers PATH]... [--xdev] [--emit-dropin FILE] [--json] [PATH...]",
	 "name the groups this system uses to take access away\n"
	 "               (modes, ACLs, sudoers), which restricting should list",
	 cmd_audit},
	{"help", "[COMMAND]",
	 "print COMMAND's usage, options and exit codes (no COMMAND:\n"
	 "               this help)",
	 cmd_help},
};

static const struct verb *verbs_table(size_t *n)
{
	*n = sizeof(verbs) / sizeof(*verbs);
	return verbs;
}

int main(int argc, char **argv)
{
	if (argc < 2)
		return usage_error("a command is required");
	if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
		usage(stdout);
		return EXIT_OK;
	}
	if (strcmp(argv[1], "--version") == 0) {
		printf("dropgroups %s\n", DG_VERSION);
		return EXIT_OK;
	}
	for (size_t i = 0; i < sizeof(verbs) / sizeof(*verbs); i++)
		if (strcmp(argv[1], verbs[i].name) == 0)
			return verbs[i].run(argc - 1, argv + 1);
	return usage_error("unknown command \"%s\"", argv[1]);
}
