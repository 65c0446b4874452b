#!/usr/bin/env python3
"""make eval-fleet: every fleet run through the real processes and a real broker.

For each run directory `beacon-eval --fleet-prepare DIR` wrote (a scene and its seed, or the
captures of a recorded drive: the Kolakowski flat's, each of the Daniş office's tracks), on one Debian mosquitto on a free loopback port:
  1. a scene is simulated: `beacon simulate --scene scene.json --seed S --out captures`, one capture
     per gateway and the site (captures/site.json);
  2. a subscriber (mosquitto_sub, QoS 1) records every readings message that crosses the broker,
     `topic payload` a line, in readings.txt;
  3. `beacon locate --site captures/site.json --until-offline` starts at its live lateness bound (the
     replays' readings say they are, so it waits for every gateway as `--max-lateness none` does; with
     --calibrate when the run's directory holds a file `calibrate`), and beside it the same with
     `--max-lateness none`, `--smoothing` (the run's smoothing file) and `--shard 1/1` (every beacon, under a
     status topic and client id of its own); once both are online every gateway replays its capture at
     full speed, all at once:
     `beacon range --hci btsnoop:captures/NAME.btsnoop --uuid UUID --mqtt URL --gateway NAME`;
  4. both end when every gateway has gone offline; their lines are in locate.jsonl and
     locate-smoothing.jsonl.
Each run has a topic prefix of its own. `beacon-eval --fleet-check DIR` then checks that the readings
and lines are exactly the ones the evaluation works out in process.

Usage: eval_fleet.py --beacon BIN DIR   (exit 1 with a one-line reason when a run fails)
"""
import argparse
import os
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), 'bench'))
from fleet_bench import BenchError, start_broker, stopped, tail  # noqa: E402

UUID = 'E2C56DB5-DFFB-48D2-B060-D0F5A71096E0'
# A run replays seconds to minutes of captures at full speed: this bounds a hung one.
RUN_TIMEOUT = 300


class RunError(Exception):
    pass


def wait_online(port, status_topic, timeout=20):
    """Until locate's retained status says online (it subscribes before it publishes that)."""
    result = subprocess.run(['mosquitto_sub', '-p', str(port), '-t', status_topic, '-C', '1',
                             '-W', str(timeout)], capture_output=True, text=True)
    if result.stdout.strip() != 'online':
        raise RunError(f'beacon locate did not come online: {result.stderr.strip() or result.stdout.strip()}')


def count_lines(path):
    with open(path, 'rb') as file:
        return sum(1 for _ in file)


