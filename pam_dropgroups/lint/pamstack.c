/* PAM stacks as libpam 1.5.2 (with Debian's "@include") reads them: one
 * file's text to logical lines to tokens, includes followed through the
 * caller's reader, and what a control does with a return code. */
#include "pamstack.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <security/_pam_types.h>

#include "strlist.h"

static const char *const facility_names[DG_PAM_FACILITIES] = {
	[DG_PAM_AUTH] = "auth",
	[DG_PAM_ACCOUNT] = "account",
	[DG_PAM_SESSION] = "session",
	[DG_PAM_PASSWORD] = "password",
};

const char *dg_pamstack_facility_name(enum dg_pam_facility f)
{
	return f < DG_PAM_FACILITIES ? facility_names[f] : "?";
}

/* --- one file's text to logical lines --- */

/* A file's text, read as libpam reads it with fgets. */
struct text {
	const char *pos, *end;
	int lineno; /* lines read to their end so far */
};

/* fgets(buf, room, f): up to room - 1 bytes, through the first "\n",
 * NULs included, then a NUL; the bytes read (0: the end of the file). */
static size_t text_fgets(struct text *t, char *buf, size_t room)
{
	size_t n = (size_t)(t->end - t->pos);
	const char *nl = memchr(t->pos, '\n', n);

	if (nl && (size_t)(nl - t->pos) < n)
		n = (size_t)(nl - t->pos) + 1;
	if (n > room - 1)
		n = room - 1;
	memcpy(buf, t->pos, n);
	buf[n] = '\0';
	t->pos += n;
	t->lineno += n && buf[n - 1] == '\n';
	return n;
}

/* The next logical line of t, as libpam 1.5.2's _pam_assemble_line
 * builds it in buf (DG_PAM_LINE_BUFFER bytes): chunks that are blank or
 * start with "#" are skipped (also inside a continued line), "#" ends a
 * line, and a chunk ending in a backslash (blanks aside) goes on with
 * the next, the backslash read as a blank.  A chunk is what fgets
 * gives: a line, or as much of it as fits, and a NUL ends what libpam
 * sees of it.  1 with *first (where it starts), 0 at the end, -EBADMSG
 * where libpam gives up (a continued line at the end of the file or
 * past the buffer), -ELOOP where it would read for ever (glibc's fgets
 * with room for the NUL alone reads nothing, and libpam asks again). */
static int next_line(struct text *t, char *buf, int *first)
{
	size_t p = 0;

	*first = 0;
	for (;;) {
		int at = t->lineno + 1;
		char *s, *os;

		if (p >= DG_PAM_LINE_BUFFER)
			return -EBADMSG;
		if (DG_PAM_LINE_BUFFER - p == 1)
			return -ELOOP;
		if (text_fgets(t, buf + p, DG_PAM_LINE_BUFFER - p) == 0)
			return *first ? -EBADMSG : 0;
		s = buf + p + strspn(buf + p, " \n\t");
		if (!*s || *s == '#')
			continue; /* blank, or a comment: a line goes on */
		if (!*first)
			*first = at;
		os = s;
		s += strcspn(s, "#");
		if (*s == '#') {
			*s = '\0';
			return 1;
		}
		while (s > os && (s[-1] == ' ' || s[-1] == '\t' || s[-1] == '\n'))
			s--;
		if (s[-1] != '\\') {
			*s = '\0';
			return 1;
		}
		s[-1] = ' ';
		*s = '\0';
		p = (size_t)(s - buf);
	}
}

/* The next token of *s (libpam's _pam_StrTok): blank-separated, or
 * "[...]" up to the first "]" not written "\]", kept with its brackets
 * (want_brackets) or without them, "\]" read as "]".  NULL at the end of
 * the line, or on ENOMEM (*oom set). */
static char *next_token(const char **s, bool want_brackets, bool *oom)
{
	const char *p = *s + strspn(*s, " \t\n"), *end;
	char *tok, *to;

	if (!*p)
		return NULL;
	if (*p != '[') {
		end = p + strcspn(p, " \t\n");
		*s = end;
		if (!(tok = strndup(p, (size_t)(end - p))))
			*oom = true;
		return tok;
	}
	if (!(tok = to = dg_new0(char, strlen(p) + 2))) {
		*oom = true;
		return NULL;
	}
	if (want_brackets)
		*to++ = '[';
	for (end = p + 1; *end && *end != ']'; end++) {
		if (*end == '\\' && end[1] == ']')
			end++;
		*to++ = *end;
	}
	if (want_brackets)
		*to++ = ']';
	*s = *end ? end + 1 : end;
	return tok;
}

