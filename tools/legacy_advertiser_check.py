#!/usr/bin/env python3
"""Checks `beacon advertise --legacy` against the state of the controller it drives.

Hosts one bumble Controller in this process on a TCP server socket (public
address F0:F1:F2:F3:F4:01), runs

    BEACON advertise --legacy --hci tcp:127.0.0.1:PORT ARGS...

waits for its `advertising` line and then reads what the controller itself
was told: advertising type, interval, own address type, channel map, the
advertising data and whether advertising is enabled. It then sends SIGINT (or
--signal TERM) and checks that advertising is disabled again, that beacon
exited 0 and that its last line is `stopped`. Every HCI command beacon sent is
recorded with whether advertising was enabled when it arrived, so the check
also covers "advertising is only changed while disabled".

Prints one JSON object with what was observed and `problems` (empty when
everything matched); exits 0 when it is empty, 1 otherwise, 2 on bad usage.

  legacy_advertiser_check.py --beacon PATH --expect-type 3 --expect-interval 160 \\
      --expect-data HEX [--signal INT|TERM] [--timeout S] -- --uuid U --major 1 --minor 2
"""
from __future__ import annotations

import argparse
import asyncio
import json
import os
import signal
import socket
import sys

from bumble.controller import Controller
from bumble.hci import Address
from bumble.link import LocalLink
from bumble.transport.tcp_server import open_tcp_server_transport_with_socket

PUBLIC_ADDRESS = 'F0:F1:F2:F3:F4:01'
# Core Vol 4 Part E 7.8.5: advertising on all three primary channels, own address public.
ALL_CHANNELS = 0x07
OWN_ADDRESS_PUBLIC = 0
# The legacy commands that change what is advertised (Core Vol 4 Part E 7.8.5, 7.8.7).
CHANGING_COMMANDS = ('HCI_LE_SET_ADVERTISING_PARAMETERS_COMMAND', 'HCI_LE_SET_ADVERTISING_DATA_COMMAND')


