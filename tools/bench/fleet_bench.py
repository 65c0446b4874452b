#!/usr/bin/env python3
"""make bench-fleet: beacon locate at building scale through a real mosquitto on loopback.

Each step runs a fresh Debian mosquitto (no persistence) on a free loopback port, a site of 5 × 5 m
rooms in rows of ten with one gateway 2.5 m up in the middle of each, one `beacon locate` on it, and
simulated gateways that publish one readings message each per second at QoS 1 (docs/recipes.md's MQTT
format), each on a connection of its own with its status and last will as `beacon range --gateway`
keeps them. Their ticks are whole wall-clock seconds plus a phase of 1 to 50 ms per gateway, so the
messages of one window arrive close together (never on the whole second, which would close the
window before). Beacons walk the building at random (at most 1.5 m/s); each gateway within the
hearing range (--hearing: every gateway by default, so that 50 gateways × 200 beacons offer the
10,000 readings/s of the target; 15 for a building's walls) reports each beacon with an RSSI from a
log-distance model (-59 dBm at 1 m, exponent 2.5, 3 dB of noise), a filtered RSSI (half the noise),
the spread and count (8 to 10) of its samples and the distance the filtered RSSI gives. A message's
noise is drawn ahead, a pool of draws for each 5 cm of distance, so the publishers' CPU stays small
beside locate's; several publisher processes share the gateways.

After a warm-up, over a measurement window, per step:
- readings/s offered (the publishers' count) and locations/s fused (`location` lines locate had
  printed for the measured windows 3 s after the tick that closes each), and windows fused out of
  those offered;
- locate's CPU time, all its threads (/proc/PID/task/*/schedstat, user and system in nanoseconds, as
  make bench's live figures; /proc/PID/stat's utime + stime where there is none) over the window's
  wall time, as a share of one core and per beacon reading offered; its peak RSS (VmHWM);
- latency: the window ending at second T holds the ticks of second T-1 and is fused once every
  gateway has reported past T, with its tick of second T. From the moment the last of those
  messages is handed to its client to publish to the arrival of each of the window's location
  messages at a subscriber of PREFIX/beacons/+/location, p50 and p99; and from the window's end (the location's "time") to the
  same arrival, which the gateways' tick phases add to in a real site;
- the lines locate wrote to stderr (warnings), and of them those about malformed messages; the CPU
  of the publishers and of mosquitto, and that of everything else on the machine (/proc/stat, less
  the bench's processes): on a shared machine the figures move with it.
The ladder stops at the first step where locate saturates (CPU at 90 % of a core or more, p99 over
1 s, or fewer windows or locations fused than offered), or where the publishers fall behind their
schedule by more than 100 ms (then the figures measure them, and it says so).
"""
import argparse
import calendar
import functools
import math
import multiprocessing
import os
import random
import re
import selectors
import shutil
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import time

from bench import proc_cpu_seconds

PREFIX = 'bench'
BEACON_UUID = 'e2c56db5-dffb-48d2-b060-d0f5a71096e0'
ROOM_SIDE = 5.0  # metres
COLUMNS = 10  # rooms per row
GATEWAY_HEIGHT = 2.5
BEACON_HEIGHT = 1.0  # locate's default: a carried beacon
MEASURED_POWER = -59
PATH_LOSS_EXPONENT = 2.5
NOISE_DB = 3.0
FILTERED_NOISE_DB = NOISE_DB / 2
MAX_SPEED = 1.5  # m/s
# Just beyond the farthest a beacon in a room (1 m up) is from the room's gateway (3.84 m).
MINIMUM_HEARING = 4.0
MAX_PHASE = 0.050  # s, a gateway's tick after the whole second
DISTANCE_BIN = 0.05  # metres: the noise pool's resolution
POOL_BITS = 5  # 32 noise draws per distance bin, picked by random bits
POOL_DRAWS = 1 << POOL_BITS
# A step is saturated from here on.
SATURATED_CPU = 0.90
SATURATED_P99 = 1.0
# A window not fused this long after the tick that closes it counts as not fused (locate fell behind).
FUSE_GRACE = 3.0
# A publisher that sends a message this late against its tick is the bottleneck, not locate.
PUBLISHER_LAG_LIMIT = 0.100
# Readings a publisher process generates a second before another process shares the gateways.
READINGS_PER_PUBLISHER = 50_000
TARGET_GATEWAYS, TARGET_BEACONS = 50, 200
TARGET_CPU = 0.10
TARGET_P99 = 0.100


class BenchError(Exception):
    pass