/* --- following includes --- */

enum { ANY_FACILITY = DG_PAM_FACILITIES };

/* What the walk through one service's files needs. */
struct walk {
	const struct dg_pam_reader *reader;
	struct dg_pam_stack *stack;
	struct dg_diags *diags;
};

static int read_file(struct walk *w, const char *name, bool conf_dir_only,
		     int filter, unsigned depth, unsigned frame);

static int facility_of(const char *type, bool *dash)
{
	*dash = *type == '-';
	type += *dash;
	for (int f = 0; f < DG_PAM_FACILITIES; f++)
		if (strcasecmp(type, facility_names[f]) == 0)
			return f;
	return -1;
}

/* A line that names a file to include: read it, or say why it cannot
 * be, and what libpam then does. */
static int include(struct walk *w, const char *file, int line,
		   const char *how, const char *name, bool conf_dir_only,
		   int filter, unsigned depth, unsigned frame)
{
	int r;

	if (!name) {
		dg_diag_add(w->diags, DG_ERROR, file, line, "%s names no file",
			    how);
		return 0;
	}
	if (depth + 1 >= DG_PAM_MAX_DEPTH) {
		dg_diag_add(w->diags, DG_ERROR, file, line,
			    "%s %s: includes nest deeper than %d (a loop?); "
			    "libpam gives up",
			    how, name, DG_PAM_MAX_DEPTH);
		return 0;
	}
	r = read_file(w, name, conf_dir_only, filter, depth + 1, frame);
	if (r == -ENOMEM)
		return r;
	if (r < 0)
		dg_diag_add(w->diags, DG_ERROR, file, line, "%s %s: %s; %s",
			    how, name,
			    r == -ENOENT ? "no such file" : strerror(-r),
			    filter == ANY_FACILITY
				    ? "libpam refuses every call of this "
				      "service (pam_start fails)"
				    : "every call of this facility through "
				      "this stack fails");
	return 0;
}

static int add_module_line(struct walk *w, const char *file, int line,
			   int facility, char *control, char *module,
			   const char **rest, unsigned frame)
{
	struct dg_pam_line l = {.facility = (enum dg_pam_facility)facility,
				.control = control, .module = module,
				.file = file, .line = line, .frame = frame};

	for (unsigned f = frame; f; f = w->stack->frames.v[f].parent)
		l.substack++;
	bool oom = false;
	char *arg;

	while ((arg = next_token(rest, false, &oom))) {
		if (DG_APPEND(&l.args, arg) < 0) {
			free(arg);
			oom = true;
			break;
		}
	}
	if (oom || DG_APPEND(&w->stack->lines, l) < 0) {
		dg_strlist_free(&l.args);
		return -ENOMEM;
	}
	return 0;
}

/* A "substack" line: a new frame in parent, whose lines start at the
 * next line read; its id in *id.  0 or -ENOMEM. */
static int open_frame(struct walk *w, unsigned parent, int facility,
		      unsigned *id)
{
	struct dg_pam_frame f = {.parent = parent,
				 .facility = (enum dg_pam_facility)facility,
				 .start = w->stack->lines.n};

	*id = (unsigned)w->stack->frames.n;
	return DG_APPEND(&w->stack->frames, f);
}

/* One logical line: a module line, an include, or something libpam
 * would not read (reported, skipped). */
static int one_line(struct walk *w, const char *file, int line,
		    const char *text, int filter, unsigned depth,
		    unsigned frame)
{
	_cleanup_free_ char *type = NULL, *control = NULL, *module = NULL;
	bool oom = false, dash;
	int facility, r;

	if (!(type = next_token(&text, false, &oom)))
		return oom ? -ENOMEM : 0;
	if (strcasecmp(type, "@include") == 0) {
		module = next_token(&text, false, &oom);
		return oom ? -ENOMEM
			   : include(w, file, line, "@include", module, true,
				     filter, depth, frame);
	}
	if ((facility = facility_of(type, &dash)) < 0) {
		/* The word itself is not printed: an absolute include can
		 * name any file (/etc/shadow), and root's lint output must
		 * not show what is in it. */
		dg_diag_add(w->diags, DG_WARNING, file, line,
			    "the first word is not a module type libpam "
			    "knows; libpam makes every call of this line "
			    "fail");
		return 0;
	}
	if (filter != ANY_FACILITY && facility != filter)
		return 0;
	control = next_token(&text, true, &oom);
	module = oom ? NULL : next_token(&text, false, &oom);
	if (oom)
		return -ENOMEM;
	if (control && (strcasecmp(control, "include") == 0 ||
			strcasecmp(control, "substack") == 0)) {
		bool sub = strcasecmp(control, "substack") == 0;
		_cleanup_free_ char *how = NULL;

		if (asprintf(&how, "%s %s", type, sub ? "substack" : "include") < 0)
			return -ENOMEM;
		if (sub && (r = open_frame(w, frame, facility, &frame)) < 0)
			return r;
		return include(w, file, line, how, module, false, facility,
			       depth, frame);
	}
	if (!control || !module) {
		dg_diag_add(w->diags, DG_WARNING, file, line,
			    "no %s: libpam makes every %s call fail here",
			    control ? "module" : "control", type);
		return 0;
	}
	r = add_module_line(w, file, line, facility, control, module, &text,
			    frame);
	if (r == 0)
		control = module = NULL; /* the line owns them */
	return r;
}

