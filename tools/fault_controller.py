#!/usr/bin/env python3
"""A scripted, fault-injecting HCI controller speaking H4 over TCP, for tests.

Listens on 127.0.0.1 (a free port), prints `LISTENING tcp:127.0.0.1:PORT`,
serves one connection and exits when the host closes it, when stdin (a pipe)
reaches end of file, or after --limit seconds.

By default it answers the commands beacon sends correctly: Reset, Read Local
Supported Commands (a bitmap with legacy or extended LE commands, --commands),
Set Event Mask, LE Set Event Mask, Read Local Version Information, and the LE
scanning and advertising commands. While scanning is enabled it sends an
iBeacon advertising report every 20 ms (LE Advertising Report for legacy
scanning, LE Extended Advertising Report for extended).

--scenario picks one fault. Command faults apply to the --occurrence'th
command matching --opcode (and --when, for enable commands):
  normal              no fault
  error               Command Complete with --status
  silent              no answer at all
  status              Command Status (success) instead of Command Complete
  bare-complete       Command Complete with only the status byte
  truncated-complete  a Command Complete too short to hold an opcode
  no-credits          Command Complete with Num_HCI_Command_Packets 0; credits
                      follow --delay seconds later in a NOP Command Complete
                      (never when --delay is negative)
  delay               the answer comes --delay seconds late
Run faults happen --after seconds after scanning or advertising was enabled:
  hardware-error      a Hardware Error event (the controller keeps answering)
  drop                the connection closes
  garbage             a byte that is no H4 packet indicator
  long-event-close    an event whose length field exceeds its bytes, then close
  long-event-more     an advertising report whose length field is 4 bytes too
                      long; the 4 missing bytes follow later, then normal reports
  flood               advertising reports as fast as the socket takes them
  foreign-no-credits  a Command Complete for an opcode never sent
                      (Read_Local_Name) with Num_HCI_Command_Packets 0, and no
                      credits after it
  fragment-chain      (extended scanning) a two-fragment advertisement whose
                      continuation, read on its own, is an iBeacon of UUID
                      11111111-1111-1111-1111-111111111111; sent five times
  malformed-status    three zero-length Command Status events that answer no
                      command; the run carries on
  departure           the beacon leaves: no advertising report for --delay
                      seconds, then reports as before (nothing else is sent
                      meanwhile: a quiet air)

--signal-host INT|TERM sends that signal to the host when the fault's command
arrives (right after logging it), so the signal reaches the host while the
command is pending however busy the machine is. The host's process id is read
from --host-pid-file then; the test writes it before the host connects.

Every command received is logged as a JSON line to --log (flushed at once):
  {"opcode":"0x200C","name":"LE_Set_Scan_Enable","params":"0100","answer":"complete",
   "scanning":true,"advertising":false,"time":1234.567}
scanning/advertising is the controller state after the command; time is
time.monotonic() (CLOCK_MONOTONIC) in seconds. Other lines: {"event":"fault"}
when a run fault happens, {"event":"signalled","signal":N} after --signal-host,
{"event":"late-answer","of":NAME} when a delayed answer is sent. The last line
is {"event":"closed","by":"host"|"controller",...} with the final state.

While scanning is on, a due advertising report is always queued before a run
fault, so the host has heard the beacon before the fault whatever the timing.
"""
from __future__ import annotations

import argparse
import json
import os
import select
import signal
import socket
import stat
import struct
import sys
import time

NAMES = {
    0x0000: 'NOP',
    0x0C01: 'Set_Event_Mask',
    0x0C03: 'Reset',
    0x1001: 'Read_Local_Version_Information',
    0x1002: 'Read_Local_Supported_Commands',
    0x2001: 'LE_Set_Event_Mask',
    0x2006: 'LE_Set_Advertising_Parameters',
    0x2007: 'LE_Read_Advertising_Physical_Channel_Tx_Power',
    0x2008: 'LE_Set_Advertising_Data',
    0x200A: 'LE_Set_Advertising_Enable',
    0x200B: 'LE_Set_Scan_Parameters',
    0x200C: 'LE_Set_Scan_Enable',
    0x2036: 'LE_Set_Extended_Advertising_Parameters',
    0x2037: 'LE_Set_Extended_Advertising_Data',
    0x2039: 'LE_Set_Extended_Advertising_Enable',
    0x203C: 'LE_Remove_Advertising_Set',
    0x2041: 'LE_Set_Extended_Scan_Parameters',
    0x2042: 'LE_Set_Extended_Scan_Enable',
}
BY_NAME = {name.lower(): opcode for opcode, name in NAMES.items()}