def run(beacon, port, directory):
    name = os.path.basename(directory)
    captures = os.path.join(directory, 'captures')
    scene = os.path.join(directory, 'scene.json')
    if os.path.exists(scene):
        with open(os.path.join(directory, 'seed')) as file:
            seed = file.read().strip()
        simulated = subprocess.run([beacon, 'simulate', '--scene', scene, '--seed', seed, '--out', captures],
                                   capture_output=True, text=True)
        if simulated.returncode != 0:
            raise RunError(f'beacon simulate: {simulated.stderr.strip()}')
    gateways = sorted(entry[:-len('.btsnoop')] for entry in os.listdir(captures) if entry.endswith('.btsnoop'))
    url = f'mqtt://127.0.0.1:{port}/{name}'
    readings_path = os.path.join(directory, 'readings.txt')
    with open(os.path.join(directory, 'smoothing')) as file:
        smoothing = file.read().strip()
    locate_command = [beacon, 'locate', '--mqtt', url, '--site', os.path.join(captures, 'site.json'), '--until-offline']
    # A run whose directory holds `calibrate` is fused with the gateways' self-calibration.
    if os.path.exists(os.path.join(directory, 'calibrate')):
        locate_command.append('--calibrate')
    with open(readings_path, 'w') as readings, open(os.path.join(directory, 'locate.jsonl'), 'w') as lines, \
            open(os.path.join(directory, 'locate.err'), 'w') as locate_err, \
            open(os.path.join(directory, 'locate-smoothing.jsonl'), 'w') as smoothed_lines, \
            open(os.path.join(directory, 'locate-smoothing.err'), 'w') as smoothed_err:
        subscriber = subprocess.Popen(['mosquitto_sub', '-p', str(port), '-q', '1', '-v', '-t', f'{name}/gateways/+/readings'],
                                      stdout=readings, stderr=subprocess.DEVNULL)
        locate = subprocess.Popen(locate_command, stdout=lines, stderr=locate_err)
        smoothed = subprocess.Popen(locate_command + ['--max-lateness', 'none', '--smoothing', smoothing, '--shard', '1/1'],
                                    stdout=smoothed_lines, stderr=smoothed_err)
        try:
            wait_online(port, f'{name}/locate/status')
            wait_online(port, f'{name}/locate/1-1/status')
            ranges = [subprocess.Popen([beacon, 'range', '--hci', f'btsnoop:{os.path.join(captures, gateway + ".btsnoop")}',
                                        '--uuid', UUID, '--mqtt', url, '--gateway', gateway],
                                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
                      for gateway in gateways]
            for gateway, process in zip(gateways, ranges):
                _, err = process.communicate(timeout=RUN_TIMEOUT)
                if process.returncode != 0 or 'Warning' in err:
                    raise RunError(f'beacon range --gateway {gateway} exited {process.returncode}: {err.strip()}')
            try:
                for process, err in ((locate, locate_err), (smoothed, smoothed_err)):
                    if process.wait(timeout=RUN_TIMEOUT) != 0:
                        raise RunError(f'beacon locate exited {process.returncode}: {tail(err.name)}')
            except subprocess.TimeoutExpired:
                statuses = subprocess.run(['mosquitto_sub', '-p', str(port), '-v', '-t', f'{name}/gateways/+/status', '-W', '2'],
                                          capture_output=True, text=True).stdout.strip().replace('\n', '; ')
                raise RunError(f'beacon locate still running {RUN_TIMEOUT} s after the gateways ended (their statuses: {statuses})')
            # The subscriber has everything once its count stops growing (the broker sent it all before
            # locate, which subscribed first, could fuse the last of it).
            last, steady_since = -1, time.time()
            while time.time() - steady_since < 0.5:
                time.sleep(0.1)
                count = count_lines(readings_path)
                if count != last:
                    last, steady_since = count, time.time()
        finally:
            stopped(subscriber)
            stopped(locate)
            stopped(smoothed)
    return len(gateways)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('--beacon', required=True)
    parser.add_argument('--mosquitto', default='/usr/sbin/mosquitto')
    parser.add_argument('directory')
    args = parser.parse_args()
    runs = sorted(os.path.join(args.directory, entry) for entry in os.listdir(args.directory)
                  if os.path.isdir(os.path.join(args.directory, entry)))
    started = time.time()
    # Replays publish far faster than live gateways: no queue limit, so the broker drops nothing for a
    # subscriber that is a little behind (its default keeps 1000 QoS 1 messages per client).
    broker, port = start_broker(args.mosquitto, args.directory, 'max_queued_messages 0\nmax_queued_bytes 0\n')
    try:
        for directory in runs:
            try:
                gateways = run(args.beacon, port, directory)
            except (RunError, BenchError, subprocess.TimeoutExpired, OSError) as error:
                sys.exit(f'eval-fleet: {os.path.basename(directory)}: {error}')
            print(f'eval-fleet: {os.path.basename(directory)}: {gateways} gateways through the broker', flush=True)
    finally:
        stopped(broker)
    print(f'eval-fleet: {len(runs)} runs in {time.time() - started:.0f} s', flush=True)


if __name__ == '__main__':
    try:
        main()
    except KeyboardInterrupt:
        sys.exit('eval-fleet: interrupted')