def parse_arguments():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--beacon', required=True, help='the beacon binary (release build)')
    parser.add_argument('--mosquitto', default='/usr/sbin/mosquitto')
    parser.add_argument('--steps', default='50x200,100x200,200x200,300x200,400x200,600x200,800x200',
                        help='GATEWAYSxBEACONS loads, run in order until one saturates; the targets are judged on 50x200')
    parser.add_argument('--hearing', default='all',
                        help="metres within which a gateway hears a beacon, at least 4 (a beacon anywhere in a room is "
                             "heard by its gateway, so each one is located every second), or 'all' (default: all)")
    parser.add_argument('--warm-up', type=float, default=5, help='seconds before the measurement window')
    parser.add_argument('--measure', type=float, default=20, help="seconds of the measurement window")
    parser.add_argument('--budget', type=float, default=300,
                        help='no step starts that would end the run after this many seconds')
    parser.add_argument('--publishers', type=int, default=0,
                        help=f'publisher processes (default 0: one per {READINGS_PER_PUBLISHER:,} readings/s, at least one)')
    parser.add_argument('--seed', type=int, default=1)
    parser.add_argument('--work', help='where each step keeps its site, broker config and logs (default: a temporary directory)')
    args = parser.parse_args()
    try:
        args.loads = [tuple(int(n) for n in step.lower().split('x')) for step in args.steps.split(',')]
        if any(len(load) != 2 or min(load) < 1 for load in args.loads):
            raise ValueError
    except ValueError:
        parser.error(f'--steps: expected GATEWAYSxBEACONS[,...] such as 50x200, not {args.steps!r}')
    if args.hearing == 'all':
        args.range = math.inf
    else:
        try:
            args.range = float(args.hearing)
        except ValueError:
            parser.error(f"--hearing: expected metres or 'all', not {args.hearing!r}")
        if not args.range >= MINIMUM_HEARING:
            parser.error(f"--hearing: expected at least {MINIMUM_HEARING:g} m (a beacon anywhere in a room is heard by the "
                         f"room's gateway) or 'all', not {args.hearing!r}")
    for option, path in (('--beacon', args.beacon), ('--mosquitto', args.mosquitto)):
        if not os.access(path, os.X_OK):
            parser.error(f'{option}: {path} is not an executable (make bench-fleet builds beacon; mosquitto is Debian\'s)')
    if args.publishers < 0:
        parser.error(f'--publishers: expected 0 (one per {READINGS_PER_PUBLISHER:,} readings/s) or more')
    if args.warm_up < 0 or args.measure < 1:
        parser.error('--warm-up must be 0 or more and --measure at least 1 second')
    return args


# MARK: - MQTT 3.1.1, the few packets the bench sends and reads

CONNECT, CONNACK, PUBLISH, PUBACK, SUBSCRIBE, SUBACK, DISCONNECT = 0x10, 0x20, 0x30, 0x40, 0x82, 0x90, 0xE0


def mqtt_string(text):
    data = text.encode()
    return struct.pack('!H', len(data)) + data


def mqtt_packet(first_byte, body):
    length, encoded = len(body), bytearray()
    while True:
        byte, length = length % 128, length // 128
        encoded.append(byte | (0x80 if length else 0))
        if not length:
            return bytes([first_byte]) + bytes(encoded) + body


