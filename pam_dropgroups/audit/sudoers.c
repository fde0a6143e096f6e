/* dropgroups audit: the negative uses of groups in configuration files.
 *
 * sudoers(5): a user, runas or host list that excludes %group with "!",
 * directly or through a User_Alias, Runas_Alias or Host_Alias that
 * expands to one.  sudo judges %group against the process's own groups
 * by default (group_source = adaptive), so dropping the group defeats
 * the exclusion.
 *
 * Informational, judged from NSS membership, so not defeated by
 * dropping: sshd_config(5) DenyGroups (and what it Includes),
 * access.conf(5) "-:" lines (and access.d), pam_succeed_if(8)
 * "user notingroup" in /etc/pam.d.
 *
 * This is not a full sudoers parser: it reads what it needs to find the
 * excluded groups (aliases, includes, line continuations, comments) and
 * nothing else. */
#include <ctype.h>
#include <dirent.h>
#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "audit.h"
#include "nss.h"
#include "util.h"

#define MAX_FILE (16u << 20)
#define MAX_DEPTH 32

/* Read a whole file (not following a symlink when nofollow): 0, or
 * -errno. */
static int slurp(const char *path, bool nofollow, char **text)
{
	size_t len;
	int r = dg_read_file(path, nofollow ? O_NOFOLLOW : 0, MAX_FILE, text,
			     &len);

	/* a directory where a file should be is not readable, as before */
	return r == -EISDIR ? -EINVAL : r;
}

/* --- logical lines --- */

/* Does s start with the directive kw, followed by white space (as sudo
 * reads it: "#includes follow" is a comment)?  The length of kw, or 0. */
static size_t directive(const char *s, const char *kw)
{
	size_t l = strlen(kw);

	return !strncmp(s, kw, l) && isspace((unsigned char)s[l]) ? l : 0;
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

struct line {
	char *text; /* owned, comments and continuations removed */
	int lineno;
};

/* Split text into lines, joining "\\\n" continuations; hash: strip
 * comments starting at a '#' not followed by a digit (sudoers' #uid),
 * except a leading "#include". */
static int split_lines(char *text, bool sudoers, struct line **out,
		       size_t *nout)
{
	struct {
		struct line *v;
		size_t n, cap;
	} lines = {0};
	int lineno = 1;

	for (char *p = text; *p;) {
		int start = lineno;
		struct {
			char *v;
			size_t n, cap;
		} buf = {0};

		for (; *p && *p != '\n'; p++) {
			if (*p == '\\' && p[1] == '\n') {
				p++;
				lineno++;
				continue;
			}
			if (DG_APPEND(&buf, *p) < 0)
				goto oom;
		}
		if (*p == '\n') {
			p++;
			lineno++;
		}
		if (DG_APPEND(&buf, '\0') < 0)
			goto oom;
		/* comments */
		char *s = buf.v;
		while (isspace((unsigned char)*s))
			s++;
		bool is_dir = sudoers && (include_kw(s) || include_dir_kw(s));
		for (char *q = s + (is_dir ? 1 : 0); *q; q++) {
			if (*q == '\\' && q[1]) {
				q++;
				continue;
			}
			if (*q == '#' &&
			    !(sudoers && isdigit((unsigned char)q[1]))) {
				*q = '\0';
				break;
			}
		}
		struct line l = {.text = buf.v, .lineno = start};
		if (DG_APPEND(&lines, l) < 0)
			goto oom;
		continue;
	oom:
		free(buf.v);
		for (size_t i = 0; i < lines.n; i++)
			free(lines.v[i].text);
		free(lines.v);
		return -ENOMEM;
	}
	*out = lines.v;
	*nout = lines.n;
	return 0;
}

static void free_lines(struct line *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i].text);
	free(v);
}

/* --- sudoers --- */

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
		dev_t *dev;
		ino_t *ino;
		size_t n;
	} seen;
	struct dg_audit_ev *ev; /* where evidence goes */
	int errors;
	/* alias expansions left for the rule being judged: aliases that
	 * each name another several times would otherwise take time
	 * exponential in MAX_DEPTH */
	long budget;
	bool warned;  /* about this rule */
	bool lenient; /* the default files: EACCES is a warning */
};

