/* Does sshd run its PAM stack?  sshd_config read as OpenSSH 9.2's sshd
 * reads it when it starts (servconf.c: load_server_config,
 * parse_server_config_depth, process_server_config_line_depth; misc.c:
 * strdelim, argv_split), for UsePAM, Include and Match alone. */
#include "sshdconf.h"

#include <errno.h>
#include <dirent.h>
#include <glob.h>
#include <sys/stat.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "strlist.h"
#include "util.h"

/* sshd's SERVCONF_MAX_DEPTH: a file included deeper is refused */
#define MAX_DEPTH 16
/* sshd has no limit; a configuration larger than this is not judged */
#define MAX_BYTES (16u << 20)
/* what sshd's strdelim splits words at (with a quote, and one "=") */
#define BLANKS " \t\r\n"

struct reader {
	const char *sshdir;
	struct dg_sshdconf *out;
	int use_pam; /* -1 until an active line sets it */
	bool stop;   /* sshd refuses the configuration: out says where */
	int depth;   /* of the file being read: 0 is the main file */
	const char *chain[MAX_DEPTH + 1]; /* the files being read */
};

/* One file being read: Match state is shared with the including file
 * (and restored after it), as sshd shares it. */
struct file {
	const char *path;
	bool nevermatch; /* included from an inactive Match block */
	bool *active;    /* the lines apply at start (not in a Match) */
};

/* sshd refuses the configuration at file:line (line 0: the whole file);
 * never shows a word of the file, which may be anyone's. */
static int refuse(struct reader *rd, const char *file, int line,
		  const char *fmt, ...) __attribute__((format(printf, 4, 5)));

static int refuse(struct reader *rd, const char *file, int line,
		  const char *fmt, ...)
{
	struct dg_sshdconf *out = rd->out;
	va_list ap;

	free(out->file);
	free(out->why);
	out->pam = DG_SSHDCONF_UNKNOWN;
	out->line = line;
	out->file = strdup(file);
	va_start(ap, fmt);
	out->why = dg_util_vasprintf(fmt, ap);
	va_end(ap);
	rd->stop = true;
	return out->file && out->why ? 0 : -ENOMEM;
}

/* The text sshd parses: each line without its leading blanks, and cut
 * at a NUL byte (with its newline: the next line joins it), as
 * load_server_config's getline and strlen leave it.  NULL: ENOMEM. */
static char *sshd_text(const char *text, size_t len)
{
	char *buf = malloc(len + 1), *w = buf;
	size_t i = 0;

	if (!buf)
		return NULL;
	while (i < len) {
		const char *nl = memchr(text + i, '\n', len - i);
		size_t end = nl ? (size_t)(nl - text) + 1 : len, k = i;

		while (k < end && strchr(" \t\r", text[k]) && text[k])
			k++;
		for (; k < end && text[k]; k++)
			*w++ = text[k];
		i = end;
	}
	*w = '\0';
	return buf;
}

/* The next word of *s as strdelim splits a keyword's line: up to a
 * blank or one "=" (and the blanks after it), or a quoted part.  NULL
 * past the end, or when a quote does not close. */
static char *next_word(char **s)
{
	char *word = *s, *p;
	bool equals;

	if (!word)
		return NULL;
	if (!(p = strpbrk(word, BLANKS "\"="))) {
		*s = NULL;
		return word;
	}
	if (*p == '"') {
		memmove(p, p + 1, strlen(p));
		if (!(p = strchr(p, '"'))) {
			*s = NULL;
			return NULL;
		}
		*p = '\0';
		*s = p + 1 + strspn(p + 1, BLANKS);
		return word;
	}
	equals = *p == '=';
	*p = '\0';
	p += 1 + strspn(p + 1, BLANKS);
	if (!equals && *p == '=')
		p += 1 + strspn(p + 1, BLANKS);
	*s = p;
	return word;
}

/* One argument of s from i, as argv_split copies it: quotes removed,
 * backslash escapes of quotes, backslash and (unquoted) space.  *i is
 * left at the blank or NUL that ends it.  -EINVAL: a quote does not
 * close. */
