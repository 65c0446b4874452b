#!/usr/bin/env python3
"""Emulated Bluetooth LE controllers (bumble) on one virtual radio.

Starts N bumble controllers attached to a single LocalLink, so whatever one
advertises the others can scan. Each controller speaks H4 on its own
transport and has its own non-zero public address F0:F1:F2:F3:F4:0<i+1>
(bumble's default is 00:00:00:00:00:00, which real stacks reject).

Controller specs (one per controller; default: `tcp` COUNT times):
  tcp               listening TCP socket on HOST with a free port
  tcp:PORT          listening TCP socket on HOST:PORT
  tcp:HOST:PORT     listening TCP socket on HOST:PORT
  unix:PATH         listening unix-domain stream socket at PATH
  pty:PATH          pseudo-terminal; PATH becomes a symlink to its replica

bumble implements the LE extended advertising and extended scanning commands
but leaves them out of its Read Local Supported Commands bitmap, so hosts that
decide by the bitmap use the legacy commands. --extended (every controller) or
--extended-on I (controller I; repeatable) adds them to the bitmap.
bumble's controllers list the LE Coded PHY (bit 11) among their LE features
(though their reports always say LE 1M); --without-coded-phy clears it on
every controller, for a controller without long range.

Output on stdout, one line per controller and then READY:
  CONTROLLER <i> <beacon transport spec>    (tcp:H:P, unix:PATH or serial:PATH)
  READY

Runs until SIGTERM, SIGINT (unless ignored on entry, as in a shell's
background job) or, when stdin is a pipe, end of file on stdin (so a parent
that dies never leaves it behind). Start-up is bounded by --startup-timeout.
"""
from __future__ import annotations

import argparse
import asyncio
import logging
import os
import signal
import socket
import sys

from bumble import hci
from bumble.controller import Controller
from bumble.hci import Address
from bumble.link import LocalLink
from bumble.transport import open_transport
from bumble.transport.tcp_server import open_tcp_server_transport_with_socket

from stdin_watch import watch_stdin


def public_address(index: int) -> Address:
    """F0:F1:F2:F3:F4:01 for controller 0, :02 for controller 1, and so on."""
    if not 0 <= index < 255:
        raise ValueError(f'controller index {index} out of range 0...254')
    return Address(f'F0:F1:F2:F3:F4:{index + 1:02X}', Address.PUBLIC_DEVICE_ADDRESS)


# The extended advertising and scanning commands bumble's Controller handles
# (on_hci_le_set_extended_*, ...) but does not list as supported.
EXTENDED_COMMANDS = frozenset({
    hci.HCI_LE_SET_ADVERTISING_SET_RANDOM_ADDRESS_COMMAND,
    hci.HCI_LE_SET_EXTENDED_ADVERTISING_PARAMETERS_COMMAND,
    hci.HCI_LE_SET_EXTENDED_ADVERTISING_DATA_COMMAND,
    hci.HCI_LE_SET_EXTENDED_SCAN_RESPONSE_DATA_COMMAND,
    hci.HCI_LE_SET_EXTENDED_ADVERTISING_ENABLE_COMMAND,
    hci.HCI_LE_READ_MAXIMUM_ADVERTISING_DATA_LENGTH_COMMAND,
    hci.HCI_LE_READ_NUMBER_OF_SUPPORTED_ADVERTISING_SETS_COMMAND,
    hci.HCI_LE_REMOVE_ADVERTISING_SET_COMMAND,
    hci.HCI_LE_CLEAR_ADVERTISING_SETS_COMMAND,
    hci.HCI_LE_SET_EXTENDED_SCAN_PARAMETERS_COMMAND,
    hci.HCI_LE_SET_EXTENDED_SCAN_ENABLE_COMMAND,
})


def add_extended_commands(controller: Controller) -> None:
    """Lists the extended commands in this controller's supported-commands bitmap."""
    # supported_commands is a class attribute shared by every Controller:
    # give this one a set of its own instead of adding to the shared one.
    controller.supported_commands = set(controller.supported_commands) | EXTENDED_COMMANDS


