/* dropgroups audit: the groups sudoers(5) excludes.
 *
 * A user, runas or host list that excludes %group with "!", directly or
 * through a User_Alias, Runas_Alias or Host_Alias that expands to one.
 * sudo judges %group against the process's own groups by default
 * (group_source = adaptive), so dropping the group defeats the
 * exclusion.
 *
 * This is not a full sudoers parser: it reads what it needs to find the
 * excluded groups (aliases, includes, line continuations, comments) and
 * nothing else.  It returns what it found as data, evidence in a store
 * and each problem as a diagnostic, and prints nothing: the verb's main
 * decides what reaches the user. */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <sys/stat.h>

#include "lines.h"
#include "sudoers.h"
#include "sudolex.h"
#include "util.h"

#define MAX_DEPTH 32
/* alias expansions left for the rule being judged: aliases that each
 * name another several times would otherwise take time exponential in
 * MAX_DEPTH (the fuzz build lowers it: tests/fuzz/fuzz.mk) */
#ifndef EXPANSION_BUDGET
#define EXPANSION_BUDGET 100000
#endif

enum alias_type { A_USER, A_RUNAS, A_HOST, A_CMND };

struct alias {
	enum alias_type type;
	char *name;
	char *members; /* the text after '=' */
};

struct rule {
	char *file;
	int lineno;
	char *text;
};

struct file_id {
	dev_t dev;
	ino_t ino;
};

struct sudo_state {
	struct {
		struct alias *v;
		size_t n, cap;
	} aliases;
	struct {
		struct rule *v;
		size_t n, cap;
	} rules;
	struct {
		struct file_id *v;
		size_t n, cap;
	} seen;
	struct dg_evidence_store found; /* the caller's store gets it whole */
	struct dg_diags *diags;
	int first_error; /* -errno, or 0 */
	long budget;	 /* EXPANSION_BUDGET, for the rule being judged */
	bool warned;	 /* about this rule */
	bool lenient;	 /* the default files: EACCES is a warning */
	const char *shost; /* for "%h" in an include's path, or NULL */
};

static void failed(struct sudo_state *s, int e)
{
	if (!s->first_error)
		s->first_error = -e;
}

/* path could not be read (errno e). */
static void read_failed(struct sudo_state *s, const char *path, int e,
			bool must_exist)
{
	/* the default files, unreadable to a user who is not root: a
	 * warning, like an unreadable directory of the tree */
	bool warning = e == EACCES && s->lenient;

	if (e == ENOENT && !must_exist)
		return;
	dg_diag_add(s->diags, warning ? DG_WARNING : DG_ERROR, path, 0, "%s",
		    strerror(e));
	if (!warning)
		failed(s, e);
}

/* Has path (links followed) been read already?  An include loop ends. */
static bool seen_file(struct sudo_state *s, const char *path)
{
	struct stat st;
	struct file_id id;

	if (stat(path, &st) < 0)
		return false;
	for (size_t i = 0; i < s->seen.n; i++)
		if (s->seen.v[i].dev == st.st_dev && s->seen.v[i].ino == st.st_ino)
			return true;
	id = (struct file_id){.dev = st.st_dev, .ino = st.st_ino};
	(void)DG_APPEND(&s->seen, id); /* on ENOMEM: read again, depth ends it */
	return false;
}

/* --- reading the files --- */

/* Does s start with the directive kw, followed by white space or a
 * quoted path (as sudo's lexer reads it: "#includes follow" is a
 * comment, @include"/etc/x" an include)?  The length of kw, or 0. */
static size_t directive(const char *s, const char *kw)
{
	size_t l = strlen(kw);

	return !strncmp(s, kw, l) &&
			       (isspace((unsigned char)s[l]) || s[l] == '"')
		       ? l
		       : 0;
}

static size_t include_dir_kw(const char *s)
{
	size_t l = directive(s, "@includedir");

	return l ? l : directive(s, "#includedir");
}

static size_t include_kw(const char *s)
{
	size_t l = directive(s, "@include");

	return l ? l : directive(s, "#include");
}

static int read_sudoers(struct sudo_state *s, const char *path, int depth,
			bool must_exist);

/* sudo reads the files of an include directory in lexical order, but
 * not those whose name ends in ~ or holds a '.'. */
static bool included_name(const char *name)
{
	size_t l = strlen(name);

	return name[0] != '.' && !strchr(name, '.') && l && name[l - 1] != '~';
}

