/* dropgroups edit: the policy, or one drop-in, edited as visudo edits
 * sudoers.  One lock for the whole policy (an flock on the main file:
 * two admins editing the main file and a drop-in at once could each pass
 * the check and together fail it); a private copy the editor works on;
 * the whole policy with the edit in place checked by the module's own
 * loader (what `check --as` and `check --drop-in` run); and only then the
 * edit installed, by rename, so that a login reads the old file or the
 * new one, never part of one. */
#include "edit.h"

#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <sys/file.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "load.h"
#include "util.h"

/* Where the private copy is made: a new directory of mode 0700 under it
 * (mkdtemp), so that nobody else can see or replace the copy, and the
 * editor's own swap and backup files stay there too. */
#define DG_EDIT_TMP "/tmp/dropgroups-edit.XXXXXX"

/* The mode of an installed file when none was there before. */
#define DG_EDIT_MODE 0644

/* The signals that end an edit.  They are held (blocked, with a handler
 * that does nothing) while dropgroups works, so that an edit ends only
 * where the private copy is removed: they interrupt the prompt, and are
 * looked for before the install.  A signal still pending at the end is
 * taken, with its old action, once the copy is gone. */
static const int ending[] = {SIGINT, SIGHUP, SIGTERM};

#define N_ENDING (sizeof(ending) / sizeof(*ending))

struct edit {
	const char *config;  /* the main file, as given */
	const char *drop_in; /* the drop-in's name, or NULL */
	const char *name;    /* the edited file's name in dirfd */
	char *dir;	     /* dirfd's path, in messages */
	char *target;	     /* the edited file's path, in messages */
	int dirfd;	     /* where it is installed */
	int lockfd;	     /* the main file, flocked */
	char *tmpdir;	     /* the private directory, or NULL */
	int tmpfd;
	char *copy;	     /* tmpdir/name: what the editor edits */
	char *orig;	     /* the installed text ("" when absent) */
	mode_t mode;	     /* what the installed file gets */
	sigset_t oldmask;    /* the mask before hold_signals() */
	struct sigaction old_sa[N_ENDING]; /* and the actions of ending[] */
	void (*print_diags)(const struct dg_diags *);
};

static void no_op(int sig)
{
	(void)sig;
}

static int hold_signals(struct edit *e)
{
	struct sigaction sa = {.sa_handler = no_op}; /* no SA_RESTART */
	sigset_t set;

	sigemptyset(&set);
	for (size_t i = 0; i < N_ENDING; i++)
		if (sigaddset(&set, ending[i]) < 0 ||
		    sigaction(ending[i], &sa, &e->old_sa[i]) < 0)
			return -errno;
	return sigprocmask(SIG_BLOCK, &set, &e->oldmask) < 0 ? -errno : 0;
}

static void release_signals(struct edit *e)
{
	for (size_t i = 0; i < N_ENDING; i++)
		(void)sigaction(ending[i], &e->old_sa[i], NULL);
	(void)sigprocmask(SIG_SETMASK, &e->oldmask, NULL);
}

/* Whether one of ending[] came while they were held. */
static bool interrupted(void)
{
	sigset_t pending;

	if (sigpending(&pending) < 0)
		return false;
	for (size_t i = 0; i < N_ENDING; i++)
		if (sigismember(&pending, ending[i]) == 1)
			return true;
	return false;
}

static enum dg_edit_status sys_failed(const char *what, int err)
{
	warnx("%s: %s", what, strerror(err));
	return DG_EDIT_SYSTEM;
}

/* An exclusive flock on the main file, without waiting: a second editor
 * is told at once, as visudo says "busy".  The lock follows the inode,
 * and an edit of the main file installs a new one: a lock taken on the
 * file just replaced is dropped and taken again on the new one. */
static enum dg_edit_status take_lock(struct edit *e)
{
	for (int tries = 0; tries < 5; tries++) {
		struct stat held, now;

		e->lockfd = open(e->config, O_RDONLY | O_NOFOLLOW | O_CLOEXEC |
					    O_NOCTTY | O_NONBLOCK);
		if (e->lockfd < 0) {
			warnx("%s: cannot open: %s", e->config,
			      errno == ELOOP ? "it is a symbolic link, which "
					       "is never followed"
					     : strerror(errno));
			return DG_EDIT_REFUSED;
		}
		if (flock(e->lockfd, LOCK_EX | LOCK_NB) < 0) {
			if (errno != EWOULDBLOCK)
				return sys_failed("flock", errno);
			warnx("%s is being edited: another dropgroups edit "
			      "holds its lock; try again later",
			      e->config);
			return DG_EDIT_REFUSED;
		}
		if (fstat(e->lockfd, &held) < 0)
			return sys_failed("fstat", errno);
		if (lstat(e->config, &now) == 0 && now.st_dev == held.st_dev &&
		    now.st_ino == held.st_ino)
			return DG_EDIT_OK;
		dg_closep(&e->lockfd);
	}
	warnx("%s keeps being replaced; try again later", e->config);
	return DG_EDIT_REFUSED;
}