#define EXPANSION_BUDGET 100000

static bool seen_file(struct sudo_state *s, const char *path)
{
	struct stat st;

	if (stat(path, &st) < 0)
		return false;
	for (size_t i = 0; i < s->seen.n; i++)
		if (s->seen.dev[i] == st.st_dev && s->seen.ino[i] == st.st_ino)
			return true;
	dev_t *d = realloc(s->seen.dev, (s->seen.n + 1) * sizeof(*d));
	if (!d)
		return false;
	s->seen.dev = d;
	ino_t *i = realloc(s->seen.ino, (s->seen.n + 1) * sizeof(*i));
	if (!i)
		return false;
	s->seen.ino = i;
	s->seen.dev[s->seen.n] = st.st_dev;
	s->seen.ino[s->seen.n] = st.st_ino;
	s->seen.n++;
	return false;
}

static char *trim(char *s)
{
	while (isspace((unsigned char)*s))
		s++;
	char *e = s + strlen(s);
	while (e > s && isspace((unsigned char)e[-1]))
		*--e = '\0';
	return s;
}

static int read_sudoers(struct sudo_state *s, const char *path, int depth,
			bool must_exist);

/* sudo reads the files of an include directory in lexical order, but
 * not those whose name ends in ~ or holds a '.'. */
static int read_includedir(struct sudo_state *s, const char *dir, int depth,
			   bool must_exist)
{
	struct dirent **names = NULL;
	int n = scandir(dir, &names, NULL, alphasort);

	if (n < 0) {
		int e = errno;
		if (e == ENOENT && !must_exist)
			return 0;
		warnx("audit: %s: %s", dir, strerror(e));
		/* the default files, unreadable to a user who is not root:
		 * a warning, like an unreadable directory of the tree */
		if (!(e == EACCES && s->lenient))
			s->errors++;
		return 0;
	}
	for (int i = 0; i < n; i++) {
		const char *nm = names[i]->d_name;
		size_t l = strlen(nm);
		if (nm[0] != '.' && !strchr(nm, '.') && l && nm[l - 1] != '~') {
			char *p;
			if (asprintf(&p, "%s/%s", dir, nm) < 0)
				return -ENOMEM;
			struct stat st;
			/* followed, as sudo follows a link (config management
			 * puts links here) */
			if (stat(p, &st) == 0 && S_ISREG(st.st_mode))
				(void)read_sudoers(s, p, depth + 1, true);
			free(p);
		}
		free(names[i]);
	}
	free(names);
	return 0;
}

/* The path of an include: unquoted, relative to the including file's
 * directory. */
static char *include_path(const char *from, char *arg)
{
	char *p = trim(arg), *out;
	size_t l = strlen(p);

	if (l >= 2 && p[0] == '"' && p[l - 1] == '"') {
		p[l - 1] = '\0';
		p++;
	}
	if (p[0] == '/')
		return strdup(p);
	const char *slash = strrchr(from, '/');
	if (!slash)
		return strdup(p);
	if (asprintf(&out, "%.*s/%s", (int)(slash - from), from, p) < 0)
		return NULL;
	return out;
}

