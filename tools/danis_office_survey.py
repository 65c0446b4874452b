#!/usr/bin/env python3
"""The Daniş office's fingerprints as a beacon survey file.

Reads a fingerprint set of the Daniş position-annotated BLE RSSI dataset (its `hst/set_N` directory:
one file `sensorNN_X_Y_Z.mbd` per sensor and reference point, a line `time,sensor MAC,beacon MAC,RSSI`
per reading) and writes one survey line per point and sensor (docs/survey.md): the median RSSI, the
readings counted, their spread (median absolute deviation scaled to a 1-sigma) and when the point was
taken. A sensor with no file at a point of the set heard nothing there (rssi null, samples 0).
Readings above +20 dBm, which no receiver reports, are left out.

usage: danis_office_survey.py SET_DIRECTORY > survey.jsonl
"""
import datetime
import json
import os
import re
import statistics
import sys

NAME = re.compile(r'^(sensor\d+)_(-?\d+(?:\.\d+)?)_(-?\d+(?:\.\d+)?)_(-?\d+(?:\.\d+)?)\.mbd$')


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__.strip().splitlines()[-1])
    directory = sys.argv[1]
    readings = {}
    sensors = set()
    for entry in sorted(os.listdir(directory)):
        match = NAME.match(entry)
        if not match:
            continue
        sensor, x, y = match.group(1), float(match.group(2)), float(match.group(3))
        sensors.add(sensor)
        values, first = [], None
        with open(os.path.join(directory, entry)) as file:
            for line in file:
                fields = line.strip().split(',')
                if len(fields) < 4:
                    continue
                rssi = float(fields[3])
                if rssi > 20:
                    continue
                values.append(rssi)
                first = first if first is not None else float(fields[0])
        readings[((x, y), sensor)] = (values, first)
    points = sorted({point for point, _ in readings})
    for point in points:
        taken = [first for (p, _), (_, first) in readings.items() if p == point and first is not None]
        time = None
        if taken:
            moment = datetime.datetime.fromtimestamp(min(taken), tz=datetime.timezone.utc)
            time = moment.strftime('%Y-%m-%dT%H:%M:%S.') + f'{moment.microsecond // 1000:03d}Z'
        for sensor in sorted(sensors):
            values, _ = readings.get((point, sensor), ([], None))
            line = {'x': point[0], 'y': point[1], 'gateway': sensor}
            if values:
                median = statistics.median(values)
                spread = 1.4826 * statistics.median(abs(value - median) for value in values)
                line.update(rssi=median, samples=len(values), spread=round(spread, 2))
            else:
                line.update(rssi=None, samples=0)
            line['time'] = time
            print(json.dumps(line, separators=(',', ':')))


if __name__ == '__main__':
    main()
