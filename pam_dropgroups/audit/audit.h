/* dropgroups audit: find the groups a system uses as negative
 * credentials (dropgroups(8), AUDIT).  audit.c is the verb: its options,
 * the readers it calls (walk.c, sudoers.c, informational.c), the report
 * (groups.c, report.c, dropin.c) and its exit status. */
#ifndef DG_AUDIT_H
#define DG_AUDIT_H

/* help prints the verb's --help on stdout: its text is the CLI's (the
 * one table of every verb's options and exit codes, cli/help.c). */
int dg_audit_main(int argc, char **argv, void (*help)(void));

#endif
