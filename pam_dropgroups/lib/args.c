/* The module's arguments: which ones it takes, and which it refuses. */
#include "args.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "config.h"

#define ARG_CONFIG "config="
#define ARG_CONFIG_LEN (sizeof(ARG_CONFIG) - 1)

static int refuse(char **why, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int refuse(char **why, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	*why = dg_util_vasprintf(fmt, ap);
	va_end(ap);
	return -EINVAL;
}

int dg_args_parse(int argc, const char *const *argv, struct dg_args *args,
		  char **why)
{
	*args = (struct dg_args){.config = DG_DEFAULT_CONFIG};
	*why = NULL;
	for (int i = 0; i < argc; i++) {
		if (strcmp(argv[i], "system_err") == 0)
			args->system_err = true;
		else if (strcmp(argv[i], "report_only") == 0)
			args->report_only = true;
	}
	for (int i = 0; i < argc; i++) {
		const char *a = argv[i];

		if (strcmp(a, "debug") == 0)
			args->debug = true;
		else if (strcmp(a, "system_err") == 0 ||
			 strcmp(a, "report_only") == 0)
			continue;
		else if (strncmp(a, ARG_CONFIG, ARG_CONFIG_LEN) == 0 &&
			 a[ARG_CONFIG_LEN] == '/')
			args->config = a + ARG_CONFIG_LEN;
		else if (strncmp(a, ARG_CONFIG, ARG_CONFIG_LEN) == 0)
			return refuse(why,
				      "config=%s: the policy path must be "
				      "absolute",
				      a + ARG_CONFIG_LEN);
		else
			/* Unlike modules that log and carry on, an option we
			 * do not understand may be a policy we are ignoring. */
			return refuse(why, "unknown option \"%s\"", a);
	}
	return 0;
}
