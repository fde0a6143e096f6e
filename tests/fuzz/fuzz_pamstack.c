/* libFuzzer target: the PAM stack reader of dropgroups lint and explain
 * (lint/pamstack.c through the directory reader lint/pamread.c).
 *
 * The input is /etc/pam.d/login; "#%file PATH" parts are more files
 * (fuzz_root.h: relative ones go to /etc/pam.d, so "#%file common-auth"
 * is what "@include common-auth" reads; /usr/lib/pam.d is the vendor
 * directory), in a root of their own.  The "login" service is loaded as
 * lint loads a service ("other" where it has no file; at most 4,096
 * files read, then the reader fails), and every line's control is
 * asked what it does with every return code, and, for a stack of a
 * size lint meets, which earlier line can skip it.
 *
 * Checked: the load returns 0 or the -errno of the service's file;
 * the service's file is the first file read; each line is at a line
 * its file has, with a control and a module (maybe ""), in a frame that
 * exists, as many substacks deep as its frame's chain, of its
 * substack's facility; each frame's parent comes before it; a
 * control's action is one libpam has, a jump at least one line long; a
 * line is skipped only by an earlier line of the stack, on a code asked
 * about; each diagnostic is well formed and at a line its file has.
 * And no leak, no sanitizer report. */
#include "fuzz_root.h"

#include <security/_pam_types.h>

#include "pamread.h"
#include "pamstack.h"

/* lines past this many: dg_pamstack_skipped_by for each is cubic */
#define FZ_MAX_SKIP_LINES 64
/* files a load may read */
#define FZ_MAX_READS 4096
/* controls asked about every code, at most */
#define FZ_MAX_CONTROL_LINES 1024

static void check_frames(const struct dg_pam_stack *s)
{
	if (s->frames.n == 0 || s->frames.v[0].parent != 0 ||
	    s->frames.v[0].start != 0)
		fz_fail("frame 0 is not the service's own");
	for (size_t c = 1; c < s->frames.n; c++) {
		const struct dg_pam_frame *f = &s->frames.v[c];

		if (f->parent >= c)
			fz_fail("frame %zu has parent %u", c, f->parent);
		if (f->start > s->lines.n ||
		    f->start < s->frames.v[f->parent].start)
			fz_fail("frame %zu starts at %zu", c, f->start);
		if (f->facility >= DG_PAM_FACILITIES)
			fz_fail("frame %zu has facility %d", c,
				(int)f->facility);
	}
}

static void check_control(const char *control)
{
	for (int code = -1; code <= _PAM_RETURN_VALUES + 1; code++) {
		enum dg_pam_action a = dg_pamstack_control_action(control,
								  code);

		if (a > DG_PAM_ACTION_JUMP)
			fz_fail("control \"%s\": action %d for code %d",
				control, (int)a, code);
		if ((code < 0 || code >= _PAM_RETURN_VALUES) &&
		    a != DG_PAM_ACTION_BAD)
			fz_fail("control \"%s\": invalid code %d is not bad",
				control, code);
		if (!dg_pamstack_code_name(code))
			fz_fail("code %d has no name", code);
	}
}

static int cmp_ptr(const void *a, const void *b)
{
	uintptr_t x = (uintptr_t)*(char *const *)a;
	uintptr_t y = (uintptr_t)*(char *const *)b;

	return x < y ? -1 : x > y;
}

/* Is file one of the files read (sorted: their pointers, in order)?
 * A file that includes itself twice is read 2^15 times, as libpam
 * reads it: a linear search per line would take minutes. */
static bool is_file(char **sorted, size_t n, const char *file)
{
	return bsearch(&file, sorted, n, sizeof(*sorted), cmp_ptr) != NULL;
}

