#!/usr/bin/env python3
"""make bench: beacon's replay and live paths against a C reference loop, its Python peers and btmon,
on the same captures, in one run. Prints the tables; every figure comes from this run.

Captures: `beacon simulate` writes them from bench scenes (bench_scene): standing beacons and, a tenth
of the reports, neighbours that are not beacons; legacy and extended reports mixed. A scene run for a
shorter duration gives the first part of the same capture, whose reports the C loop counts.

Replay: each tool runs several times on each capture as a whole process; the median wall time gives
reports per second, wait4(2)'s rusage the CPU time and peak RSS. beacon and the C loop take turns, run
by run, so a machine that slows down for a while slows both alike. The Python peers and btmon are one to
three orders of magnitude slower, so they read the capture's first PEER_REPORTS reports (about: the
scene run for that many), and the peers' rates and CPU come from their own parse loop
(process_time / perf_counter), leaving out the interpreter's start and imports; their RSS is the
whole process's.

Live: tools/bench/fake_controller answers beacon's setup over a unix socket, then streams the
capture's advertising reports as fast as beacon reads them. beacon's CPU time over the stream comes
from its threads' /proc/PID/task/*/schedstat (nanoseconds; /proc/PID/stat's clock ticks where there is
none), its read and write calls from /proc/PID/io, and all its system calls from strace -c in a
separate run (strace slows it down, so that run is not timed). The runs' range is printed with their
median; callgrind counts the live path's instructions per report as below, on the stream.

Load: beside each replay table, the ratio of each beacon run to the C loop run next to it (median and
range); at the end, the share of CPU time the hypervisor took while the bench ran (/proc/stat steal).

Instructions: valgrind's callgrind counts the instructions beacon and the C loop execute on the whole
capture and on its first PEER_REPORTS reports; the difference, per report between them, leaves out
everything a run does once (start, tables, exit) and keeps every range line. Unlike rates on a shared
machine, these counts repeat exactly from run to run.
"""
import argparse
import json
import os
import re
import signal
import statistics
import subprocess
import sys
import time

UUID = 'E2C56DB5-DFFB-48D2-B060-D0F5A7100000'  # UUID number 0 of the bench scenes
# A bench scene's beacons advertise every 100 ms plus a uniform 0...10 ms; its neighbours (other devices,
# advertising their name) come at the same mean rate, a ninth as many: a tenth of all reports.
MEAN_INTERVAL_S = 0.105
NEIGHBOURS_PER_BEACON = 1 / 9
EXTENDED_SHARE = 0.1


def parse_arguments():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--beacon', required=True)
    parser.add_argument('--loop', required=True, help='the C reference loop (ibeacon_loop)')
    parser.add_argument('--controller', required=True, help='the fake controller (fake_controller)')
    parser.add_argument('--python', required=True, help="the bench venv's python, with the peers")
    parser.add_argument('--work', required=True, help='where the scenes and captures go')
    parser.add_argument('--runs', type=int, default=5, help='runs of beacon and the C loop per capture')
    parser.add_argument('--peer-runs', type=int, default=3)
    parser.add_argument('--peer-reports', type=int, default=20000)
    parser.add_argument('--startup-runs', type=int, default=21)
    parser.add_argument('--live-runs', type=int, default=5)
    return parser.parse_args()


class Run:
    def __init__(self, wall, cpu, rss_kib, stdout):
        self.wall, self.cpu, self.rss_kib, self.stdout = wall, cpu, rss_kib, stdout


def run(command, stdout_to_null=False):
    """Runs `command` to completion: wall seconds, CPU seconds (user + system), peak RSS, stdout."""
    started = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL if stdout_to_null else subprocess.PIPE,
                               stderr=subprocess.PIPE)
    stdout, stderr = process.communicate()
    wall = time.perf_counter() - started
    # communicate() has reaped it; its rusage is the children's delta, taken around the run instead.
    return process, wall, stdout, stderr


def measured(command, stdout_to_null=False):
    usage_before = resource_children()
    process, wall, stdout, stderr = run(command, stdout_to_null)
    usage_after = resource_children()
    if process.returncode != 0:
        sys.exit(f'bench: {" ".join(command)} exited {process.returncode}: {stderr.decode(errors="replace")[-500:]}')
    cpu = (usage_after.ru_utime - usage_before.ru_utime) + (usage_after.ru_stime - usage_before.ru_stime)
    return Run(wall, cpu, usage_after.ru_maxrss, (stdout or b'').decode())


