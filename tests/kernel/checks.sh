#!/bin/sh
# beacon's checks against a real kernel, run inside the rig's guest (busybox sh) as root, with hci0
# and hci1 attached to emulated LE controllers F0:F1:F2:F3:F4:01 and :02 on one radio, both down.
# RIG_COMMANDS (from /rig/rig.env) says whether the controllers announce the LE extended commands
# ("extended") or only the legacy ones ("legacy"). The emulated legacy advertiser sends only connectable
# ADV_IND, so on legacy controllers beacon advertises with --connectable.
# Prints TAP-style `ok` / `not ok` lines with the key output, and exits with the number of failures.
# Long-running beacons are stopped by a signal once what is checked has been printed, never by a
# --duration that a slow guest might outlast or cut short; times below are hang guards only.
. /rig/rig.env
UUID=E2C56DB5-DFFB-48D2-B060-D0F5A71096E0
if [ "$RIG_COMMANDS" = legacy ]; then ADVERTISE_MODE=--connectable; else ADVERTISE_MODE=; fi
failures=0
count=0

ok() { count=$((count + 1)); echo "ok $count - $1"; }
not_ok() { count=$((count + 1)); failures=$((failures + 1)); echo "not ok $count - $1"; }
# check NAME CONDITION...: runs the condition (a command), reports it.
check() { local what=$1; shift; if "$@"; then ok "$what"; else not_ok "$what"; fi; }
has() { grep -q -- "$2" "$1" 2> /dev/null; }
lines() { [ "$(wc -l < "$1")" -eq "$2" ]; }
# between N LOW HIGH: LOW <= N <= HIGH.
between() { [ "$2" -le "$1" ] 2> /dev/null && [ "$1" -le "$3" ] 2> /dev/null; }
show() { sed "s/^/#   $2/" "$1"; }
# Hang guards: a beacon run is killed after GUARD seconds, a wait for its output gives up after WAIT.
GUARD=90
WAIT=60
# run NAME EXPECTED_RC COMMAND...: runs beacon (bounded), keeping NAME.out and NAME.err.
run() {
    local label=$1 want=$2 rc
    shift 2
    timeout -s KILL $GUARD "$@" > "$label.out" 2> "$label.err"
    rc=$?
    show "$label.out" "$label> "
    show "$label.err" "$label! "
    check "$label exits $want (got $rc)" [ "$rc" -eq "$want" ]
}
# As uid 65534: leaving uid 0 drops every capability.
AS_NOBODY="su -s /bin/sh nobody -c"
# wait_for FILE TEXT: until FILE contains TEXT (a line matching it); gives up after $WAIT seconds.
wait_for() {
    local tries=$((WAIT * 10))
    while [ "$tries" -gt 0 ]; do has "$1" "$2" && return 0; sleep 0.1; tries=$((tries - 1)); done
    return 1
}
# stop NAME PID: SIGINT to a background beacon, then its exit status is checked to be 0.
stop() {
    local rc
    kill -INT "$2"
    wait "$2"
    rc=$?
    show "$1.out" "$1> "
    show "$1.err" "$1! "
    check "$1 exits 0 on SIGINT (got $rc)" [ "$rc" -eq 0 ]
}
RANGED_ADVERTISER='"event":"range".*"major":1,"minor":2,.*"address":"F0:F1:F2:F3:F4:01","addressType":"public"'
# advertise_and_range NAME ADVERTISE_HCI RANGE_HCI [ADVERTISE OPTIONS...]: advertises 1/2 on one
# controller while ranging on the other; the ranger must enter the region and range 1/2 from :01.
advertise_and_range() {
    local name=$1 adv=$2 scan=$3 advertiser ranger
    shift 3
    timeout -s KILL $GUARD beacon advertise --hci "$adv" --uuid $UUID --major 1 --minor 2 --interval 100ms \
        "$@" > "$name-adv.out" 2> "$name-adv.err" &
    advertiser=$!
    check "$name: advertising line" wait_for "$name-adv.out" '"event":"advertising".*"major":1,"minor":2'
    timeout -s KILL $GUARD beacon range --hci "$scan" --uuid $UUID --major 1 > "$name-range.out" 2> "$name-range.err" &
    ranger=$!
    check "$name: ranged 1/2 from F0:F1:F2:F3:F4:01" wait_for "$name-range.out" "$RANGED_ADVERTISER"
    stop "$name-range" "$ranger"
    stop "$name-adv" "$advertiser"

    check "$name: stopped line, reason signal" has "$name-adv.out" '"event":"stopped".*"reason":"signal"'
    check "$name: state unknown" has "$name-range.out" '"event":"state".*"state":"unknown"'
    check "$name: enter" has "$name-range.out" '"event":"enter".*"major":1'
    check "$name: nothing on stderr" lines "$name-range.err" 0
}

echo "# beacon devices, both controllers down"
run devices 0 beacon devices
check "devices: two lines" lines devices.out 2
check "devices: hci0" has devices.out '^{"event":"device","time":"[^"]*","name":"hci0","index":0,"address":"F0:F1:F2:F3:F4:01","up":false,"bus":"UART","type":"primary","channels":{"raw":true,"user":true,"mgmt":false,"monitor":true}}$'
check "devices: hci1" has devices.out '"name":"hci1","index":1,"address":"F0:F1:F2:F3:F4:02","up":false'