static int read_included_file(struct sudo_state *s, const char *dir,
			      const char *name, int depth)
{
	_cleanup_free_ char *p = NULL;
	struct stat st;

	if (asprintf(&p, "%s/%s", dir, name) < 0) {
		p = NULL;
		return -ENOMEM;
	}
	/* followed, as sudo follows a link (config management puts links
	 * here) */
	if (stat(p, &st) == 0 && S_ISREG(st.st_mode))
		return read_sudoers(s, p, depth + 1, true);
	return 0;
}

static int read_includedir(struct sudo_state *s, const char *dir, int depth,
			   bool must_exist)
{
	struct dirent **names = NULL;
	int n = scandir(dir, &names, NULL, alphasort), r = 0;

	if (n < 0) {
		read_failed(s, dir, errno, must_exist);
		return 0;
	}
	for (int i = 0; i < n; i++) {
		if (r >= 0 && included_name(names[i]->d_name))
			r = read_included_file(s, dir, names[i]->d_name, depth);
		free(names[i]);
	}
	free(names);
	return r;
}

/* p with each "%h" replaced by shost, as sudo 1.9 expands an include's
 * path (a "%" before anything else stays as it is): a new string, or
 * NULL with errno ENOMEM, or EINVAL when p has "%h" and shost is NULL. */
static char *expand_host(const char *p, const char *shost)
{
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);

	if (!f)
		return NULL;
	for (; *p; p++) {
		if (p[0] == '%' && p[1] == 'h' && !shost)
			break;
		if (p[0] == '%' && p[1] == 'h') {
			fputs(shost, f);
			p++;
		} else {
			fputc(*p, f);
		}
	}
	bool whole = !*p;
	if (fclose(f) != 0 || !whole) {
		free(out);
		errno = whole ? ENOMEM : EINVAL;
		return NULL;
	}
	return out;
}

/* The path an include names, in place in arg, as sudo's lexer takes it:
 * a quoted string, or the characters up to the first blank that no
 * backslash escapes ("\ " is a blank of the path).  A '#' is part of
 * the path; what follows the path is ignored, as sudo ignores it. */
static char *path_token(char *arg)
{
	char *p = arg, *out;

	while (isspace((unsigned char)*p))
		p++;
	if (*p == '"') {
		char *end = strchr(++p, '"');

		if (end)
			*end = '\0';
		return p;
	}
	out = p;
	for (char *q = p; *q && !isspace((unsigned char)*q); q++) {
		if (*q == '\\' && (q[1] == ' ' || q[1] == '\t'))
			q++;
		*out++ = *q;
	}
	*out = '\0';
	return p;
}

/* The path of an include: its token (path_token), "%h" expanded,
 * relative to the including file's directory.  NULL with errno set
 * (expand_host). */
static char *include_path(const char *from, char *arg, const char *shost)
{
	char *p = path_token(arg), *out;

	_cleanup_free_ char *x = expand_host(p, shost);
	if (!x)
		return NULL;
	const char *slash = strrchr(from, '/');
	if (x[0] == '/' || !slash)
		return DG_TAKE(x);
	if (asprintf(&out, "%.*s/%s", (int)(slash - from), from, x) < 0) {
		errno = ENOMEM;
		return NULL;
	}
	return out;
}

/* An @include(dir) or #include(dir) line, read: 1; another line: 0;
 * or -ENOMEM. */
static int read_include(struct sudo_state *s, const char *from, int lineno,
			char *l, int depth)
{
	size_t kl = include_dir_kw(l);
	bool dir = kl != 0;

	if (!dir && !(kl = include_kw(l)))
		return 0;
	_cleanup_free_ char *p = include_path(from, l + kl, s->shost);
	if (!p && errno == EINVAL) {
		dg_diag_add(s->diags, DG_ERROR, from, lineno,
			    "an include names the host (%%h), and the host "
			    "name is not known");
		failed(s, EINVAL);
		return 1;
	}
	if (!p)
		return -ENOMEM;
	int r = dir ? read_includedir(s, p, depth, true)
		    : read_sudoers(s, p, depth + 1, true);
	return r < 0 ? r : 1;
}