def resource_children():
    import resource
    return resource.getrusage(resource.RUSAGE_CHILDREN)


def peak_rss_kib(command):
    """Peak RSS of one run of `command` on its own (RUSAGE_CHILDREN keeps the largest child so far)."""
    result = subprocess.run(['/usr/bin/time', '-f', '%M'] + command, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, check=True)
    return int(result.stderr.decode().strip().splitlines()[-1])


def bench_scene(beacons, uuids):
    """The scene of a bench capture: `beacons` standing 1 to 15 m from the receiver, beacon i of UUID number
    i % uuids (the bench UUID with its last two bytes replaced by the number), and their neighbours; mixed
    reports, a tenth of them extended."""
    def uuid(k):
        return f'{UUID[:-4]}{k:04X}'
    return {
        'name': f'bench-{beacons}-beacons-{uuids}-uuids',
        'duration': 1,  # required by a scene file; capture() passes the run's --duration
        'receiver': {'reports': 'mixed', 'extendedShare': EXTENDED_SHARE},
        'neighbours': {'count': round(beacons * NEIGHBOURS_PER_BEACON), 'interval': f'{MEAN_INTERVAL_S * 1000:.0f}ms'},
        'beacons': [{'uuid': uuid(i % uuids), 'major': 0, 'minor': i, 'path': {'kind': 'standing', 'distance': 1 + i % 15}}
                    for i in range(beacons)],
    }


class Capture:
    """A capture `beacon simulate` wrote, and how many advertising reports it holds (the C loop counts them)."""
    def __init__(self, path, reports):
        self.path = path
        self.reports = reports


def capture(args, name, beacons, uuids, reports):
    """The bench scene of `beacons` and `uuids` simulated for about `reports` reports, written anew by the
    beacon under test (a few seconds) so a capture never outlives the simulator that made it. The scene is
    deterministic: a shorter capture is the first part of a longer one."""
    path = os.path.join(args.work, f'{name}.btsnoop')
    scene_path = os.path.join(args.work, f'{name}.scene.json')
    rate = beacons * (1 + NEIGHBOURS_PER_BEACON) / MEAN_INTERVAL_S
    with open(scene_path, 'w') as file:
        json.dump(bench_scene(beacons, uuids), file)
    subprocess.run([args.beacon, 'simulate', '--scene', scene_path, '--out', path + '.tmp',
                    '--duration', f'{reports / rate:.3f}'], check=True, stdout=subprocess.DEVNULL)
    os.replace(path + '.tmp', path)
    summary = subprocess.run([args.loop, path], check=True, capture_output=True, text=True).stdout
    return Capture(path, int(re.search(r'reports=(\d+)', summary).group(1)))


# The replay captures: (title, name, beacons, UUIDs).
CAPTURES = [('1,000 beacons, all in the region (--uuid U)', 'b1k', 1000, 1),
            ('1,000 beacons of 100 UUIDs, region of one UUID', 'b1k-u100', 1000, 100),
            ('10,000 beacons, all in the region', 'b10k', 10_000, 1)]


def simulated_captures(args):
    """Each capture of CAPTURES as (title, whole, first reports): about a million reports, and the first
    `args.peer_reports` for the peers and for callgrind (a shorter run of the same scene)."""
    return [(title, capture(args, name, beacons, uuids, 1_000_000), capture(args, f'{name}-first', beacons, uuids, args.peer_reports))
            for title, name, beacons, uuids in CAPTURES]


def beacon_range(beacon, path):
    """beacon range over a capture, as every replay figure runs it."""
    return [beacon, 'range', '--hci', f'btsnoop:{path}', '--uuid', UUID]


class Row:
    def __init__(self, tool, reports, walls, cpus, rss_kib, note=''):
        self.tool, self.reports, self.note = tool, reports, note
        self.wall = statistics.median(walls)
        self.cpu = statistics.median(cpus)
        self.rss_kib = rss_kib

    @property
    def rate(self):
        return self.reports / self.wall

    @property
    def cpu_per_million(self):
        return self.cpu / self.reports * 1e6


def whole_process(tool, command, reports, runs, stdout_to_null=False, note=''):
    return taking_turns([(tool, command, stdout_to_null, note)], reports, runs)[0]