/* Where next_line stopped short: libpam's reading of the file. */
static void report_unread(struct walk *w, const char *file, int line, int r)
{
	if (r == -ELOOP)
		dg_diag_add(w->diags, DG_ERROR, file, line,
			    "libpam 1.5.2 never finishes reading this line (a "
			    "backslash at the end of its %d-byte buffer): the "
			    "program hangs",
			    DG_PAM_LINE_BUFFER);
	else
		dg_diag_add(w->diags, DG_ERROR, file, line,
			    "libpam 1.5.2 cannot read this line (it is "
			    "continued past the end of the file) and refuses "
			    "every call of the service");
}

static int read_file(struct walk *w, const char *name, bool conf_dir_only,
		     int filter, unsigned depth, unsigned frame)
{
	_cleanup_free_ char *path = NULL, *text = NULL, *buf = NULL;
	struct text t = {0};
	const char *file;
	int first = 0, r;
	size_t len = 0;

	r = w->reader->read(w->reader->ctx, name, conf_dir_only, &path, &text,
			    &len);
	if (r < 0)
		return r;
	if (dg_strlist_add(&w->stack->files, path) < 0 ||
	    !(buf = malloc(DG_PAM_LINE_BUFFER)))
		return -ENOMEM;
	file = w->stack->files.v[w->stack->files.n - 1];
	if (depth == 0)
		w->stack->file = file;
	t = (struct text){.pos = text, .end = text + len};
	while ((r = next_line(&t, buf, &first)) > 0) {
		r = one_line(w, file, first, buf, filter, depth, frame);
		if (r < 0)
			return r;
	}
	if (r < 0)
		report_unread(w, file, first ? first : t.lineno, r);
	return 0;
}

int dg_pamstack_load(const struct dg_pam_reader *reader, const char *service,
		     struct dg_pam_stack *out, struct dg_diags *diags)
{
	struct walk w = {.reader = reader, .stack = out, .diags = diags};
	int r;

	*out = (struct dg_pam_stack){0};
	if (DG_APPEND(&out->frames, (struct dg_pam_frame){0}) < 0)
		return -ENOMEM;
	r = read_file(&w, service, false, ANY_FACILITY, 0, 0);
	return r;
}

void dg_pamstack_free(struct dg_pam_stack *stack)
{
	for (size_t i = 0; i < stack->lines.n; i++) {
		free(stack->lines.v[i].control);
		free(stack->lines.v[i].module);
		dg_strlist_free(&stack->lines.v[i].args);
	}
	free(stack->lines.v);
	free(stack->frames.v);
	dg_strlist_free(&stack->files);
	*stack = (struct dg_pam_stack){0};
}

bool dg_pamstack_is_dropgroups(const char *module)
{
	const char *base = strrchr(module, '/');

	return strcmp(base ? base + 1 : module, "pam_dropgroups.so") == 0;
}

/* --- controls --- */

/* libpam's return value names, in the order of their codes (0..31),
 * then "default". */
static const char *const return_names[] = {
	"success", "open_err", "symbol_err", "service_err", "system_err",
	"buf_err", "perm_denied", "auth_err", "cred_insufficient",
	"authinfo_unavail", "user_unknown", "maxtries", "new_authtok_reqd",
	"acct_expired", "session_err", "cred_unavail", "cred_expired",
	"cred_err", "no_module_data", "conv_err", "authtok_err",
	"authtok_recover_err", "authtok_lock_busy", "authtok_disable_aging",
	"try_again", "ignore", "abort", "authtok_expired", "module_unknown",
	"bad_item", "conv_again", "incomplete", "default",
};

