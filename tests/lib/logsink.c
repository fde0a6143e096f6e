/* logsink SOCKET FILE: a minimal syslog receiver for the test sandbox.
 *
 * Binds a datagram socket at SOCKET (the sandbox's own /dev/log) and
 * appends every message to FILE, one line each, raw: "<PRI>... message".
 * Keeping the priority lets a test tell LOG_ERR from LOG_INFO. */
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
	FILE *out;
	int fd;

	if (argc != 3 || strlen(argv[1]) >= sizeof(addr.sun_path)) {
		fprintf(stderr, "usage: logsink SOCKET FILE\n");
		return 2;
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
	for (;;) {
		ssize_t n = recv(fd, buf, 65535, 0);

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
	}
}