/* The edited file's name in its directory, and its path in messages. */
static int name_target(struct edit *e)
{
	const char *slash = strrchr(e->config, '/');

	if (!e->drop_in) {
		e->name = slash ? slash + 1 : e->config;
		e->target = strdup(e->config);
	} else {
		e->name = e->drop_in;
		if (asprintf(&e->target, "%s/%s", e->dir, e->name) < 0)
			e->target = NULL;
	}
	return e->target ? 0 : -ENOMEM;
}

/* The directory the file goes to, checked as the loader checks it, and
 * the installed text, read as the loader reads it ("" for a drop-in not
 * there yet). */
static enum dg_edit_status read_installed(struct edit *e)
{
	struct dg_diags diags = {0};
	struct stat st;
	int r = dg_load_open_dir(e->config, e->drop_in != NULL, &e->dirfd,
				 &e->dir, &diags);

	e->mode = DG_EDIT_MODE;
	if (r == 0)
		r = name_target(e);
	if (r == 0 && e->drop_in &&
	    fstatat(e->dirfd, e->name, &st, AT_SYMLINK_NOFOLLOW) < 0 &&
	    errno == ENOENT)
		r = (e->orig = strdup("")) ? 0 : -ENOMEM;
	else if (r == 0 &&
		 (r = dg_load_read_file(e->dirfd, e->name, e->target, &e->orig,
					&diags)) == 0 &&
		 fstatat(e->dirfd, e->name, &st, AT_SYMLINK_NOFOLLOW) == 0)
		e->mode = st.st_mode & DG_EDIT_MODE; /* never looser */
	e->print_diags(&diags);
	dg_diag_free(&diags);
	if (r == -ENOMEM)
		return sys_failed("reading the policy", -r);
	return r < 0 ? DG_EDIT_REFUSED : DG_EDIT_OK;
}

/* Write text to a new file `name` in dirfd (never an existing one, never
 * through a link), on disk before it returns, root's with mode.  0 or
 * -errno; nothing is left behind on failure. */
static int write_new(int dirfd, const char *name, const char *text,
		     mode_t mode)
{
	size_t len = strlen(text), done = 0;
	_cleanup_close_ int fd = openat(dirfd, name,
					O_WRONLY | O_CREAT | O_EXCL |
						O_NOFOLLOW | O_CLOEXEC,
					0600);
	int r = 0;

	if (fd < 0)
		return -errno;
	while (r == 0 && done < len) {
		ssize_t n = write(fd, text + done, len - done);

		if (n < 0 && errno != EINTR)
			r = -errno;
		else if (n > 0)
			done += (size_t)n;
	}
	if (r == 0 && (fchown(fd, 0, 0) < 0 || fchmod(fd, mode) < 0 ||
		       fsync(fd) < 0))
		r = -errno;
	if (r == 0) {
		int closed = close(fd);

		fd = -1; /* closed, even when close fails */
#ifdef __clang_analyzer__
		/* fd's reader is _cleanup_close_, which clang 14's analyzer
		 * does not run: without this it calls the store dead */
		(void)fd;
#endif
		if (closed < 0)
			r = -errno;
	}
	if (r < 0)
		(void)unlinkat(dirfd, name, 0);
	return r;
}

/* The private copy the editor works on: tmpdir/name, 0600. */
static enum dg_edit_status make_copy(struct edit *e)
{
	int r;

	if (!(e->tmpdir = strdup(DG_EDIT_TMP)))
		return sys_failed("strdup", ENOMEM);
	if (!mkdtemp(e->tmpdir)) {
		r = errno;
		free(e->tmpdir);
		e->tmpdir = NULL;
		return sys_failed("mkdtemp", r);
	}
	e->tmpfd = open(e->tmpdir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
					   O_CLOEXEC);
	if (e->tmpfd < 0)
		return sys_failed(e->tmpdir, errno);
	if (asprintf(&e->copy, "%s/%s", e->tmpdir, e->name) < 0) {
		e->copy = NULL;
		return sys_failed("asprintf", ENOMEM);
	}
	if ((r = write_new(e->tmpfd, e->name, e->orig, 0600)) < 0)
		return sys_failed(e->copy, -r);
	return DG_EDIT_OK;
}

