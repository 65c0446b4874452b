"""The advertising report events of a btsnoop capture (datalink 1002, H4), for the peer drivers of
make bench: each driver hands these bytes to its library's parser, so all of them read the same file
the same way and only the parsing differs.

Also the drivers' shared command line and their summary and per-identity output, which is the same
as the C reference loop's (ibeacon_loop.c), so make bench and the tests compare them line by line.
"""
import argparse
import struct
import sys
import time
import uuid as uuidlib

HEADER = struct.Struct('>8sII')
RECORD = struct.Struct('>IIIIq')


def events(path, limit=None):
    """Yields each received H4 event packet (indicator byte first) that is an LE Advertising Report or
    LE Extended Advertising Report, at most `limit` of them."""
    with open(path, 'rb') as file:
        data = file.read()
    magic, version, datalink = HEADER.unpack_from(data, 0)
    if magic != b'btsnoop\0' or version != 1 or datalink != 1002:
        sys.exit(f'{path}: not a btsnoop version 1 capture of datalink 1002 (H4)')
    at = HEADER.size
    count = 0
    size = len(data)
    while at < size:
        if size - at < RECORD.size:
            sys.exit(f'{path}: a record header is cut short at offset {at}')
        _, included, _, _, _ = RECORD.unpack_from(data, at)
        start = at + RECORD.size
        at = start + included
        if at > size:
            sys.exit(f'{path}: a record is cut short at offset {start - RECORD.size}')
        if included >= 4 and data[start] == 0x04 and data[start + 1] == 0x3E and data[start + 3] in (0x02, 0x0D):
            yield data[start:at]
            count += 1
            if limit is not None and count >= limit:
                return


def ibeacon(company, data):
    """(UUID text, major, minor) when Manufacturer Specific Data of `company` with value `data` (after the
    company identifier) is Apple's iBeacon layout, else None: for the parsers that decode AD structures
    but know no iBeacon."""
    if company != 0x004C or len(data) < 23 or data[0] != 0x02 or data[1] != 0x15:
        return None
    return (str(uuidlib.UUID(bytes=bytes(data[2:18]))).upper(), int.from_bytes(data[18:20], 'big'),
            int.from_bytes(data[20:22], 'big'))


def arguments(description):
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument('capture')
    parser.add_argument('--uuid', help='only iBeacons of this proximity UUID')
    parser.add_argument('--counts', action='store_true', help='print a line per identity: UUID MAJOR MINOR COUNT')
    parser.add_argument('--limit', type=int, help='parse only the first N advertising report events')
    return parser.parse_args()


class Tally:
    """Per-identity counts, keyed by (UUID text in upper case, major, minor)."""

    def __init__(self):
        self.reports = 0
        self.counts = {}
        self.started = time.process_time()
        self.started_wall = time.perf_counter()

    def add(self, uuid, major, minor):
        key = (uuid.upper(), major, minor)
        self.counts[key] = self.counts.get(key, 0) + 1

    def add_if_wanted(self, identity, wanted):
        """Counts `identity` (from `ibeacon`) when its UUID is `wanted`, or always without one."""
        if wanted is None or identity[0] == wanted.upper():
            self.add(*identity)

    def print(self, counts):
        matched = sum(self.counts.values())
        cpu = time.process_time() - self.started
        wall = time.perf_counter() - self.started_wall
        print(f'events={self.reports} matched={matched} identities={len(self.counts)} parse_cpu_s={cpu:.4f} parse_wall_s={wall:.4f}')
        if counts:
            for (uuid, major, minor), count in sorted(self.counts.items()):
                print(f'{uuid} {major} {minor} {count}')
