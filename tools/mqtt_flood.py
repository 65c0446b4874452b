#!/usr/bin/env python3
"""A hostile publisher on beacon locate's gateway topics, for tests of bad input under load.

Connects once to an MQTT broker (MQTT 3.1.1, clean session) and publishes, at
QoS 0 and as fast as the broker reads them:

  --unknown N    N well-formed readings messages, each from a gateway name of its
                 own (flood-1, flood-2, ...) that no site has, on
                 PREFIX/gateways/NAME/readings;
  --large M      M large malformed messages on PREFIX/gateways/GATEWAY/readings (a
                 gateway the site does have), in turn: a readings message of
                 --large-bytes cut short before its end (read to the end before
                 it fails), --large-bytes that are no UTF-8, and one byte more
                 than locate reads (1 MiB + 1, refused unread).

The unknown names and the large messages are interleaved, so the fuser meets
both all along. Then it sends PINGREQ and waits for the broker's PINGRESP:
the broker reads a connection in order, so every message has reached it (and
been passed on to the subscribers) when the tool exits. Prints one line,
`{"published":COUNT,"bytes":PAYLOAD_BYTES}`. Exits 1 with `Error: ...` when the
broker cannot be reached or refuses the connection. Standard library only.

  mqtt_flood.py --port 1883 --prefix site --gateway gw2 --unknown 5000 --large 60
"""
from __future__ import annotations

import argparse
import json
import socket
import struct
import sys

# What locate reads of one readings message (GatewayReadings.maximumMessageBytes).
READINGS_LIMIT = 1 << 20

CONNECT, CONNACK, PUBLISH, PINGREQ, PINGRESP, DISCONNECT = 1, 2, 3, 12, 13, 14


def remaining_length(length: int) -> bytes:
    """MQTT's variable-length integer (1 to 4 bytes, 7 bits each)."""
    encoded = bytearray()
    while True:
        length, digit = divmod(length, 128)
        encoded.append(digit | (0x80 if length else 0))
        if not length:
            return bytes(encoded)


def packet(kind: int, body: bytes, flags: int = 0) -> bytes:
    return bytes([kind << 4 | flags]) + remaining_length(len(body)) + body


def utf8_field(text: str) -> bytes:
    data = text.encode()
    return struct.pack('>H', len(data)) + data


def connect_packet(client_id: str) -> bytes:
    keep_alive = 60
    return packet(CONNECT, utf8_field('MQTT') + bytes([4, 0x02]) + struct.pack('>H', keep_alive) + utf8_field(client_id))


def publish_packet(topic: str, payload: bytes) -> bytes:
    return packet(PUBLISH, utf8_field(topic) + payload)  # QoS 0: no packet id


def read_exactly(connection: socket.socket, count: int) -> bytes:
    data = b''
    while len(data) < count:
        chunk = connection.recv(count - len(data))
        if not chunk:
            raise ConnectionError('the broker closed the connection')
        data += chunk
    return data


def read_packet(connection: socket.socket) -> tuple[int, bytes]:
    kind = read_exactly(connection, 1)[0] >> 4
    length, shift = 0, 0
    while True:
        digit = read_exactly(connection, 1)[0]
        length |= (digit & 0x7F) << shift
        shift += 7
        if not digit & 0x80:
            break
    return kind, read_exactly(connection, length)


def readings(gateway: str, sequence: int) -> bytes:
    """A well-formed readings message, as `beacon range --gateway` publishes them."""
    return json.dumps({
        'gateway': gateway, 'time': '2026-01-01T00:00:00.000Z', 'seq': sequence,
        'beacons': [{'id': 'e2c56db5-dffb-48d2-b060-d0f5a71096e0-9-9', 'rssi': -60, 'filteredRssi': -60,
                     'spread': 1, 'samples': 5, 'measuredPower': -59, 'accuracy': 1.5}],
    }, separators=(',', ':')).encode()


def large_payload(gateway: str, index: int, size: int) -> bytes:
    kind = index % 3
    if kind == 0:
        # Well-formed as far as it goes: the parser reads all of it before the missing end.
        head = f'{{"gateway":"{gateway}","time":"2026-01-01T00:00:00.000Z","seq":{index},"beacons":[{{"id":"'.encode()
        return head + b'a' * max(0, size - len(head))
    if kind == 1:
        return b'\xff' * size
    return b' ' * (READINGS_LIMIT + 1)


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument('--host', default='127.0.0.1', help='the broker (default: 127.0.0.1)')
    parser.add_argument('--port', type=int, default=1883, help='its port (default: 1883)')
    parser.add_argument('--prefix', default='beacon', help="locate's topic prefix (default: beacon)")
    parser.add_argument('--gateway', required=True, help='a gateway of the site, for the large messages')
    parser.add_argument('--unknown', type=int, default=5000, help='gateway names the site does not have (default: 5000)')
    parser.add_argument('--large', type=int, default=60, help='large malformed messages (default: 60)')
    parser.add_argument('--large-bytes', type=int, default=512 * 1024,
                        help='size of the large messages that locate reads (default: 524288)')
    args = parser.parse_args()
    if args.unknown < 0 or args.large < 0 or not 0 < args.large_bytes <= READINGS_LIMIT:
        parser.error(f'--unknown and --large must not be negative, --large-bytes 1...{READINGS_LIMIT}')

    published = payload_bytes = 0
    try:
        with socket.create_connection((args.host, args.port), timeout=60) as connection:
            connection.sendall(connect_packet('mqtt-flood'))
            kind, body = read_packet(connection)
            if kind != CONNACK or len(body) != 2 or body[1] != 0:
                raise ConnectionError(f'connection refused (packet type {kind}, {body.hex()})')
            # One large message after every `stride` unknown names, so both run through the whole flood.
            stride = max(1, args.unknown // max(1, args.large))
            large_sent = 0
            for number in range(1, args.unknown + 1):
                name = f'flood-{number}'
                payload = readings(name, number)
                connection.sendall(publish_packet(f'{args.prefix}/gateways/{name}/readings', payload))
                published += 1
                payload_bytes += len(payload)
                if number % stride == 0 and large_sent < args.large:
                    payload = large_payload(args.gateway, large_sent, args.large_bytes)
                    connection.sendall(publish_packet(f'{args.prefix}/gateways/{args.gateway}/readings', payload))
                    large_sent += 1
                    published += 1
                    payload_bytes += len(payload)
            for index in range(large_sent, args.large):
                payload = large_payload(args.gateway, index, args.large_bytes)
                connection.sendall(publish_packet(f'{args.prefix}/gateways/{args.gateway}/readings', payload))
                published += 1
                payload_bytes += len(payload)
            connection.sendall(packet(PINGREQ, b''))
            while read_packet(connection)[0] != PINGRESP:
                pass
            connection.sendall(packet(DISCONNECT, b''))
    except OSError as error:
        print(f'Error: {args.host}:{args.port}: {error}', file=sys.stderr)
        return 1
    print(json.dumps({'published': published, 'bytes': payload_bytes}), flush=True)
    return 0


if __name__ == '__main__':
    sys.exit(main())