/* Remove the private directory and whatever the editor left in it. */
static void remove_copy(struct edit *e)
{
	DIR *d;
	struct dirent *de;
	int fd;

	if (!e->tmpdir)
		return;
	if (e->tmpfd >= 0 && (fd = dup(e->tmpfd)) >= 0) {
		if ((d = fdopendir(fd))) {
			while ((de = readdir(d)))
				if (strcmp(de->d_name, ".") &&
				    strcmp(de->d_name, ".."))
					(void)unlinkat(e->tmpfd, de->d_name, 0);
			closedir(d);
		} else {
			close(fd);
		}
	}
	if (rmdir(e->tmpdir) < 0)
		warn("leaving %s", e->tmpdir);
}

/* The editor, as visudo and git choose it: $VISUAL, else $EDITOR, else
 * Debian's "editor" alternative, else vi. */
static const char *editor(void)
{
	const char *v = getenv("VISUAL");

	if (!v || !*v)
		v = getenv("EDITOR");
	if (v && *v)
		return v;
	return access("/usr/bin/editor", X_OK) == 0 ? "editor" : "vi";
}

/* Run the editor on the copy, through sh as git runs $EDITOR, so that it
 * may hold arguments ("vim -u NONE"); we ignore the terminal's ^C and ^\
 * meanwhile, as system() does: they are the editor's.  0 when it exited
 * 0, else reported. */
static enum dg_edit_status run_editor(const struct edit *e)
{
	struct sigaction ign = {.sa_handler = SIG_IGN}, old_int, old_quit;
	const char *ed = editor();
	_cleanup_free_ char *cmd = NULL;
	int status = 0, err;
	pid_t pid;

	if (asprintf(&cmd, "%s \"$@\"", ed) < 0)
		return sys_failed("asprintf", ENOMEM);
	sigaction(SIGINT, &ign, &old_int);
	sigaction(SIGQUIT, &ign, &old_quit);
	fflush(NULL);
	pid = fork();
	err = errno;
	if (pid == 0) {
		/* exec resets the caught ones to their defaults */
		sigaction(SIGINT, &old_int, NULL);
		sigaction(SIGQUIT, &old_quit, NULL);
		sigprocmask(SIG_SETMASK, &e->oldmask, NULL);
		execl("/bin/sh", "sh", "-c", cmd, ed, e->copy, (char *)NULL);
		_exit(127);
	}
	while (pid > 0 && waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGQUIT, &old_quit, NULL);
	if (pid < 0)
		return sys_failed("fork", err);
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
		return DG_EDIT_OK;
	if (WIFEXITED(status))
		warnx("the editor (%s) exited with status %d; nothing "
		      "installed",
		      ed, WEXITSTATUS(status));
	else
		warnx("the editor (%s) was killed by signal %d; nothing "
		      "installed",
		      ed, WIFSIGNALED(status) ? WTERMSIG(status) : 0);
	return DG_EDIT_REFUSED;
}

/* The whole policy with the copy in place, as `check --as` or `check
 * --drop-in --as` judges it: 0 when it passes, 1 when it is refused, or
 * DG_EDIT_SYSTEM.  *text is what was checked. */
static int check_copy(const struct edit *e, char **text)
{
	struct dg_diags diags = {0};
	struct dg_config cfg = {0};
	struct dg_policy policy = {0};
	_cleanup_free_ char *again = NULL;
	struct dg_load_as as = {.main_from = e->copy};
	int r = dg_load_read_file(e->tmpfd, e->name, e->copy, text, &diags);

	if (e->drop_in)
		as = (struct dg_load_as){.drop_in = e->copy,
					 .drop_in_as = e->drop_in};
	if (r == 0 && strcmp(*text, e->orig) == 0)
		r = 0; /* unchanged: the caller says so */
	else if (r == 0)
		r = dg_load_policy_as(e->config, &as, true, &cfg, &policy,
				      &diags);
	/* An editor left running in the background could still write:
	 * what is installed must be what was checked. */
	if (r == 0 && (dg_load_read_file(e->tmpfd, e->name, e->copy, &again,
					 &diags) < 0 ||
		       strcmp(again, *text) != 0)) {
		dg_diag_add(&diags, DG_ERROR, e->copy, 0,
			    "the file changed while it was checked");
		r = -EINVAL;
	}
	e->print_diags(&diags);
	dg_policy_free(&policy);
	dg_config_free(&cfg);
	dg_diag_free(&diags);
	return r == 0 ? 0 : r == -ENOMEM ? DG_EDIT_SYSTEM : DG_EDIT_REFUSED;
}

/* Install text atomically: a new hidden file beside the old one (the
 * loader skips names with a leading dot), on disk, root's, then renamed
 * over it, and the directory synced so that the rename is too. */
static enum dg_edit_status install(const struct edit *e, const char *text)
{
	_cleanup_free_ char *tmp = NULL;
	unsigned char rnd[8];
	int r;

