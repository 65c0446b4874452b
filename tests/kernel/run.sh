#!/usr/bin/env bash
# Runs beacon's checks (checks.sh) against a real Linux kernel: boots Debian's stock kernel under QEMU
# (TCG) with a busybox initramfs holding the beacon binary, and gives the guest two emulated Bluetooth
# LE controllers (bumble, on the host) through virtual serial ports, attached with `btattach -P h4`.
#
# usage: tests/kernel/run.sh BEACON_BINARY
#   BEACON_BINARY  a beacon built with --static-swift-stdlib (it then needs only glibc, libstdc++
#                  and libgcc_s, which are copied from this host)
# environment:
#   BEACON_RIG_PYTHON   python that imports bumble (default: .venv/bin/python of the repository)
#   BEACON_RIG_KERNEL   kernel version under /lib/modules (default: the newest with bluetooth.ko)
#   BEACON_RIG_COMMANDS extended (default): the controllers announce the LE extended advertising and
#                       scanning commands; legacy: they announce only the legacy ones (bumble's stock list)
#   BEACON_RIG_TIMEOUT  wall-clock limit for the VM in seconds (default 300; a hang guard: a run takes
#                       16 to 45 s, and far longer only on a starved host)
#   BEACON_RIG_CACHE    where the extracted vmlinux is kept (default /tmp/beacon-kernel-rig-cache)
#   BEACON_RIG_LOG      console log file (default: in the work directory, printed on failure)
#   BEACON_RIG_KEEP=1   keep the work directory
# exit status: the number of failed checks (0: all passed); 2 missing prerequisites; 124 the VM hit the
# wall-clock limit; 125 the rig itself failed (controllers did not start or attach, no end marker).
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO=$(cd "$HERE/../.." && pwd)
PYTHON=${BEACON_RIG_PYTHON:-$REPO/.venv/bin/python}
TIMEOUT=${BEACON_RIG_TIMEOUT:-300}
CACHE=${BEACON_RIG_CACHE:-/tmp/beacon-kernel-rig-cache}
CONTROLLERS=2
COMMANDS=${BEACON_RIG_COMMANDS:-extended}
case $COMMANDS in extended | legacy) ;; *) echo "BEACON_RIG_COMMANDS must be extended or legacy" >&2; exit 2 ;; esac
QEMU=qemu-system-x86_64

say() { echo "[kernel-rig] $*" >&2; }
missing() { say "missing prerequisite: $*"; exit 2; }