def taking_turns(tools, reports, runs):
    """whole_process for several tools, run by run in turn: [(tool, command, stdout_to_null, note)] to rows and runs."""
    results = [[] for _ in tools]
    for _ in range(runs):
        for (tool, command, stdout_to_null, _), into in zip(tools, results):
            into.append(measured(command, stdout_to_null))
    return [(Row(tool, reports, [r.wall for r in runs_of], [r.cpu for r in runs_of], peak_rss_kib(command), note), runs_of)
            for (tool, command, _, note), runs_of in zip(tools, results)]


CALLGRIND = ['valgrind', '--tool=callgrind', '--callgrind-out-file=/dev/null']


def instructions(command):
    """Instructions `command` executes, counted by callgrind."""
    result = subprocess.run(CALLGRIND + command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, check=True)
    return collected(result.stderr.decode(), command)


def collected(stderr, command):
    """The instruction count callgrind printed."""
    match = re.search(r'Collected : (\d+)', stderr)
    if not match:
        sys.exit(f'bench: no instruction count from callgrind for {" ".join(command)}')
    return int(match.group(1))


def without_debug_information(binary, work):
    """A copy of `binary` for callgrind, whose reader gives up on the debug information Swift links in."""
    copy = os.path.join(work, os.path.basename(binary) + '-nodebug')
    subprocess.run(['strip', '--strip-debug', '-o', copy, binary], check=True)
    return copy


def instructions_per_report(command_on, longer, shorter):
    """Instructions per report between two prefixes of one capture: what a run does once cancels out."""
    return ((instructions(command_on(longer.path)) - instructions(command_on(shorter.path)))
            / (longer.reports - shorter.reports))


def peer(args, name, script, capture):
    walls, cpus = [], []
    reports = capture.reports
    command = [args.python, os.path.join(os.path.dirname(__file__), script), capture.path, '--uuid', UUID]
    for _ in range(args.peer_runs):
        result = measured(command)
        fields = dict(field.split('=') for field in result.stdout.splitlines()[0].split())
        walls.append(float(fields['parse_wall_s']))
        cpus.append(float(fields['parse_cpu_s']))
    return Row(name, reports, walls, cpus, peak_rss_kib(command), note=f'first {reports:,} reports, parse loop only')


def ratio(value):
    """1,234× / 12.35× / 0.0335×: three significant digits at least, no exponents."""
    if value >= 100:
        return f'{value:,.0f}×'
    return f'{value:.2f}×' if value >= 1 else f'{value:.3g}×'


def human_rate(rate):
    return f'{rate / 1e6:.2f} M' if rate >= 1e6 else f'{rate / 1e3:.1f} k'


def print_table(title, rows, peers):
    reference = next(row for row in rows if row.tool == 'C reference loop')
    heads = ['tool', 'reports/s', 'vs C loop'] + [f'vs {p.tool}' for p in peers] + ['CPU s / M reports', 'peak RSS']
    lines = []
    for row in rows:
        lines.append([row.tool, human_rate(row.rate), ratio(row.rate / reference.rate)]
                     + [ratio(row.rate / p.rate) for p in peers]
                     + [f'{row.cpu_per_million:.3f}', f'{row.rss_kib / 1024:.1f} MiB'])
    widths = [max(len(str(cell)) for cell in column) for column in zip(heads, *lines)]
    print(f'\n{title}')
    print('  '.join(head.ljust(width) if i == 0 else head.rjust(width) for i, (head, width) in enumerate(zip(heads, widths))))
    for line in lines:
        print('  '.join(cell.ljust(width) if i == 0 else cell.rjust(width) for i, (cell, width) in enumerate(zip(line, widths))))


