#!/usr/bin/python3
"""pty-password.py PASSWORD CMD [ARG...]: run CMD on a new pty, type
PASSWORD at its first "assword:" prompt, and copy what it prints to
stdout.  Exits with CMD's status (128+N for signal N, 124 on timeout)."""
import os
import pty
import select
import sys
import time

TIMEOUT = 30


def main():
    password, argv = sys.argv[1].encode(), sys.argv[2:]
    pid, fd = pty.fork()
    if pid == 0:
        os.execvp(argv[0], argv)
    buf, typed, end = b"", False, time.time() + TIMEOUT
    while time.time() < end:
        if not select.select([fd], [], [], 0.2)[0]:
            continue
        try:
            data = os.read(fd, 4096)
        except OSError:
            break
        if not data:
            break
        buf += data
        if not typed and b"assword:" in buf:
            os.write(fd, password + b"\n")
            typed = True
    else:
        os.kill(pid, 9)
        os.waitpid(pid, 0)
        sys.stdout.write(buf.decode(errors="replace"))
        sys.exit(124)
    _, status = os.waitpid(pid, 0)
    sys.stdout.write(buf.decode(errors="replace").replace("\r", ""))
    sys.exit(os.waitstatus_to_exitcode(status) if os.WIFEXITED(status) else 128 + os.WTERMSIG(status))


main()