class MQTTConnection:
    """One client connection: CONNECT (clean session, keep-alive off: a step is short), QoS 1 publishing,
    subscribing, and the packets that arrive. The socket blocks; read it only when a selector says so."""

    def __init__(self, port, client_id, will=None):
        self.socket = socket.create_connection(('127.0.0.1', port), timeout=10)
        self.socket.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.incoming = bytearray()
        self.next_id = 0
        self.unacknowledged = 0
        flags, payload = 0x02, mqtt_string(client_id)
        if will:
            flags |= 0x04 | 0x08 | 0x20  # a will, QoS 1, retained
            payload += mqtt_string(will[0]) + mqtt_string(will[1])
        self.socket.sendall(mqtt_packet(CONNECT, mqtt_string('MQTT') + bytes([4, flags]) + struct.pack('!H', 0) + payload))
        kind, body = self.wait_for(CONNACK)
        if len(body) != 2 or body[1] != 0:
            raise BenchError(f'mosquitto refused {client_id}: CONNACK {body.hex()}')
        self.socket.settimeout(None)

    def publish(self, topic, payload, retain=False):
        self.next_id = self.next_id % 65535 + 1
        self.socket.sendall(mqtt_packet(PUBLISH | 0x02 | (0x01 if retain else 0),
                                        mqtt_string(topic) + struct.pack('!H', self.next_id) + payload))
        self.unacknowledged += 1

    def subscribe(self, filters):
        """Subscribes at QoS 0 (mosquitto sends those to a connected client at once, never queued
        behind acknowledgements); the packets that came before SUBACK."""
        self.socket.settimeout(10)
        body = struct.pack('!H', 1) + b''.join(mqtt_string(f) + b'\x00' for f in filters)
        self.socket.sendall(mqtt_packet(SUBSCRIBE, body))
        before = []
        while True:
            for kind, body in self.read():
                if kind & 0xF0 == SUBACK:
                    self.socket.settimeout(None)
                    return before
                before.append((kind, body))

    def wait_for(self, wanted):
        while True:
            for kind, body in self.read():
                if kind & 0xF0 == wanted:
                    return kind, body

    def read(self):
        """The complete packets after one recv; PUBACKs are counted, not returned."""
        data = self.socket.recv(1 << 16)
        if not data:
            raise BenchError('mosquitto closed a connection')
        self.incoming += data
        packets, offset = [], 0
        while len(self.incoming) - offset >= 2:
            length, multiplier, index = 0, 1, offset + 1
            while index < len(self.incoming) and index - offset <= 4:
                byte = self.incoming[index]
                length += (byte & 0x7F) * multiplier
                multiplier *= 128
                index += 1
                if not byte & 0x80:
                    break
            else:
                break
            if len(self.incoming) - index < length:
                break
            kind = self.incoming[offset]
            if kind & 0xF0 == PUBACK:
                self.unacknowledged -= 1
            else:
                packets.append((kind, bytes(self.incoming[index:index + length])))
            offset = index + length
        del self.incoming[:offset]
        return packets

    def close(self):
        try:
            self.socket.sendall(mqtt_packet(DISCONNECT, b''))
        except OSError:
            pass
        self.socket.close()


def published_message(kind, body):
    """A PUBLISH packet's topic and payload (QoS 0: no packet id)."""
    length = struct.unpack_from('!H', body)[0]
    start = 2 + length + (2 if kind & 0x06 else 0)
    return body[2:2 + length], body[start:]


# MARK: - The site and the simulated gateways