def proc_cpu_seconds(pid):
    """The CPU time the process's threads have run, user and system: in nanoseconds from schedstat
    where the kernel keeps it (the live run takes a tenth of a second, ten clock ticks), else in ticks."""
    try:
        total = 0
        for task in os.listdir(f'/proc/{pid}/task'):
            with open(f'/proc/{pid}/task/{task}/schedstat') as file:
                total += int(file.read().split()[0])
        return total / 1e9
    except (OSError, ValueError, IndexError):
        with open(f'/proc/{pid}/stat') as file:
            fields = file.read().rsplit(')', 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf('SC_CLK_TCK')  # utime, stime (fields 14, 15)


def cpu_times():
    """(steal, total) clock ticks of every CPU from /proc/stat: the share the hypervisor took."""
    with open('/proc/stat') as file:
        fields = [int(value) for value in file.readline().split()[1:]]
    return (fields[7] if len(fields) > 7 else 0), sum(fields[:8])


def proc_io(pid):
    with open(f'/proc/{pid}/io') as file:
        values = dict(line.split(': ') for line in file.read().splitlines())
    return int(values['syscr']), int(values['syscw'])


def wait_for_line(stream, prefix):
    while True:
        line = stream.readline()
        if not line:
            sys.exit(f'bench: the fake controller ended before "{prefix}"')
        if line.startswith(prefix):
            return line.strip()


def live_once(args, path, strace_output=None, beacon_binary=None, wrapper=()):
    """One live run: (reports, CPU seconds over the stream, read and write calls over it, beacon's stderr).
    `wrapper` (callgrind) runs beacon under it."""
    socket = os.path.join(args.work, 'controller.sock')
    controller = subprocess.Popen([args.controller, socket, path], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        wait_for_line(controller.stdout, 'LISTENING')
        beacon = subprocess.Popen(list(wrapper) + [beacon_binary or args.beacon, 'range', '--hci', f'unix:{socket}', '--uuid', UUID],
                                  stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        wait_for_line(controller.stdout, 'SCANNING')
        tracer = None
        if strace_output:
            tracer = subprocess.Popen(['strace', '-c', '-f', '-o', strace_output, '-p', str(beacon.pid)],
                                      stderr=subprocess.PIPE, text=True)
            wait_for_line(tracer.stderr, 'strace: Process')
        cpu, io = proc_cpu_seconds(beacon.pid), proc_io(beacon.pid)
        controller.stdin.write('go\n')
        controller.stdin.flush()
        streamed = wait_for_line(controller.stdout, 'STREAMED')
        cpu, io = proc_cpu_seconds(beacon.pid) - cpu, tuple(b - a for a, b in zip(io, proc_io(beacon.pid)))
        beacon.send_signal(signal.SIGTERM)
        _, stderr = beacon.communicate(timeout=60)
        if beacon.returncode != 0:
            sys.exit(f'bench: live beacon exited {beacon.returncode}: {stderr.decode(errors="replace")}')
        if tracer:
            tracer.wait(timeout=60)
        reports = int(re.search(r'reports=(\d+)', streamed).group(1))
        return reports, cpu, io, stderr.decode(errors='replace')
    finally:
        controller.kill()
        controller.wait()


def live_instructions_per_report(args, counted_beacon, longer, shorter):
    """instructions_per_report for the live path: the two prefixes streamed by the fake controller."""
    counts = [collected(live_once(args, prefix.path, beacon_binary=counted_beacon, wrapper=CALLGRIND)[3], ['beacon (live)'])
              for prefix in (longer, shorter)]
    return (counts[0] - counts[1]) / (longer.reports - shorter.reports)


def strace_total(path):
    """The calls column of strace -c's total line."""
    with open(path) as file:
        for line in file:
            if line.rstrip().endswith('total'):
                return int(line.split()[3])  # % time, seconds, usecs/call, calls
    sys.exit(f'bench: no total in {path}')


def main():
    args = parse_arguments()
    os.makedirs(args.work, exist_ok=True)
    started, steal_before = time.perf_counter(), cpu_times()
    print(f'make bench: {os.cpu_count()} CPUs; beacon and the C loop {args.runs} runs each, peers and btmon '
          f'{args.peer_runs} on the first {args.peer_reports:,} reports; medians')

    captures = simulated_captures(args)
    print(f'captures: beacon simulate scenes of standing beacons (1 to 15 m) and neighbours that are not beacons '
          f'({1 - 1 / (1 + NEIGHBOURS_PER_BEACON):.0%} of the reports), mixed reports ({EXTENDED_SHARE:.0%} LE Extended '
          f'Advertising Reports, the rest legacy); scenes and captures in {args.work}')

    beacon_on = lambda path, beacon=args.beacon: beacon_range(beacon, path)
    loop_on = lambda path: [args.loop, path, '--uuid', UUID]
    counted_beacon = without_debug_information(args.beacon, args.work)
    for title, whole, prefix in captures:
        (beacon_row, beacon_runs), (loop_row, loop_runs) = taking_turns([
            ('beacon range', beacon_on(whole.path), True, 'whole process, release build, stdout to /dev/null'),
            ('C reference loop', loop_on(whole.path), False, 'whole process, cc -O2; its RSS counts the mapped capture'),
        ], whole.reports, args.runs)
        peers = [peer(args, 'beacontools', 'peer_beacontools.py', prefix),
                 peer(args, 'aioblescan', 'peer_aioblescan.py', prefix),
                 peer(args, 'bumble', 'peer_bumble.py', prefix)]
        btmon, _ = whole_process('btmon -r', ['btmon', '-r', prefix.path], prefix.reports, args.peer_runs,
                                 stdout_to_null=True, note=f'whole process, first {prefix.reports:,} reports, output to /dev/null')
        rows = [beacon_row, loop_row] + peers + [btmon]
        matched = int(re.search(r'matched=(\d+)', loop_runs[0].stdout).group(1))
        print_table(f'replay: {whole.reports:,} reports, {title}; {matched:,} reports in the region', rows, peers)
        # Each beacon run against the loop run next to it: the two saw the machine in the same state.
        turns = sorted(loop.wall / beacon.wall for beacon, loop in zip(beacon_runs, loop_runs))
        print(f'beacon range against the C loop run by run: median {ratio(statistics.median(turns))}, '
              f'from {ratio(turns[0])} to {ratio(turns[-1])}')
        counted = [instructions_per_report(command_on, whole, prefix)
                   for command_on in (lambda path: beacon_on(path, counted_beacon), loop_on)]
        print(f'instructions per report (callgrind, from report {prefix.reports:,} to the end): '
              f'beacon range {counted[0]:,.0f}, C reference loop {counted[1]:,.0f}; vs C loop {ratio(counted[1] / counted[0])}')
    print()
    for row in rows:
        print(f'{row.tool}: {row.note}')

    startup = [measured([args.beacon, '--version']).wall for _ in range(args.startup_runs)]
    print(f'\nstartup: beacon --version, median of {args.startup_runs} runs: {statistics.median(startup) * 1000:.1f} ms')

    live_path, live_prefix = captures[0][1:]
    # Each live run followed by a run of the C loop on the same capture: the machine's speed in that moment.
    results, loop_cpus = [], []
    for _ in range(args.live_runs):
        results.append(live_once(args, live_path.path))
        loop_cpus.append(measured(loop_on(live_path.path)).cpu)
    reports = results[0][0]
    cpu = statistics.median(r[1] for r in results)
    nanoseconds = sorted(r[1] / reports * 1e9 for r in results)
    against_loop = statistics.median(r[1] / loop for r, loop in zip(results, loop_cpus))
    # The same stream's first reports under callgrind: the live path's instructions per report, as for replay.
    live_instructions = live_instructions_per_report(args, counted_beacon, live_path, live_prefix)
    reads = statistics.median(r[2][0] for r in results)
    writes = statistics.median(r[2][1] for r in results)
    strace_file = os.path.join(args.work, 'live.strace')
    syscalls = None
    if subprocess.run(['sh', '-c', 'command -v strace'], stdout=subprocess.DEVNULL).returncode == 0:
        live_once(args, live_path.path, strace_output=strace_file)
        syscalls = strace_total(strace_file)
    print(f'\nlive: beacon range --hci unix:SOCKET from the fake controller, {reports:,} reports streamed as fast as read '
          f'(median of {args.live_runs}):')
    print(f'  CPU {cpu:.3f} s = {cpu / reports * 1e9:.0f} ns per report ({cpu / reports * 1e6:.3f} s per M reports); '
          f'runs from {nanoseconds[0]:.0f} to {nanoseconds[-1]:.0f} ns')
    print(f'  the C reference loop on the same capture, run after each: {statistics.median(loop_cpus) / live_path.reports * 1e9:.0f} ns '
          f'of CPU per report; the live path costs {against_loop:.2f}× the loop run next to it (median)')
    print(f'  instructions per report (callgrind, from report {live_prefix.reports:,} to the end '
          f'of the stream): {live_instructions:,.0f}')
    print(f'  read calls {reads:,} ({reads / reports:.4f} per report), write calls {writes:,} ({writes / reports:.5f} per report)')
    if syscalls is not None:
        print(f'  all system calls (strace -c -f, a separate run): {syscalls:,} = {syscalls / reports:.4f} per report')
    steal, total = (after - before for after, before in zip(cpu_times(), steal_before))
    # On a shared virtual machine every figure moves with its neighbours' load; this says how loaded.
    print(f'\nbench: {time.perf_counter() - started:.0f} s; CPU time taken by the hypervisor meanwhile (steal): '
          f'{100 * steal / max(total, 1):.0f} %')


if __name__ == '__main__':
    main()