static int one_arg(const char *s, size_t *i, struct dg_strlist *out)
{
	_cleanup_free_ char *arg = malloc(strlen(s + *i) + 1);
	size_t j = 0;
	char quote = 0;

	if (!arg)
		return -ENOMEM;
	for (; s[*i]; (*i)++) {
		char c = s[*i], next = s[*i + 1];

		if (c == '\\') {
			if (next == '\'' || next == '"' || next == '\\' ||
			    (!quote && next == ' '))
				(*i)++;
			arg[j++] = s[*i];
		} else if (!quote && (c == ' ' || c == '\t')) {
			break;
		} else if (!quote && (c == '"' || c == '\'')) {
			quote = c;
		} else if (quote && c == quote) {
			quote = 0;
		} else {
			arg[j++] = c;
		}
	}
	arg[j] = '\0';
	if (quote)
		return -EINVAL;
	return dg_strlist_add(out, arg);
}

/* The arguments after a keyword, as argv_split splits them: at blanks,
 * up to a word that starts with "#".  0, -EINVAL or -ENOMEM. */
static int split_args(const char *s, struct dg_strlist *out)
{
	for (size_t i = 0; s[i]; i++) {
		int r;

		if (s[i] == ' ' || s[i] == '\t')
			continue;
		if (s[i] == '#')
			break;
		if ((r = one_arg(s, &i, out)) < 0)
			return r;
		if (!s[i])
			break;
	}
	return 0;
}

static int use_pam(struct reader *rd, const struct file *f, int n,
		   const struct dg_strlist *args)
{
	int value;

	if (!*f->active)
		return refuse(rd, f->path, n,
			      "sshd refuses UsePAM in a Match block: it is "
			      "global");
	if (args->n == 0)
		return refuse(rd, f->path, n, "sshd refuses UsePAM without "
					      "a value");
	if (strcasecmp(args->v[0], "yes") == 0)
		value = 1;
	else if (strcasecmp(args->v[0], "no") == 0)
		value = 0;
	else
		return refuse(rd, f->path, n, "sshd refuses a value of UsePAM "
					      "other than \"yes\" or \"no\"");
	if (args->n > 1)
		return refuse(rd, f->path, n, "sshd refuses more than one "
					      "value after UsePAM");
	if (rd->use_pam != -1)
		return 0; /* the first one sshd reads wins */
	rd->use_pam = value;
	rd->out->line = n;
	free(rd->out->file);
	/* gcc 12's analyzer calls the copy leaked as it is stored: it is
	 * the caller's out->file, freed by dg_sshdconf_free (and first by
	 * refuse, should a later line be refused). */
	DG_ANALYZER_IGNORE("-Wanalyzer-malloc-leak")
	return (rd->out->file = strdup(f->path)) ? 0 : -ENOMEM;
	DG_ANALYZER_END
}

static int read_file(struct reader *rd, const char *path, bool nevermatch,
		     bool *active);

/* One file a glob of an Include line (f, line n) names, read where the
 * line is, in a Match block's state that it cannot change. */
static int include_file(struct reader *rd, const struct file *f, int n,
			const char *path)
{
	bool was_active = *f->active;
	int r;

	for (int k = 0; k <= rd->depth; k++)
		if (strcmp(rd->chain[k], path) == 0)
			return refuse(rd, f->path, n,
				      "this Include reads %s again, from "
				      "inside itself: sshd refuses an "
				      "Include loop",
				      path);
	if (rd->depth + 1 > MAX_DEPTH)
		return refuse(rd, f->path, n,
			      "sshd refuses Includes nested more than %d deep",
			      MAX_DEPTH);
	rd->chain[++rd->depth] = path;
	r = read_file(rd, path, f->nevermatch || !was_active, f->active);
	rd->depth--;
	*f->active = was_active;
	return r;
}

