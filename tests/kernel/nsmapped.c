/* nsmapped: run a command as root of a new user namespace whose maps the
 * set-user-ID newuidmap(1) and newgidmap(1) wrote, in the kernel-check VM.
 *
 *   nsmapped UIDMAP GIDMAP -- CMD [ARG...]
 *
 * UIDMAP and GIDMAP: "INNER:OUTER:COUNT[,INNER:OUTER:COUNT...]", handed
 * to newuidmap and newgidmap (from PATH) as their arguments.  This is
 * what rootless containers and `unshare --map-auto` do: the caller, an
 * unprivileged user with ranges in /etc/subuid and /etc/subgid, has the
 * helpers write the maps of its new namespace.  newgidmap leaves
 * /proc/PID/setgroups at "allow" when a range comes from /etc/subgid, so
 * root of the namespace holds CAP_SETGID there and may call setgroups().
 *
 * The child unshares CLONE_NEWUSER, waits until the parent has run the
 * helpers, and execs CMD (uid 0 of the namespace when UIDMAP maps 0 to
 * the caller).  Exits with CMD's status, 125 on its own errors. */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static void die(const char *what)
{
	fprintf(stderr, "nsmapped: %s: %s\n", what, strerror(errno));
	exit(125);
}

/* Run HELPER PID and the fields of MAP; its exit status. */
static int run_helper(const char *helper, pid_t pid, const char *map)
{
	char *copy = strdup(map), *argv[3 + 3 * 16 + 1], pidtext[16];
	int argc = 0, status;
	pid_t p;

	if (!copy)
		die("strdup");
	snprintf(pidtext, sizeof(pidtext), "%d", (int)pid);
	argv[argc++] = (char *)helper;
	argv[argc++] = pidtext;
	for (char *tok = strtok(copy, ",:"); tok; tok = strtok(NULL, ",:")) {
		if (argc >= 3 * 16 + 2) {
			errno = E2BIG;
			die("map");
		}
		argv[argc++] = tok;
	}
	argv[argc] = NULL;
	p = fork();
	if (p < 0)
		die("fork");
	if (p == 0) {
		execvp(helper, argv);
		die(helper);
	}
	if (waitpid(p, &status, 0) < 0)
		die("waitpid");
	free(copy);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

int main(int argc, char **argv)
{
	int ready[2], go[2], status;
	char c;
	pid_t pid;

	if (argc < 5 || strcmp(argv[3], "--") != 0) {
		fprintf(stderr, "usage: nsmapped UIDMAP GIDMAP -- CMD [ARG...]\n");
		return 125;
	}
	if (pipe(ready) || pipe(go))
		die("pipe");
	pid = fork();
	if (pid < 0)
		die("fork");
	if (pid == 0) {
		close(ready[0]);
		close(go[1]);
		if (unshare(CLONE_NEWUSER))
			die("unshare(CLONE_NEWUSER)");
		if (write(ready[1], "r", 1) != 1)
			die("write");
		if (read(go[0], &c, 1) != 1 || c != 'g')
			_exit(125);
		execvp(argv[4], argv + 4);
		die(argv[4]);
	}
	close(ready[1]);
	close(go[0]);
	if (read(ready[0], &c, 1) != 1)
		die("the child did not unshare");
	c = 'x';
	if (run_helper("newuidmap", pid, argv[1]) == 0 &&
	    run_helper("newgidmap", pid, argv[2]) == 0)
		c = 'g';
	else
		fprintf(stderr, "nsmapped: newuidmap or newgidmap failed\n");
	if (write(go[1], &c, 1) != 1)
		die("write");
	if (waitpid(pid, &status, 0) < 0)
		die("waitpid");
	if (c != 'g')
		return 125;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}