[ $# -eq 1 ] && [ "$1" != -h ] && [ "$1" != --help ] || { sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2; exit 2; }
BEACON=$1
[ -x "$BEACON" ] || missing "$BEACON is not an executable"
command -v "$QEMU" > /dev/null || missing "$QEMU (apt-get install qemu-system-x86)"
command -v cpio > /dev/null || missing "cpio (apt-get install cpio)"
[ -x /bin/busybox ] && /bin/busybox --list | grep -qx setpriv || missing "static busybox (apt-get install busybox-static)"
BTATTACH=$(command -v btattach) && HCICONFIG=$(command -v hciconfig) && BTMON=$(command -v btmon) \
    || missing "btattach, hciconfig and btmon (apt-get install bluez)"
"$PYTHON" -c 'import bumble' 2> /dev/null || missing "bumble for $PYTHON (make .venv, or set BEACON_RIG_PYTHON)"
KVER=${BEACON_RIG_KERNEL:-}
if [ -z "$KVER" ]; then
    for version in $(ls -1 /lib/modules 2> /dev/null | sort -V -r); do
        if [ -r "/boot/vmlinuz-$version" ] && ls "/lib/modules/$version/kernel/net/bluetooth/bluetooth.ko"* > /dev/null 2>&1; then
            KVER=$version
            break
        fi
    done
fi
[ -n "$KVER" ] && [ -r "/boot/vmlinuz-$KVER" ] || missing "a kernel with Bluetooth modules (apt-get install linux-image-amd64)"

STARTED=$(date +%s.%N)
WORK=$(mktemp -d /tmp/beacon-kernel-rig.XXXXXX)
CONTROLLERS_PID=
QEMU_PID=
cleanup() {
    local pid
    for pid in $QEMU_PID $CONTROLLERS_PID; do
        kill "$pid" 2> /dev/null || true
    done
    for pid in $QEMU_PID $CONTROLLERS_PID; do
        for _ in $(seq 20); do kill -0 "$pid" 2> /dev/null || break; sleep 0.1; done
        kill -9 "$pid" 2> /dev/null || true
    done
    if [ "${BEACON_RIG_KEEP:-0}" = 1 ]; then say "kept $WORK"; else rm -rf "$WORK"; fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# ---- initramfs: busybox, btattach/hciconfig, the Bluetooth modules, beacon, the checks
ROOT=$WORK/root
mkdir -p "$ROOT"/{bin,sbin,usr/bin,etc,proc,sys,dev,tmp,root,rig}
# copy_with_path FILE: FILE to the same absolute path in the guest, keeping a symlink's name.
copy_with_path() {
    local real
    real=$(readlink -f "$1")
    mkdir -p "$ROOT$(dirname "$real")"
    [ -e "$ROOT$real" ] || cp "$real" "$ROOT$real"
    if [ "$1" != "$real" ] && [ ! -e "$ROOT$1" ]; then
        mkdir -p "$ROOT$(dirname "$1")"
        ln -s "$real" "$ROOT$1"
    fi
}
# copy_libraries ELF: the shared libraries and loader ldd names.
copy_libraries() {
    local lib
    for lib in $(ldd "$1" | awk '/=> \//{print $3} /^\t\/[^ ]+ \(/{print $1}'); do copy_with_path "$lib"; done
}
cp /bin/busybox "$ROOT/bin/busybox"
ln -s busybox "$ROOT/bin/sh"
install -m 755 "$HERE/init.sh" "$ROOT/init"
install -m 755 "$HERE/checks.sh" "$ROOT/rig/checks.sh"
for tool in "$BTATTACH" "$HCICONFIG" "$BTMON"; do
    cp "$(readlink -f "$tool")" "$ROOT/usr/bin/$(basename "$tool")"
    copy_libraries "$tool"
done
# bluetoothd with its D-Bus system bus, btmgmt and bluetoothctl, for the checks beside bluetoothd (skipped without them).
install -m 755 "$HERE/checks-bluetoothd.sh" "$ROOT/rig/checks-bluetoothd.sh"
install -m 644 "$HERE/dbus-system.conf" "$ROOT/rig/dbus-system.conf"
for tool in /usr/sbin/bluetoothd "$(command -v dbus-daemon)" "$(command -v btmgmt)" "$(command -v bluetoothctl)"; do
    [ -x "$tool" ] || { say "no $tool: the checks beside bluetoothd are skipped"; continue; }
    cp "$(readlink -f "$tool")" "$ROOT/usr/bin/$(basename "$tool")"
    copy_libraries "$tool"
done
strip -o "$ROOT/rig/beacon" "$BEACON" 2> /dev/null || cp "$BEACON" "$ROOT/rig/beacon"
chmod 755 "$ROOT/rig/beacon"
copy_libraries "$BEACON"
modprobe -S "$KVER" --show-depends hci_uart | awk '$1 == "insmod" {print $2}' > "$WORK/modules"
while read -r module; do copy_with_path "$module"; done < "$WORK/modules"
cp "$WORK/modules" "$ROOT/etc/modules.order"
cat > "$ROOT/rig/rig.env" << ENV
RIG_CONTROLLERS=$CONTROLLERS
RIG_COMMANDS=$COMMANDS
RIG_GUEST_TIMEOUT=$((TIMEOUT - 30))
ENV
echo 'root:x:0:0:root:/root:/bin/sh' > "$ROOT/etc/passwd"
echo 'nobody:x:65534:65534:nobody:/tmp:/bin/sh' >> "$ROOT/etc/passwd"
# Uncompressed: the guest unpacks it at once, where gzip would cost seconds under TCG.
(cd "$ROOT" && find . -mindepth 1 | LC_ALL=C sort | cpio -o -H newc -R 0:0 --quiet) > "$WORK/initrd.cpio"

# ---- the kernel: its uncompressed ELF image boots directly (PVH), skipping the slow in-guest decompressor
mkdir -p "$CACHE"
VMLINUX=$CACHE/vmlinux-$KVER
if [ ! -s "$VMLINUX" ]; then
    say "extracting $VMLINUX"
    "$PYTHON" "$HERE/extract_vmlinux.py" "/boot/vmlinuz-$KVER" "$VMLINUX.$$" && mv "$VMLINUX.$$" "$VMLINUX" \
        || { rm -f "$VMLINUX.$$"; VMLINUX=/boot/vmlinuz-$KVER; }
fi

# ---- controllers on the host
EXTENDED=()
[ "$COMMANDS" = extended ] && EXTENDED=(--extended)
"$PYTHON" "$REPO/tools/bumble_controllers.py" --count "$CONTROLLERS" "${EXTENDED[@]}" < /dev/null > "$WORK/controllers.log" 2>&1 &
CONTROLLERS_PID=$!
for _ in $(seq 300); do
    grep -q '^READY' "$WORK/controllers.log" && break
    kill -0 "$CONTROLLERS_PID" 2> /dev/null || break
    sleep 0.1
done
grep -q '^READY' "$WORK/controllers.log" || { say "controllers did not start:"; tail -n 20 "$WORK/controllers.log" >&2; exit 125; }
SERIALS=()
for port in $(awk '$1 == "CONTROLLER" {n = split($3, part, ":"); print part[n]}' "$WORK/controllers.log"); do
    SERIALS+=(-chardev "socket,id=bt${#SERIALS[@]},host=127.0.0.1,port=$port,nodelay=on" -serial "chardev:bt${#SERIALS[@]}")
done

# ---- boot; the guest powers off when the checks are done
LOG=${BEACON_RIG_LOG:-$WORK/console.log}
: > "$LOG"
say "$COMMANDS controllers; booting $KVER under TCG with $(du -h "$WORK/initrd.cpio" | cut -f1) initramfs (limit ${TIMEOUT}s)"
BOOTED=$(date +%s.%N)
timeout -k 5 "$TIMEOUT" "$QEMU" -accel tcg -cpu max -m 1024 -smp 1 \
    -nodefaults -no-user-config -display none -vga none -monitor none -no-reboot \
    -kernel "$VMLINUX" -initrd "$WORK/initrd.cpio" \
    -append "console=ttyS0,115200 panic=-1 quiet loglevel=3 mitigations=off tsc=reliable" \
    -chardev "file,id=console,path=$LOG" -serial chardev:console "${SERIALS[@]}" > "$WORK/qemu.log" 2>&1 &
QEMU_PID=$!
set +e
wait "$QEMU_PID"
QEMU_RC=$?
set -e
QEMU_PID=
ENDED=$(date +%s.%N)

tr -d '\r' < "$LOG" > "$WORK/console.txt"
sed -n '/@@BEACON-RIG-BEGIN@@/,/@@BEACON-RIG-END/{/@@BEACON-RIG-/d;p}' "$WORK/console.txt"
RC=$(sed -n 's/.*@@BEACON-RIG-END rc=\([0-9]*\)@@.*/\1/p' "$WORK/console.txt" | tail -n 1)
if [ -z "$RC" ]; then
    if [ "$QEMU_RC" = 124 ] || [ "$QEMU_RC" = 137 ]; then RC=124; else RC=125; fi
    say "no end marker (qemu exit $QEMU_RC); end of the console:"
    tail -n 30 "$WORK/console.txt" | sed 's/^/[console] /' >&2
    cat "$WORK/qemu.log" >&2
fi
grep '@@BEACON-RIG: ' "$WORK/console.txt" | sed 's/^.*@@BEACON-RIG: /[guest] /' >&2 || true
say "$(awk -v s="$STARTED" -v b="$BOOTED" -v e="$ENDED" 'BEGIN {printf "wall %.1fs (VM %.1fs)", e - s, e - b}'); exit $RC"
exit "$RC"
