#!/usr/bin/env python3
"""make bench-instructions: only make bench's callgrind figures, instructions per report on each replay
capture and on the live stream, counted as make bench counts them (bench.py) on captures simulated as it
simulates them. These counts repeat exactly from run to run, so one run of each shows what a change of
the per-report path costs, without the timed runs and the peers."""
import argparse
import os

import bench


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--beacon', required=True)
    parser.add_argument('--loop', required=True, help='the C reference loop (ibeacon_loop), which counts the reports')
    parser.add_argument('--controller', required=True, help='the fake controller (fake_controller)')
    parser.add_argument('--work', required=True, help='where the scenes and captures go')
    parser.add_argument('--peer-reports', type=int, default=20000, help='reports of the shorter capture of each scene')
    args = parser.parse_args()
    os.makedirs(args.work, exist_ok=True)
    captures = bench.simulated_captures(args)
    counted_beacon = bench.without_debug_information(args.beacon, args.work)
    print(f'instructions per report (callgrind), beacon range --uuid U: {args.beacon}')
    for title, whole, prefix in captures:
        count = bench.instructions_per_report(lambda path: bench.beacon_range(counted_beacon, path), whole, prefix)
        print(f'  replay, {title}: {count:,.0f} (from report {prefix.reports:,} to {whole.reports:,})', flush=True)
    _, whole, prefix = captures[0]
    count = bench.live_instructions_per_report(args, counted_beacon, whole, prefix)
    print(f'  live, the first capture streamed by the fake controller: {count:,.0f} (from report {prefix.reports:,} '
          f'to {whole.reports:,})')


if __name__ == '__main__':
    main()