SCAN_ENABLE = {0x200C, 0x2042}
ADVERTISING_ENABLE = {0x200A, 0x2039}

# Supported_Commands bit positions (Core Vol 4 Part E 6.27): (octet, bit).
LEGACY_BITS = [(5, 6), (5, 7), (14, 3), (25, 0), (25, 5), (25, 6), (25, 7), (26, 1), (26, 2), (26, 3)]
EXTENDED_BITS = [(36, 2), (36, 3), (36, 5), (37, 0), (37, 5), (37, 6)]

BEACON_UUID = bytes.fromhex('E2C56DB5DFFB48D2B060D0F5A71096E0')
BEACON_ADDRESS = bytes([0x01, 0xF4, 0xF3, 0xF2, 0xF1, 0xF0])  # F0:F1:F2:F3:F4:01, little-endian
RSSI = -50

CHUNK_LIMIT = 64 * 1024  # outgoing bytes queued before reports pause


def ibeacon_data(major: int = 1, minor: int = 2, power: int = -59) -> bytes:
    return (bytes([0x02, 0x01, 0x06, 0x1A, 0xFF, 0x4C, 0x00, 0x02, 0x15]) + BEACON_UUID
            + struct.pack('>HHb', major, minor, power))


def event(code: int, parameters: bytes) -> bytes:
    return bytes([0x04, code, len(parameters)]) + parameters


def command_complete(opcode: int, returns: bytes, credits: int = 1) -> bytes:
    return event(0x0E, struct.pack('<BH', credits, opcode) + returns)


def command_status(opcode: int, status: int = 0, credits: int = 1) -> bytes:
    return event(0x0F, struct.pack('<BBH', status, credits, opcode))


def advertising_report(extended: bool) -> bytes:
    data = ibeacon_data()
    if extended:
        report = (struct.pack('<H', 0x0010) + bytes([0x00]) + BEACON_ADDRESS
                  + bytes([0x01, 0x00, 0xFF, 0x7F, RSSI & 0xFF]) + struct.pack('<H', 0)
                  + bytes([0x00]) + bytes(6) + bytes([len(data)]) + data)
        return event(0x3E, bytes([0x0D, 1]) + report)
    report = bytes([0x03, 0x00]) + BEACON_ADDRESS + bytes([len(data)]) + data + bytes([RSSI & 0xFF])
    return event(0x3E, bytes([0x02, 1]) + report)


FRAGMENT_UUID = bytes([0x11] * 16)
FRAGMENT_ADDRESS = bytes([0x02, 0xF4, 0xF3, 0xF2, 0xF1, 0xF0])  # F0:F1:F2:F3:F4:02


def fragment_report(data: bytes, status: int) -> bytes:
    """An LE Extended Advertising Report of one fragment (Data_Status in bits 5-6), SID 1."""
    report = (struct.pack('<H', status << 5) + bytes([0x00]) + FRAGMENT_ADDRESS
              + bytes([0x01, 0x00, 0x01, 0x7F, RSSI & 0xFF]) + struct.pack('<H', 0)
              + bytes([0x00]) + bytes(6) + bytes([len(data)]) + data)
    return event(0x3E, bytes([0x0D, 1]) + report)