static int add_aliases(struct sudo_state *s, enum alias_type type, char *defs)
{
	/* NAME = members : NAME2 = members */
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
			if (!(a.name = strdup(trim(d))) ||
			    !(a.members = strdup(trim(eq + 1))) ||
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

static int read_sudoers(struct sudo_state *s, const char *path, int depth,
			bool must_exist)
{
	_cleanup_free_ char *text = NULL;
	struct line *lines = NULL;
	size_t n = 0;
	struct stat st;
	int r;

	if (depth > MAX_DEPTH) {
		warnx("audit: %s: includes nested too deep", path);
		s->errors++;
		return 0;
	}
	if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
		return read_includedir(s, path, depth, must_exist);
	if (seen_file(s, path))
		return 0;
	r = slurp(path, false, &text); /* links followed, as sudo does */
	if (r < 0) {
		if (r == -ENOENT && !must_exist)
			return 0;
		warnx("audit: %s: %s", path, strerror(-r));
		if (!(r == -EACCES && s->lenient))
			s->errors++;
		return 0;
	}
	if ((r = split_lines(text, true, &lines, &n)) < 0)
		return r;
	for (size_t i = 0; i < n; i++) {
		char *l = trim(lines[i].text);
		static const struct {
			const char *kw;
			enum alias_type t;
		} kinds[] = {
			{"User_Alias", A_USER}, {"Runas_Alias", A_RUNAS},
			{"Host_Alias", A_HOST}, {"Cmnd_Alias", A_CMND},
			{"Cmd_Alias", A_CMND},
		};
		bool done = false;

		if (!*l)
			continue;
		size_t ikl;
		if ((ikl = include_dir_kw(l))) {
			_cleanup_free_ char *p = include_path(path, l + ikl);
			if (!p)
				goto oom;
			read_includedir(s, p, depth, true);
			continue;
		}
		if ((ikl = include_kw(l))) {
			_cleanup_free_ char *p = include_path(path, l + ikl);
			if (!p)
				goto oom;
			read_sudoers(s, p, depth + 1, true);
			continue;
		}
		for (size_t k = 0; k < sizeof(kinds) / sizeof(*kinds); k++) {
			size_t kl = strlen(kinds[k].kw);
			if (!strncmp(l, kinds[k].kw, kl) &&
			    isspace((unsigned char)l[kl])) {
				if (add_aliases(s, kinds[k].t, l + kl) < 0)
					goto oom;
				done = true;
				break;
			}
		}
		if (done)
			continue;
		struct rule ru = {.lineno = lines[i].lineno};
		if (!(ru.file = strdup(path)) || !(ru.text = strdup(l)) ||
		    DG_APPEND(&s->rules, ru) < 0) {
			free(ru.file);
			free(ru.text);
			goto oom;
		}
	}
	free_lines(lines, n);
	return 0;
oom:
	free_lines(lines, n);
	return -ENOMEM;
}

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

static int judge_list(struct sudo_state *s, const char *list, bool neg,
		      int depth, const struct rule *ru);

/* One item of a list: leading '!'s flip the sense; %group excluded is
 * the evidence; an alias is expanded. */
static int judge_item(struct sudo_state *s, char *item, bool neg, int depth,
		      const struct rule *ru)
{
	item = trim(item);
	while (*item == '!') {
		neg = !neg;
		item = trim(item + 1);
	}
	size_t l = strlen(item);
	if (l >= 2 && item[0] == '"' && item[l - 1] == '"') {
		item[l - 1] = '\0';
		item++;
	}
	if (item[0] == '%' && item[1] != ':') {
		if (!neg)
			return 0;
		/* unescape: \xHH is a byte (sudo's hex escape), \c is c */
		_cleanup_free_ char *name = strdup(item + 1);
		if (!name)
			return -ENOMEM;
		char *w = name;
		for (const char *q = item + 1; *q; q++) {
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
		return dg_audit_add_named(s->ev, name, DG_EV_SUDOERS, ru->file,
					  ru->lineno);
	}
	size_t from = 0;
	if (isupper((unsigned char)item[0]) && depth >= MAX_DEPTH &&
	    find_alias(s, item, &from)) {
		if (!s->warned) {
			warnx("audit: %s:%d: aliases nested too deep (a loop?); %s "
			      "is not expanded", ru->file, ru->lineno, item);
			s->errors++;
			s->warned = true;
		}
		return 0;
	}
	if (isupper((unsigned char)item[0]) && depth < MAX_DEPTH) {
		if (--s->budget < 0) {
			if (!s->warned) {
				s->warned = true;
				warnx("audit: %s:%d: aliases expand too far; the rest "
				      "of the rule is not read", ru->file, ru->lineno);
				s->errors++;
			}
			return 0;
		}
		for (const struct alias *a; (a = find_alias(s, item, &from));) {
			int r = judge_list(s, a->members, neg, depth + 1, ru);
			if (r < 0)
				return r;
		}
	}
	return 0;
}

/* A list of items separated by commas (and, on a rule's left side,
 * white space between the user and host lists). */
static int judge_list(struct sudo_state *s, const char *list, bool neg,
		      int depth, const struct rule *ru)
{
	_cleanup_free_ char *copy = strdup(list);
	char *start, *q;

	if (!copy)
		return -ENOMEM;
	bool quoted = false;

	/* "! x" is one item: glue a lone '!' to what follows */
	for (start = q = copy;; q++) {
		if (*q == '\\' && q[1]) {
			q++;
			continue;
		}
		if (*q == '"')
			quoted = !quoted; /* "%vi deo" is one item */
		bool sep = *q == '\0' || (!quoted && *q == ',');
		if (!sep && !quoted && isspace((unsigned char)*q)) {
			/* white space separates items unless it follows '!' or
			 * ',' or precedes ',' */
			char *a = q;
			while (isspace((unsigned char)*a))
				a++;
			char *b = q;
			while (b > start && isspace((unsigned char)b[-1]))
				b--;
			if (*a != ',' && *a != '\0' && b > start && b[-1] != '!')
				sep = true;
		}
		if (sep) {
			char end = *q;
			*q = '\0';
			int r = judge_item(s, start, neg, depth, ru);
			if (r < 0)
				return r;
			if (end == '\0')
				break;
			start = q + 1;
		}
	}
	return 0;
}

static int judge_rule(struct sudo_state *s, const struct rule *ru)
{
	_cleanup_free_ char *t = strdup(ru->text);
	char *eq;

	s->budget = EXPANSION_BUDGET;
	s->warned = false;
	if (!t)
		return -ENOMEM;
	if (!strncmp(t, "Defaults", 8)) {
		/* Defaults:users, Defaults>runas, Defaults@hosts */
		char c = t[8];
		if (c == ':' || c == '>' || c == '@') {
			/* the list ends at white space that neither follows
			 * a ',' or '!' nor precedes a ',' */
			char *list = t + 9, *e = list;
			bool quoted = false;
			for (; *e; e++) {
				if (*e == '\\' && e[1]) {
					e++;
					continue;
				}
				if (*e == '"')
					quoted = !quoted;
				if (quoted || !isspace((unsigned char)*e))
					continue;
				char *a = e, *b = e;
				while (isspace((unsigned char)*a))
					a++;
				while (b > list && isspace((unsigned char)b[-1]))
					b--;
				if (*a == ',' || b == list || b[-1] == ',' || b[-1] == '!') {
					e = a - 1;
					continue;
				}
				break;
			}
			*e = '\0';
			return judge_list(s, list, false, 0, ru);
		}
		return 0;
	}
	eq = strchr(t, '=');
	if (!eq)
		return 0;
	*eq = '\0';
	int r = judge_list(s, t, false, 0, ru);
	if (r < 0)
		return r;
	/* every (runas users : runas groups) on the right */
	for (char *p = eq + 1; (p = strchr(p, '('));) {
		char *close = strchr(p, ')');
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

int dg_audit_sudoers(struct dg_audit_ev *ev, const char *const *paths,
		     size_t n, bool explicit)
{
	struct sudo_state s = {.ev = ev, .lenient = !explicit};
	int r = 0;

	for (size_t i = 0; i < n && r >= 0; i++)
		r = read_sudoers(&s, paths[i], 0, explicit);
	for (size_t i = 0; i < s.rules.n && r >= 0; i++)
		r = judge_rule(&s, &s.rules.v[i]);
	for (size_t i = 0; i < s.aliases.n; i++) {
		free(s.aliases.v[i].name);
		free(s.aliases.v[i].members);
	}
	free(s.aliases.v);
	for (size_t i = 0; i < s.rules.n; i++) {
		free(s.rules.v[i].file);
		free(s.rules.v[i].text);
	}
	free(s.rules.v);
	free(s.seen.dev);
	free(s.seen.ino);
	if (r < 0)
		errx(2, "out of memory");
	return s.errors;
}

/* --- informational --- */

/* What the informational readers share: where evidence goes, the
 * errors so far, and the files an sshd_config and its Includes may
 * still name (a file that includes its own directory's glob would
 * otherwise be read a number of times exponential in MAX_DEPTH). */
struct info {
	struct dg_audit_ev *ev;
	int errors;
	int sshd_files_left;
};

/* Is name a group?  Through the project's reentrant look-up; an NSS
 * failure is a warning (this evidence is informational only). */
static bool is_group(struct info *in, const char *name)
{
	gid_t g;
	int r = dg_group_by_name(name, &g);

	if (r < 0) {
		warnx("audit: group %s: %s", name, strerror(-r));
		in->errors++;
	}
	return r > 0;
}

/* Is name a user (pam_access reads a bare name as a user first)? */
static bool is_user(struct info *in, const char *name)
{
	struct dg_user u = {0};
	int r = dg_user_lookup(name, &u);

	dg_user_free(&u);
	if (r < 0) {
		warnx("audit: user %s: %s", name, strerror(-r));
		in->errors++;
	}
	return r != 0; /* on a failure, do not call it a group */
}

/* read_info_file: PATH's lines, for the readers of the informational
 * files (sshd_config, access.conf, PAM stacks).  Returns 1 with *text
 * and *lines set, 0 when there is nothing to read: a missing file
 * silently, any other failure with a warning counted as an error unless
 * quiet, or -ENOMEM. */
static int read_info_file(struct info *in, const char *path, bool nofollow,
			  bool quiet, char **text, struct line **lines, size_t *n)
{
	int r = slurp(path, nofollow, text);

	if (r < 0) {
		if (r != -ENOENT && !quiet) {
			warnx("audit: %s: %s", path, strerror(-r));
			in->errors++;
		}
		return 0;
	}
	if ((r = split_lines(*text, false, lines, n)) < 0)
		return r;
	return 1;
}

static int sshd_file(struct info *in, const char *path, int depth)
{
	_cleanup_free_ char *text = NULL;
	struct line *lines = NULL;
	size_t n = 0;
	int r;

	if (--in->sshd_files_left < 0) {
		if (in->sshd_files_left == -1) {
			warnx("audit: %s: sshd_config Includes too many files", path);
			in->errors++;
		}
		return 0;
	}
	if ((r = read_info_file(in, path, false, false, &text, &lines, &n)) <= 0)
		return r;
	r = 0;
	for (size_t i = 0; i < n && r >= 0; i++) {
		char *save = NULL, *kw = strtok_r(lines[i].text, " \t=", &save);
		if (!kw)
			continue;
		if (!strcasecmp(kw, "Include") && depth < MAX_DEPTH) {
			for (char *a; (a = strtok_r(NULL, " \t", &save));) {
				_cleanup_free_ char *pat = NULL;
				glob_t g;
				if (a[0] == '/')
					pat = strdup(a);
				else if (asprintf(&pat, "/etc/ssh/%s", a) < 0)
					pat = NULL;
				if (!pat) {
					r = -ENOMEM;
					break;
				}
				if (glob(pat, 0, NULL, &g) == 0) {
					for (size_t k = 0; k < g.gl_pathc && r >= 0; k++)
						r = sshd_file(in, g.gl_pathv[k], depth + 1);
					globfree(&g);
				}
			}
		} else if (!strcasecmp(kw, "DenyGroups")) {
			for (char *a; r >= 0 && (a = strtok_r(NULL, " \t", &save));)
				r = dg_audit_add_named(in->ev, a, DG_EV_SSHD, path,
						       lines[i].lineno);
		}
	}
	free_lines(lines, n);
	return r;
}

static int access_file(struct info *in, const char *path)
{
	_cleanup_free_ char *text = NULL;
	struct line *lines = NULL;
	size_t n = 0;
	int r = read_info_file(in, path, false, false, &text, &lines, &n);

	if (r <= 0)
		return r;
	r = 0;
	for (size_t i = 0; i < n && r >= 0; i++) {
		char *l = trim(lines[i].text), *save = NULL;
		if (l[0] != '-')
			continue;
		l = trim(l + 1);
		if (*l != ':')
			continue;
		char *users = l + 1, *colon = strchr(users, ':');
		if (!colon)
			continue;
		*colon = '\0';
		for (char *tok = strtok_r(users, " \t,", &save); tok && r >= 0;
		     tok = strtok_r(NULL, " \t,", &save)) {
			size_t tl = strlen(tok);
			if (!strcmp(tok, "EXCEPT"))
				break;
			if (tok[0] == '(' && tl > 2 && tok[tl - 1] == ')') {
				tok[tl - 1] = '\0';
				r = dg_audit_add_named(in->ev, tok + 1, DG_EV_PAM_ACCESS, path,
						       lines[i].lineno);
			} else if (tok[0] == '@' && tok[1] && !strchr(tok + 1, '@') &&
				   is_group(in, tok + 1)) {
				r = dg_audit_add_named(in->ev, tok + 1, DG_EV_PAM_ACCESS, path,
						       lines[i].lineno);
			} else if (strcmp(tok, "ALL") && strcmp(tok, "LOCAL") &&
				   tok[0] != '@' && !is_user(in, tok) &&
				   is_group(in, tok)) {
				r = dg_audit_add_named(in->ev, tok, DG_EV_PAM_ACCESS, path,
						       lines[i].lineno);
			}
		}
	}
	free_lines(lines, n);
	return r;
}

static int pamd_file(struct info *in, const char *path)
{
	_cleanup_free_ char *text = NULL;
	struct line *lines = NULL;
	size_t n = 0;
	/* quiet: a link or not a file is the stack reader's business */
	int r = read_info_file(in, path, true, true, &text, &lines, &n);

	if (r <= 0)
		return r;
	r = 0;
	for (size_t i = 0; i < n && r >= 0; i++) {
		if (!strstr(lines[i].text, "pam_succeed_if"))
			continue;
		char *save = NULL, *prev2 = NULL, *prev = NULL;
		for (char *tok = strtok_r(lines[i].text, " \t", &save); tok && r >= 0;
		     tok = strtok_r(NULL, " \t", &save)) {
			if (prev2 && prev && !strcmp(prev2, "user") &&
			    !strcmp(prev, "notingroup")) {
				char *s2 = NULL;
				for (char *g = strtok_r(tok, ":", &s2); g && r >= 0;
				     g = strtok_r(NULL, ":", &s2))
					r = dg_audit_add_named(in->ev, g, DG_EV_SUCCEED_IF, path,
							       lines[i].lineno);
			}
			prev2 = prev;
			prev = tok;
		}
	}
	free_lines(lines, n);
	return r;
}

int dg_audit_informational(struct dg_audit_ev *ev)
{
	struct info in = {.ev = ev, .sshd_files_left = 1000};
	int r;
	glob_t g;

	r = sshd_file(&in, "/etc/ssh/sshd_config", 0);
	if (r >= 0)
		r = access_file(&in, "/etc/security/access.conf");
	if (r >= 0 && glob("/etc/security/access.d/*.conf", 0, NULL, &g) == 0) {
		for (size_t i = 0; i < g.gl_pathc && r >= 0; i++)
			r = access_file(&in, g.gl_pathv[i]);
		globfree(&g);
	}
	if (r >= 0 && glob("/etc/pam.d/*", 0, NULL, &g) == 0) {
		for (size_t i = 0; i < g.gl_pathc && r >= 0; i++)
			r = pamd_file(&in, g.gl_pathv[i]);
		globfree(&g);
	}
	if (r < 0)
		errx(2, "out of memory");
	return in.errors;
}