/* The "NAME = members : NAME2 = members" of an alias line. */
static int add_aliases(struct sudo_state *s, enum alias_type type, char *defs)
{
	for (char *d = defs; d && *d;) {
		char *colon = NULL;
		for (char *q = d; *q; q++) {
			if (*q == '\\' && q[1]) {
				q++;
				continue;
			}
			if (*q == ':') {
				colon = q;
				break;
			}
		}
		if (colon)
			*colon = '\0';
		char *eq = strchr(d, '=');
		if (eq) {
			*eq = '\0';
			struct alias a = {.type = type};
			if (!(a.name = strdup(dg_lines_trim(d))) ||
			    !(a.members = strdup(dg_lines_trim(eq + 1))) ||
			    DG_APPEND(&s->aliases, a) < 0) {
				free(a.name);
				free(a.members);
				return -ENOMEM;
			}
		}
		d = colon ? colon + 1 : NULL;
	}
	return 0;
}

/* An alias line, read: 1; another line: 0; or -ENOMEM. */
static int read_alias(struct sudo_state *s, char *l)
{
	static const struct {
		const char *kw;
		enum alias_type t;
	} kinds[] = {
		{"User_Alias", A_USER}, {"Runas_Alias", A_RUNAS},
		{"Host_Alias", A_HOST}, {"Cmnd_Alias", A_CMND},
		{"Cmd_Alias", A_CMND},
	};

	for (size_t k = 0; k < sizeof(kinds) / sizeof(*kinds); k++) {
		size_t kl = strlen(kinds[k].kw);
		if (!strncmp(l, kinds[k].kw, kl) && isspace((unsigned char)l[kl])) {
			int r = add_aliases(s, kinds[k].t, l + kl);
			return r < 0 ? r : 1;
		}
	}
	return 0;
}

/* One logical line of path: an include, an alias, or a rule kept to be
 * judged once every alias is known. */
static int read_line(struct sudo_state *s, const char *path,
		     struct dg_line *line, int depth)
{
	char *l = line->text;
	int r;

	/* comments are gone (sudolex.c); an include's path may hold a '#'
	 * (path_token reads it) */
	l = dg_lines_trim(l);
	if (!*l)
		return 0;
	if ((r = read_include(s, path, line->lineno, l, depth)) != 0 ||
	    (r = read_alias(s, l)) != 0)
		return r < 0 ? r : 0;
	struct rule ru = {.lineno = line->lineno};
	if (!(ru.file = strdup(path)) || !(ru.text = strdup(l)) ||
	    DG_APPEND(&s->rules, ru) < 0) {
		free(ru.file);
		free(ru.text);
		return -ENOMEM;
	}
	return 0;
}

static int read_sudoers(struct sudo_state *s, const char *path, int depth,
			bool must_exist)
{
	_cleanup_lines_ struct dg_lines lines = {0};
	struct stat st;
	int r;

	if (depth > MAX_DEPTH) {
		dg_diag_add(s->diags, DG_ERROR, path, 0,
			    "includes nested too deep");
		failed(s, ELOOP);
		return 0;
	}
	if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
		return read_includedir(s, path, depth, must_exist);
	if (seen_file(s, path))
		return 0;
	r = dg_sudolex_read(path, &lines); /* links followed, as sudo does */
	if (r == -ENOMEM)
		return r;
	if (r < 0) {
		read_failed(s, path, -r, must_exist);
		return 0;
	}
	for (size_t i = 0; i < lines.n && r >= 0; i++)
		r = read_line(s, path, &lines.v[i], depth);
	return r;
}

/* --- judging the rules --- */

/* The next alias called name from *from on (not a Cmnd_Alias): sudo
 * keeps one per type, so a User_Alias and a Host_Alias may share a name,
 * and each is expanded. */
static const struct alias *find_alias(const struct sudo_state *s,
				      const char *name, size_t *from)
{
	for (size_t i = *from; i < s->aliases.n; i++) {
		const struct alias *a = &s->aliases.v[i];
		if (a->type == A_CMND)
			continue;
		if (!strcmp(a->name, name)) {
			*from = i + 1;
			return a;
		}
	}
	return NULL;
}

/* Does the white space at q, in an item that starts at start, end that
 * item?  Not when nothing or a '!' precedes it ("! %x" is one item), nor
 * when a ',' or the end follows it; and where commas do not end items
 * (in a Defaults list, whose end is sought), not after a ',' either. */
