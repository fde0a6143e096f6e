/* Reading PAM stacks as libpam does (Debian 12's Linux-PAM 1.5.2): the
 * lines of a service's file, with "@include", "include" and "substack"
 * followed, so that `dropgroups lint` and `explain` can see every
 * pam_dropgroups line a service runs, in which facility, and under which
 * control.
 *
 * Pure: the files come through a reader the caller passes (pamread.c
 * reads /etc/pam.d; the unit tests pass text).  The syntax followed is
 * libpam's: "#" ends a line wherever it appears, a line that ends in a
 * backslash goes on in the next one that is not blank or a comment,
 * "[...]" is one token in which "\]" stands for "]", and types,
 * controls and "@include" are read ignoring case.  So are its limits:
 * libpam 1.5.2 reads a line with fgets into a buffer of
 * DG_PAM_LINE_BUFFER bytes, so a longer line is read as two, a NUL byte
 * ends what it sees of a line (not of the file), and a continued line
 * that runs past the buffer or the end of the file makes it refuse the
 * service. */
#ifndef DG_PAMSTACK_H
#define DG_PAMSTACK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "diag.h"
#include "strlist.h"
#include "util.h"

enum dg_pam_facility {
	DG_PAM_AUTH,    /* pam_authenticate and pam_setcred */
	DG_PAM_ACCOUNT, /* pam_acct_mgmt */
	DG_PAM_SESSION, /* pam_open_session, pam_close_session */
	DG_PAM_PASSWORD,
	DG_PAM_FACILITIES,
};

const char *dg_pamstack_facility_name(enum dg_pam_facility f);

/* One module line, where it was written. */
struct dg_pam_line {
	enum dg_pam_facility facility;
	char *control;          /* "required", or "[...]" as written */
	char *module;           /* a name or a path, as written */
	struct dg_strlist args; /* as libpam hands them to the module */
	const char *file;       /* points into dg_pam_stack.files */
	int line;               /* where the (continued) line starts */
	unsigned substack;      /* how many substacks deep (0: none) */
	unsigned frame;         /* the one it runs in: dg_pam_stack.frames */
};

/* The service's own stack (frames.v[0]), or a substack: to a jump in
 * its parent, a substack is one line, wherever its lines are. */
struct dg_pam_frame {
	unsigned parent;
	enum dg_pam_facility facility;
	size_t start; /* where its lines (if any) start in lines */
};

struct dg_pam_frames {
	struct dg_pam_frame *v;
	size_t n, cap;
};

struct dg_pam_lines {
	struct dg_pam_line *v;
	size_t n, cap;
};

struct dg_pam_stack {
	struct dg_strlist files;   /* every file read: lines point here */
	const char *file;          /* the service's own file */
	struct dg_pam_lines lines; /* in the order libpam runs them */
	struct dg_pam_frames frames;
};

/* Where stack files come from: read(ctx, name, conf_dir_only, path,
 * text, len) finds name (a service or included name; an absolute path
 * is itself) as libpam would, in the configuration directory and,
 * unless conf_dir_only (Debian's "@include"), in the vendor directory,
 * and returns 0 with *path and *text allocated and *len the file's
 * length (it may hold NUL bytes, which libpam reads past), -ENOENT,
 * -ENOMEM, or another -errno. */
struct dg_pam_reader {
	int (*read)(void *ctx, const char *name, bool conf_dir_only,
		    char **path, char **text, size_t *len);
	void *ctx;
};

/* libpam 1.5.2's BUF_SIZE (pam_handlers.c): one logical line, and its
 * terminating NUL, must fit. */
#define DG_PAM_LINE_BUFFER 1024

/* libpam gives up past this many nested substacks; includes nest as
 * deep, or loop, here no further. */
#define DG_PAM_MAX_DEPTH 16

/* Read service's stack into *out.  0 (problems, such as an included
 * file that is missing, are in diags as errors at the line that names
 * it), -ENOENT when the service has no file (libpam would use "other"),
 * -ENOMEM, or the reader's -errno for the service's own file.  *out is
 * always initialised; free it with dg_pamstack_free. */
int dg_pamstack_load(const struct dg_pam_reader *reader, const char *service,
		     struct dg_pam_stack *out, struct dg_diags *diags);

void dg_pamstack_free(struct dg_pam_stack *stack);

/* Is module (as written on a line) pam_dropgroups? */
bool dg_pamstack_is_dropgroups(const char *module);

/* What a line's control does when the module returns code (a PAM_*
 * value), by libpam's rules for "required", "requisite", "optional",
 * "sufficient" and "[value=action ...]" (a bracket libpam cannot read
 * makes every code "bad", as in libpam). */
enum dg_pam_action {
	DG_PAM_ACTION_OK,     /* ok */
	DG_PAM_ACTION_DONE,   /* done: ok, and the stack ends here */
	DG_PAM_ACTION_BAD,    /* bad */
	DG_PAM_ACTION_DIE,    /* die: bad, and the stack ends here */
	DG_PAM_ACTION_IGNORE, /* ignore */
	DG_PAM_ACTION_RESET,  /* reset: forget the state so far */
	DG_PAM_ACTION_JUMP,   /* N: skip the next N lines */
};

enum dg_pam_action dg_pamstack_control_action(const char *control, int code);

/* libpam's name of a return code ("success", "new_authtok_reqd"). */
const char *dg_pamstack_code_name(int code);

/* Can libpam skip line i of s?  The index of an earlier line whose
 * control, on a code in codes (bit c: code c), ends the stack or the
 * substack that holds line i ("done", "sufficient") or jumps past it,
 * with *code that code; or -1.  Jumps count as libpam counts them: an
 * included line is a line, a substack is one. */
long dg_pamstack_skipped_by(const struct dg_pam_stack *s, size_t i,
			    uint32_t codes, int *code);

#endif