class RecordingController(Controller):
    """A bumble Controller that records each command and whether legacy advertising was on when it came."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.received: list[tuple[str, bool]] = []

    def on_hci_command_packet(self, command) -> None:
        self.received.append((command.name, self.le_legacy_advertiser.enabled))
        super().on_hci_command_packet(command)


def advertiser_state(controller: Controller) -> dict:
    """What the controller holds for its legacy advertiser."""
    advertiser = controller.le_legacy_advertiser
    return {
        'type': advertiser.advertising_type,
        'intervalMin': advertiser.advertising_interval_min,
        'intervalMax': advertiser.advertising_interval_max,
        'ownAddressType': advertiser.own_address_type,
        'channelMap': advertiser.advertising_channel_map,
        'data': bytes(advertiser.advertising_data).hex().upper(),
        'enabled': advertiser.enabled,
        'extendedSets': len(controller.advertising_sets),
    }


async def read_line_with(stream: asyncio.StreamReader, lines: list[str], event: str, timeout: float) -> dict | None:
    """Reads stdout lines into `lines` until one is a JSON object with this event; None at end of file."""
    async def read() -> dict | None:
        while raw := await stream.readline():
            line = raw.decode(errors='replace').rstrip('\n')
            lines.append(line)
            try:
                obj = json.loads(line)
            except json.JSONDecodeError:
                continue
            if isinstance(obj, dict) and obj.get('event') == event:
                return obj
        return None
    return await asyncio.wait_for(read(), timeout=timeout)


async def check(args) -> dict:
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(('127.0.0.1', 0))
    sock.listen()
    port = sock.getsockname()[1]
    transport = await open_tcp_server_transport_with_socket(sock)
    controller = RecordingController(
        'C0', host_source=transport.source, host_sink=transport.sink, link=LocalLink(),
        public_address=Address(PUBLIC_ADDRESS, Address.PUBLIC_DEVICE_ADDRESS))

    command = [args.beacon, 'advertise', '--legacy', '--hci', f'tcp:127.0.0.1:{port}', *args.beacon_args]
    result: dict = {'command': command[1:], 'problems': []}
    problems: list[str] = result['problems']
    lines: list[str] = []
    process = await asyncio.create_subprocess_exec(
        *command, stdin=asyncio.subprocess.DEVNULL,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
    try:
        advertising = await read_line_with(process.stdout, lines, 'advertising', args.timeout)
        if advertising is None:
            problems.append('beacon ended its output without an advertising line')
        else:
            result['advertisingLine'] = advertising
            # The controller has processed every command beacon sent before it printed.
            result['during'] = during = advertiser_state(controller)
            expected = {
                'type': args.expect_type,
                'intervalMin': args.expect_interval,
                'intervalMax': args.expect_interval,
                'ownAddressType': OWN_ADDRESS_PUBLIC,
                'channelMap': ALL_CHANNELS,
                'data': args.expect_data.upper(),
                'enabled': True,
                'extendedSets': 0,
            }
            for key, value in expected.items():
                if during[key] != value:
                    problems.append(f'while advertising, controller {key} is {during[key]!r}, expected {value!r}')
            if advertising.get('commands') != 'legacy':
                problems.append(f'advertising line says commands {advertising.get("commands")!r}, expected legacy')
            if advertising.get('data') != args.expect_data.upper():
                problems.append(f'advertising line data {advertising.get("data")!r} differs from the expected data')

        process.send_signal(args.signal)
        stopped = await read_line_with(process.stdout, lines, 'stopped', args.timeout)
        status = await asyncio.wait_for(process.wait(), timeout=args.timeout)
        result['exitStatus'] = status
        result['after'] = after = advertiser_state(controller)
        if stopped is None:
            problems.append('no stopped line')
        elif stopped.get('reason') != 'signal':
            problems.append(f'stopped reason {stopped.get("reason")!r}, expected signal')
        if status != 0:
            problems.append(f'beacon exited with status {status}')
        if after['enabled']:
            problems.append('advertising is still enabled on the controller after beacon stopped')
    except asyncio.TimeoutError:
        problems.append(f'a step took longer than {args.timeout:g} s')
    finally:
        if process.returncode is None:
            process.kill()
            await process.wait()
        result['stdout'] = lines
        result['stderr'] = (await process.stderr.read()).decode(errors='replace').splitlines()
        server = getattr(transport, 'server', None)
        if server is not None:
            server.close()
        await transport.close()

    # Only ever changed while disabled: no parameters or data while advertising was on.
    result['commands'] = [name for name, _ in controller.received]
    for name, enabled in controller.received:
        if name in CHANGING_COMMANDS and enabled:
            problems.append(f'{name} arrived while advertising was enabled')
    return result


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument('--beacon', required=True, help='path of the beacon binary')
    parser.add_argument('--expect-type', type=int, required=True,
                        help='advertising type: 0 ADV_IND, 3 ADV_NONCONN_IND')
    parser.add_argument('--expect-interval', type=int, required=True,
                        help='advertising interval min and max in 0.625 ms slots')
    parser.add_argument('--expect-data', required=True, help='advertising data in hex')
    parser.add_argument('--signal', choices=('INT', 'TERM'), default='INT',
                        help='signal that stops beacon (default: INT)')
    parser.add_argument('--timeout', type=float, default=10.0,
                        help='seconds allowed for each step (default: 10)')
    parser.add_argument('beacon_args', nargs=argparse.REMAINDER, metavar='-- ARGS',
                        help='more beacon advertise arguments')
    args = parser.parse_args()
    if args.beacon_args[:1] == ['--']:
        args.beacon_args = args.beacon_args[1:]
    args.signal = signal.SIGINT if args.signal == 'INT' else signal.SIGTERM
    if not os.access(args.beacon, os.X_OK):
        parser.error(f'{args.beacon} is not executable')
    result = asyncio.run(check(args))
    print(json.dumps(result, separators=(',', ':')))
    return 0 if not result['problems'] else 1


if __name__ == '__main__':
    sys.exit(main())