class Building:
    """Rooms of ROOM_SIDE in rows of COLUMNS, one gateway in the middle of each, 2.5 m up."""

    def __init__(self, gateways):
        self.columns = min(COLUMNS, gateways)
        self.gateways = [(f'gw{i}', (i % self.columns + 0.5) * ROOM_SIDE, (i // self.columns + 0.5) * ROOM_SIDE)
                         for i in range(gateways)]
        # Beacons walk the full rows (a last row short of rooms is left out of their walk).
        self.width = self.columns * ROOM_SIDE
        self.depth = max(1, gateways // self.columns) * ROOM_SIDE

    def site_json(self):
        rooms, gateways = [], []
        for i, (name, x, y) in enumerate(self.gateways):
            x0, y0 = x - ROOM_SIDE / 2, y - ROOM_SIDE / 2
            rooms.append(f'{{"name":"room{i}","polygon":[[{x0},{y0}],[{x0 + ROOM_SIDE},{y0}],'
                         f'[{x0 + ROOM_SIDE},{y0 + ROOM_SIDE}],[{x0},{y0 + ROOM_SIDE}]]}}')
            gateways.append(f'{{"name":"{name}","position":[{x},{y},{GATEWAY_HEIGHT}],"room":"room{i}"}}')
        return f'{{"rooms":[{",".join(rooms)}],"gateways":[{",".join(gateways)}]}}\n'


class Walk:
    """Beacons on a random walk in the building: each second a new speed (up to MAX_SPEED) and a turn
    of the heading, reflected off the walls. The same seed gives every publisher process the same walk."""

    def __init__(self, beacons, building, seed):
        self.random = random.Random(seed)
        self.width, self.depth = building.width, building.depth
        self.positions = [(self.random.uniform(0, self.width), self.random.uniform(0, self.depth)) for _ in range(beacons)]
        self.headings = [self.random.uniform(0, 2 * math.pi) for _ in range(beacons)]

    def step(self):
        for i, (x, y) in enumerate(self.positions):
            heading = self.headings[i] + self.random.gauss(0, 0.6)
            speed = self.random.uniform(0, MAX_SPEED)
            x, y = reflected(x + speed * math.cos(heading), self.width), reflected(y + speed * math.sin(heading), self.depth)
            self.positions[i], self.headings[i] = (x, y), heading


def reflected(value, limit):
    if value < 0:
        return min(-value, limit)
    if value > limit:
        return max(2 * limit - value, 0.0)
    return value


class ReadingPool:
    """Each beacon reading's JSON after its id, for a distance: the log-distance model with its noise,
    drawn ahead, POOL_DRAWS draws per DISTANCE_BIN of distance up to `farthest`."""

    def __init__(self, seed, farthest):
        self.random = random.Random(seed)
        self.bins = [[self.draw((key + 0.5) * DISTANCE_BIN) for _ in range(POOL_DRAWS)]
                     for key in range(int(farthest / DISTANCE_BIN) + 1)]

    def draws(self, distance):
        return self.bins[int(distance / DISTANCE_BIN)]

    def draw(self, distance):
        model = MEASURED_POWER - 10 * PATH_LOSS_EXPONENT * math.log10(max(distance, 0.1))
        samples = self.random.randint(8, 10)
        rssi = model + self.random.gauss(0, NOISE_DB)
        filtered = model + self.random.gauss(0, FILTERED_NOISE_DB)
        # The standard deviation of `samples` readings with NOISE_DB of noise.
        spread = NOISE_DB * math.sqrt(sum(self.random.gauss(0, 1) ** 2 for _ in range(samples - 1)) / (samples - 1))
        accuracy = 10 ** ((MEASURED_POWER - filtered) / (10 * PATH_LOSS_EXPONENT))
        return (f'","rssi":{rssi:.1f},"filteredRssi":{filtered:.1f},"spread":{spread:.2f},"samples":{samples},'
                f'"measuredPower":{MEASURED_POWER},"accuracy":{accuracy:.2f}}}')


def time_text(instant):
    """2026-12-03T07:38:29.012Z"""
    whole, milliseconds = divmod(round(instant * 1000), 1000)
    return time.strftime('%Y-%m-%dT%H:%M:%S', time.gmtime(whole)) + f'.{milliseconds:03d}Z'


@functools.lru_cache(maxsize=None)
def parsed_time(text):
    """Seconds since the epoch of a time as locate prints it (whole milliseconds)."""
    return calendar.timegm(time.strptime(text[:19], '%Y-%m-%dT%H:%M:%S')) + int(text[20:23]) / 1000


def publisher(worker, port, building, gateway_indices, phases, beacons, hearing, seed, connection):
    """A publisher process: its gateways' connections, then one readings message per gateway per tick,
    built for the next tick while it waits. Sends back per second its last publish time, its readings
    and how late its latest message was against its tick."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    clients = {}
    for g in gateway_indices:
        name = building.gateways[g][0]
        status = f'{PREFIX}/gateways/{name}/status'
        clients[g] = MQTTConnection(port, f'bench-{name}', will=(status, 'offline'))
        clients[g].publish(status, b'online', retain=True)
    selector = selectors.DefaultSelector()
    for client in clients.values():
        selector.register(client.socket, selectors.EVENT_READ, client)
    dz2 = (GATEWAY_HEIGHT - BEACON_HEIGHT) ** 2
    farthest = min(hearing, math.sqrt(building.width ** 2 + building.depth ** 2 + dz2))
    pool = ReadingPool(seed * 1000 + worker, farthest)
    connection.send('ready')
    first, last = connection.recv()
    walk = Walk(beacons, building, seed)
    pick = random.Random(seed * 1000 + worker + 500)
    ids = [f'{{"id":"{BEACON_UUID}-1-{k}' for k in range(beacons)]
    order = sorted(gateway_indices, key=lambda g: phases[g])

    def batch(second, sequence):
        messages = []
        for g in order:
            name, gx, gy = building.gateways[g]
            tick = second + phases[g]
            parts = []
            for b, (x, y) in enumerate(walk.positions):
                distance = math.sqrt((x - gx) ** 2 + (y - gy) ** 2 + dz2)
                if distance <= hearing:
                    parts.append(ids[b] + pool.draws(distance)[pick.getrandbits(POOL_BITS)])
            payload = (f'{{"gateway":"{name}","time":"{time_text(tick)}","seq":{sequence},"beacons":['
                       + ','.join(parts) + ']}').encode()
            messages.append((tick, g, f'{PREFIX}/gateways/{name}/readings', payload, len(parts)))
        return messages

    last_publish, readings, lag = {}, {}, {}
    walk.step()
    pending = batch(first, 1)
    for second in range(first, last + 1):
        count, late = 0, 0.0
        for tick, g, topic, payload, heard in pending:
            delay = tick - time.time()
            if delay > 0:
                time.sleep(delay)
            # Taken before the message is handed over: a location cannot arrive before that, however long
            # this process waits for the CPU after the send.
            sent = time.time()
            clients[g].publish(topic, payload)
            late = max(late, time.time() - tick)
            count += heard
        last_publish[second], readings[second], lag[second] = sent, count, late
        for key, _ in selector.select(0):
            key.data.read()
        if second < last:
            walk.step()
            pending = batch(second + 1, second + 2 - first)
    # The broker's acknowledgements of the last messages.
    deadline = time.time() + 5
    while any(c.unacknowledged for c in clients.values()) and time.time() < deadline:
        for key, _ in selector.select(0.1):
            key.data.read()
    unacknowledged = sum(c.unacknowledged for c in clients.values())
    for client in clients.values():
        client.close()
    connection.send({'last_publish': last_publish, 'readings': readings, 'lag': lag, 'unacknowledged': unacknowledged})


class LocationSubscriber:
    """A subscriber of locate's status and location messages, noting when each location arrives."""
    status = f'{PREFIX}/locate/status'

    def __init__(self, port):
        self.connection = MQTTConnection(port, 'bench-subscriber')
        self.online = False
        self.arrivals = []  # (arrival, window end)
        self.selector = selectors.DefaultSelector()
        self.take(self.connection.subscribe([self.status, f'{PREFIX}/beacons/+/location']), time.time())
        self.selector.register(self.connection.socket, selectors.EVENT_READ)

    def receive(self, timeout):
        """What arrives within `timeout` seconds (one read)."""
        if self.selector.select(timeout):
            self.take(self.connection.read(), time.time())

    def take(self, packets, arrival):
        for kind, body in packets:
            if kind & 0xF0 != PUBLISH:
                continue
            topic, payload = published_message(kind, body)
            if topic == self.status.encode():
                self.online = payload == b'online'
            else:
                at = payload.find(b'"time":"')
                if at >= 0:
                    self.arrivals.append((arrival, parsed_time(payload[at + 8:at + 32].decode())))


# MARK: - Processes and their /proc figures

def machine_busy_seconds():
    """CPU time every CPU spent on anything but idling (or waiting for I/O), from /proc/stat; the
    hypervisor's steal included: time the bench could not have."""
    with open('/proc/stat') as file:
        user, nice, system, _, _, irq, softirq, steal = (int(v) for v in file.readline().split()[1:9])
    return (user + nice + system + irq + softirq + steal) / os.sysconf('SC_CLK_TCK')


def peak_rss_kib(pid):
    with open(f'/proc/{pid}/status') as file:
        for line in file:
            if line.startswith('VmHWM:'):
                return int(line.split()[1])
    raise BenchError(f'no VmHWM in /proc/{pid}/status')


def free_loopback_port():
    with socket.socket() as probe:
        probe.bind(('127.0.0.1', 0))
        return probe.getsockname()[1]


def stopped(process, grace=10):
    """SIGTERM, then SIGKILL after `grace` seconds; the exit status."""
    if process.poll() is None:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=grace)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
    return process.returncode


def start_broker(mosquitto, directory, settings=''):
    """A mosquitto on a free loopback port, `settings` added to its configuration; it and its port."""
    port = free_loopback_port()
    config = os.path.join(directory, 'mosquitto.conf')
    with open(config, 'w') as file:
        file.write(f'listener {port} 127.0.0.1\nallow_anonymous true\npersistence false\n'
                   'log_dest stderr\nlog_type error\nlog_type warning\n' + settings)
    log = os.path.join(directory, 'mosquitto.log')
    with open(log, 'w') as file:
        broker = subprocess.Popen([mosquitto, '-c', config], stdout=file, stderr=file)
    deadline = time.time() + 10
    while True:
        try:
            socket.create_connection(('127.0.0.1', port), timeout=1).close()
            return broker, port
        except OSError:
            if broker.poll() is not None or time.time() > deadline:
                stopped(broker)
                raise BenchError(f'mosquitto did not listen on port {port}: {tail(log)}')
            time.sleep(0.05)


def tail(path, lines=5):
    with open(path, errors='replace') as file:
        return ' | '.join(file.read().splitlines()[-lines:])


# MARK: - One step

def run_step(args, gateways, beacons, publishers):
    step = Step(gateways, beacons)
    directory = os.path.join(args.work, f'{gateways}x{beacons}')
    shutil.rmtree(directory, ignore_errors=True)
    os.makedirs(directory)
    building = Building(gateways)
    site = os.path.join(directory, 'site.json')
    with open(site, 'w') as file:
        file.write(building.site_json())
    broker, port = start_broker(args.mosquitto, directory)
    stdout_path, stderr_path = os.path.join(directory, 'locate.out'), os.path.join(directory, 'locate.err')
    with open(stdout_path, 'wb') as stdout, open(stderr_path, 'wb') as stderr:
        locate = subprocess.Popen([args.beacon, 'locate', '--mqtt', f'mqtt://127.0.0.1:{port}/{PREFIX}', '--site', site],
                                  stdout=stdout, stderr=stderr)
    workers = []
    try:
        subscriber = LocationSubscriber(port)
        deadline = time.time() + 15
        while not subscriber.online:
            if locate.poll() is not None:
                raise BenchError(f'beacon locate exited {locate.returncode}: {tail(stderr_path)}')
            if time.time() > deadline:
                raise BenchError(f'beacon locate did not set {LocationSubscriber.status} online within 15 s')
            subscriber.receive(0.1)

        phase_random = random.Random(args.seed + gateways)
        phases = [round(phase_random.uniform(0.001, MAX_PHASE), 3) for _ in range(gateways)]
        context = multiprocessing.get_context('fork')
        for worker in range(publishers):
            ours, theirs = context.Pipe()
            indices = list(range(worker, gateways, publishers))
            process = context.Process(target=publisher, args=(worker, port, building, indices, phases, beacons,
                                                              args.range, args.seed, theirs), daemon=True)
            process.start()
            workers.append((process, ours))
        for process, pipe in workers:
            if not pipe.poll(60) or pipe.recv() != 'ready':
                raise BenchError('a publisher process did not connect its gateways')
        # Whole seconds: the warm-up, the measured ticks, and one tick more that closes the last window.
        first = math.ceil(time.time() + 1.5)
        measure_start = first + math.ceil(args.warm_up)
        measure_end = measure_start + math.ceil(args.measure)
        last = measure_end + 1
        for _, pipe in workers:
            pipe.send((first, last))

        start = end = None
        # The subscriber waits for the last window's locations, FUSE_GRACE after the tick that closes it.
        listen_until = measure_end + MAX_PHASE + FUSE_GRACE
        while time.time() < listen_until:
            now = time.time()
            if start is None and now >= measure_start:
                start = Snapshot(locate, broker, workers)
            elif start is not None and end is None and now >= measure_end:
                end = Snapshot(locate, broker, workers)
            next_event = measure_start if start is None else measure_end if end is None else listen_until
            subscriber.receive(max(0.0, min(next_event, listen_until) - now))
            if locate.poll() is not None:
                raise BenchError(f'beacon locate exited {locate.returncode} during the step: {tail(stderr_path)}')
        step.peak_rss_kib = peak_rss_kib(locate.pid)
        # What locate had printed by now: windows it had not fused by then count as not fused.
        with open(stdout_path, 'rb') as file:
            printed = file.read()
        step.exit_status = stopped(locate, grace=15)
        subscriber.connection.close()
        results = []
        for process, pipe in workers:
            if not pipe.poll(15):
                raise BenchError('a publisher process did not report')
            results.append(pipe.recv())
            process.join(5)
    finally:
        stopped(locate)
        for process, _ in workers:
            if process.is_alive():
                process.kill()
        stopped(broker)

    with open(stderr_path, errors='replace') as file:
        warnings = file.read().splitlines()
    step.take_figures(range(measure_start, measure_end), start, end, results, printed, subscriber.arrivals, warnings)
    return step


class Step:
    """One load's run and its figures."""

    def __init__(self, gateways, beacons):
        self.gateways, self.beacons = gateways, beacons

    def take_figures(self, ticks, start, end, results, printed, arrivals, warnings):
        """The figures of the measured `ticks` (whole seconds), from the /proc snapshots at their start and
        end, the publishers' results, what locate printed by the end of the step, the subscriber's
        (arrival, window end) pairs and locate's stderr lines."""
        wall = end.time - start.time
        self.offered = sum(r['readings'][s] for r in results for s in ticks)
        self.readings_per_second = self.offered / len(ticks)
        locate_cpu = end.locate - start.locate
        self.cpu_share = locate_cpu / wall
        self.microseconds_per_reading = locate_cpu / self.offered * 1e6 if self.offered else math.nan
        self.broker_share = (end.broker - start.broker) / wall
        self.publisher_shares = [(b - a) / wall for a, b in zip(start.publishers, end.publishers)]
        ours = sum(b - a for a, b in zip(start.ours, end.ours))
        self.other_share = max(0.0, (end.machine - start.machine) - ours) / wall
        self.lag = max(r['lag'][s] for r in results for s in ticks)
        self.unacknowledged = sum(r['unacknowledged'] for r in results)

        # Window ends: the window ending at T holds the ticks of second T - 1.
        windows = range(ticks.start + 1, ticks.stop + 1)
        located = {}
        for line in printed.split(b'\n'):
            if line.startswith(b'{"event":"location"') and line.endswith(b'}'):
                at = line.find(b'"time":"')
                window = parsed_time(line[at + 8:at + 32].decode())
                located[window] = located.get(window, 0) + 1
        self.windows_offered = len(windows)
        self.windows_fused = sum(1 for w in windows if w in located)
        self.missing = [w - ticks.start for w in windows if located.get(w, 0) < self.beacons]
        self.locations = sum(located.get(w, 0) for w in windows)
        self.locations_offered = self.beacons * len(windows)

        # The last message a window waits for: the last gateway's tick of the second the window ends.
        last_needed = {w: max(r['last_publish'][w] for r in results) for w in windows}
        self.latency = percentiles(sorted(arrival - last_needed[w] for arrival, w in arrivals if w in last_needed))
        self.window_end_latency = percentiles(sorted(arrival - w for arrival, w in arrivals if w in last_needed))
        self.received = sum(1 for _, w in arrivals if w in last_needed)

        self.warnings = warnings
        self.malformed = sum('malformed' in line for line in warnings)
        self.saturation = saturation(self)
        self.publishers_behind = self.lag > PUBLISHER_LAG_LIMIT


class Snapshot:
    """CPU seconds so far: locate's, the broker's, each publisher's, the bench's own processes' (all of
    the above and the driver) and the whole machine's; and when."""

    def __init__(self, locate, broker, workers):
        self.time = time.time()
        self.locate = proc_cpu_seconds(locate.pid)
        self.broker = proc_cpu_seconds(broker.pid)
        self.publishers = [proc_cpu_seconds(process.pid) for process, _ in workers]
        self.ours = [self.locate, self.broker, *self.publishers, sum(os.times()[:2])]
        self.machine = machine_busy_seconds()


def percentiles(values):
    """(p50, p99) by the nearest rank; None for no values."""
    if not values:
        return None
    return tuple(values[min(len(values) - 1, math.ceil(q * len(values)) - 1)] for q in (0.50, 0.99))


def saturation(step):
    """Why locate did not keep up in this step; empty when it did."""
    reasons = []
    if step.cpu_share >= SATURATED_CPU:
        reasons.append(f'CPU {step.cpu_share:.0%} of a core')
    if step.latency is None or step.latency[1] > SATURATED_P99:
        reasons.append('no location arrived' if step.latency is None else f'p99 {milliseconds(step.latency[1])}')
    if step.windows_fused < step.windows_offered or step.locations < step.locations_offered:
        reasons.append(f'fell behind: {step.windows_fused}/{step.windows_offered} windows, '
                       f'{step.locations:,}/{step.locations_offered:,} locations fused')
    return reasons


# MARK: - Output

def milliseconds(seconds):
    if math.isnan(seconds):
        return 'none'
    return f'{seconds * 1000:.0f} ms' if seconds >= 0.0095 else f'{seconds * 1000:.1f} ms'


def load(step):
    return f'{step.gateways} × {step.beacons}'


def print_table(steps, hearing):
    heads = ['gateways × beacons', 'readings/s', 'locations/s', 'windows', 'locate CPU', 'µs/reading',
             'latency p50', 'p99', 'window end p50', 'p99', 'peak RSS', 'warnings', 'malformed',
             'publishers CPU', 'broker CPU', 'other CPU']
    rows = []
    for step in steps:
        latency = step.latency or (math.nan, math.nan)
        end = step.window_end_latency or (math.nan, math.nan)
        rows.append([load(step), f'{step.readings_per_second:,.0f}', f'{step.locations / step.windows_offered:,.0f}',
                     f'{step.windows_fused}/{step.windows_offered}', f'{step.cpu_share:.1%}',
                     f'{step.microseconds_per_reading:.2f}', milliseconds(latency[0]), milliseconds(latency[1]),
                     milliseconds(end[0]), milliseconds(end[1]), f'{step.peak_rss_kib / 1024:.1f} MiB',
                     str(len(step.warnings)), str(step.malformed), ' + '.join(f'{share:.0%}' for share in step.publisher_shares),
                     f'{step.broker_share:.0%}', f'{step.other_share:.0%}'])
    widths = [max(len(cell) for cell in column) for column in zip(heads, *rows)]
    print(f'\nbeacon locate through mosquitto on loopback, a readings message per gateway a second, {hearing}:')
    for line in [heads] + rows:
        print('  '.join(cell.ljust(width) if i == 0 else cell.rjust(width) for i, (cell, width) in enumerate(zip(line, widths))))


def mosquitto_version(mosquitto):
    result = subprocess.run([mosquitto, '-h'], capture_output=True, text=True)
    match = re.search(r'mosquitto version (\S+)', result.stdout + result.stderr)
    return match.group(1) if match else 'of unknown version'


def main():
    args = parse_arguments()
    if args.work:
        os.makedirs(args.work, exist_ok=True)
    else:
        args.work = tempfile.mkdtemp(prefix='beacon-fleet-bench-')
    started = time.time()
    print(f'make bench-fleet: {os.cpu_count()} CPUs; beacon locate fusing gateways that publish to mosquitto '
          f'{mosquitto_version(args.mosquitto)} on loopback; per step {args.warm_up:g} s of warm-up, then '
          f'{args.measure:g} s measured; rooms of {ROOM_SIDE:g} × {ROOM_SIDE:g} m in rows of {COLUMNS}, one gateway each; '
          f'beacons walking at up to {MAX_SPEED} m/s; steps and logs in {args.work}')
    hearing = ('every gateway hearing every beacon' if args.range == math.inf
               else f'each gateway hearing the beacons within {args.range:g} m')
    steps = []
    step_seconds = None
    for gateways, beacons in args.loads:
        elapsed = time.time() - started
        if steps and elapsed + step_seconds > args.budget:
            print(f'bench-fleet: the {args.budget:g} s budget leaves no room for {gateways} × {beacons}; the ladder ends here')
            break
        # At most every gateway hears every beacon.
        publishers = min(gateways, args.publishers or math.ceil(gateways * beacons / READINGS_PER_PUBLISHER))
        print(f'step {gateways} × {beacons}: {publishers} publisher process{"es" if publishers > 1 else ""} ...',
              file=sys.stderr, flush=True)
        begun = time.time()
        try:
            step = run_step(args, gateways, beacons, publishers)
        except BenchError as error:
            sys.exit(f'bench-fleet: {gateways} × {beacons}: {error}')
        step_seconds = max(step_seconds or 0, time.time() - begun)
        steps.append(step)
        if step.saturation or step.publishers_behind:
            break

    print_table(steps, hearing)
    for step in steps:
        if step.publishers_behind:
            print(f'{load(step)}: the publishers sent up to {milliseconds(step.lag)} after their ticks '
                  f'(CPU {" + ".join(f"{s:.0%}" for s in step.publisher_shares)}): this step measures them, not locate')
        if step.unacknowledged:
            print(f'{load(step)}: mosquitto had not acknowledged {step.unacknowledged} readings messages at the end')
        if step.missing:
            print(f'{load(step)}: windows not fused in full {FUSE_GRACE:g} s after the tick that closes them, '
                  f'seconds into the measurement: {", ".join(str(w) for w in step.missing)}')
        if step.received < step.locations:
            print(f'{load(step)}: the subscriber received {step.received:,} of the {step.locations:,} location messages locate printed')
        if step.exit_status != 0:
            print(f'{load(step)}: beacon locate exited {step.exit_status} on SIGTERM')
        for line in step.warnings[:5]:
            print(f'{load(step)}: locate: {line}')

    target = next((s for s in steps if (s.gateways, s.beacons) == (TARGET_GATEWAYS, TARGET_BEACONS)), None)
    if target is not None:
        cpu_met = target.cpu_share < TARGET_CPU
        p99 = target.latency[1] if target.latency else math.nan
        p99_met = p99 < TARGET_P99
        print(f'\ntargets, {TARGET_GATEWAYS} gateways × {TARGET_BEACONS} beacons at 1 Hz '
              f'({target.readings_per_second:,.0f} readings/s): locate under {TARGET_CPU:.0%} of one core: '
              f'{target.cpu_share:.1%}, {"met" if cpu_met else "NOT met"}; p99 latency under {milliseconds(TARGET_P99)}: '
              f'{milliseconds(p99)}, {"met" if p99_met else "NOT met"}')
    sustained = [s for s in steps if not s.saturation and not s.publishers_behind]
    best = max(sustained, key=lambda s: s.readings_per_second, default=None)
    saturated = next((s for s in steps if s.saturation and not s.publishers_behind), None)
    summary = (f'one fuser sustained {load(best)} ({best.readings_per_second:,.0f} readings/s, CPU {best.cpu_share:.1%} of a core, '
               f'p99 {milliseconds(best.latency[1])})') if best else 'one fuser sustained none of the steps'
    if saturated:
        summary += f'; it saturated at {load(saturated)} ({saturated.readings_per_second:,.0f} readings/s): {"; ".join(saturated.saturation)}'
    elif steps and steps[-1].publishers_behind:
        summary += f'; at {load(steps[-1])} the publishers fell behind before locate saturated'
    else:
        summary += '; it did not saturate within the steps run'
    print(summary)
    print(f'bench-fleet: {time.time() - started:.0f} s')


if __name__ == '__main__':
    try:
        main()
    except KeyboardInterrupt:
        sys.exit('bench-fleet: interrupted')