static bool space_ends_item(const char *start, const char *q, bool commas_end)
{
	const char *a = q, *b = q;

	while (isspace((unsigned char)*a))
		a++;
	while (b > start && isspace((unsigned char)b[-1]))
		b--;
	if (*a == ',' || *a == '\0' || b == start || b[-1] == '!')
		return false;
	return commas_end || b[-1] != ',';
}

/* Where the sudoers item that starts at start ends: the NUL, a ','
 * outside quotes when commas_end, or white space outside quotes that
 * ends it.  A backslash escapes the next byte; "%vi deo" is one item.
 * The one answer to "where does an item end", for a rule's lists and
 * for the end of a Defaults list. */
static char *item_end(char *start, bool commas_end)
{
	bool quoted = false;

	for (char *q = start;; q++) {
		if (*q == '\\' && q[1]) {
			q++;
			continue;
		}
		if (*q == '"')
			quoted = !quoted;
		if (*q == '\0' || (commas_end && !quoted && *q == ','))
			return q;
		if (!quoted && isspace((unsigned char)*q) &&
		    space_ends_item(start, q, commas_end))
			return q;
	}
}

/* A problem with rule ru, said once per rule: an error. */
static void rule_problem(struct sudo_state *s, const struct rule *ru, int e,
			 const char *alias)
{
	if (s->warned)
		return;
	s->warned = true;
	if (alias)
		dg_diag_add(s->diags, DG_ERROR, ru->file, ru->lineno,
			    "aliases nested too deep (a loop?); %s is not "
			    "expanded",
			    alias);
	else
		dg_diag_add(s->diags, DG_ERROR, ru->file, ru->lineno,
			    "aliases expand too far; the rest of the rule is "
			    "not read");
	failed(s, e);
}

static int judge_list(struct sudo_state *s, const char *list, bool neg,
		      int depth, const struct rule *ru);

/* An item that names an alias: each alias of that name expanded. */
static int expand_alias(struct sudo_state *s, const char *item, bool neg,
			int depth, const struct rule *ru)
{
	size_t from = 0;

	if (depth >= MAX_DEPTH) {
		if (find_alias(s, item, &from))
			rule_problem(s, ru, ELOOP, item);
		return 0;
	}
	if (--s->budget < 0) {
		rule_problem(s, ru, E2BIG, NULL);
		return 0;
	}
	for (const struct alias *a; (a = find_alias(s, item, &from));) {
		int r = judge_list(s, a->members, neg, depth + 1, ru);
		if (r < 0)
			return r;
	}
	return 0;
}

/* The group name of a "%name" item: \xHH is a byte (sudo's hex escape),
 * \c is c.  NULL on ENOMEM. */
static char *unescape_group(const char *text)
{
	char *name = strdup(text), *w = name;

	if (!name)
		return NULL;
	for (const char *q = text; *q; q++) {
		if (*q == '\\' && q[1] == 'x' && isxdigit((unsigned char)q[2]) &&
		    isxdigit((unsigned char)q[3])) {
			char hex[3] = {q[2], q[3], '\0'};
			*w++ = (char)strtoul(hex, NULL, 16);
			q += 3;
			continue;
		}
		if (*q == '\\' && q[1])
			q++;
		*w++ = *q;
	}
	*w = '\0';
	return name;
}

/* One item of a list: leading '!'s flip the sense; %group excluded is
 * the evidence; an alias is expanded. */
static int judge_item(struct sudo_state *s, char *item, bool neg, int depth,
		      const struct rule *ru)
{
	item = dg_lines_trim(item);
	while (*item == '!') {
		neg = !neg;
		item = dg_lines_trim(item + 1);
	}
	size_t l = strlen(item);
	if (l >= 2 && item[0] == '"' && item[l - 1] == '"') {
		item[l - 1] = '\0';
		item++;
	}
	if (item[0] == '%' && item[1] != ':') {
		if (!neg)
			return 0;
		_cleanup_free_ char *name = unescape_group(item + 1);
		if (!name)
			return -ENOMEM;
		return dg_evidence_add_named(&s->found, name, DG_EV_SUDOERS,
					     ru->file, ru->lineno);
	}
	if (isupper((unsigned char)item[0]))
		return expand_alias(s, item, neg, depth, ru);
	return 0;
}

/* A list of items separated by commas (and, on a rule's left side,
 * white space between the user and host lists). */