#define N_CODES _PAM_RETURN_VALUES
/* In actions[], a dg_pam_action, a jump of N lines as -N, or UNSET. */
#define UNSET INT_MIN

static const char *const action_names[] = {
	[DG_PAM_ACTION_IGNORE] = "ignore", [DG_PAM_ACTION_OK] = "ok",
	[DG_PAM_ACTION_DONE] = "done",     [DG_PAM_ACTION_BAD] = "bad",
	[DG_PAM_ACTION_DIE] = "die",       [DG_PAM_ACTION_RESET] = "reset",
};

static void set_default(int *actions, int action)
{
	for (int i = 0; i < N_CODES; i++)
		if (actions[i] == UNSET)
			actions[i] = action;
}

/* The index in names[0..n) of the first name that *t starts with, and
 * past it, or n: libpam matches values and actions by prefix, in its
 * own order. */
static size_t match_prefix(const char *const *names, size_t n, const char **t)
{
	for (size_t i = 0; i < n; i++) {
		size_t len = names[i] ? strlen(names[i]) : 0;

		if (len && strncmp(names[i], *t, len) == 0) {
			*t += len;
			return i;
		}
	}
	return n;
}

/* The blanks of a bracket: libpam skips them with isspace(), so a
 * vertical tab, a form feed or a carriage return parts two pairs too. */
#define BLANKS " \t\n\v\f\r"

/* The number at *t (a digit), read as libpam 1.5.2 reads a jump: into an
 * int, ten times plus the digit, with no check, so that it wraps at 2^32
 * as Debian 12's build does (4294967297 is a jump of 1). */
static int32_t libpam_number(const char **t)
{
	uint32_t v = 0;

	for (; isdigit((unsigned char)**t); (*t)++)
		v = v * 10 + (uint32_t)(**t - '0');
	return v > INT32_MAX ? -(int32_t)(UINT32_MAX - v) - 1 : (int32_t)v;
}

/* What libpam does with a number n that is not 0: a jump of n lines, or,
 * wrapped below 0, the action of that code of libpam's own (-1 ok,
 * -2 done, -3 bad, -4 die, -5 reset, -6 not set), as it would with the
 * word; a code no action has fails the call, as "bad" does. */
static int number_action(int32_t n)
{
	static const int codes[] = {
		DG_PAM_ACTION_OK,  DG_PAM_ACTION_DONE,	DG_PAM_ACTION_BAD,
		DG_PAM_ACTION_DIE, DG_PAM_ACTION_RESET, UNSET,
	};

	if (n > 0)
		return -n;
	if (n >= -(int32_t)(sizeof(codes) / sizeof(*codes)))
		return codes[-n - 1];
	return DG_PAM_ACTION_BAD;
}

/* One "value=action" at *t; false if libpam could not read it. */
static bool one_pair(const char **t, int *actions)
{
	size_t n_acts = sizeof(action_names) / sizeof(*action_names);
	size_t ret = match_prefix(return_names, N_CODES + 1, t);
	int act;

	if (ret > N_CODES || !**t)
		return false;
	*t += strspn(*t, BLANKS);
	if (*(*t)++ != '=')
		return false;
	*t += strspn(*t, BLANKS);
	act = (int)match_prefix(action_names, n_acts, t);
	if (act == (int)n_acts) {
		int32_t n;

		if (!isdigit((unsigned char)**t))
			return false;
		if ((n = libpam_number(t)) == 0)
			return false; /* libpam: no jump of 0 lines */
		act = number_action(n);
	}
	if (ret == N_CODES)
		set_default(actions, act);
	else
		actions[ret] = act;
	return true;
}

/* value=action pairs from t (inside the brackets, or a bare word libpam
 * reads the same way), up to the end or "]". */
static void parse_pairs(const char *t, int *actions)
{
	for (;;) {
		t += strspn(t, BLANKS);
		if (!*t || *t == ']')
			break;
		if (!one_pair(&t, actions)) {
			for (int i = 0; i < N_CODES; i++)
				actions[i] = DG_PAM_ACTION_BAD;
			return;
		}
	}
	set_default(actions, DG_PAM_ACTION_BAD);
}

