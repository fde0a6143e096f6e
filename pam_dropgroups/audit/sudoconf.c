/* The sudoers file sudo reads: sudo.conf may name another one.
 *
 * "Plugin sudoers_policy sudoers.so sudoers_file=/etc/other" makes sudo
 * read /etc/other, not /etc/sudoers; an audit of /etc/sudoers would then
 * say nothing of the groups /etc/other excludes.  This reads sudo.conf
 * as sudo 1.9's sudo_conf.c does (lines from sudo_parseln), and only the
 * Plugin lines. */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "sudoconf.h"
#include "util.h"

#define MAX_FILE (1u << 20)
#define SUDOERS_DEFAULT "/etc/sudoers"

/* The next line of *p as sudo_parseln reads it, in place: a '#' cuts
 * it, or a backslash at its end (not a doubled one) joins the next; each
 * line's blanks trimmed.  *lineno: the number of its first line. */
static char *next_line(char **p, int *lineno, int *next)
{
	char *out = *p, *w = *p;
	bool continued;

	*lineno = *next;
	do {
		char *l = *p, *nl = strchr(l, '\n'), *hash;
		size_t len, lead;

		if (nl)
			*nl = '\0';
		*p = nl ? nl + 1 : l + strlen(l);
		len = strlen(l);
		while (len && l[len - 1] == '\r')
			l[--len] = '\0';
		if ((hash = strchr(l, '#')))
			len = (size_t)(hash - l);
		continued = !hash && len && l[len - 1] == '\\' &&
			    (len == 1 || l[len - 2] != '\\');
		if (continued)
			len--;
		else
			while (len && (l[len - 1] == ' ' || l[len - 1] == '\t'))
				len--;
		lead = strspn(l, " \t");
		lead = lead < len ? lead : len;
		memmove(w, l + lead, len - lead);
		w += len - lead;
		++*next;
	} while (continued && **p);
	*w = '\0';
	return out;
}

static bool sudoers_symbol(const char *sym)
{
	return !strcmp(sym, "sudoers_policy") || !strcmp(sym, "sudoers_io") ||
	       !strcmp(sym, "sudoers_audit");
}

/* One "Plugin SYMBOL PATH OPTIONS..." entry (after "Plugin"). */
static int plugin_line(char *entry, const char *path, int lineno,
		       bool *policy_seen, const char **file,
		       struct dg_diags *diags)
{
	char *save = NULL, *sym = strtok_r(entry, " \t", &save);
	char *so = strtok_r(NULL, " \t", &save);

	if (!sym || !so)
		return 0; /* not enough fields: sudo ignores the line */
	if (!sudoers_symbol(sym)) {
		dg_diag_add(diags, DG_ERROR, path, lineno,
			    "sudo loads the plugin %s, whose rules the audit "
			    "cannot read",
			    sym);
		return -EINVAL;
	}
	if (strcmp(sym, "sudoers_policy") || *policy_seen)
		return 0; /* sudo keeps the first policy plugin */
	*policy_seen = true;
	for (char *o; (o = strtok_r(NULL, " \t", &save));)
		if (!strncmp(o, "sudoers_file=", 13))
			*file = o + 13;
	return 0;
}

int dg_sudoconf_parse(const char *text, const char *path, char **file,
		      struct dg_diags *diags)
{
	_cleanup_free_ char *copy = strdup(text);
	const char *found = SUDOERS_DEFAULT;
	bool policy_seen = false;
	int lineno, next = 1, r = 0;

	if (!copy)
		return -ENOMEM;
	for (char *p = copy; *p;) {
		char *l = next_line(&p, &lineno, &next);

		if (strncasecmp(l, "Plugin", 6) || (l[6] != ' ' && l[6] != '\t'))
			continue;
		if (plugin_line(l + 6, path, lineno, &policy_seen, &found,
				diags) < 0)
			r = -EINVAL;
	}
	if (r < 0)
		return r;
	return (*file = strdup(found)) ? 0 : -ENOMEM;
}

int dg_sudoconf_read(const char *path, char **file, struct dg_diags *diags)
{
	_cleanup_free_ char *text = NULL;
	size_t len;
	int r = dg_util_read_file(path, 0, MAX_FILE, &text, &len);

	if (r == -ENOENT)
		return dg_sudoconf_parse("", path, file, diags);
	if (r == -ENOMEM)
		return r;
	if (r < 0) {
		dg_diag_add(diags, DG_ERROR, path, 0, "%s", strerror(-r));
		return r;
	}
	return dg_sudoconf_parse(text, path, file, diags);
}
