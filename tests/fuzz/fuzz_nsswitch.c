/* libFuzzer target: the nsswitch.conf reader (lib/nsswitch.c), which
 * the module, lint and audit all trust to say which NSS services glibc
 * asks, and what it does after each answer.
 *
 * The input is the whole of nsswitch.conf (no I/O: the reader is given
 * text).  Each database the code asks about ("group", "initgroups",
 * "passwd") is read from it, and read again from texts that must give
 * the same answer: the answer written back as one line of glibc's
 * syntax (the reading of a reading is itself), and the input with an
 * unrelated line and a comment around it.
 *
 * Checked: 1, 0 or -EINVAL, never with services for 0 or -EINVAL; a
 * NUL byte anywhere is -EINVAL; each service is a non-empty word with
 * no blank and no '[', that the database's line names, and whose
 * actions are glibc's; and the rereadings agree.  And no leak, no
 * sanitizer report. */
#include "fuzz_common.h"

#include <ctype.h>

#include "nsswitch.h"

static const char *const status_names[DG_NSS_STATUSES] = {
	[DG_NSS_SUCCESS] = "SUCCESS", [DG_NSS_NOTFOUND] = "NOTFOUND",
	[DG_NSS_UNAVAIL] = "UNAVAIL", [DG_NSS_TRYAGAIN] = "TRYAGAIN",
};

static const char *action_name(enum dg_nss_action a)
{
	switch (a) {
	case DG_NSS_CONTINUE:
		return "continue";
	case DG_NSS_RETURN:
		return "return";
	case DG_NSS_MERGE:
		return "merge";
	}
	fz_fail("action %d", (int)a);
}

/* The services as one line of nsswitch.conf, every action written. */
static char *write_line(const char *db, const struct dg_nss_services *s)
{
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);

	if (!f)
		abort();
	fprintf(f, "%s:", db);
	for (size_t i = 0; i < s->n; i++) {
		fprintf(f, " %s [", s->v[i].name);
		for (int st = 0; st < DG_NSS_STATUSES; st++)
			fprintf(f, "%s%s=%s", st ? " " : "", status_names[st],
				action_name(s->v[i].after[st]));
		fputc(']', f);
	}
	fputc('\n', f);
	if (fclose(f) != 0)
		abort();
	return out;
}

static bool same(const struct dg_nss_services *a,
		 const struct dg_nss_services *b)
{
	if (a->n != b->n)
		return false;
	for (size_t i = 0; i < a->n; i++)
		if (strcmp(a->v[i].name, b->v[i].name) ||
		    memcmp(a->v[i].after, b->v[i].after,
			   sizeof(a->v[i].after)))
			return false;
	return true;
}

static int read_db(const char *text, size_t len, const char *db,
		   struct dg_nss_services *out)
{
	int r = dg_nsswitch_services(text, len, db, out);

	if (r != 1 && r != 0 && r != -EINVAL)
		fz_fail("%s: dg_nsswitch_services returned %d", db, r);
	if (r != 1 && (out->n || out->v))
		fz_fail("%s: %d, with %zu services", db, r, out->n);
	return r;
}

/* Is name a word of [text, text + len) (between blanks, '[', ']' or
 * the ends)? */
static bool has_word(const char *text, size_t len, const char *name)
{
	size_t n = strlen(name);

	for (const char *p = text; p + n <= text + len; p++) {
		if (memcmp(p, name, n) != 0)
			continue;
		if ((p == text || isspace((unsigned char)p[-1]) ||
		     p[-1] == ']' || p[-1] == ':') &&
		    (p + n == text + len || isspace((unsigned char)p[n]) ||
		     p[n] == '['))
			return true;
	}
	return false;
}

static void check_db(const char *text, size_t len, const char *db)
{
	struct dg_nss_services s, again;
	char *line, *around;
	size_t around_len;
	FILE *f;
	int r = read_db(text, len, db, &s), r2;

	if (getenv("FUZZ_VERBOSE") && r != 1)
		fprintf(stderr, "  %s: %d\n", db, r);
	if (memchr(text, '\0', len) && r != -EINVAL)
		fz_fail("%s: a NUL byte, read as %d", db, r);
	for (size_t i = 0; r == 1 && i < s.n; i++) {
		const char *name = s.v[i].name;

		if (!name || !*name || strpbrk(name, " \t\n\v\f\r["))
			fz_fail("%s: service %zu is \"%s\"", db, i,
				name ? name : "(null)");
		if (!has_word(text, len, name))
			fz_fail("%s: service \"%s\" is not in the text", db,
				name);
		for (int st = 0; st < DG_NSS_STATUSES; st++)
			(void)action_name(s.v[i].after[st]);
	}

	/* the answer written back is read as itself */
	if (r == 1) {
		line = write_line(db, &s);
		if (getenv("FUZZ_VERBOSE"))
			fprintf(stderr, "  %s", line);
		r2 = read_db(line, strlen(line), db, &again);
		if (r2 != 1 || !same(&s, &again))
			fz_fail("%s: \"%s\" is read as %d, another answer", db,
				line, r2);
		dg_nsswitch_services_free(&again);
		free(line);
	}

	/* other lines around it change nothing */
	if (!(f = open_memstream(&around, &around_len)))
		abort();
	fputs("# nsswitch.conf\nhosts: files dns\n", f);
	fwrite(text, 1, len, f);
	fputs("\nnetgroup: nis\n", f);
	if (fclose(f) != 0)
		abort();
	r2 = read_db(around, around_len, db, &again);
	if (r2 != r || (r == 1 && !same(&s, &again)))
		fz_fail("%s: read as %d, and as %d with other lines around",
			db, r, r2);
	dg_nsswitch_services_free(&again);
	free(around);
	dg_nsswitch_services_free(&s);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* a copy of exactly size bytes: ASan sees a read past the end */
	char *text = malloc(size ? size : 1);

	if (!text)
		abort();
	memcpy(text, data, size);
	check_db(text, size, "group");
	check_db(text, size, "initgroups");
	check_db(text, size, "passwd");
	free(text);
	return 0;
}
