#!/usr/bin/env python3
"""Host side of beacon's kernel rig: emulated Bluetooth LE controllers for the guest.

Starts COUNT bumble controllers sharing one virtual radio. Controller i has the public address
F0:F1:F2:F3:F4:0<i+1> (the kernel refuses to bring up a controller whose address is all zero) and
speaks H4 on its own TCP server socket on 127.0.0.1, which QEMU connects a guest serial port to.
Prints `PORT <i> <port>` per controller, then `READY`, and serves until killed.

With --extended (the default) the controllers also announce the LE extended advertising and scanning
commands in Read Local Supported Commands: bumble implements them but leaves them out of its list.
"""
import argparse
import asyncio
import logging
import os
import random
import socket

from bumble import hci
from bumble.controller import Controller
from bumble.link import LocalLink
from bumble.transport.tcp_server import open_tcp_server_transport_with_socket

EXTENDED_COMMANDS = {
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
}


def listen_on_free_port(host, low, high):
    """Binds a listening socket on a random free port in low..high. Never connects to probe a port:
    a probe would take over the controller transport of a rig already running there."""
    candidates = list(range(low, high + 1))
    random.shuffle(candidates)
    for port in candidates:
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        try:
            sock.bind((host, port))
            sock.listen(1)
            return sock, port
        except OSError:
            sock.close()
    raise SystemExit(f'no free TCP port in {low}-{high} on {host}')


async def serve(args):
    link = LocalLink()
    low, high = (int(part) for part in args.ports.split('-'))
    controllers = []
    for i in range(args.count):
        sock, port = listen_on_free_port(args.host, low, high)
        transport = await open_tcp_server_transport_with_socket(sock)
        address = hci.Address(f'F0:F1:F2:F3:F4:{i + 1:02X}', hci.Address.PUBLIC_DEVICE_ADDRESS)
        controller = Controller(f'C{i}', host_source=transport.source, host_sink=transport.sink,
                                link=link, public_address=address)
        if args.extended:
            controller.supported_commands = set(controller.supported_commands) | EXTENDED_COMMANDS
        controllers.append(controller)
        print(f'PORT {i} {port} {address}', flush=True)
    print('READY', flush=True)
    await asyncio.get_running_loop().create_future()


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument('--count', type=int, default=2)
    parser.add_argument('--host', default='127.0.0.1')
    parser.add_argument('--ports', default='9300-9399', help='range to pick free ports from')
    parser.add_argument('--extended', action=argparse.BooleanOptionalAction, default=True,
                        help='announce the LE extended advertising/scanning commands (default: on)')
    logging.basicConfig(level=os.environ.get('BUMBLE_LOGLEVEL', 'WARNING').upper())
    asyncio.run(serve(parser.parse_args()))


if __name__ == '__main__':
    main()
