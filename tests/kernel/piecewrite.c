/* piecewrite: write standard input to a file in pieces of a given size,
 * for the kernel-check VM's tests of the sticky list.
 *
 *   piecewrite [-o OFFSET] FILE SIZE
 *
 * Opens FILE for writing (without O_TRUNC or O_APPEND), reads all of
 * standard input, and writes it with one write(2) per SIZE bytes (the
 * last piece may be shorter), stopping at the first error.  SIZE 0 makes
 * one zero-length write(2).  -o OFFSET writes with pwrite(2) from OFFSET
 * instead.  Prints what each call returned, and exits 0 when every piece
 * was written, 1 when a call failed, 125 on its own errors. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	size_t len = 0, cap = 1 << 16, size, done = 0;
	long long offset = -1;
	char *buf = malloc(cap);
	ssize_t n;
	int fd, opt;

	while ((opt = getopt(argc, argv, "o:")) != -1) {
		if (opt != 'o')
			goto usage;
		offset = atoll(optarg);
	}
	if (argc - optind != 2 || !buf)
		goto usage;
	size = strtoul(argv[optind + 1], NULL, 10);
	while ((n = read(0, buf + len, cap - len)) > 0) {
		len += (size_t)n;
		if (len == cap && !(buf = realloc(buf, cap *= 2))) {
			perror("piecewrite");
			return 125;
		}
	}
	fd = open(argv[optind], O_WRONLY | O_CLOEXEC);
	if (fd < 0) {
		fprintf(stderr, "piecewrite: %s: %s\n", argv[optind], strerror(errno));
		return 125;
	}
	do {
		size_t piece = len - done < size ? len - done : size;

		if (offset >= 0)
			n = pwrite(fd, buf + done, piece, offset + (long long)done);
		else
			n = write(fd, buf + done, piece);
		if (n < 0) {
			printf("write(%zu bytes at %zu): %s\n", piece, done, strerror(errno));
			return 1;
		}
		printf("write(%zu bytes at %zu): %zd\n", piece, done, n);
		done += (size_t)n;
	} while (done < len && n > 0);
	return close(fd) < 0 || done < len;
usage:
	fprintf(stderr, "usage: piecewrite [-o OFFSET] FILE SIZE < DATA\n");
	return 125;
}
