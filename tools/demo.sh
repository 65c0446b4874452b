#!/usr/bin/env bash
# Demo: two emulated LE controllers on one virtual radio, both listing the LE
# extended advertising and scanning commands. beacon advertises an iBeacon on
# controller 0 and ranges it on controller 1, printing both JSON streams.
# Everything started here is stopped on exit, Ctrl-C included: the advertiser
# gets SIGINT first and prints its stopped line.
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

advertiser=""

# Stop what we started, newest first (the advertiser before the controllers,
# so it can turn advertising off), politely and then, after a bounded wait,
# for good. SIGTERM: a background job of a script ignores SIGINT.
cleanup() {
    local status=$? pid i code
    trap - EXIT INT TERM
    for ((i = ${#pids[@]} - 1; i >= 0; i--)); do
        pid=${pids[i]}
        kill -TERM "$pid" 2>/dev/null || continue
        for _ in {1..50}; do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
        kill -KILL "$pid" 2>/dev/null || true
        code=0
        wait "$pid" 2>/dev/null || code=$?
        if [[ $pid == "$advertiser" ]]; then
            tail -n +2 "$work/advertiser.out"
            if ((code != 0)); then
                say "advertiser exited with status $code:"; cat "$work/advertiser.err" >&2
            fi
        fi
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

"$python" tools/bumble_controllers.py --extended --count 2 <"$work/alive" >"$work/controllers.out" 2>"$work/controllers.err" &
pids+=($!)
exec {alive}>"$work/alive"
wait_for_line "$work/controllers.out" '^READY$' "${pids[-1]}" "controllers"
controller0=$(awk '$1 == "CONTROLLER" && $2 == 0 { print $3 }' "$work/controllers.out")
controller1=$(awk '$1 == "CONTROLLER" && $2 == 1 { print $3 }' "$work/controllers.out")
say "controllers: 0 at $controller0, 1 at $controller1"

# The advertiser writes to a file the wait below reads; its lines are shown
# when it is advertising and, its stopped line, once cleanup stopped it.
say "running: $beacon advertise --hci $controller0 --uuid $uuid --major 1 --minor 2"
"$beacon" advertise --hci "$controller0" --uuid "$uuid" --major 1 --minor 2 \
    </dev/null {alive}>&- >"$work/advertiser.out" 2>"$work/advertiser.err" &
pids+=($!)
advertiser=$!
wait_for_line "$work/advertiser.out" '"event":"advertising"' "$advertiser" "advertiser"
cat "$work/advertiser.out"

say "running: $beacon range --hci $controller1 --uuid $uuid --duration $duration"
"$beacon" range --hci "$controller1" --uuid "$uuid" --duration "$duration" {alive}>&-