class Controller:
    def __init__(self, args, connection: socket.socket, log):
        self.args = args
        self.sock = connection
        self.log = log
        self.inbox = b''
        self.outbox = b''
        self.scanning = False
        self.advertising = False
        self.extended_scanning = False
        self.matches = 0
        self.timers: list[tuple[float, object]] = []
        self.run_fault_armed = args.scenario in RUN_FAULTS
        self.flooding = False
        self.next_report = 0.0
        self.closed = False

    # Output ---------------------------------------------------------------

    def send(self, data: bytes) -> None:
        self.outbox += data

    def later(self, delay: float, action) -> None:
        self.timers.append((time.monotonic() + delay, action))

    def record(self, **fields) -> None:
        fields.update(scanning=self.scanning, advertising=self.advertising, time=round(time.monotonic(), 3))
        self.log.write(json.dumps(fields) + '\n')
        self.log.flush()

    def close(self, by: str) -> None:
        if self.closed:
            return
        self.closed = True
        self.record(event='closed', by=by)
        try:
            self.sock.close()
        except OSError:
            pass

    # Commands -------------------------------------------------------------

    def matches_fault(self, opcode: int, params: bytes) -> bool:
        if self.args.scenario in RUN_FAULTS or self.args.scenario == 'normal' or self.args.opcode is None:
            return False
        if opcode != self.args.opcode:
            return False
        if opcode in SCAN_ENABLE | ADVERTISING_ENABLE and self.args.when != 'any':
            enabling = bool(params[:1]) and params[0] == 1
            if enabling != (self.args.when == 'enable'):
                return False
        self.matches += 1
        return self.matches == self.args.occurrence

    def returns(self, opcode: int) -> bytes:
        """Return parameters after the status byte for a successful command."""
        if opcode == 0x1002:
            bitmap = bytearray(64)
            bits = LEGACY_BITS + (EXTENDED_BITS if self.args.commands == 'extended' else [])
            for octet, bit in bits:
                bitmap[octet] |= 1 << bit
            return bytes(bitmap)
        if opcode == 0x1001:
            return struct.pack('<BHBHH', self.args.hci_version, 0, self.args.hci_version, 0xFFFF, 0)
        if opcode == 0x2007:
            return bytes([0x00])
        if opcode == 0x2036:
            return bytes([0x00])
        return b''

    def apply(self, opcode: int, params: bytes) -> None:
        """State change of a command that succeeded."""
        if opcode == 0x0C03:
            self.scanning = self.advertising = False
        elif opcode in SCAN_ENABLE and params:
            self.scanning = params[0] == 1
            self.extended_scanning = opcode == 0x2042
        elif opcode in ADVERTISING_ENABLE and params:
            self.advertising = params[0] == 1
        if self.run_fault_armed and (self.scanning or self.advertising):
            self.run_fault_armed = False
            self.later(self.args.after, self.run_fault)

    def command(self, opcode: int, params: bytes) -> None:
        known = opcode in NAMES
        fault = self.matches_fault(opcode, params)
        scenario = self.args.scenario if fault else 'normal'
        answer = scenario
        if scenario == 'normal':
            if known:
                self.send(command_complete(opcode, bytes([0]) + self.returns(opcode)))
                self.apply(opcode, params)
                answer = 'complete'
            else:
                self.send(command_complete(opcode, bytes([0x01])))  # Unknown HCI Command
                answer = 'unknown'
        elif scenario == 'error':
            self.send(command_complete(opcode, bytes([self.args.status])))
        elif scenario == 'silent':
            pass
        elif scenario == 'status':
            self.send(command_status(opcode))
            self.apply(opcode, params)
        elif scenario == 'bare-complete':
            self.send(command_complete(opcode, bytes([0])))
            self.apply(opcode, params)
        elif scenario == 'truncated-complete':
            self.send(event(0x0E, bytes([1, opcode & 0xFF])))
        elif scenario == 'no-credits':
            self.send(command_complete(opcode, bytes([0]) + self.returns(opcode), credits=0))
            self.apply(opcode, params)
            if self.args.delay >= 0:
                self.later(self.args.delay, lambda: self.send(command_complete(0x0000, b'', credits=1)))
        elif scenario == 'delay':
            def answer_late(opcode=opcode, params=params):
                self.send(command_complete(opcode, bytes([0]) + self.returns(opcode)))
                self.apply(opcode, params)
                self.record(event='late-answer', of=NAMES.get(opcode, 'unknown'))
            self.later(self.args.delay, answer_late)
        self.record(opcode=f'0x{opcode:04X}', name=NAMES.get(opcode, 'unknown'), params=params.hex().upper(),
                    answer=answer)
        if fault and self.args.signal_host is not None:
            self.signal_host()

    def signal_host(self) -> None:
        """Sends --signal-host to the process whose id is in --host-pid-file."""
        with open(self.args.host_pid_file) as file:
            pid = int(file.read().strip())
        number = signal.SIGINT if self.args.signal_host == 'INT' else signal.SIGTERM
        os.kill(pid, number)
        self.record(event='signalled', signal=int(number))

    # Run faults -----------------------------------------------------------

    def run_fault(self) -> None:
        scenario = self.args.scenario
        self.record(event='fault', fault=scenario)
        if scenario == 'hardware-error':
            self.send(event(0x10, bytes([0x42])))
        elif scenario == 'drop':
            self.flush_blocking()
            self.close('controller')
        elif scenario == 'garbage':
            self.send(bytes([0xFF, 0x00, 0x01, 0x02]))
        elif scenario == 'long-event-close':
            self.send(bytes([0x04, 0x3E, 200]) + bytes(10))
            self.flush_blocking()
            self.close('controller')
        elif scenario == 'long-event-more':
            report = bytearray(advertising_report(self.extended_scanning))
            report[2] += 4  # the length field claims 4 more bytes than follow
            self.send(bytes(report))
            # Reports wait until the missing bytes are out: a report in between would be taken for them.
            self.reports_paused = True
            self.later(0.5, self.complete_long_event)
        elif scenario == 'flood':
            self.flooding = True
        elif scenario == 'foreign-no-credits':
            self.send(command_complete(0x0C14, bytes([0]) + bytes(248), credits=0))
        elif scenario == 'fragment-chain':
            hidden = (bytes([0x02, 0x01, 0x06, 0x1A, 0xFF, 0x4C, 0x00, 0x02, 0x15]) + FRAGMENT_UUID
                      + struct.pack('>HHb', 1, 2, -59))
            for _ in range(5):
                # The first fragment opens a manufacturer structure the continuation's bytes sit inside.
                self.send(fragment_report(bytes([0xFE, 0xFF, 0x4C, 0x00]), 1))
                self.send(fragment_report(hidden, 0))
        elif scenario == 'malformed-status':
            for _ in range(3):
                self.send(bytes([0x04, 0x0F, 0x00]))
        elif scenario == 'departure':
            self.reports_paused = True
            self.later(self.args.delay, self.come_back)

    def come_back(self) -> None:
        self.record(event='back')
        self.reports_paused = False
        self.next_report = 0.0

    def complete_long_event(self) -> None:
        self.send(bytes(4))
        self.reports_paused = False

    # Loop -----------------------------------------------------------------

    reports_paused = False

    def flush_blocking(self) -> None:
        self.sock.setblocking(True)
        self.sock.settimeout(2)
        try:
            self.sock.sendall(self.outbox)
        except OSError:
            pass
        self.outbox = b''

    def reports(self, now: float) -> None:
        if not self.scanning or self.reports_paused or len(self.outbox) > CHUNK_LIMIT:
            return
        if self.flooding:
            self.send(advertising_report(self.extended_scanning) * 64)
        elif now >= self.next_report:
            self.send(advertising_report(self.extended_scanning))
            self.next_report = now + 0.02

    def parse(self) -> None:
        while self.inbox:
            if self.inbox[0] != 0x01:
                self.record(event='unexpected', bytes=self.inbox[:16].hex().upper())
                self.inbox = b''
                return
            if len(self.inbox) < 4:
                return
            opcode, length = struct.unpack_from('<HB', self.inbox, 1)
            if len(self.inbox) < 4 + length:
                return
            params = self.inbox[4:4 + length]
            self.inbox = self.inbox[4 + length:]
            self.command(opcode, params)

    def serve(self, stdin_fd: int | None, deadline: float) -> None:
        self.sock.setblocking(False)
        while not self.closed:
            now = time.monotonic()
            if now >= deadline:
                self.close('controller')
                return
            # A due report goes out before a due run fault: the host hears the beacon first.
            self.reports(now)
            for entry in [t for t in self.timers if t[0] <= now]:
                self.timers.remove(entry)
                entry[1]()
                if self.closed:
                    return
            wake = min([t[0] for t in self.timers] + [deadline, now + 0.02]) - now
            readers = [self.sock] + ([stdin_fd] if stdin_fd is not None else [])
            writers = [self.sock] if self.outbox else []
            readable, writable, _ = select.select(readers, writers, [], max(0.0, wake))
            if stdin_fd is not None and stdin_fd in readable and not os.read(stdin_fd, 4096):
                self.close('controller')
                return
            if self.sock in writable:
                try:
                    sent = self.sock.send(self.outbox)
                    self.outbox = self.outbox[sent:]
                except BlockingIOError:
                    pass
                except OSError:
                    self.close('host')
                    return
            if self.sock in readable:
                try:
                    data = self.sock.recv(65536)
                except BlockingIOError:
                    continue
                except OSError:
                    data = b''
                if not data:
                    self.close('host')
                    return
                self.inbox += data
                self.parse()