static int judge_list(struct sudo_state *s, const char *list, bool neg,
		      int depth, const struct rule *ru)
{
	_cleanup_free_ char *copy = strdup(list);

	if (!copy)
		return -ENOMEM;
	for (char *start = copy;;) {
		char *q = item_end(start, true), end = *q;
		int r;

		*q = '\0';
		if ((r = judge_item(s, start, neg, depth, ru)) < 0)
			return r;
		if (end == '\0')
			return 0;
		start = q + 1;
	}
}

/* Defaults:users, Defaults>runas, Defaults@hosts: the list, up to the
 * white space that ends it. */
static int judge_defaults(struct sudo_state *s, char *t, const struct rule *ru)
{
	char c = t[8], *list = t + 9;

	if (c != ':' && c != '>' && c != '@')
		return 0;
	*item_end(list, false) = '\0';
	return judge_list(s, list, false, 0, ru);
}

/* Every (runas users : runas groups) on a rule's right side. */
static int judge_runas(struct sudo_state *s, char *right,
		       const struct rule *ru)
{
	for (char *p = right; (p = strchr(p, '('));) {
		char *close = strchr(p, ')');
		int r;

		if (!close)
			break;
		*close = '\0';
		char *colon = strchr(p + 1, ':');
		if (colon)
			*colon = '\0';
		if ((r = judge_list(s, p + 1, false, 0, ru)) < 0)
			return r;
		p = close + 1;
	}
	return 0;
}

static int same_group(const void *a, const void *b)
{
	const struct dg_evidence *x = a, *y = b;

	if (x->by_gid != y->by_gid)
		return x->by_gid ? -1 : 1;
	if (x->by_gid)
		return x->gid < y->gid ? -1 : x->gid > y->gid;
	return strcmp(x->name, y->name);
}

/* One piece of evidence per group for the rule whose evidence starts at
 * from: each is at the rule's own line, and an alias that expands to a
 * group many times (named twice, or in a loop, up to the expansion
 * budget) would otherwise count as tens of thousands of places. */
static void one_per_group(struct dg_evidence_store *ev, size_t from)
{
	size_t w = from;

	if (ev->n - from < 2)
		return;
	qsort(ev->v + from, ev->n - from, sizeof(*ev->v), same_group);
	for (size_t i = from; i < ev->n; i++) {
		if (w > from && same_group(&ev->v[w - 1], &ev->v[i]) == 0) {
			free(ev->v[i].name);
			free(ev->v[i].where);
			continue;
		}
		ev->v[w++] = ev->v[i];
	}
	ev->n = w;
}

static int judge_rule(struct sudo_state *s, const struct rule *ru)
{
	_cleanup_free_ char *t = strdup(ru->text);
	size_t from = s->found.n;
	char *eq;
	int r;

	s->budget = EXPANSION_BUDGET;
	s->warned = false;
	if (!t)
		return -ENOMEM;
	if (!strncmp(t, "Defaults", 8)) {
		r = judge_defaults(s, t, ru);
	} else if ((eq = strchr(t, '='))) {
		*eq = '\0';
		r = judge_list(s, t, false, 0, ru);
		if (r >= 0)
			r = judge_runas(s, eq + 1, ru);
	} else {
		r = 0;
	}
	one_per_group(&s->found, from);
	return r;
}

/* --- pam_session --- */

/* Does the Defaults item set pam_session: 1 on, 0 off (an odd number of
 * '!'s, as sudo's lexer counts them, blanks between them allowed), -1
 * another item.  "pam_session=false" sudo refuses ("does not take a
 * value"), and then runs nothing: not an item that sets it. */
static int pam_session_item(char *item)
{
	bool neg = false;

	item = dg_lines_trim(item);
	while (*item == '!') {
		neg = !neg;
		item = dg_lines_trim(item + 1);
	}
	return strcmp(item, "pam_session") ? -1 : !neg;
}

/* What the Defaults line t (cut in place) sets pam_session to, as
 * pam_session_item, the last item that does winning; -1 for a line that
 * sets no pam_session or is no Defaults line.  *scope: 0 for every
 * session, or the binding's ':', '>', '@' or '!' (users, runas users,
 * hosts, commands); *word: the length of "Defaults" and its binding. */