/* The words: required, requisite, optional, sufficient. */
static bool parse_word(const char *control, int *actions)
{
	static const struct {
		const char *word;
		int success, fallback;
		bool ignore_ignore;
	} words[] = {
		{"required", DG_PAM_ACTION_OK, DG_PAM_ACTION_BAD, true},
		{"requisite", DG_PAM_ACTION_OK, DG_PAM_ACTION_DIE, true},
		{"optional", DG_PAM_ACTION_OK, DG_PAM_ACTION_IGNORE, false},
		{"sufficient", DG_PAM_ACTION_DONE, DG_PAM_ACTION_IGNORE, false},
	};

	for (size_t i = 0; i < sizeof(words) / sizeof(*words); i++) {
		if (strcasecmp(control, words[i].word) != 0)
			continue;
		actions[PAM_SUCCESS] = words[i].success;
		actions[PAM_NEW_AUTHTOK_REQD] = words[i].success;
		if (words[i].ignore_ignore)
			actions[PAM_IGNORE] = DG_PAM_ACTION_IGNORE;
		set_default(actions, words[i].fallback);
		return true;
	}
	return false;
}

/* What control does with code, and *jump, the lines a jump skips. */
static enum dg_pam_action control_action(const char *control, int code,
					 unsigned *jump)
{
	int actions[N_CODES];

	*jump = 0;
	for (int i = 0; i < N_CODES; i++)
		actions[i] = UNSET;
	if (*control == '[')
		parse_pairs(control + 1, actions);
	else if (!parse_word(control, actions))
		parse_pairs(control, actions); /* as libpam does */
	if (code < 0 || code >= N_CODES)
		return DG_PAM_ACTION_BAD; /* libpam: an invalid code is bad */
	if (actions[code] >= 0)
		return (enum dg_pam_action)actions[code];
	*jump = (unsigned)-actions[code];
	return DG_PAM_ACTION_JUMP;
}

enum dg_pam_action dg_pamstack_control_action(const char *control, int code)
{
	unsigned jump;

	return control_action(control, code, &jump);
}

const char *dg_pamstack_code_name(int code)
{
	return code >= 0 && code < N_CODES ? return_names[code] : "?";
}

/* --- which lines libpam may skip --- */

/* Where a handler of a frame runs, to libpam's jumps: a line k at
 * (2k + 1, 0), a substack c before its first line, at (2 start, c). */
struct pos {
	size_t at;
	unsigned frame;
};

static bool before(struct pos a, struct pos b)
{
	return a.at < b.at || (a.at == b.at && a.frame < b.frame);
}

static struct pos line_pos(size_t k)
{
	return (struct pos){2 * k + 1, 0};
}

/* How many handlers of frame f in facility fac run strictly between a
 * and b: its own lines, and its substacks, one each. */
static size_t handlers_between(const struct dg_pam_stack *s, unsigned f,
			       enum dg_pam_facility fac, struct pos a,
			       struct pos b)
{
	size_t n = 0;

	for (size_t k = 0; k < s->lines.n; k++) {
		const struct dg_pam_line *l = &s->lines.v[k];

		n += l->frame == f && l->facility == fac &&
		     before(a, line_pos(k)) && before(line_pos(k), b);
	}
	for (unsigned c = 1; c < s->frames.n; c++) {
		const struct dg_pam_frame *fr = &s->frames.v[c];
		struct pos p = {2 * fr->start, c};

		n += fr->parent == f && fr->facility == fac && before(a, p) &&
		     before(p, b);
	}
	return n;
}

/* Does line k of frame f, on code, end f or jump past the handler at
 * anchor? */
static bool skips(const struct dg_pam_stack *s, size_t k, unsigned f,
		  int code, struct pos anchor)
{
	const struct dg_pam_line *l = &s->lines.v[k];
	unsigned jump;
	enum dg_pam_action a = control_action(l->control, code, &jump);

	if (a == DG_PAM_ACTION_DONE)
		return true;
	return a == DG_PAM_ACTION_JUMP &&
	       jump > handlers_between(s, f, l->facility, line_pos(k), anchor);
}

long dg_pamstack_skipped_by(const struct dg_pam_stack *s, size_t i,
			    uint32_t codes, int *code)
{
	enum dg_pam_facility fac = s->lines.v[i].facility;
	unsigned f = s->lines.v[i].frame;
	struct pos anchor = line_pos(i);

	for (;;) {
		for (size_t k = 0; k < s->lines.n; k++) {
			const struct dg_pam_line *l = &s->lines.v[k];

			if (l->frame != f || l->facility != fac ||
			    !before(line_pos(k), anchor))
				continue;
			for (int c = 0; c < N_CODES; c++)
				if ((codes >> c & 1) && skips(s, k, f, c, anchor)) {
					*code = c;
					return (long)k;
				}
		}
		if (f == 0 || f >= s->frames.n)
			return -1;
		/* the substack f is one line of its parent */
		anchor = (struct pos){2 * s->frames.v[f].start, f};
		f = s->frames.v[f].parent;
	}
}
