#!/usr/bin/env python3
"""Writes a btsnoop capture with bumble's own btsnoop writer (bumble.snoop.BtSnooper), so tests can
check beacon's reading of capture dates against an implementation that is not beacon's.

    bumble_snoop_capture.py OUT UNIX_MICROSECONDS...

Each instant (microseconds since 1970-01-01T00:00:00Z, in ascending order) gets one packet, stamped by
BtSnooper at that instant: the first is the host's LE Set Scan Enable, the second its Command
Complete, every later one an LE Advertising Report carrying the iBeacon
E2C56DB5-DFFB-48D2-B060-D0F5A71096E0 1/2 (measured power -59) from F0:F1:F2:F3:F4:01 at RSSI -50.
BtSnooper reads the time with datetime.now(); the tool hands it each instant instead.
"""
import datetime
import sys
import types

import bumble.snoop as snoop

UUID = bytes.fromhex("E2C56DB5DFFB48D2B060D0F5A71096E0")
IBEACON_AD = bytes.fromhex("0201061AFF4C000215") + UUID + bytes.fromhex("00010002C5")
EPOCH = datetime.datetime(1970, 1, 1, tzinfo=datetime.UTC)


def advertising_report() -> bytes:
    report = bytes([0x01, 0x03, 0x00]) + bytes.fromhex("01F4F3F2F1F0") + bytes([len(IBEACON_AD)]) + IBEACON_AD
    report += bytes([(-50) & 0xFF])
    body = bytes([0x02]) + report  # subevent LE Advertising Report, then one report
    return bytes([0x04, 0x3E, len(body)]) + body


PACKETS = [
    (bytes.fromhex("010C20020100"), snoop.Snooper.Direction.HOST_TO_CONTROLLER),  # LE Set Scan Enable: on
    (bytes.fromhex("040E04010C2000"), snoop.Snooper.Direction.CONTROLLER_TO_HOST),  # its Command Complete
]


class FrozenDateTime(datetime.datetime):
    """datetime whose now() is the instant being written."""

    instant = EPOCH

    @classmethod
    def now(cls, tz=None):
        return cls.instant if tz is None else cls.instant.astimezone(tz)


# What bumble.snoop sees as its `datetime` module.
FROZEN_DATETIME_MODULE = types.SimpleNamespace(
    datetime=FrozenDateTime, timedelta=datetime.timedelta, UTC=datetime.UTC, timezone=datetime.timezone)


def main() -> int:
    if len(sys.argv) < 2:
        print(__doc__.strip(), file=sys.stderr)
        return 64
    instants = [int(argument) for argument in sys.argv[2:]]
    snoop.datetime = FROZEN_DATETIME_MODULE
    with open(sys.argv[1], "wb") as out:
        snooper = snoop.BtSnooper(out)
        for i, micros in enumerate(instants):
            FrozenDateTime.instant = EPOCH + datetime.timedelta(microseconds=micros)
            packet, direction = PACKETS[i] if i < len(PACKETS) else (advertising_report(), snoop.Snooper.Direction.CONTROLLER_TO_HOST)
            snooper.snoop(packet, direction)
    return 0


if __name__ == "__main__":
    sys.exit(main())
