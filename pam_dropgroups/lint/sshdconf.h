/* sshd_config as OpenSSH 9.2's sshd (Debian 12) reads it when it starts,
 * for the one thing lint and explain ask of it: does sshd run its PAM
 * stack at all (UsePAM)?  With "UsePAM no" it runs none, and no
 * pam_dropgroups line in /etc/pam.d/sshd ever runs.
 *
 * The rules, as servconf.c and misc.c of OpenSSH 9.2 have them: a
 * keyword is matched without regard to case, and is split from its
 * arguments by blanks or one "=", quotes included; the arguments are
 * split as argv_split does (quotes, backslashes, a word starting with
 * "#" ends the line); the first UsePAM sshd reads wins, and with none its
 * compiled-in default is "no" (Debian's shipped file sets "yes"); UsePAM
 * is global: in a Match block (but "Match all") sshd refuses to start;
 * "Include" takes globs, relative to /etc/ssh, read in glob(3)'s order
 * where the line is, at most 16 deep (a loop is refused).  Nothing else
 * of the file is checked: sshd -t does that. */
#ifndef DG_SSHDCONF_H
#define DG_SSHDCONF_H

#define DG_SSHDCONF_PATH "/etc/ssh/sshd_config"
/* where sshd looks for a relative Include, whatever file it reads */
#define DG_SSHDCONF_DIR "/etc/ssh"

enum dg_sshdconf_pam {
	DG_SSHDCONF_ABSENT,  /* the file does not exist: sshd does not start */
	DG_SSHDCONF_PAM,     /* UsePAM yes: the stack runs */
	DG_SSHDCONF_NO_PAM,  /* UsePAM no, or no line sets it */
	DG_SSHDCONF_UNKNOWN, /* a file cannot be read, or sshd refuses it */
};

struct dg_sshdconf {
	enum dg_sshdconf_pam pam;
	/* PAM, NO_PAM: the UsePAM line that decides, or the main file and
	 * line 0 when none does.  UNKNOWN: the line sshd refuses, or the
	 * file that cannot be read (line 0). */
	char *file;
	int line;
	char *why; /* UNKNOWN: why, as a clause */
};

/* Read the sshd configuration at path, relative Includes under sshdir
 * (DG_SSHDCONF_DIR but in tests), into *out.  0 or -ENOMEM; every other
 * failure is DG_SSHDCONF_UNKNOWN. */
int dg_sshdconf_read(const char *path, const char *sshdir,
		     struct dg_sshdconf *out);

void dg_sshdconf_free(struct dg_sshdconf *c);

#endif
