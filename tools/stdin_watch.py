"""Stop a long-running rig process when the parent that started it goes away.

A parent that keeps the write end of our stdin pipe open signals "still here";
when it exits (even by SIGKILL) the pipe reaches end of file and we stop, so
test runs never leave emulated controllers or advertisers behind.
"""
from __future__ import annotations

import asyncio
import os
import stat
import sys


def watch_stdin(stop: asyncio.Event) -> bool:
    """Set `stop` at end of file on stdin if stdin is a pipe or a socket.

    Terminals, /dev/null and regular files are not watched (a shell starting a
    background job gives it /dev/null). Returns whether stdin is watched.
    """
    try:
        fd = sys.stdin.fileno()
        mode = os.fstat(fd).st_mode
    except (AttributeError, ValueError, OSError):
        return False
    if not (stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode)):
        return False
    loop = asyncio.get_running_loop()

    def readable() -> None:
        try:
            data = os.read(fd, 4096)
        except BlockingIOError:
            return
        except OSError:
            data = b''
        if not data:
            loop.remove_reader(fd)
            stop.set()

    os.set_blocking(fd, False)
    loop.add_reader(fd, readable)
    return True
