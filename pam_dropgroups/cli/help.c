/* Each verb's options and exit codes, in one table: the per-verb help
 * prints it, and tests/integration/40-cli.sh checks each listed option
 * against the verb's parser (a listed option is accepted, an option of
 * another verb refused), so that the help cannot drift from the code.
 * dropgroups(8) says the same under OPTIONS and EXIT STATUS. */
#include "help.h"

#include <errno.h>
#include <string.h>

#include "config.h"
#include "pamread.h"
#include "sshdconf.h"

struct option_help {
	const char *flags; /* "-c, --config FILE" */
	const char *text;
};

struct exit_help {
	const char *status; /* "0", or "*" for COMMAND's own */
	const char *text;
};

struct verb_help {
	const char *verb;
	const struct option_help *options; /* ends with {NULL} */
	const struct exit_help *exits;     /* ends with {NULL} */
};

#define OPT_CONFIG                                                             \
	{"-c, --config FILE",                                                  \
	 "the policy (default " DG_DEFAULT_CONFIG ")"}
#define OPT_PAM_DIR                                                            \
	{"--pam-dir DIR", "the PAM stacks (default " DG_PAM_CONF_DIR           \
			  ", then " DG_PAM_VENDOR_DIR ")"}
#define OPT_SSHD_CONFIG                                                        \
	{"--sshd-config FILE",                                                 \
	 "whether sshd runs its stack (default " DG_SSHDCONF_PATH ")"}
#define OPT_HELP {"-h, --help", "print this help and exit"}
#define OPT_JSON                                                               \
	{"--json", "print one JSON document on stdout instead (dropgroups(8), "\
		   "JSON OUTPUT)"}
#define EXIT_USAGE_LINE                                                        \
	{"2", "usage error: an unknown or repeated option, missing or extra "  \
	      "operands"}
#define EXIT_SYSTEM_LINE {"3", "the system failed: out of memory"}

/* lint's and explain's: the policy, and the stacks judged against it */
static const struct option_help stack_options[] = {
	OPT_CONFIG,
	OPT_PAM_DIR,
	OPT_SSHD_CONFIG,
	OPT_JSON,
	OPT_HELP,
	{NULL, NULL},
};

