/* dropgroups audit (dropgroups(8)): the verb's main.  It reads
 * the options, calls the readers of evidence (the file tree walk, the
 * sudoers reader, the informational files), prints the problems they
 * return, writes the report and the drop-in, and chooses the exit
 * status.  It is the only code of audit/ that prints or exits: the rest
 * returns data and -errno, so that it can be unit-tested. */
#include <err.h>
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include "audit.h"
#include "dropin.h"
#include "groups.h"
#include "informational.h"
#include "report.h"
#include "strlist.h"
#include "sudoconf.h"
#include "sudoers.h"
#include "util.h"
#include "walk.h"

#define EXIT_NONE 0
#define EXIT_FOUND 1
#define EXIT_ERROR 2

struct audit_options {
	struct dg_strlist sudoers;
	const char *dropin;
	bool json, xdev;
	char **paths; /* the PATH arguments, npaths of them */
	size_t npaths;
};

/* The options: -1 to go on, or the exit status to return. */
static int parse_options(int argc, char **argv, struct audit_options *o,
			 void (*help)(void))
{
	static const struct option longopts[] = {
		{"sudoers", required_argument, NULL, 's'},
		{"xdev", no_argument, NULL, 'x'},
		{"emit-dropin", required_argument, NULL, 'e'},
		{"json", no_argument, NULL, 'j'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	int c;

	optind = 1;
	while ((c = getopt_long(argc, argv, "+h", longopts, NULL)) != -1) {
		if (c == 's' && dg_strlist_add(&o->sudoers, optarg) < 0) {
			warnx("out of memory");
			return EXIT_ERROR;
		} else if (c == 'x') {
			o->xdev = true;
		} else if (c == 'e' && o->dropin) {
			warnx("--emit-dropin may be given only once");
			fprintf(stderr, "Try 'dropgroups --help'.\n");
			return EXIT_ERROR;
		} else if (c == 'e') {
			o->dropin = optarg;
		} else if (c == 'j') {
			o->json = true;
		} else if (c == 'h') {
			help();
			return EXIT_NONE;
		} else if (c != 's') {
			fprintf(stderr, "Try 'dropgroups --help'.\n");
			return EXIT_ERROR;
		}
	}
	o->paths = argv + optind;
	o->npaths = (size_t)(argc - optind);
	return -1;
}

/* Print the problems a step returned, as "audit: FILE[:LINE]: message",
 * and empty the list.  false: one was lost to ENOMEM. */
static bool print_diags(struct dg_diags *diags)
{
	bool whole = !diags->lost;

	for (size_t i = 0; i < diags->n; i++) {
		_cleanup_free_ char *line = dg_diag_format(&diags->v[i]);
		if (!line) {
			whole = false;
			continue;
		}
		warnx("audit: %s", line);
	}
	dg_diag_free(diags);
	return whole;
}

/* The sudoers files sudo reads: the one sudo.conf names (by default
 * /etc/sudoers), and /etc/sudoers.d.  0, or the first error's -errno. */
static int read_default_sudoers(const struct dg_sudoers_how *how,
				struct dg_evidence_store *ev,
				struct dg_diags *diags)
{
	_cleanup_free_ char *file = NULL;
	int conf = dg_sudoconf_read("/etc/sudo.conf", &file, diags), r;

	if (conf == -ENOMEM)
		return conf;
	const char *paths[] = {file ? file : "/etc/sudoers", "/etc/sudoers.d"};
	r = dg_sudoers_read(paths, 2, how, ev, diags);
	return conf < 0 && r >= 0 ? conf : r;
}

/* Every reader of evidence, in turn, each one's problems printed when it
 * is done.  A drop-in is written only from an audit that read every
 * file, so with --emit-dropin what would be a warning (an unreadable
 * directory) is an error.  0, an error's -errno, or -ENOMEM. */
static int gather(const struct audit_options *o, struct dg_evidence_store *ev)
{
	static const char *const def_path[] = {"/"};
	struct dg_diags diags = {0};
	struct utsname uts;
	struct dg_sudoers_how how = {.explicit = o->sudoers.n != 0,
				     .strict = o->dropin != NULL,
				     .shost = dg_sudoers_short_host(&uts)};
	int err = 0, r;

	if (o->npaths)
		r = dg_walk_paths((const char *const *)o->paths, o->npaths,
				  o->xdev, how.strict, ev, &diags);
	else
		r = dg_walk_paths(def_path, 1, o->xdev, how.strict, ev, &diags);
	if (!print_diags(&diags) || r == -ENOMEM)
		return -ENOMEM;
	err = r < 0 ? r : err;
	if (how.explicit)
		r = dg_sudoers_read((const char *const *)o->sudoers.v,
				    o->sudoers.n, &how, ev, &diags);
	else
		r = read_default_sudoers(&how, ev, &diags);
	if (!print_diags(&diags) || r == -ENOMEM)
		return -ENOMEM;
	err = r < 0 ? r : err;
	r = dg_informational_read(ev, &diags);
	if (!print_diags(&diags) || r == -ENOMEM)
		return -ENOMEM;
	return r < 0 ? r : err;
}

/* The report, and the drop-in when asked and every file could be read
 * (errors: gather's result): 0, or -errno. */
static int report(const struct audit_options *o, const struct dg_groups *g,
		  int errors)
{
	struct dg_diags diags = {0};
	int r;

	if (o->json)
		dg_report_json(stdout, g);
	else
		dg_report_text(stdout, g);
	if (fflush(stdout) != 0 || ferror(stdout)) {
		warn("audit: writing the report");
		return -EIO;
	}
	if (!o->dropin)
		return 0;
	if (errors < 0) {
		/* a drop-in without what the unread file restricts would let
		 * drop = "*" take that group: keep the one there was */
		warnx("audit: %s: not written, as not every file could be "
		      "read (above); it is left as it was",
		      o->dropin);
		return errors;
	}
	r = dg_dropin_write(o->dropin, g, &diags);
	if (!print_diags(&diags))
		return -ENOMEM;
	return r;
}

int dg_audit_main(int argc, char **argv, void (*help)(void))
{
	struct audit_options o = {0};
	struct dg_evidence_store ev = {0};
	struct dg_diags diags = {0};
	struct dg_groups g = {0};
	int status = parse_options(argc, argv, &o, help), found, errors, r;

	if (status >= 0) {
		dg_strlist_free(&o.sudoers);
		return status;
	}
	errors = gather(&o, &ev);
	dg_strlist_free(&o.sudoers);
	r = errors == -ENOMEM ? errors : dg_groups_build(&ev, &g, &diags);
	if (!print_diags(&diags))
		r = -ENOMEM;
	if (r != -ENOMEM) {
		/* a look-up that failed (r) left rows without a name or a
		 * gid: no drop-in from them either */
		int rr = report(&o, &g, errors < 0 ? errors : r);
		r = rr < 0 ? rr : r;
	}
	found = dg_groups_any_defeated(&g);
	dg_groups_free(&g);
	dg_evidence_free(&ev);
	if (r == -ENOMEM) {
		warnx("out of memory");
		return EXIT_ERROR;
	}
	if (r < 0 || errors < 0)
		return EXIT_ERROR;
	return found ? EXIT_FOUND : EXIT_NONE;
}