class Endpoint:
    """One controller's transport: how bumble opens it and how beacon reaches it."""

    def __init__(self, kind: str, host: str = '', port: int = 0, path: str = ''):
        self.kind, self.host, self.port, self.path = kind, host, port, path
        self.transport = None

    @classmethod
    def parse(cls, spec: str, default_host: str) -> 'Endpoint':
        kind, _, rest = spec.partition(':')
        if kind == 'tcp':
            if not rest:
                return cls('tcp', host=default_host)
            host, _, port = rest.rpartition(':')
            if not port.isdigit() or int(port) > 65535:
                raise ValueError(f'bad TCP port in {spec!r}')
            return cls('tcp', host=host or default_host, port=int(port))
        if kind in ('unix', 'pty'):
            if not rest:
                raise ValueError(f'{kind}: needs a path, as in {kind}:/tmp/hci0')
            return cls(kind, path=os.path.abspath(rest))
        raise ValueError(
            f'unknown controller spec {spec!r}; valid forms: '
            'tcp, tcp:PORT, tcp:HOST:PORT, unix:PATH, pty:PATH'
        )

    async def open(self):
        if self.kind == 'tcp':
            # Bind here (port 0 = the kernel picks a free one) so the printed
            # port is known to be ours; no probing, no race with other rigs.
            sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            sock.bind((self.host, self.port))
            sock.listen()
            self.port = sock.getsockname()[1]
            self.transport = await open_tcp_server_transport_with_socket(sock)
        elif self.kind == 'unix':
            self.transport = await open_transport(f'unix-server:{self.path}')
        else:
            # bumble creates the symlink and removes it again at exit.
            self.transport = await open_transport(f'pty:{self.path}')
        return self.transport

    def beacon_spec(self) -> str:
        if self.kind == 'tcp':
            return f'tcp:{self.host}:{self.port}'
        if self.kind == 'unix':
            return f'unix:{self.path}'
        return f'serial:{self.path}'

    async def close(self):
        if self.transport is not None:
            server = getattr(self.transport, 'server', None)
            if server is not None:
                server.close()
            try:
                await self.transport.close()
            except Exception as error:  # closing is best effort at shutdown
                logging.debug('closing %s: %s', self.beacon_spec(), error)
        if self.kind == 'unix':
            try:
                os.unlink(self.path)
            except FileNotFoundError:
                pass


async def run(args) -> int:
    specs = args.specs or ['tcp'] * args.count
    endpoints = [Endpoint.parse(spec, args.host) for spec in specs]
    for index in args.extended_on:
        if not 0 <= index < len(endpoints):
            raise ValueError(f'--extended-on {index}: there are controllers 0...{len(endpoints) - 1}')
    extended = set(range(len(endpoints))) if args.extended else set(args.extended_on)
    link = LocalLink()
    controllers = []
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGINT, signal.SIGTERM):
        # A SIGINT ignored on entry stays ignored, as shells expect of their
        # background jobs: Ctrl-C in a script must leave the controllers up
        # until the script has stopped what uses them.
        if signum == signal.SIGINT and signal.getsignal(signum) == signal.SIG_IGN:
            continue
        loop.add_signal_handler(signum, stop.set)
    try:
        async def start():
            for index, endpoint in enumerate(endpoints):
                transport = await endpoint.open()
                controller = Controller(
                    f'C{index}', host_source=transport.source, host_sink=transport.sink,
                    link=link, public_address=public_address(index),
                )
                if index in extended:
                    add_extended_commands(controller)
                if args.without_coded_phy:
                    controller.le_features &= ~hci.LeFeatureMask.LE_CODED_PHY
                controllers.append(controller)
        await asyncio.wait_for(start(), timeout=args.startup_timeout)
        for index, endpoint in enumerate(endpoints):
            print(f'CONTROLLER {index} {endpoint.beacon_spec()}')
        print('READY', flush=True)
        if not args.ignore_stdin:
            watch_stdin(stop)
        await stop.wait()
        return 0
    finally:
        for endpoint in endpoints:
            await endpoint.close()


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument('--count', type=int, default=2,
                        help='number of tcp controllers when no SPEC is given (default: 2)')
    parser.add_argument('--host', default='127.0.0.1',
                        help='address tcp controllers listen on (default: 127.0.0.1)')
    parser.add_argument('--startup-timeout', type=float, default=10.0,
                        help='seconds allowed to open every transport (default: 10)')
    parser.add_argument('--ignore-stdin', action='store_true',
                        help='do not exit at end of file on a stdin pipe')
    parser.add_argument('--extended', action='store_true',
                        help='list the LE extended advertising and scanning commands as supported on every controller')
    parser.add_argument('--extended-on', type=int, action='append', default=[], metavar='I',
                        help='the same for controller I only (repeatable)')
    parser.add_argument('--without-coded-phy', action='store_true',
                        help='leave the LE Coded PHY out of every controller\'s LE features')
    parser.add_argument('specs', nargs='*', metavar='SPEC')
    args = parser.parse_args()
    if args.count < 1 and not args.specs:
        parser.error('--count must be at least 1')
    logging.basicConfig(level=os.environ.get('BUMBLE_LOGLEVEL', 'WARNING').upper())
    try:
        return asyncio.run(run(args))
    except (ValueError, OSError) as error:
        print(f'Error: {error}', file=sys.stderr)
        return 1
    except asyncio.TimeoutError:
        print(f'Error: controllers not ready within {args.startup_timeout:g} s',
              file=sys.stderr)
        return 1


if __name__ == '__main__':
    sys.exit(main())
