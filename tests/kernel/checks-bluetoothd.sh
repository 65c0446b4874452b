# Sourced by checks.sh (its helpers: check, run, wait_for, stop, has, show): beacon beside bluetoothd and
# its D-Bus system bus, as on a stock Raspberry Pi OS. bluetoothd powers both controllers through the
# management interface; `bluetoothctl` scans on hci1 and advertises and scans on hci0 while beacon
# advertises through mgmt:0 and ranges through monitor:1 and mgmt:1. Without bluetoothd or dbus-daemon in the
# guest these checks are skipped (said on a comment line).
HCI0=F0:F1:F2:F3:F4:01
HCI1=F0:F1:F2:F3:F4:02
# bluetoothctl_session NAME CONTROLLER COMMAND...: a bluetoothctl that selects CONTROLLER, runs the
# commands and stays (its D-Bus client keeps discovery and the advertisement registered) until killed.
bluetoothctl_session() {
    local name=$1 controller=$2
    shift 2
    # bluetoothctl takes commands only once it is connected to bluetoothd.
    { sleep 2; echo "select $controller"; for command in "$@"; do sleep 1; echo "$command"; done; sleep 600; } \
        | bluetoothctl > "$name.out" 2>&1 &
}
# wait_count FILE TEXT N: until FILE has N lines matching TEXT; gives up after $WAIT seconds.
wait_count() {
    local tries=$((WAIT * 10))
    while [ "$tries" -gt 0 ]; do [ "$(grep -c -- "$2" "$1" 2> /dev/null)" -ge "$3" ] && return 0; sleep 0.1; tries=$((tries - 1)); done
    return 1
}
# mgmt ARGS...: btmgmt, whose answer is printed only while its standard input stays open.
mgmt() { sleep 2 | btmgmt "$@"; }

if ! command -v bluetoothd > /dev/null || ! command -v dbus-daemon > /dev/null; then
    echo "# beside bluetoothd: skipped (no bluetoothd or dbus-daemon in the guest)"
    return 0
fi
echo "# beside bluetoothd: D-Bus system bus, bluetoothd, both controllers powered through mgmt"
mkdir -p /run/dbus /var/lib/bluetooth
[ -s /etc/machine-id ] || echo 0123456789abcdef0123456789abcdef > /etc/machine-id
dbus-daemon --config-file=/rig/dbus-system.conf --nofork --nopidfile > dbus.log 2>&1 &
dbus_pid=$!
for _ in $(seq 50); do [ -S /run/dbus/system_bus_socket ] && break; sleep 0.1; done
bluetoothd -n > bluetoothd.log 2>&1 &
bluetoothd_pid=$!
sleep 1
mgmt --index 0 power on > /dev/null 2>&1
mgmt --index 1 power on > /dev/null 2>&1
mgmt --index 0 info > info0.out 2>&1
mgmt --index 1 info > info1.out 2>&1
check "bluetoothd: running, hci0 powered through mgmt" has info0.out 'current settings: powered'
check "bluetoothd: running, hci1 powered through mgmt" has info1.out 'current settings: powered'

echo "# mgmt:0 advertises while bluetoothctl scans on hci1 and beacon ranges through monitor:1"
bluetoothctl_session ctl1 $HCI1 "scan on"
ctl1=$!
timeout -s KILL $GUARD beacon range --hci monitor:1 --uuid $UUID --major 1 --record /tmp/monitor1.btsnoop \
    > mon-range.out 2> mon-range.err &
monitor_ranger=$!
timeout -s KILL $GUARD beacon advertise --hci mgmt:0 --uuid $UUID --major 1 --minor 2 --interval 100ms $ADVERTISE_MODE \
    > mgmt-adv.out 2> mgmt-adv.err &
mgmt_advertiser=$!
check "mgmt-adv: advertising line with the kernel's instance" wait_for mgmt-adv.out '"event":"advertising".*"major":1,"minor":2.*"advertisingInstance":'
instance=$(sed -n 's/.*"advertisingInstance":\([0-9]*\).*/\1/p' mgmt-adv.out)
# The kernel lists an instance in Read Advertising Features only while its number is at most the
# count of instances, so btmgmt advinfo counts beacon's high instance but does not name it.
mgmt --index 0 advinfo > advinfo-during.out 2>&1
show advinfo-during.out "advinfo-during> "
check "mon-range: ranged 1/2 through the monitor channel while bluetoothd scans" wait_for mon-range.out '"event":"range".*"major":1,"minor":2'