	if (getrandom(rnd, sizeof(rnd), 0) != (ssize_t)sizeof(rnd))
		return sys_failed("getrandom", errno);
	if (asprintf(&tmp, ".%s.%02x%02x%02x%02x%02x%02x%02x%02x", e->name,
		     rnd[0], rnd[1], rnd[2], rnd[3], rnd[4], rnd[5], rnd[6],
		     rnd[7]) < 0) {
		tmp = NULL;
		return sys_failed("asprintf", ENOMEM);
	}
	if ((r = write_new(e->dirfd, tmp, text, e->mode)) < 0)
		return sys_failed(e->target, -r);
	/* A signal that came while the file was written and synced (which
	 * can take long) ends the edit here: the rename is the one step
	 * that cannot be taken back. */
	if (interrupted()) {
		(void)unlinkat(e->dirfd, tmp, 0);
		warnx("%s: interrupted; nothing installed", e->target);
		return DG_EDIT_REFUSED;
	}
	if (renameat(e->dirfd, tmp, e->dirfd, e->name) < 0) {
		r = errno;
		(void)unlinkat(e->dirfd, tmp, 0);
		return sys_failed(e->target, r);
	}
	if (fsync(e->dirfd) < 0)
		return sys_failed(e->dir, errno);
	printf("%s: installed\n", e->target);
	/* A signal held meanwhile ends the process once it is let in,
	 * and stdio is not flushed then: the line must be out first. */
	(void)fflush(stdout);
	return DG_EDIT_OK;
}

/* visudo's question after a refused edit.  Without a terminal to ask,
 * the edit is discarded; there is no answer that installs it.  The held
 * signals are let in while it waits for the answer. */
static bool edit_again(const struct edit *e)
{
	_cleanup_free_ char *line = NULL;
	size_t cap = 0;

	if (!isatty(STDIN_FILENO))
		return false;
	for (;;) {
		struct pollfd in = {.fd = STDIN_FILENO, .events = POLLIN};
		const char *c;

		printf("What now? (e)dit again, (x) discard: ");
		fflush(stdout);
		if (ppoll(&in, 1, NULL, &e->oldmask) < 0 ||
		    getline(&line, &cap, stdin) < 0) {
			printf("\n");
			return false;
		}
		for (c = line; *c == ' ' || *c == '\t'; c++)
			;
		if (*c == 'e' || *c == 'E')
			return true;
		if (*c == 'x' || *c == 'X')
			return false;
		printf("Options are: (e)dit again, (x) discard; a policy "
		       "the check refuses is never installed.\n");
	}
}

static enum dg_edit_status edit_loop(struct edit *e)
{
	for (;;) {
		_cleanup_free_ char *text = NULL;
		int r = run_editor(e);

		if (r != DG_EDIT_OK)
			return r;
		r = check_copy(e, &text);
		if (r == DG_EDIT_SYSTEM)
			return r;
		if (interrupted()) {
			warnx("%s: interrupted; nothing installed", e->target);
			return DG_EDIT_REFUSED;
		}
		if (r == 0 && strcmp(text, e->orig) == 0) {
			printf("%s: unchanged; nothing installed\n",
			       e->target);
			return DG_EDIT_OK;
		}
		if (r == 0)
			return install(e, text);
		if (!edit_again(e)) {
			warnx("%s: the edit is discarded; nothing installed",
			      e->target);
			return DG_EDIT_REFUSED;
		}
	}
}

enum dg_edit_status dg_edit_run(const char *config, const char *drop_in,
				void (*print_diags)(const struct dg_diags *))
{
	struct edit e = {.config = config,
			 .drop_in = drop_in,
			 .dirfd = -1,
			 .lockfd = -1,
			 .tmpfd = -1,
			 .print_diags = print_diags};
	enum dg_edit_status r;
	int err;

	/* The files are root's, as the loader requires: fchown needs it. */
	if (geteuid() != 0) {
		warnx("edit needs root: the policy's files are root's");
		return DG_EDIT_REFUSED;
	}
	umask(077);
	if ((err = hold_signals(&e)) < 0)
		return sys_failed("holding signals", -err);
	if ((r = take_lock(&e)) == DG_EDIT_OK &&
	    (r = read_installed(&e)) == DG_EDIT_OK &&
	    (r = make_copy(&e)) == DG_EDIT_OK)
		r = edit_loop(&e);
	remove_copy(&e);
	free(e.tmpdir);
	free(e.copy);
	free(e.orig);
	free(e.dir);
	free(e.target);
	dg_closep(&e.tmpfd);
	dg_closep(&e.dirfd);
	dg_closep(&e.lockfd); /* and with it the lock */
	if (interrupted())
		r = DG_EDIT_REFUSED; /* ended by the signal: never 0 */
	release_signals(&e);
	return r;
}
