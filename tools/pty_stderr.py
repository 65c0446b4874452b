#!/usr/bin/env python3
"""Runs a command with its standard error on a pseudo-terminal and its standard output on a pipe,
then prints one JSON object: {"status": exit status, "stdout": text, "stderr": text}.
Used by the tests of progress output, which appears only when standard error is a terminal."""
import json
import os
import subprocess
import sys
import threading


def main() -> int:
    if len(sys.argv) < 2:
        print("usage: pty_stderr.py COMMAND [ARG...]", file=sys.stderr)
        return 64
    controller, terminal = os.openpty()
    child = subprocess.Popen(sys.argv[1:], stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=terminal)
    os.close(terminal)
    # Standard output is read meanwhile, so a child with much to say never blocks on a full pipe.
    stdout_chunks = []
    reader = threading.Thread(target=lambda: stdout_chunks.append(child.stdout.read()))
    reader.start()
    stderr = b""
    while True:
        try:
            chunk = os.read(controller, 65536)
        except OSError:  # EIO: the child closed its end of the terminal
            break
        if not chunk:
            break
        stderr += chunk
    reader.join()
    stdout = b"".join(stdout_chunks)
    status = child.wait(timeout=60)
    json.dump({"status": status, "stdout": stdout.decode(), "stderr": stderr.decode()}, sys.stdout)
    return 0


if __name__ == "__main__":
    sys.exit(main())