echo "# bluetoothctl registers its own advertisement and scans on hci0: beacon's instance stays on air"
bluetoothctl_session ctl0 $HCI0 "advertise on" "scan on"
ctl0=$!
sleep 3
heard=$(grep -c '"event":"range".*"major":1,"minor":2' mon-range.out)
check "mgmt-adv: bluetoothctl's advertisement registered beside it" wait_for ctl0.out 'Advertising object registered'
check "mon-range: 1/2 still heard after bluetoothctl advertised and scanned on hci0" \
    sh -c "for i in \$(seq 300); do [ \"\$(grep -c '\"event\":\"range\".*\"major\":1,\"minor\":2' mon-range.out)\" -gt $heard ] && exit 0; sleep 0.1; done; exit 1"
check "mgmt-adv: nothing on stderr but the connectable warning" sh -c '! grep -v "connectable" mgmt-adv.err | grep -q .'
mgmt --index 0 advinfo > advinfo-both.out 2>&1
show advinfo-both.out "advinfo-both> "
# heard NAME: a scan of what hci1 hears through the monitor channel while bluetoothd discovers.
heard() { timeout -s KILL $GUARD beacon scan --hci monitor:1 --each --duration 3 > "$1.out" 2> "$1.err"; }
heard on-air-before
check "on air before exit: monitor:1 hears 1/2" has on-air-before.out '"major":1,"minor":2'
stop mgmt-adv "$mgmt_advertiser"
check "mgmt-adv: stopped line, reason signal" has mgmt-adv.out '"event":"stopped".*"reason":"signal"'
mgmt --index 0 advinfo > advinfo-after.out 2>&1
show advinfo-after.out "advinfo-after> "
check "mgmt-adv: bluetoothctl's advertisement still there (btmgmt advinfo)" has advinfo-after.out 'Instances list with [1-9]'
heard on-air-after
check "mgmt-adv: gone after exit (monitor:1 hears no 1/2 while bluetoothd still discovers)" sh -c '! grep -q "\"major\":1,\"minor\":2" on-air-after.out'

echo "# hci0 while bluetoothd holds it: beacon advertise takes the management interface by itself, and says so"
timeout -s KILL $GUARD beacon advertise --hci hci0 --uuid $UUID --major 1 --minor 3 $ADVERTISE_MODE > auto-adv.out 2> auto-adv.err &
auto_advertiser=$!
check "auto-adv: advertising through the kernel's instance" wait_for auto-adv.out '"event":"advertising".*"minor":3.*"advertisingInstance":'
check "auto-adv: says which path and why" has auto-adv.err '^Note: advertising through the kernel.s management interface (mgmt:0), not the raw channel: bluetoothd runs and hci0 is up'
stop auto-adv "$auto_advertiser"
check "auto-adv: stopped line" has auto-adv.out '"event":"stopped"'

stop mon-range "$monitor_ranger"
check "mon-range: enter" has mon-range.out '"event":"enter".*"major":1'
run mon-replay 0 beacon range --hci btsnoop:/tmp/monitor1.btsnoop --uuid $UUID --major 1
check "mon-replay: what monitor:1 recorded ranges 1/2 again" has mon-replay.out '"event":"range".*"major":1,"minor":2'


echo "# range and scan through mgmt:1 (an advertisement monitor) while bluetoothctl scans on hci1; monitor:1 counts what hci1 reported"
btmon > btmon-mgmt.txt 2>&1 &
btmon_pid=$!
timeout -s KILL $GUARD beacon advertise --hci mgmt:0 --uuid $UUID --major 1 --minor 4 --interval 100ms $ADVERTISE_MODE \
    > mgmt-adv4.out 2> mgmt-adv4.err &
mgmt_advertiser4=$!
check "mgmt-adv4: advertising 1/4" wait_for mgmt-adv4.out '"event":"advertising".*"minor":4'
timeout -s KILL $GUARD beacon range --hci mgmt:1 --uuid $UUID --major 1 --minor 4 > mgmt-range.out 2> mgmt-range.err &
mgmt_ranger=$!
timeout -s KILL $GUARD beacon scan --hci mgmt:1 --each --format ibeacon > mgmt-scan.out 2> mgmt-scan.err &
mgmt_scanner=$!
timeout -s KILL $GUARD beacon scan --hci monitor:1 --each --format ibeacon > mon-scan.out 2> mon-scan.err &
monitor_scanner=$!
check "mgmt-range: enter 1/4" wait_for mgmt-range.out '"event":"enter".*"major":1,"minor":4'
if ! has mgmt-range.out '"event":"enter"'; then
    # Nothing heard: what each said and what the kernel exchanged, instead of waiting for more.
    kill -KILL "$mgmt_ranger" "$mgmt_scanner" "$monitor_scanner" "$btmon_pid" 2> /dev/null
    for name in mgmt-range mgmt-scan mon-scan; do show $name.out "$name> "; show $name.err "$name! "; done
    grep -B2 -A8 'Advertisement Monitor\|Device Found\|Discovering' btmon-mgmt.txt | head -150 > btmon-monitor.txt
    show btmon-monitor.txt "btmon> "
    WAIT=1
