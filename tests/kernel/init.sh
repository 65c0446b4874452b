#!/bin/sh
# /init of beacon's kernel rig guest (busybox sh as PID 1).
# Loads the Bluetooth modules listed in /etc/modules.order, attaches the controllers behind ttyS1..ttySN
# with `btattach -P h4` (hci_uart), brings each up once (the kernel's setup stage must finish before the
# user channel can be bound) and down again, runs /rig/checks.sh, prints its status, and powers off.
/bin/busybox --install -s /bin
export PATH=/rig:/bin:/sbin:/usr/bin:/usr/sbin HOME=/root TERM=dumb
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
mount -t tmpfs tmpfs /tmp
. /rig/rig.env

note() { echo "@@BEACON-RIG: $*"; }
finish() {
    echo "@@BEACON-RIG-END rc=$1@@"
    sync
    poweroff -f
    echo o > /proc/sysrq-trigger
    sleep 5
}

while read -r module; do
    insmod "$module" 2>/tmp/insmod.err || note "insmod $module: $(cat /tmp/insmod.err)"
done < /etc/modules.order

ready=1
n=1
while [ "$n" -le "$RIG_CONTROLLERS" ]; do
    index=$((n - 1))
    stty -F "/dev/ttyS$n" raw -echo
    btattach -B "/dev/ttyS$n" -P h4 > "/tmp/btattach$index.log" 2>&1 &
    echo $! > "/tmp/btattach$index.pid"
    waited=0  # tenths of a second; a hang guard of 60 s for btattach on a slow guest
    while [ ! -e "/sys/class/bluetooth/hci$index" ] && [ "$waited" -lt 600 ]; do sleep 0.1; waited=$((waited + 1)); done
    if [ ! -e "/sys/class/bluetooth/hci$index" ]; then
        note "hci$index did not appear on ttyS$n: $(cat "/tmp/btattach$index.log")"; ready=0
    elif ! hciconfig "hci$index" up 2>/tmp/up.err; then
        note "hciconfig hci$index up: $(cat /tmp/up.err)"; ready=0
    else
        hciconfig "hci$index" down
    fi
    n=$((n + 1))
done
note "controllers ready=$ready at $(cut -d' ' -f1 /proc/uptime)s"
echo "@@BEACON-RIG-BEGIN@@"
if [ "$ready" != 1 ]; then
    dmesg | tail -n 30
    finish 125
fi
cd /tmp
timeout -s KILL "$RIG_GUEST_TIMEOUT" sh /rig/checks.sh < /dev/null
finish $?