static const struct verb_help verbs[] = {
	{"check",
	 (const struct option_help[]){
		 OPT_CONFIG,
		 {"-d, --drop-in FILE",
		  "read FILE as a drop-in yet to be installed"},
		 {"--as NAME|PATH",
		  "with -d, the installed drop-in FILE stands in for; "
		  "without, the absolute path the policy will be "
		  "installed at"},
		 OPT_JSON,
		 OPT_HELP,
		 {NULL, NULL},
	 },
	 (const struct exit_help[]){
		 {"0", "the policy is valid (warnings allowed)"},
		 {"1", "the policy is invalid or insecure, or a look-up "
		       "failed"},
		 EXIT_USAGE_LINE,
		 EXIT_SYSTEM_LINE,
		 {NULL, NULL},
	 }},
	{"edit",
	 (const struct option_help[]){
		 OPT_CONFIG,
		 {"-d, --drop-in DROP-IN",
		  "edit the drop-in DROP-IN (NAME.conf) of the policy's "
		  "drop-in directory instead, created if absent"},
		 OPT_HELP,
		 {NULL, NULL},
	 },
	 (const struct exit_help[]){
		 {"0", "the edit was installed, or nothing changed"},
		 {"1", "the edit was refused or discarded, another edit holds "
		       "the lock, the policy is insecure, or not run as root"},
		 EXIT_USAGE_LINE,
		 {"3", "the system failed: out of memory, the copy could not "
		       "be made, the editor could not be started, or the "
		       "install failed (the installed file is then untouched)"},
		 {NULL, NULL},
	 }},
	{"lint",
	 stack_options,
	 (const struct exit_help[]){
		 {"0", "no error in the stacks (warnings allowed)"},
		 {"1", "the policy is invalid, or the stacks have an error"},
		 EXIT_USAGE_LINE,
		 EXIT_SYSTEM_LINE,
		 {NULL, NULL},
	 }},
	{"explain",
	 stack_options,
	 (const struct exit_help[]){
		 {"0", "explained, whether or not a rule matches"},
		 {"1", "the policy is invalid, a look-up failed, or USER does "
		       "not exist"},
		 EXIT_USAGE_LINE,
		 EXIT_SYSTEM_LINE,
		 {NULL, NULL},
	 }},
	{"probe",
	 (const struct option_help[]){
		 OPT_HELP,
		 {NULL, NULL},
	 },
	 (const struct exit_help[]){
		 {"0", "this kernel allows an unprivileged drop"},
		 {"1", "it does not"},
		 {"2", "usage error: an argument"},
		 {"3", "the probe's child could not be forked or run"},
		 {NULL, NULL},
	 }},
	{"run",
	 (const struct option_help[]){
		 OPT_CONFIG,
		 {"-s, --service SERVICE",
		  "the service rules match (default dropgroups)"},
		 OPT_HELP,
		 {NULL, NULL},
	 },
	 (const struct exit_help[]){
		 {"any", "COMMAND's own status, once it runs"},
		 {"1", "the policy is invalid, no rule matches, run is "
		       "set-user-ID, or the groups could not be set"},
		 EXIT_USAGE_LINE,
		 EXIT_SYSTEM_LINE,
		 {"126", "COMMAND was found but could not be executed"},
		 {"127", "COMMAND was not found"},
		 {NULL, NULL},
	 }},
	{"sync-kernel",
	 (const struct option_help[]){
		 OPT_CONFIG,
		 OPT_HELP,
		 {NULL, NULL},
	 },
	 (const struct exit_help[]){
		 {"0", "the list was written"},
		 {"1", "the policy is invalid, the sysctl could not be "
		       "written, or a restricting name may have gids it "
		       "could not list"},
		 EXIT_USAGE_LINE,
		 EXIT_SYSTEM_LINE,
		 {NULL, NULL},
	 }},
	{"audit",
	 (const struct option_help[]){
		 {"--sudoers PATH",
		  "read these sudoers files or directories (repeatable)"},
		 {"--xdev", "stay on the file system of each PATH"},
		 {"--emit-dropin FILE",
		  "also write a drop-in restricting what was found"},
		 {"--json", "print the report as JSON"},
		 OPT_HELP,
		 {NULL, NULL},
	 },
	 (const struct exit_help[]){
		 {"0", "nothing that dropping defeats was found"},
		 {"1", "something that dropping defeats was found"},
		 {"2", "usage error, or a path, a sudoers file or a "
		       "directory could not be read; no drop-in written"},
		 {NULL, NULL},
	 }},
	{"help",
	 (const struct option_help[]){
		 OPT_HELP,
		 {NULL, NULL},
	 },
	 (const struct exit_help[]){
		 {"0", "the help was printed"},
		 {"2", "usage error: an unknown COMMAND"},
		 {NULL, NULL},
	 }},
};

/* summary as the global usage indents it, with each continuation line
 * indented as the first is here. */
static void print_summary(FILE *out, const char *summary)
{
	fputs("  ", out);
	for (const char *c = summary; *c; c++) {
		fputc(*c, out);
		if (*c == '\n') {
			c += strspn(c + 1, " ");
			fputs("  ", out);
		}
	}
	fputc('\n', out);
}

/* The help is read in an 80-column terminal. */
#define WIDTH 79

/* "  TERM  text", the term padded to indent, text wrapped at WIDTH with
 * each further line indented as the first. */
static void print_item(FILE *out, const char *term, int indent,
		       const char *text)
{
	int col = fprintf(out, "  %-*s ", indent - 3, term);

	if (col > indent) { /* a term too long for its column */
		fprintf(out, "\n%*s", indent, "");
		col = indent;
	}
	for (const char *w = text; *w;) {
		int len = (int)strcspn(w, " ");

		if (col > indent && col + 1 + len > WIDTH) {
			fprintf(out, "\n%*s", indent, "");
			col = indent;
		} else if (col > indent) {
			fputc(' ', out);
			col++;
		}
		fprintf(out, "%.*s", len, w);
		col += len;
		w += len;
		w += strspn(w, " ");
	}
	fputc('\n', out);
}

int dg_help_verb(FILE *out, const char *verb, const char *synopsis,
		 const char *summary)
{
	for (size_t i = 0; i < sizeof(verbs) / sizeof(*verbs); i++) {
		const struct verb_help *v = &verbs[i];

		if (strcmp(v->verb, verb) != 0)
			continue;
		fprintf(out, "Usage: dropgroups %s%s%s\n\n", verb,
			*synopsis ? " " : "", synopsis);
		print_summary(out, summary);
		fprintf(out, "\nOptions:\n");
		for (const struct option_help *o = v->options; o->flags; o++)
			print_item(out, o->flags, 26, o->text);
		fprintf(out, "\nExit status:\n");
		for (const struct exit_help *e = v->exits; e->status; e++)
			print_item(out, e->status, 8, e->text);
		return 0;
	}
	return -ENOENT;
}