static void check_lines(const struct dg_pam_stack *s)
{
	char **sorted = malloc((s->files.n + 1) * sizeof(*sorted));

	if (!sorted)
		abort();
	if (s->files.n)
		memcpy(sorted, s->files.v, s->files.n * sizeof(*sorted));
	qsort(sorted, s->files.n, sizeof(*sorted), cmp_ptr);
	for (size_t i = 0; i < s->lines.n; i++) {
		const struct dg_pam_line *l = &s->lines.v[i];
		unsigned depth = 0;

		if (!is_file(sorted, s->files.n, l->file))
			fz_fail("line %zu points outside the files read", i);
		if (l->line <= 0)
			fz_fail("line %zu is at line %d", i, l->line);
		fzr_check_line(l->file, l->line, "module line");
		if (l->facility >= DG_PAM_FACILITIES)
			fz_fail("line %zu has facility %d", i,
				(int)l->facility);
		/* a module written "[]" is "", as libpam's _pam_StrTok
		 * reads it (and then fails to load it) */
		if (!l->control || !*l->control || !l->module)
			fz_fail("line %zu has no control or no module", i);
		if (l->frame >= s->frames.n)
			fz_fail("line %zu is in frame %u of %zu", i, l->frame,
				s->frames.n);
		for (unsigned f = l->frame; f; f = s->frames.v[f].parent)
			depth++;
		if (l->substack != depth)
			fz_fail("line %zu is %u substacks deep, its frame %u",
				i, l->substack, depth);
		if (l->frame && (l->facility != s->frames.v[l->frame].facility ||
				 i < s->frames.v[l->frame].start))
			fz_fail("line %zu is out of its substack", i);
		for (size_t k = 0; k < l->args.n; k++)
			if (!l->args.v[k])
				fz_fail("line %zu: argument %zu is NULL", i, k);
		(void)dg_pamstack_is_dropgroups(l->module);
		/* past these, the same files again (an include tree) */
		if (i < FZ_MAX_CONTROL_LINES)
			check_control(l->control);
	}
	free(sorted);
	if (s->lines.n > FZ_MAX_SKIP_LINES)
		return;
	for (size_t i = 0; i < s->lines.n; i++) {
		uint32_t codes = i & 1 ? 0xffffffffu : 1u << PAM_SUCCESS;
		int code = -1;
		long k = dg_pamstack_skipped_by(s, i, codes, &code);

		if (k >= (long)i || k < -1)
			fz_fail("line %zu is skipped by line %ld", i, k);
		if (k >= 0 && (code < 0 || code >= _PAM_RETURN_VALUES ||
			       !(codes >> code & 1)))
			fz_fail("line %zu is skipped on code %d", i, code);
	}
}

/* The directory reader, counting: past FZ_MAX_READS files, -EMFILE.
 * Includes nest 16 deep, as in libpam, so a file that includes two
 * others that include it reads 2^16 files (libpam reads as many): 20 s
 * under ASan, against the 25 s a fuzzing input may take. */
struct counting {
	struct dg_pam_reader inner;
	unsigned n;
};

static int counting_read(void *ctx, const char *name, bool conf_dir_only,
			 char **path, char **text, size_t *len)
{
	struct counting *c = ctx;

	if (++c->n > FZ_MAX_READS)
		return -EMFILE;
	return c->inner.read(c->inner.ctx, name, conf_dir_only, path, text,
			     len);
}

static void load(const struct dg_pam_dirs *dirs, const char *service)
{
	struct counting counted = {.inner = dg_pamread_dirs(dirs)};
	struct dg_pam_reader rd = {.read = counting_read, .ctx = &counted};
	struct dg_pam_stack s;
	struct dg_diags diags = {0};
	int r = dg_pamstack_load(&rd, service, &s, &diags);

	if (r == -ENOENT && strcmp(service, "other") != 0) {
		dg_pamstack_free(&s);
		load(dirs, "other");
	}
	if (r > 0 || r < -4095 || r == -ENOMEM)
		fz_fail("dg_pamstack_load returned %d", r);
	fzr_check_diags(&diags);
	if (r == 0 && (!s.file || s.files.n == 0 || s.file != s.files.v[0]))
		fz_fail("the service's file is not the first read");
	if (r < 0 && s.lines.n)
		fz_fail("a failed load has %zu lines", s.lines.n);
	if (fzr_verbose())
		fprintf(stderr, "  %s: %d, %zu lines from %zu files, "
				"%zu frames\n",
			service, r, s.lines.n, s.files.n, s.frames.n);
	if (r == 0) {
		check_frames(&s);
		check_lines(&s);
	}
	dg_pamstack_free(&s);
	dg_diag_free(&diags);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const struct dg_pam_dirs dirs[] = {
		{.conf = DG_PAM_CONF_DIR, .vendor = DG_PAM_VENDOR_DIR},
		{.conf = "/etc/pam.d", .vendor = NULL}, /* --pam-dir */
	};

	fzr_setup("fuzz-pamstack");
	fzr_populate(data, size, "etc/pam.d/login", "etc/pam.d");
	fzr_enter();
	load(&dirs[0], "login");
	/* a service named only in the vendor directory, or nowhere */
	load(&dirs[0], "systemd-user");
	load(&dirs[1], "su");
	fzr_leave();
	return 0;
}
