#!/usr/bin/env bash
# Demo: two emulated LE controllers on one virtual radio. bumble's own host
# stack advertises an iBeacon on controller 0; beacon ranges it on controller 1
# and prints its JSON lines. Everything started here is stopped on exit,
# Ctrl-C included.
#
# Environment: BEACON_BIN (default .build/debug/beacon), DEMO_DURATION (default 8).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

python=.venv/bin/python
beacon=${BEACON_BIN:-.build/debug/beacon}
duration=${DEMO_DURATION:-8}
uuid=E2C56DB5-DFFB-48D2-B060-D0F5A71096E0

say() { echo "demo: $*" >&2; }

[[ -x $python ]] || { say "no $python; run 'make deps'"; exit 1; }
[[ -x $beacon ]] || { say "no $beacon; run 'make build'"; exit 1; }

work=$(mktemp -d)
pids=()

# Stop what we started, newest first (the advertiser before its controller),
# politely and then, after a bounded wait, for good.
cleanup() {
    local status=$? pid i
    trap - EXIT INT TERM
    for ((i = ${#pids[@]} - 1; i >= 0; i--)); do
        pid=${pids[i]}
        kill -TERM "$pid" 2>/dev/null || continue
        for _ in {1..50}; do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
        kill -KILL "$pid" 2>/dev/null || true
        wait "$pid" 2>/dev/null || true
    done
    rm -rf "$work"
    exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# Helpers read this fifo as stdin; only this shell holds its write end (closed
# in every child), so if the script dies for any reason, SIGKILL included,
# they see end of file and exit by themselves.
mkfifo "$work/alive"

# wait_for_line FILE PATTERN PID WHAT: bounded wait for a line from a helper.
wait_for_line() {
    local file=$1 pattern=$2 pid=$3 what=$4
    for _ in {1..150}; do
        grep -q -- "$pattern" "$file" 2>/dev/null && return 0
        if ! kill -0 "$pid" 2>/dev/null; then
            say "$what exited before it was ready:"; cat "$work"/*.err >&2; exit 1
        fi
        sleep 0.1
    done
    say "$what not ready within 15 s"; exit 1
}

"$python" tools/bumble_controllers.py --count 2 <"$work/alive" >"$work/controllers.out" 2>"$work/controllers.err" &
pids+=($!)
exec {alive}>"$work/alive"
wait_for_line "$work/controllers.out" '^READY$' "${pids[-1]}" "controllers"
controller0=$(awk '$1 == "CONTROLLER" && $2 == 0 { print $3 }' "$work/controllers.out")
controller1=$(awk '$1 == "CONTROLLER" && $2 == 1 { print $3 }' "$work/controllers.out")
say "controllers: 0 at $controller0, 1 at $controller1"

"$python" tools/bumble_beacon.py advertise --transport "tcp-client:${controller0#tcp:}" \
    --uuid "$uuid" --major 1 --minor 2 --power -59 \
    <"$work/alive" {alive}>&- >"$work/advertiser.out" 2>"$work/advertiser.err" &
pids+=($!)
wait_for_line "$work/advertiser.out" '"event":"advertising"' "${pids[-1]}" "advertiser"
say "bumble advertises: $(head -n 1 "$work/advertiser.out")"

say "running: $beacon range --hci $controller1 --uuid $uuid --duration $duration"
"$beacon" range --hci "$controller1" --uuid "$uuid" --duration "$duration" {alive}>&-