RUN_FAULTS = {'hardware-error', 'drop', 'garbage', 'long-event-close', 'long-event-more', 'flood', 'malformed-status', 'foreign-no-credits', 'fragment-chain',
              'departure'}
COMMAND_FAULTS = {'error', 'silent', 'status', 'bare-complete', 'truncated-complete', 'no-credits', 'delay'}


def opcode_argument(text: str) -> int:
    if text.lower().startswith('0x'):
        return int(text, 16)
    name = text.lower().removeprefix('hci_')
    if name not in BY_NAME:
        raise argparse.ArgumentTypeError(f'unknown command {text!r}')
    return BY_NAME[name]


def watched_stdin() -> int | None:
    """stdin's descriptor when it is a pipe: its end of file means the test has gone."""
    try:
        mode = os.fstat(0).st_mode
    except OSError:
        return None
    return 0 if stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode) else None


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument('--scenario', default='normal', choices=sorted({'normal'} | RUN_FAULTS | COMMAND_FAULTS))
    parser.add_argument('--commands', default='extended', choices=['legacy', 'extended'])
    parser.add_argument('--opcode', type=opcode_argument, help='command the fault applies to (name or 0xXXXX)')
    parser.add_argument('--when', default='any', choices=['enable', 'disable', 'any'])
    parser.add_argument('--occurrence', type=int, default=1)
    parser.add_argument('--status', type=lambda t: int(t, 0), default=0x12)
    parser.add_argument('--delay', type=float, default=1.0)
    parser.add_argument('--after', type=float, default=1.0)
    parser.add_argument('--hci-version', type=int, default=0x0B)
    parser.add_argument('--log', help='command log (default: stdout)')
    parser.add_argument('--limit', type=float, default=60.0)
    parser.add_argument('--signal-host', choices=['INT', 'TERM'], help="signal the host when the fault's command arrives")
    parser.add_argument('--host-pid-file', help='file holding the host process id (for --signal-host)')
    args = parser.parse_args()
    if args.scenario in COMMAND_FAULTS and args.opcode is None:
        parser.error(f'--scenario {args.scenario} needs --opcode')
    if args.signal_host is not None and (args.host_pid_file is None or args.scenario not in COMMAND_FAULTS):
        parser.error('--signal-host needs --host-pid-file and a command fault (--scenario with --opcode)')

    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind(('127.0.0.1', 0))
    listener.listen(1)
    print(f'LISTENING tcp:127.0.0.1:{listener.getsockname()[1]}', flush=True)

    log = open(args.log, 'w') if args.log else sys.stdout
    deadline = time.monotonic() + args.limit
    stdin_fd = watched_stdin()
    while True:
        readers = [listener] + ([stdin_fd] if stdin_fd is not None else [])
        readable, _, _ = select.select(readers, [], [], max(0.0, deadline - time.monotonic()))
        if not readable or (stdin_fd in readable and not os.read(stdin_fd, 4096)):
            return 0
        if listener in readable:
            break
    connection, _ = listener.accept()
    listener.close()
    connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    # A small send buffer keeps a flood's backlog (what the host must read before a later answer) modest,
    # as a UART's flow control would.
    connection.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 64 * 1024)
    Controller(args, connection, log).serve(stdin_fd, deadline)
    return 0


if __name__ == '__main__':
    sys.exit(main())
