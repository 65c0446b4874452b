#!/usr/bin/env python3
"""Reference iBeacon advertiser and scanner built on bumble's own host stack.

Used to check beacon against an implementation that shares none of its code:

  advertise --transport T --uuid U --major M --minor m [--power -59] [--duration S]
      Advertises an iBeacon (flags 0x06 + Apple manufacturer data, UUID/major/
      minor big-endian, last byte the calibrated RSSI at 1 m) from the
      controller's public address. Prints a JSON line when advertising starts
      and one when it stops.
  scan --transport T [--duration S] [--count N] [--active]
      Scans with duplicate filtering off and prints one JSON line per
      advertisement: address, address type, rssi, the whole advertising data
      and the manufacturer-specific data in hex, and the iBeacon fields when the
      data carries one. With --count it stops after N advertisements.

T is a bumble transport spec such as tcp-client:127.0.0.1:9001,
unix:/tmp/hci.sock or serial:/dev/ttyUSB0. Both commands run until SIGINT,
SIGTERM, --duration or, when stdin is a pipe, end of file on stdin. Every line
has `event` and `time`, the wall-clock time it was printed (ISO 8601 UTC with
milliseconds, as beacon prints it), so it can be set against beacon's lines.
"""
from __future__ import annotations

import argparse
import asyncio
import datetime
import json
import logging
import os
import signal
import struct
import sys
import uuid as uuidlib

from bumble.device import Advertisement, AdvertisingType, Device
from bumble.hci import Address, OwnAddressType
from bumble.transport import open_transport

from stdin_watch import watch_stdin

APPLE_COMPANY_ID = 0x004C
IBEACON_TYPE_AND_LENGTH = bytes([0x02, 0x15])
AD_FLAGS = 0x01
AD_MANUFACTURER_SPECIFIC = 0xFF
LE_GENERAL_DISCOVERABLE_BR_EDR_NOT_SUPPORTED = 0x06


def ibeacon_advertising_data(beacon_uuid: uuidlib.UUID, major: int, minor: int, power: int) -> bytes:
    """The 30 bytes of an iBeacon advertisement."""
    flags = bytes([2, AD_FLAGS, LE_GENERAL_DISCOVERABLE_BR_EDR_NOT_SUPPORTED])
    payload = (struct.pack('<H', APPLE_COMPANY_ID) + IBEACON_TYPE_AND_LENGTH
               + beacon_uuid.bytes + struct.pack('>HHb', major, minor, power))
    manufacturer = bytes([len(payload) + 1, AD_MANUFACTURER_SPECIFIC]) + payload
    return flags + manufacturer


def ad_structures(data: bytes):
    """(type, value) for each well-formed AD structure; stops at the first malformed one."""
    offset = 0
    while offset < len(data):
        length = data[offset]
        if length == 0 or offset + 1 + length > len(data):
            return
        yield data[offset + 1], data[offset + 2: offset + 1 + length]
        offset += 1 + length


def decode_ibeacon(manufacturer: bytes) -> dict | None:
    if len(manufacturer) != 25 or manufacturer[:4] != struct.pack('<H', APPLE_COMPANY_ID) + IBEACON_TYPE_AND_LENGTH:
        return None
    major, minor, power = struct.unpack('>HHb', manufacturer[20:25])
    return {'uuid': str(uuidlib.UUID(bytes=bytes(manufacturer[4:20]))).upper(),
            'major': major, 'minor': minor, 'measuredPower': power}


class Stopper:
    """Why and when the running command should stop."""

    def __init__(self):
        self.event = asyncio.Event()
        self.reason = 'duration'

    def stop(self, reason: str) -> None:
        if not self.event.is_set():
            self.reason = reason
            self.event.set()


STOPPER: Stopper | None = None


def now_iso8601() -> str:
    """The wall-clock time as beacon prints it: 2026-11-29T12:00:00.000Z (milliseconds, truncated)."""
    now = datetime.datetime.now(datetime.timezone.utc)
    return now.strftime('%Y-%m-%dT%H:%M:%S.') + f'{now.microsecond // 1000:03d}Z'


def emit(obj: dict) -> None:
    """One JSON object per line with its time, flushed; a reader that went away stops the command."""
    obj = {'event': obj['event'], 'time': now_iso8601(), **obj}
    try:
        print(json.dumps(obj, separators=(',', ':')), flush=True)
    except BrokenPipeError:
        # Point stdout at /dev/null so the interpreter's final flush is quiet.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        if STOPPER is not None:
            STOPPER.stop('stdout closed')


def address_fields(address: Address) -> dict:
    return {'address': address.to_string(False),
            'addressType': 'public' if address.is_public else 'random'}


async def wait_for_stop(duration: float | None, ignore_stdin: bool) -> str:
    """Wait for a signal, the duration, end of file on a stdin pipe or a closed stdout."""
    stopper = STOPPER if STOPPER is not None else Stopper()
    loop = asyncio.get_running_loop()
    loop.add_signal_handler(signal.SIGINT, stopper.stop, 'SIGINT')
    loop.add_signal_handler(signal.SIGTERM, stopper.stop, 'SIGTERM')
    if not ignore_stdin:
        stdin_gone = asyncio.Event()
        if watch_stdin(stdin_gone):
            loop.create_task(stdin_gone.wait()).add_done_callback(lambda _: stopper.stop('stdin'))
    try:
        await asyncio.wait_for(stopper.event.wait(), timeout=duration)
    except asyncio.TimeoutError:
        pass
    return stopper.reason


