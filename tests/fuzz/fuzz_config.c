/* libFuzzer target: the policy validator (config.c) and the resolver.
 *
 * The input is policy text.  It is parsed as a main file and, separately,
 * as a drop-in; each result is resolved through NSS and checked.  When the
 * input has lines starting with "#%file" (the separator fuzz_load uses),
 * the sections are also parsed into one config, the first as the main
 * file and the rest as drop-ins, as the loader would.  No I/O. */
#include "fuzz_common.h"

#include "plan.h"

#include "nss.h"

#define FZ_MAX_SECTIONS 8

static void resolve_and_check(const struct dg_config *cfg,
			      struct dg_diags *diags)
{
	struct dg_policy pol = {0};
	int r;

	fz_check_config(cfg);
	r = dg_load_resolve(cfg, false, NULL, &pol, diags);
	if (r < 0)
		fz_fail("dg_load_resolve returned %d", r);
	fz_check_policy(cfg, &pol);
	fz_check_diags(diags);
	dg_policy_free(&pol);
}

static void parse_one(const char *text, enum dg_file_role role)
{
	struct dg_config cfg = {0};
	struct dg_diags diags = {0};
	int r = dg_config_parse(&cfg, "fuzz.conf", text, role, &diags);

	if (r < 0)
		fz_fail("dg_config_parse returned %d", r);
	if (cfg.files.n != 1 || strcmp(cfg.files.v[0], "fuzz.conf") != 0)
		fz_fail("the file was not recorded");
	if (role == DG_DROP_IN && cfg.include_dir)
		fz_fail("a drop-in set include_dir");
	fz_check_diags(&diags);
	resolve_and_check(&cfg, &diags);
	dg_config_free(&cfg);
	dg_diag_free(&diags);
}

static void parse_sections(const uint8_t *data, size_t size)
{
	struct fz_span spans[FZ_MAX_SECTIONS];
	struct dg_config cfg = {0};
	struct dg_diags diags = {0};
	size_t n = fz_split((const char *)data, size, "#%file", spans,
			    FZ_MAX_SECTIONS);

	if (n < 2)
		return;
	for (size_t i = 0; i < n; i++) {
		char *text = fz_text((const uint8_t *)spans[i].start,
				     spans[i].len);
		char name[32];
		int r;

		snprintf(name, sizeof(name), "part%zu.conf", i);
		r = dg_config_parse(&cfg, name, text,
				    i ? DG_DROP_IN : DG_MAIN_FILE, &diags);
		free(text);
		if (r < 0)
			fz_fail("dg_config_parse returned %d", r);
	}
	if (cfg.files.n != n)
		fz_fail("%zu files recorded for %zu parsed", cfg.files.n, n);
	resolve_and_check(&cfg, &diags);
	dg_config_free(&cfg);
	dg_diag_free(&diags);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fz_text(data, size);

	parse_one(text, DG_MAIN_FILE);
	parse_one(text, DG_DROP_IN);
	free(text);
	parse_sections(data, size);
	return 0;
}
