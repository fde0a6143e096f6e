/* logsink SOCKET FILE [PIDFILE]: a minimal syslog receiver for the test
 * sandbox.
 *
 * Binds a datagram socket at SOCKET (the sandbox's own /dev/log) and
 * appends every message to FILE, one line each, raw: "<PRI>... message".
 * Keeping the priority lets a test tell LOG_ERR from LOG_INFO.  With
 * PIDFILE, each line goes there too, after the sender's pid as the
 * kernel tells it (SCM_CREDENTIALS, not what the sender wrote): which
 * process logged a line. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	struct sockaddr_un addr = {.sun_family = AF_UNIX};
	char *buf;
	FILE *out, *pids = NULL;
	int fd, on = 1;

	if (argc < 3 || argc > 4 || strlen(argv[1]) >= sizeof(addr.sun_path)) {
		fprintf(stderr, "usage: logsink SOCKET FILE [PIDFILE]\n");
		return 2;
	}
	if (argc == 4 && !(pids = fopen(argv[3], "a"))) {
		perror("logsink");
		return 1;
	}
	strcpy(addr.sun_path, argv[1]);
	if (!(buf = malloc(65536)) || !(out = fopen(argv[2], "a"))) {
		perror("logsink");
		return 1;
	}
	fd = socket(AF_UNIX, SOCK_DGRAM, 0);
	(void)unlink(argv[1]);
	if (fd < 0 || bind(fd, (struct sockaddr *)&addr, sizeof(addr)) < 0) {
		perror("logsink: bind");
		return 1;
	}
	(void)chmod(argv[1], 0666);
	if (setsockopt(fd, SOL_SOCKET, SO_PASSCRED, &on, sizeof(on)) < 0) {
		perror("logsink: SO_PASSCRED");
		return 1;
	}
	for (;;) {
		union {
			struct cmsghdr h;
			char space[CMSG_SPACE(sizeof(struct ucred))];
		} control;
		struct iovec iov = {.iov_base = buf, .iov_len = 65535};
		struct msghdr msg = {.msg_iov = &iov, .msg_iovlen = 1,
				     .msg_control = &control,
				     .msg_controllen = sizeof(control)};
		struct cmsghdr *c;
		pid_t pid = 0;
		ssize_t n = recvmsg(fd, &msg, 0);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			perror("logsink: recv");
			return 1;
		}
		while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == '\0'))
			n--;
		fprintf(out, "%.*s\n", (int)n, buf);
		fflush(out);
		for (c = CMSG_FIRSTHDR(&msg); c; c = CMSG_NXTHDR(&msg, c))
			if (c->cmsg_level == SOL_SOCKET &&
			    c->cmsg_type == SCM_CREDENTIALS) {
				struct ucred cred;

				memcpy(&cred, CMSG_DATA(c), sizeof(cred));
				pid = cred.pid;
			}
		if (pids) {
			fprintf(pids, "%ld %.*s\n", (long)pid, (int)n, buf);
			fflush(pids);
		}
	}
}