async def open_device(spec: str, timeout: float):
    transport = await asyncio.wait_for(open_transport(spec), timeout=timeout)
    device = Device.with_hci('bumble-beacon', Address('F0:00:00:00:00:00'),
                             transport.source, transport.sink)
    await asyncio.wait_for(device.power_on(), timeout=timeout)
    return transport, device


async def advertise(args) -> int:
    global STOPPER
    STOPPER = Stopper()
    beacon_uuid = uuidlib.UUID(args.uuid)
    data = ibeacon_advertising_data(beacon_uuid, args.major, args.minor, args.power)
    transport, device = await open_device(args.transport, args.timeout)
    try:
        await device.start_advertising(
            advertising_type=AdvertisingType.UNDIRECTED,
            own_address_type=OwnAddressType.PUBLIC,
            advertising_data=data,
            advertising_interval_min=args.interval,
            advertising_interval_max=args.interval,
        )
        emit({'event': 'advertising', **address_fields(device.public_address),
              'uuid': str(beacon_uuid).upper(), 'major': args.major, 'minor': args.minor,
              'measuredPower': args.power, 'data': data.hex().upper()})
        why = await wait_for_stop(args.duration, args.ignore_stdin)
        await asyncio.wait_for(device.stop_advertising(), timeout=args.timeout)
        emit({'event': 'stopped', 'reason': why})
        return 0
    finally:
        await transport.close()


async def scan(args) -> int:
    global STOPPER
    STOPPER = Stopper()
    transport, device = await open_device(args.transport, args.timeout)
    count = 0

    def on_advertisement(advertisement: Advertisement):
        nonlocal count
        count += 1
        data = bytes(advertisement.data_bytes)
        manufacturer = [value for kind, value in ad_structures(data) if kind == AD_MANUFACTURER_SPECIFIC]
        line = {'event': 'advertisement', **address_fields(advertisement.address),
                'rssi': advertisement.rssi, 'legacy': advertisement.is_legacy,
                'connectable': advertisement.is_connectable,
                'data': data.hex().upper(),
                'manufacturerData': [value.hex().upper() for value in manufacturer]}
        beacons = [b for b in (decode_ibeacon(value) for value in manufacturer) if b]
        if beacons:
            line['ibeacon'] = beacons[0]
        emit(line)
        if args.count is not None and count >= args.count:
            STOPPER.stop('count')

    try:
        device.on('advertisement', on_advertisement)
        await device.start_scanning(active=args.active, filter_duplicates=False)
        emit({'event': 'scanning', **address_fields(device.public_address)})
        why = await wait_for_stop(args.duration, args.ignore_stdin)
        await asyncio.wait_for(device.stop_scanning(), timeout=args.timeout)
        emit({'event': 'stopped', 'reason': why, 'advertisements': count})
        return 0
    finally:
        await transport.close()


def int_in(lo: int, hi: int):
    def parse(text: str) -> int:
        value = int(text, 0)
        if not lo <= value <= hi:
            raise argparse.ArgumentTypeError(f'{value} not in {lo}...{hi}')
        return value
    return parse


def uuid_text(text: str) -> str:
    try:
        uuidlib.UUID(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f'{text!r} is not a UUID') from None
    return text


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = parser.add_subparsers(dest='command', required=True)
    for name in ('advertise', 'scan'):
        sub = commands.add_parser(name)
        sub.add_argument('--transport', required=True, help='bumble transport spec')
        sub.add_argument('--duration', type=float, help='seconds to run (default: until signalled)')
        sub.add_argument('--timeout', type=float, default=10.0,
                         help='seconds allowed for each start/stop step (default: 10)')
        sub.add_argument('--ignore-stdin', action='store_true',
                         help='do not stop at end of file on a stdin pipe')
        if name == 'advertise':
            sub.add_argument('--uuid', type=uuid_text, required=True)
            sub.add_argument('--major', type=int_in(0, 0xFFFF), default=0)
            sub.add_argument('--minor', type=int_in(0, 0xFFFF), default=0)
            sub.add_argument('--power', type=int_in(-128, 127), default=-59,
                             help='calibrated RSSI at 1 m in dBm (default: -59)')
            # Milliseconds; bumble's emulated controller spins on 0.
            sub.add_argument('--interval', type=float, default=100.0,
                             help='advertising interval in ms, 20...10240 (default: 100)')
        else:
            sub.add_argument('--active', action='store_true', help='active scanning')
            sub.add_argument('--count', type=int_in(1, 1_000_000),
                             help='stop after this many advertisements (default: no limit)')
    args = parser.parse_args()
    if args.command == 'advertise' and not 20.0 <= args.interval <= 10240.0:
        parser.error('--interval must be within 20...10240 ms')
    return run(advertise(args) if args.command == 'advertise' else scan(args), args)


def run(coroutine, args) -> int:
    """Runs a command's coroutine; a controller that does not answer or cannot be reached is exit 69."""
    logging.basicConfig(level=os.environ.get('BUMBLE_LOGLEVEL', 'WARNING').upper())
    try:
        return asyncio.run(coroutine)
    except asyncio.TimeoutError:
        print(f'Error: controller at {args.transport} did not answer within {args.timeout:g} s',
              file=sys.stderr)
        return 69
    except (OSError, ValueError) as error:
        print(f'Error: {args.transport}: {error}', file=sys.stderr)
        return 69


if __name__ == '__main__':
    sys.exit(main())
