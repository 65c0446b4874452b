#!/usr/bin/env python3
"""A TCP proxy on loopback that holds back one direction, for tests of late messages.

Listens on 127.0.0.1 (a free port, or --port) and forwards each connection to
--target HOST:PORT. Bytes from the client reach the target --delay seconds
after they arrived, in order, as if the client's network were that slow; bytes
from the target reach the client at once. A client that closes its end closes
the target's --delay seconds later (after the bytes it sent before), so a
broker behind the proxy hears of a gateway's death as late as of its messages.
A target that closes, or cannot be reached, closes the client at once.

  tcp_delay_proxy.py --target 127.0.0.1:1883 --delay 5

Output on stdout: `LISTENING <port>` once the proxy accepts connections. Runs
until SIGTERM, SIGINT or, when stdin is a pipe, end of file on stdin. Uses the
standard library only (asyncio).
"""
from __future__ import annotations

import argparse
import asyncio
import signal
import sys

from stdin_watch import watch_stdin

CHUNK = 65536


async def copy_at_once(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    """Copies until end of file or an error on either side."""
    while data := await reader.read(CHUNK):
        writer.write(data)
        await writer.drain()


async def copy_delayed(reader: asyncio.StreamReader, writer: asyncio.StreamWriter, delay: float) -> None:
    """Copies each chunk `delay` seconds after it was read, end of file included."""
    loop = asyncio.get_running_loop()
    held: asyncio.Queue[tuple[float, bytes]] = asyncio.Queue()

    async def read() -> None:
        try:
            while data := await reader.read(CHUNK):
                held.put_nowait((loop.time() + delay, data))
        except ConnectionError:
            pass
        held.put_nowait((loop.time() + delay, b''))  # end of file, due like the bytes before it

    reading = asyncio.create_task(read())
    try:
        while True:
            due, data = await held.get()
            await asyncio.sleep(max(0.0, due - loop.time()))
            if not data:
                return
            writer.write(data)
            await writer.drain()
    finally:
        reading.cancel()


async def serve(client_reader: asyncio.StreamReader, client_writer: asyncio.StreamWriter,
                target: tuple[str, int], delay: float) -> None:
    try:
        target_reader, target_writer = await asyncio.open_connection(*target)
    except OSError as error:
        print(f'Warning: cannot reach {target[0]}:{target[1]}: {error}', file=sys.stderr, flush=True)
        client_writer.close()
        return
    directions = [asyncio.create_task(copy_delayed(client_reader, target_writer, delay)),
                  asyncio.create_task(copy_at_once(target_reader, client_writer))]
    try:
        # Either side closing ends the connection: an MQTT connection is useless half closed.
        await asyncio.wait(directions, return_when=asyncio.FIRST_COMPLETED)
    finally:
        for task in directions:
            task.cancel()
        await asyncio.gather(*directions, return_exceptions=True)
        for writer in (target_writer, client_writer):
            writer.close()


def parse_target(text: str) -> tuple[str, int]:
    host, _, port = text.rpartition(':')
    if not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise argparse.ArgumentTypeError(f"expected HOST:PORT, not '{text}'")
    return host, int(port)


async def run(args: argparse.Namespace) -> int:
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(signum, stop.set)
    server = await asyncio.start_server(
        lambda reader, writer: serve(reader, writer, args.target, args.delay), '127.0.0.1', args.port)
    port = server.sockets[0].getsockname()[1]
    print(f'LISTENING {port}', flush=True)
    watch_stdin(stop)
    async with server:
        await stop.wait()
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument('--target', type=parse_target, required=True, metavar='HOST:PORT',
                        help='where each connection is forwarded')
    parser.add_argument('--delay', type=float, required=True, metavar='SECONDS',
                        help='how long bytes from the client are held before the target gets them')
    parser.add_argument('--port', type=int, default=0,
                        help='port to listen on, on 127.0.0.1 (default: a free one)')
    args = parser.parse_args()
    if args.delay < 0:
        parser.error('--delay must not be negative')
    try:
        return asyncio.run(run(args))
    except OSError as error:
        print(f'Error: {error}', file=sys.stderr)
        return 1


if __name__ == '__main__':
    sys.exit(main())
