/* The programs that start a user's processes, and where a line trims in
 * each: what docs/ways-back.md and docs/integration.md say, and its tests show, as data. */
#include "programs.h"

#include <string.h>

#define AUTH DG_PAM_AUTH
#define ACCOUNT DG_PAM_ACCOUNT
#define SESSION DG_PAM_SESSION

/* su, su -l, runuser and runuser -l: initgroups, pam_setcred and
 * pam_open_session in one process, which then forks the shell. */
#define SU_LIKE(svc, label, is_setuid, reached, same)                          \
	{                                                                      \
		.service = svc, .name = label,                                 \
		.effect = {[AUTH] = DG_EFFECT_TRIMS,                           \
			   [ACCOUNT] = DG_EFFECT_CHECKS,                       \
			   [SESSION] = DG_EFFECT_TRIMS},                       \
		.order = "it calls initgroups, pam_setcred and "               \
			 "pam_open_session in one process, then forks the "    \
			 "shell",                                              \
		.fix = "session required pam_dropgroups.so",                   \
		.setuid = is_setuid, .user_reaches = reached,                  \
		.same_program = same,                                          \
	}

#define SUDO_LIKE(svc, label, same)                                            \
	{                                                                      \
		.service = svc, .name = label,                                 \
		.effect = {[AUTH] = DG_EFFECT_FAILS_OPEN,                      \
			   [ACCOUNT] = DG_EFFECT_CHECKS,                       \
			   [SESSION] = DG_EFFECT_TRIMS},                       \
		.order = "it sets the target's groups, then calls "            \
			 "pam_setcred (whose failure it ignores) and "         \
			 "pam_open_session (whose PAM_SESSION_ERR it "         \
			 "ignores)",                                           \
		.fix = "session required pam_dropgroups.so system_err",        \
		.session_needs_system_err = true, .setuid = true,              \
		.user_reaches = true, .same_program = same,                    \
	}

static const struct dg_program programs[] = {
	{
		.service = "login",
		.name = "login (a console)",
		.effect = {[AUTH] = DG_EFFECT_TRIMS,
			   [ACCOUNT] = DG_EFFECT_CHECKS,
			   [SESSION] = DG_EFFECT_UNDONE},
		.order = "it calls pam_open_session, then initgroups and "
			 "pam_setcred, in one process",
		.fix = "auth required pam_dropgroups.so",
		.user_reaches = true,
	},
	{
		.service = "sshd",
		.name = "sshd (ssh to this host)",
		.effect = {[AUTH] = DG_EFFECT_TRIMS,
			   [ACCOUNT] = DG_EFFECT_CHECKS,
			   [SESSION] = DG_EFFECT_UNDONE},
		.order = "it opens the session in its monitor, which no user "
			 "process descends from; the session child calls "
			 "initgroups, then pam_setcred",
		.fix = "account required pam_dropgroups.so and auth required "
		       "pam_dropgroups.so",
		.needs_account = true,
		.user_reaches = true,
	},
	SU_LIKE("su", "su", true, true, NULL),
	SU_LIKE("su-l", "su -l", true, true, "su"),
	SUDO_LIKE("sudo", "sudo", NULL),
	SUDO_LIKE("sudo-i", "sudo -i", "sudo"),
	SU_LIKE("runuser", "runuser", false, false, NULL),
	SU_LIKE("runuser-l", "runuser -l", false, false, "runuser"),
	{
		.service = "cron",
		.name = "cron (a crontab job)",
		.effect = {[AUTH] = DG_EFFECT_TRIMS,
			   [ACCOUNT] = DG_EFFECT_CHECKS,
			   [SESSION] = DG_EFFECT_UNDONE},
		.order = "it opens the session in the process that waits for "
			 "the job; the job's own process calls initgroups, "
			 "then pam_setcred",
		.fix = "auth required pam_dropgroups.so",
		.user_reaches = true,
	},
	{
		.service = "atd",
		.name = "atd (an at or batch job)",
		.effect = {[AUTH] = DG_EFFECT_UNDONE,
			   [ACCOUNT] = DG_EFFECT_CHECKS,
			   [SESSION] = DG_EFFECT_UNDONE},
		.order = "it makes every PAM call in its own process, then "
			 "forks the job, which calls initgroups",
		.instead = "deny at to these users in /etc/at.deny (or leave "
			   "them out of /etc/at.allow)",
		.user_reaches = true,
	},
	{
		.service = "systemd-user",
		.name = "the systemd user manager (systemd-run --user)",
		.effect = {[ACCOUNT] = DG_EFFECT_CHECKS,
			   [SESSION] = DG_EFFECT_TRIMS},
		.order = "it calls initgroups, then pam_open_session, in the "
			 "process that becomes the user manager",
		.fix = "session required pam_dropgroups.so",
		.user_reaches = true,
	},
};

const struct dg_program *dg_programs(size_t *n)
{
	*n = sizeof(programs) / sizeof(*programs);
	return programs;
}

const struct dg_program *dg_programs_find(const char *service)
{
	for (size_t i = 0; i < sizeof(programs) / sizeof(*programs); i++)
		if (strcmp(programs[i].service, service) == 0)
			return &programs[i];
	return NULL;
}