fi
check "mgmt-range: range 1/4 with its RSSI" wait_for mgmt-range.out '"event":"range".*"major":1,"minor":4,"rssi":-[0-9]'
check "mgmt-scan: advertisements of 1/4" wait_for mgmt-scan.out '"minor":4'
check "mon-scan: advertisements of 1/4" wait_for mon-scan.out '"minor":4'
sleep 5
# Both scans stopped together: each counts the advertisements of 1/4 hci1 reported meanwhile.
kill -INT "$mgmt_scanner" "$monitor_scanner"
wait "$mgmt_scanner"
mgmt_scan_rc=$?
wait "$monitor_scanner"
through_mgmt=$(grep -c '"minor":4' mgmt-scan.out)
through_monitor=$(grep -c '"minor":4' mon-scan.out)
echo "# advertisements of 1/4: $through_mgmt through mgmt:1, $through_monitor through monitor:1"
check "mgmt-scan: exits 0 on SIGINT (got $mgmt_scan_rc)" [ "$mgmt_scan_rc" -eq 0 ]
check "mgmt-scan: at least 70% of what monitor:1 saw ($through_mgmt of $through_monitor)" \
    [ $((through_mgmt * 10)) -ge $((through_monitor * 7)) ]
check "mgmt-scan: every advertisement, no duplicate filtering (more than 20)" [ "$through_mgmt" -gt 20 ]
kill -TERM "$mgmt_ranger"
wait "$mgmt_ranger"
mgmt_range_rc=$?
show mgmt-range.err "mgmt-range! "
check "mgmt-range: exits 0 on SIGTERM (got $mgmt_range_rc)" [ "$mgmt_range_rc" -eq 0 ]
check "mgmt-range: nothing on stderr" sh -c '! grep -q . mgmt-range.err'
sleep 1
kill "$btmon_pid" 2> /dev/null
wait "$btmon_pid" 2> /dev/null
grep -A4 'Advertisement Monitor' btmon-mgmt.txt | head -40 > btmon-monitor.txt
show btmon-monitor.txt "btmon> "
# Each run's monitor removed at exit: as many successful removals as additions.
added=$(grep -A3 'MGMT Event: Command Complete' btmon-mgmt.txt | grep -A1 'Add Advertisement Patterns Monitor' | grep -c 'Status: Success')
removed=$(grep -A3 'MGMT Event: Command Complete' btmon-mgmt.txt | grep -A1 'Remove Advertisement Monitor' | grep -c 'Status: Success')
check "mgmt-range, mgmt-scan: each monitor removed at exit ($added added, $removed removed)" sh -c "[ $added -ge 2 ] && [ $added -eq $removed ]"
WAIT=60

echo "# hci1 while bluetoothd holds it: beacon range takes the management interface by itself, and says so"
timeout -s KILL $GUARD beacon range --hci hci1 --uuid $UUID --major 1 --minor 4 > auto-range.out 2> auto-range.err &
auto_ranger=$!
check "auto-range: range 1/4" wait_for auto-range.out '"event":"range".*"major":1,"minor":4'
check "auto-range: says which path and why" has auto-range.err '^Note: listening through the kernel.s management interface (mgmt:1), not the raw channel: bluetoothd runs and hci1 is up'
stop auto-range "$auto_ranger"

echo "# range through mgmt:1 with --record: the capture holds hci1's traffic as btmon would record it, and its replay ranges 1/4 again"
timeout -s KILL $GUARD beacon range --hci mgmt:1 --uuid $UUID --major 1 --minor 4 --record /tmp/mgmt1.btsnoop \
    > mgmt-rec.out 2> mgmt-rec.err &