static int defaults_session(char *t, char *scope, size_t *word)
{
	char *list;
	int set = -1;

	if (strncmp(t, "Defaults", 8) != 0)
		return -1;
	*scope = t[8] && strchr(":>@!", t[8]) ? t[8] : 0;
	if (*scope)
		list = item_end(t + 9, false);
	else if (isspace((unsigned char)t[8]))
		list = t + 8;
	else
		return -1;
	*word = (size_t)(list - t);
	for (char *start = list;;) {
		char *q = item_end(start, true), end = *q;
		int v;

		*q = '\0';
		if ((v = pam_session_item(start)) >= 0)
			set = v;
		if (end == '\0')
			return set;
		start = q + 1;
	}
}

/* Where the rules turn pam_session off, into out: the last Defaults
 * line for every session that sets it, if that turns it off; else the
 * first scoped one that turns it off (sudo applies a scoped Defaults
 * after the global ones).  0 or -ENOMEM. */
static int find_session_off(const struct sudo_state *s,
			    struct dg_sudoers_session *out)
{
	const struct rule *global = NULL, *scoped = NULL;
	size_t global_word = 0, scoped_word = 0;
	char scoped_c = 0;

	for (size_t i = 0; i < s->rules.n; i++) {
		_cleanup_free_ char *t = strdup(s->rules.v[i].text);
		size_t word;
		char scope;
		int v;

		if (!t)
			return -ENOMEM;
		if ((v = defaults_session(t, &scope, &word)) < 0)
			continue;
		if (!scope) {
			global = v ? NULL : &s->rules.v[i];
			global_word = word;
		} else if (!v && !scoped) {
			scoped = &s->rules.v[i];
			scoped_word = word;
			scoped_c = scope;
		}
	}
	const struct rule *ru = global ? global : scoped;
	if (!ru)
		return 0;
	out->scope = global ? 0 : scoped_c;
	out->line = ru->lineno;
	if (!(out->file = strdup(ru->file)) ||
	    !(out->defaults = strndup(ru->text,
				      global ? global_word : scoped_word))) {
		dg_sudoers_session_free(out);
		return -ENOMEM;
	}
	return 0;
}

void dg_sudoers_session_free(struct dg_sudoers_session *s)
{
	free(s->file);
	free(s->defaults);
	*s = (struct dg_sudoers_session){0};
}

static void state_free(struct sudo_state *s)
{
	for (size_t i = 0; i < s->aliases.n; i++) {
		free(s->aliases.v[i].name);
		free(s->aliases.v[i].members);
	}
	free(s->aliases.v);
	for (size_t i = 0; i < s->rules.n; i++) {
		free(s->rules.v[i].file);
		free(s->rules.v[i].text);
	}
	free(s->rules.v);
	free(s->seen.v);
	dg_evidence_free(&s->found);
}

static struct sudo_state state_of(const struct dg_sudoers_how *how,
				  struct dg_diags *diags)
{
	return (struct sudo_state){.diags = diags,
				   .lenient = !how->explicit && !how->strict,
				   .shost = how->shost};
}

static int read_all(struct sudo_state *s, const char *const *paths,
		    size_t n, const struct dg_sudoers_how *how)
{
	int r = 0;

	for (size_t i = 0; i < n && r >= 0; i++)
		r = read_sudoers(s, paths[i], 0, how->explicit);
	return r;
}

int dg_sudoers_read(const char *const *paths, size_t n,
		    const struct dg_sudoers_how *how,
		    struct dg_evidence_store *ev, struct dg_diags *diags)
{
	struct sudo_state s = state_of(how, diags);
	int r = read_all(&s, paths, n, how);

	for (size_t i = 0; i < s.rules.n && r >= 0; i++)
		r = judge_rule(&s, &s.rules.v[i]);
	if (r >= 0)
		r = dg_evidence_merge(ev, &s.found);
	state_free(&s);
	return r < 0 ? r : s.first_error;
}

int dg_sudoers_pam_session(const char *const *paths, size_t n,
			   const struct dg_sudoers_how *how,
			   struct dg_sudoers_session *out,
			   struct dg_diags *diags)
{
	struct sudo_state s = state_of(how, diags);
	int r = read_all(&s, paths, n, how);

	*out = (struct dg_sudoers_session){0};
	if (r >= 0)
		r = find_session_off(&s, out);
	state_free(&s);
	return r < 0 ? r : s.first_error;
}

const char *dg_sudoers_short_host(struct utsname *uts)
{
	if (uname(uts) < 0 || !uts->nodename[0])
		return NULL;
	uts->nodename[strcspn(uts->nodename, ".")] = '\0';
	return uts->nodename;
}