/* glob(3) found nothing (or, aborted, stopped at a directory it could
 * not read): was it that nothing is there, or that we may not look, as
 * when lint runs without root?  0, or the errno of what we may not
 * read.  glob answers "no match" for a literal path it cannot stat, and
 * sshd, running as root, may well read it. */
static int unreadable(const char *pattern, bool aborted)
{
	size_t meta = strcspn(pattern, "*?[");
	_cleanup_free_ char *dir = NULL;
	DIR *d;
	char *slash;

	if (!pattern[meta]) {
		struct stat st;

		return stat(pattern, &st) == 0 || errno == ENOENT ||
				       errno == ENOTDIR
			       ? 0
			       : errno;
	}
	if (!aborted)
		return 0; /* every directory was read: nothing matched */
	if (!(dir = strndup(pattern, meta)))
		return ENOMEM;
	if ((slash = strrchr(dir, '/')))
		slash[slash == dir] = '\0';
	if ((d = opendir(*dir ? dir : "/"))) {
		closedir(d);
		return EACCES; /* a directory deeper down */
	}
	return errno == ENOENT || errno == ENOTDIR ? 0 : errno;
}

/* One argument of an Include line: a glob, relative to sshdir. */
static int include_glob(struct reader *rd, const struct file *f, int n,
			const char *arg)
{
	_cleanup_free_ char *pattern = NULL;
	glob_t g = {0};
	int r, e = 0;

	if (!*arg)
		return refuse(rd, f->path, n, "sshd refuses an empty Include");
	/* sshd's glob(3) does not expand it: the file would depend on
	 * sshd's working directory */
	if (*arg == '~')
		return refuse(rd, f->path, n, "an Include that starts with "
					      "\"~\" cannot be followed");
	if (*arg == '/')
		pattern = strdup(arg);
	else if (asprintf(&pattern, "%s/%s", rd->sshdir, arg) < 0)
		pattern = NULL;
	if (!pattern)
		return -ENOMEM;
	/* GLOB_ERR: a directory we cannot read must not look empty */
	r = glob(pattern, GLOB_ERR, NULL, &g);
	if ((r == GLOB_NOMATCH || r == GLOB_ABORTED) &&
	    (e = unreadable(pattern, r == GLOB_ABORTED)) == 0)
		r = 0;
	if (e)
		r = e == ENOMEM ? -ENOMEM
				: refuse(rd, f->path, n,
					 "a file or directory this Include "
					 "names cannot be read (%s): sshd, as "
					 "root, may read a UsePAM there",
					 strerror(e));
	else if (r == GLOB_NOSPACE)
		r = -ENOMEM;
	else if (r != 0)
		r = refuse(rd, f->path, n, "sshd refuses an Include whose "
					   "glob fails");
	for (size_t i = 0; r == 0 && i < g.gl_pathc && !rd->stop; i++)
		r = include_file(rd, f, n, g.gl_pathv[i]);
	globfree(&g);
	return r;
}

static int include(struct reader *rd, const struct file *f, int n,
		   const struct dg_strlist *args)
{
	int r = 0;

	if (args->n == 0)
		return refuse(rd, f->path, n, "sshd refuses an Include "
					      "without a file");
	for (size_t i = 0; r == 0 && i < args->n && !rd->stop; i++)
		r = include_glob(rd, f, n, args->v[i]);
	return r;
}

/* A Match line: at start sshd knows no connection, so every block is
 * inactive but "Match all". */
static int match(struct reader *rd, const struct file *f, int n, char *str)
{
	static const char *const criteria[] = {
		"user", "group", "host", "localaddress", "localport",
		"address", "rdomain", NULL,
	};
	bool all = false;
	int count = 0;
	char *w, *arg;

	while ((w = next_word(&str)) && *w && *w != '#') {
		bool known = false;

		arg = next_word(&str);
		if (strcasecmp(w, "all") == 0) {
			all = true;
			if (count++ > 0 || (arg && *arg && *arg != '#'))
				return refuse(rd, f->path, n,
					      "sshd refuses \"Match all\" "
					      "with other criteria");
			break;
		}
		for (size_t i = 0; criteria[i]; i++)
			known |= strcasecmp(w, criteria[i]) == 0;
		if (!known || !arg || !*arg || *arg == '#')
			return refuse(rd, f->path, n,
				      "sshd refuses this Match line");
		count++;
	}
	if (count == 0)
		return refuse(rd, f->path, n, "sshd refuses a Match line "
					      "without criteria");
	*f->active = !f->nevermatch && all;
	return 0;
}