mgmt_recorder=$!
# Three range lines: the capture then spans more than the replay needs for its first.
check "mgmt-rec: three range lines of 1/4" wait_count mgmt-rec.out '"event":"range".*"major":1,"minor":4' 3
stop mgmt-rec "$mgmt_recorder"
check "mgmt-rec: nothing on stderr" sh -c '! grep -q . mgmt-rec.err'
btmon -T -r /tmp/mgmt1.btsnoop > mgmt-rec.btmon 2> mgmt-rec.btmon-err
btmon_rc=$?
reports=$(grep -c 'LE Advertising Report\|LE Extended Advertising Report' mgmt-rec.btmon)
echo "# btmon -r: exit $btmon_rc, $reports advertising reports, $(wc -l < mgmt-rec.btmon) lines"
show mgmt-rec.btmon-err "btmon! "
check "mgmt-rec: btmon -r reads the capture without error" sh -c "[ $btmon_rc -eq 0 ] && ! grep -q . mgmt-rec.btmon-err"
check "mgmt-rec: btmon -r shows the controller's advertising reports ($reports)" [ "$reports" -gt 0 ]
echo "# btmon -r: $(grep -c '< HCI Command' mgmt-rec.btmon) HCI commands the kernel sent during the run"
run mgmt-replay 0 beacon range --hci btsnoop:/tmp/mgmt1.btsnoop --uuid $UUID
# identities FILE: the uuid, major, minor and address of each beacon its range lines name first, once each.
identities() {
    sed -n 's/^{"event":"range",.*"beacons":\[{"uuid":"\([^"]*\)","major":\([0-9]*\),"minor":\([0-9]*\),.*"address":"\([^"]*\)".*/\1 \2 \3 \4/p' "$1" \
        | sort -u
}
identities mgmt-rec.out > mgmt-rec.ids
identities mgmt-replay.out > mgmt-replay.ids
show mgmt-replay.ids "replayed: "
check "mgmt-replay: ranges the beacon mgmt:1 ranged, with the same identity and address" \
    sh -c 'grep -q " 1 4 " mgmt-rec.ids && while read -r id; do grep -qxF "$id" mgmt-replay.ids || exit 1; done < mgmt-rec.ids'

echo "# hci1 with --record while bluetoothd holds it: the management interface too, recorded from the monitor channel"
timeout -s KILL $GUARD beacon range --hci hci1 --uuid $UUID --major 1 --minor 4 --record /tmp/auto1.btsnoop \
    > auto-rec.out 2> auto-rec.err &
auto_recorder=$!
check "auto-rec: range 1/4" wait_for auto-rec.out '"event":"range".*"major":1,"minor":4'
stop auto-rec "$auto_recorder"
check "auto-rec: says which path and why" has auto-rec.err '^Note: listening through the kernel.s management interface (mgmt:1), not the raw channel: bluetoothd runs and hci1 is up'
run auto-replay 0 beacon range --hci btsnoop:/tmp/auto1.btsnoop --uuid $UUID --major 1 --minor 4
check "auto-replay: ranges 1/4 again" has auto-replay.out '"event":"range".*"major":1,"minor":4'
stop mgmt-adv4 "$mgmt_advertiser4"

echo "# the raw channel beside bluetoothd scanning on hci1 (kept raw by --active): the conflict mgmt:N and monitor:N avoid (recorded, not checked)"
timeout -s KILL $GUARD beacon range --hci hci1 --uuid $UUID --active --duration 3 --record /tmp/raw-beside.btsnoop > raw-beside.out 2> raw-beside.err
raw_rc=$?
show raw-beside.out "raw-beside> "
show raw-beside.err "raw-beside! "
echo "# expectation recorded: raw range on hci1 beside bluetoothd's discovery exits $raw_rc"

echo "# mgmt:N without CAP_NET_ADMIN (hci0 still on), monitor:N and mgmt:N --record without CAP_NET_RAW"
run nobody-mgmt-range 77 $AS_NOBODY "exec /rig/beacon range --hci mgmt:1 --uuid $UUID"
check "nobody-mgmt-range: names CAP_NET_ADMIN" has nobody-mgmt-range.err 'Permission Denied (0x14); the management interface needs CAP_NET_ADMIN'
run nobody-mgmt 77 $AS_NOBODY "exec /rig/beacon advertise --hci mgmt:0 --uuid $UUID --major 1 --minor 2"
check "nobody-mgmt: names CAP_NET_ADMIN" has nobody-mgmt.err 'Permission Denied (0x14); the management interface needs CAP_NET_ADMIN'
run nobody-monitor 77 $AS_NOBODY "exec /rig/beacon range --hci monitor:1 --uuid $UUID"
check "nobody-monitor: names CAP_NET_RAW" has nobody-monitor.err '^Error: monitor:1: the monitor channel needs CAP_NET_RAW'
run nobody-mgmt-rec 77 $AS_NOBODY "exec /rig/beacon range --hci mgmt:1 --uuid $UUID --record /tmp/nobody-mgmt.btsnoop"
check "nobody-mgmt-rec: names CAP_NET_RAW for the recording" has nobody-mgmt-rec.err "^Error: mgmt:1 --record: recording reads hci1's traffic from the kernel's monitor channel, which needs CAP_NET_RAW"
check "nobody-mgmt-rec: one line, before anything started: no capture left" sh -c '[ "$(wc -l < nobody-mgmt-rec.err)" -eq 1 ] && [ ! -e /tmp/nobody-mgmt.btsnoop ]'

# bluetoothctl waits for its input (the sleeping feeder) rather than exit on SIGTERM.
kill -KILL "$ctl0" "$ctl1" 2> /dev/null
kill "$bluetoothd_pid" "$dbus_pid" 2> /dev/null
# bluetoothd powers the controllers off as it exits.
sleep 1