echo "# raw channel: hci0 brought up by hciconfig, hci1 left down for beacon to bring up"
hciconfig hci0 up
advertise_and_range raw hci0 hci1 $ADVERTISE_MODE
advertise_and_range raw-legacy hci0 hci1 --legacy --connectable
check "raw: $RIG_COMMANDS advertising commands" has raw-adv.out "\"commands\":\"$RIG_COMMANDS\""
check "raw-legacy: legacy advertising commands" has raw-legacy-adv.out '"commands":"legacy","txPower"'
run devices-up 0 beacon devices
check "devices: both up, raw usable, user not" has devices-up.out '"name":"hci1",.*"up":true,.*"channels":{"raw":true,"user":false,"mgmt":true,"monitor":true}'

echo "# btmon -w (BlueZ's btsnoop writer, datalink 2001) records a run; beacon replays it with the run's dates"
btmon -w /tmp/monitor.btsnoop > btmon.out 2>&1 &
btmon_pid=$!
wait_for btmon.out 'Bluetooth monitor' 10
started=$(date -u +%s)
advertise_and_range monitor hci0 hci1 $ADVERTISE_MODE
ended=$(date -u +%s)
kill -INT "$btmon_pid"
wait "$btmon_pid"
run monitor-replay 0 beacon range --hci btsnoop:/tmp/monitor.btsnoop --index 1 --uuid $UUID --major 1
# seconds_of EVENT FILE: the Unix second of the first EVENT line's time.
seconds_of() {
    date -u -d "$(sed -n "s/^{\"event\":\"$1\",\"time\":\"\([0-9-]*\)T\([0-9:]*\)\..*/\1 \2/p" "$2" | head -1)" +%s
}
live_enter=$(seconds_of enter monitor-range.out)
replay_enter=$(seconds_of enter monitor-replay.out)
echo "# run $started..$ended, live enter $live_enter, replayed enter $replay_enter"
check "monitor-replay: enter within the run" between "$replay_enter" "$started" "$ended"
check "monitor-replay: enter within a second of the live one" between "$replay_enter" $((live_enter - 1)) $((live_enter + 1))
check "monitor-replay: ranged 1/2" has monitor-replay.out '"event":"range".*"major":1,"minor":2'

echo "# user channel: needs the controller down"
run busy 75 beacon range --hci hci-user:0 --uuid $UUID
check "busy: one stderr line with the remedy" lines busy.err 1
check "busy: says how" has busy.err '^Error: hci-user:0: hci0 is up or in use: stop bluetoothd or `sudo hciconfig hci0 down`$'
hciconfig hci0 down
hciconfig hci1 down
advertise_and_range user hci-user:0 hci-user:1 $ADVERTISE_MODE
check "user: $RIG_COMMANDS advertising commands" has user-adv.out "\"commands\":\"$RIG_COMMANDS\""

echo "# a user channel already held by another program"
timeout -s KILL $GUARD beacon range --hci hci-user:1 --uuid $UUID > holder.out 2> holder.err &
holder=$!
check "held: holder ranging" wait_for holder.out '"event":"state"'
run held 75 beacon range --hci hci-user:1 --uuid $UUID
check "held: up or in use" has held.err '^Error: hci-user:1: hci1 is up or in use: stop bluetoothd or `sudo hciconfig hci1 down`$'
stop holder "$holder"

echo "# missing controller"
run missing 69 beacon range --hci hci7 --uuid $UUID
check "missing: one line listing the controllers present" has missing.err '^Error: hci7: no controller hci7; present: hci0, hci1$'
check "missing: nothing else on stderr" lines missing.err 1
run missing-user 69 beacon advertise --hci hci-user:7 --uuid $UUID --major 1 --minor 2
check "missing-user: lists the controllers present" has missing-user.err 'no controller hci7; present: hci0, hci1$'

echo "# without capabilities (uid 65534, no capabilities)"
run nobody-devices 0 $AS_NOBODY "exec /rig/beacon devices"
check "nobody-devices: no channel usable" has nobody-devices.out '"name":"hci0",.*"channels":{"raw":false,"user":false,"mgmt":false,"monitor":false}'
run nobody-user 77 $AS_NOBODY "exec /rig/beacon range --hci hci-user:1 --uuid $UUID"
check "nobody-user: CAP_NET_ADMIN and setcap" has nobody-user.err '^Error: hci-user:1: the user channel needs CAP_NET_ADMIN (bind: Operation not permitted): run as root or `sudo setcap cap_net_raw,cap_net_admin+eip $(command -v beacon)`$'
run nobody-down 77 $AS_NOBODY "exec /rig/beacon range --hci hci1 --uuid $UUID"
check "nobody-down: says how to bring it up" has nobody-down.err 'hci1 is down and bringing it up needs CAP_NET_ADMIN (ioctl(HCIDEVUP): Operation not permitted): `sudo hciconfig hci1 up` or `bluetoothctl power on`'
hciconfig hci1 up
run nobody-raw 77 $AS_NOBODY "exec /rig/beacon range --hci hci1 --uuid $UUID"
check "nobody-raw: CAP_NET_RAW" has nobody-raw.err '^Error: hci1: sending HCI commands on the raw channel needs CAP_NET_RAW'
check "nobody-raw: one line" lines nobody-raw.err 1

. /rig/checks-bluetoothd.sh

echo "# the controller goes away mid-run"
timeout -s KILL $GUARD beacon range --hci hci1 --uuid $UUID > gone.out 2> gone.err &
ranger=$!
check "gone: ranging" wait_for gone.out '"event":"state"'
kill "$(cat /tmp/btattach1.pid)"
wait "$ranger"
rc=$?
show gone.out "gone> "
show gone.err "gone! "
check "gone: exits 74 (got $rc)" [ "$rc" -eq 74 ]
check "gone: output so far was written" has gone.out '"event":"state"'
check "gone: one clear line" has gone.err '^Error: hci1: hci1 went away: unplugged, or its driver detached'

echo "1..$count"
echo "kernel: $((count - failures)) passed, $failures failed"
exit "$failures"