/* Line n of f, which read_file may change. */
static int read_line(struct reader *rd, const struct file *f, char *line,
		     int n)
{
	struct dg_strlist args = {0};
	size_t len = strlen(line);
	char *str = line, *kw;
	int r;

	while (len > 1 && strchr(" \t\r\n\f", line[len - 1]))
		line[--len] = '\0';
	kw = next_word(&str);
	if (kw && !*kw)
		kw = next_word(&str);
	if (!kw || !*kw || *kw == '#')
		return 0;
	if (!str || !*str)
		return refuse(rd, f->path, n, "sshd refuses a keyword without "
					      "an argument");
	r = split_args(str, &args);
	if (r == -EINVAL)
		r = refuse(rd, f->path, n, "sshd refuses this line: a quote "
					   "does not close");
	else if (r == 0 && strcasecmp(kw, "usepam") == 0)
		r = use_pam(rd, f, n, &args);
	else if (r == 0 && strcasecmp(kw, "include") == 0)
		r = include(rd, f, n, &args);
	else if (r == 0 && strcasecmp(kw, "match") == 0)
		r = match(rd, f, n, str);
	dg_strlist_free(&args);
	return r;
}

static int read_file(struct reader *rd, const char *path, bool nevermatch,
		     bool *active)
{
	_cleanup_free_ char *text = NULL, *buf = NULL;
	struct file f = {path, nevermatch, active};
	char *cur, *line;
	size_t len;
	int r = dg_util_read_file(path, 0, MAX_BYTES, &text, &len);

	if (r == -ENOMEM)
		return r;
	if (r == -ENOENT && rd->depth == 0) {
		rd->out->pam = DG_SSHDCONF_ABSENT;
		rd->stop = true;
		return 0;
	}
	/* sshd reads an included directory, or /dev/null, as an empty
	 * file (fopen succeeds, reading gives nothing) */
	if (rd->depth > 0 &&
	    (r == -EISDIR || (r == -EINVAL && !strcmp(path, "/dev/null"))))
		return 0;
	if (r < 0)
		return refuse(rd, path, 0, "it cannot be read: %s",
			      strerror(-r));
	if (!(cur = buf = sshd_text(text, len)))
		return -ENOMEM;
#ifdef __clang_analyzer__
	/* buf's reader is _cleanup_free_, which clang 14's analyzer does
	 * not run: without this it calls the store dead */
	(void)buf;
#endif
	for (int n = 1; !rd->stop && (line = strsep(&cur, "\n")); n++)
		if ((r = read_line(rd, &f, line, n)) < 0)
			return r;
	return 0;
}

int dg_sshdconf_read(const char *path, const char *sshdir,
		     struct dg_sshdconf *out)
{
	struct reader rd = {.sshdir = sshdir, .out = out, .use_pam = -1,
			    .chain = {path}};
	bool active = true;
	int r;

	*out = (struct dg_sshdconf){0};
	if ((r = read_file(&rd, path, false, &active)) < 0) {
		dg_sshdconf_free(out);
		return r;
	}
	if (rd.stop)
		return 0;
	out->pam = rd.use_pam == 1 ? DG_SSHDCONF_PAM : DG_SSHDCONF_NO_PAM;
	if (rd.use_pam == -1 && !(out->file = strdup(path)))
		return -ENOMEM;
	return 0;
}

void dg_sshdconf_free(struct dg_sshdconf *c)
{
	free(c->file);
	free(c->why);
	*c = (struct dg_sshdconf){0};
}
