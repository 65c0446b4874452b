#!/usr/bin/env python3
"""Advertises a beacon of one format through bumble's own host stack, with advertising data written
here from the formats' specifications (not by beacon's encoders), so beacon's decoders are checked
against bytes they did not produce.

  bumble_formats_advertiser.py --transport T --format F [--duration S]

F is one of:
  altbeacon      AltBeacon Protocol Specification v1.0: flags, then manufacturer data
                 1B FF <company 0x0118 LE> BE AC <ID1 16> <ID2 BE> <ID3 BE> <reference RSSI> <reserved>
  eddystone-uid  Eddystone: flags, 16-bit UUID list AA FE, service data
                 AA FE 00 <Tx power at 0 m> <namespace 10> <instance 6> 00 00
  eddystone-url  the same, frame 10 <Tx power> <scheme prefix> <encoded URL with expansion codes>
  eddystone-tlm  UID and unencrypted TLM frames in turn from the same address (every --switch seconds):
                 AA FE 20 00 <VBATT BE mV> <TEMP 8.8 BE> <ADV_CNT BE> <SEC_CNT BE, 0.1 s>

Prints a JSON line when advertising starts (with the data in hex) and one when it stops; runs until
SIGINT, SIGTERM, --duration or end of file on a stdin pipe. T is a bumble transport spec.
"""
from __future__ import annotations

import argparse
import asyncio
import struct
import sys

from bumble.device import AdvertisingType
from bumble.hci import OwnAddressType

import bumble_beacon
from bumble_beacon import Stopper, address_fields, emit, open_device, wait_for_stop

FLAGS = bytes([0x02, 0x01, 0x06])                 # Flags: LE General Discoverable, BR/EDR not supported
EDDYSTONE_UUID_LIST = bytes([0x03, 0x03, 0xAA, 0xFE])  # Complete List of 16-bit Service UUIDs: 0xFEAA

ALTBEACON_ID1 = bytes.fromhex('2F234454CF6D4A0FADF2F4911BA9FFA6')
NAMESPACE = bytes.fromhex('00010203040506070809')
INSTANCE = bytes.fromhex('0A0B0C0D0E0F')


def structure(ad_type: int, value: bytes) -> bytes:
    return bytes([len(value) + 1, ad_type]) + value


def altbeacon() -> bytes:
    value = (struct.pack('<H', 0x0118) + bytes([0xBE, 0xAC]) + ALTBEACON_ID1
             + struct.pack('>HHbB', 1, 2, -59, 0x00))
    return FLAGS + structure(0xFF, value)


def eddystone(frame: bytes) -> bytes:
    return FLAGS + EDDYSTONE_UUID_LIST + structure(0x16, bytes([0xAA, 0xFE]) + frame)


def eddystone_uid() -> bytes:
    return eddystone(bytes([0x00]) + struct.pack('b', -20) + NAMESPACE + INSTANCE + bytes(2))


def eddystone_url() -> bytes:
    # https://goo.gl/a: scheme prefix 0x03 ("https://"), then the text (".gl/" has no expansion code)
    return eddystone(bytes([0x10]) + struct.pack('b', -21) + bytes([0x03]) + b'goo.gl/a')


def eddystone_tlm() -> bytes:
    # 3000 mV, 24.5 °C (0x1880), 256 advertisements, 3600 tenths of a second
    return eddystone(bytes([0x20, 0x00]) + struct.pack('>HhII', 3000, 0x1880, 256, 3600))


async def advertise(args) -> int:
    bumble_beacon.STOPPER = Stopper()
    frames = {'altbeacon': [altbeacon()], 'eddystone-uid': [eddystone_uid()], 'eddystone-url': [eddystone_url()],
              'eddystone-tlm': [eddystone_uid(), eddystone_tlm()]}[args.format]
    transport, device = await open_device(args.transport, args.timeout)

    async def start(data: bytes) -> None:
        await device.start_advertising(
            advertising_type=AdvertisingType.UNDIRECTED, own_address_type=OwnAddressType.PUBLIC,
            advertising_data=data, advertising_interval_min=args.interval, advertising_interval_max=args.interval)

    try:
        await asyncio.wait_for(start(frames[0]), timeout=args.timeout)
        emit({'event': 'advertising', **address_fields(device.public_address), 'format': args.format,
              'data': [frame.hex().upper() for frame in frames]})

        async def alternate() -> None:
            turn = 0
            while True:
                await asyncio.sleep(args.switch)
                turn += 1
                await device.stop_advertising()
                await start(frames[turn % len(frames)])

        switcher = asyncio.get_running_loop().create_task(alternate()) if len(frames) > 1 else None
        why = await wait_for_stop(args.duration, args.ignore_stdin)
        if switcher is not None:
            switcher.cancel()
        await asyncio.wait_for(device.stop_advertising(), timeout=args.timeout)
        emit({'event': 'stopped', 'reason': why})
        return 0
    finally:
        await transport.close()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument('--transport', required=True, help='bumble transport spec')
    parser.add_argument('--format', required=True, choices=['altbeacon', 'eddystone-uid', 'eddystone-url', 'eddystone-tlm'])
    parser.add_argument('--duration', type=float, help='seconds to run (default: until signalled)')
    parser.add_argument('--timeout', type=float, default=10.0, help='seconds allowed for each start/stop step')
    parser.add_argument('--interval', type=float, default=100.0, help='advertising interval in ms (default: 100)')
    parser.add_argument('--switch', type=float, default=0.35, help='seconds between frames of eddystone-tlm')
    parser.add_argument('--ignore-stdin', action='store_true', help='do not stop at end of file on a stdin pipe')
    args = parser.parse_args()
    return bumble_beacon.run(advertise(args), args)


if __name__ == '__main__':
    sys.exit(main())
