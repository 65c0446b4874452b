#!/usr/bin/env bash
# Checks `make deb`: the package's fields and contents, lintian, and the package installed by dpkg into a
# scratch root (dpkg --root, maintainer scripts run without a chroot, with DPKG_ROOT set), then removed and
# purged. The scratch root's package database holds only the packages the .deb depends on, taken from this
# machine's, so dpkg checks the Depends for real. Run by `make test-deb` (and `make test`), from the
# repository root.
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."

scratch=$(mktemp -d /tmp/beacon-deb.XXXXXX)
trap 'rm -rf "$scratch"' EXIT
passed=0 failed=0

# check NAME COMMAND...: runs COMMAND, counts it, shows its output when it fails.
check() {
    local name=$1 output
    shift
    if output=$("$@" 2>&1); then
        passed=$((passed + 1))
    else
        failed=$((failed + 1))
        printf 'FAIL %s\n%s\n' "$name" "$output" | sed '2,$s/^/    /'
    fi
}

# same EXPECTED ACTUAL: equal strings, both shown otherwise.
same() {
    [[ $1 == "$2" ]] || { printf 'expected: %s\nactual:   %s\n' "$1" "$2"; return 1; }
}

# --- The package.
version=$(sed -n 's/.*static let number = "\(.*\)"/\1/p' Sources/BeaconCLI/Version.swift)
deb=beacon_${version}_$(dpkg --print-architecture).deb
make --no-print-directory deb >"$scratch/deb.log" 2>&1 || { cat "$scratch/deb.log"; echo "deb: make deb failed"; exit 1; }
check "make deb names the package beacon_VERSION_ARCH.deb" test -f "$deb"
check "make deb says what it built and what it depends on" grep -q "^built $deb: .*Depends: libc6" "$scratch/deb.log"
field() { dpkg-deb --field "$deb" "$1"; }
check "the package's version is Version.swift's" same "$version" "$(field Version)"
check "Recommends libmosquitto1 (--mqtt loads it) and libcap2-bin (the postinst's setcap)" \
    same "libmosquitto1, libcap2-bin" "$(field Recommends)"
# The Swift runtime is linked in, so Depends names only Debian's C and C++ runtime.
check "Depends is the C and C++ runtime, versioned by dpkg-shlibdeps" \
    bash -c "grep -qxE 'libc6 \(>= [0-9.]+\), libgcc-s1 \(>= [0-9.]+\), libstdc\+\+6 \(>= [0-9.]+\)' <<<'$(field Depends)'"
check "/etc/default/beacon is the one conffile" same "/etc/default/beacon" "$(dpkg-deb --ctrl-tarfile "$deb" | tar -xO ./conffiles)"
expected_contents="-rw------- root/root ./etc/default/beacon
-rwxr-xr-x root/root ./usr/bin/beacon
-rw-r--r-- root/root ./usr/lib/systemd/system/beacon.service
-rw-r--r-- root/root ./usr/lib/systemd/system/beacon@.service
-rw-r--r-- root/root ./usr/share/bash-completion/completions/beacon
-rw-r--r-- root/root ./usr/share/doc/beacon/changelog.gz
-rw-r--r-- root/root ./usr/share/doc/beacon/copyright
-rw-r--r-- root/root ./usr/share/fish/vendor_completions.d/beacon.fish
-rw-r--r-- root/root ./usr/share/lintian/overrides/beacon
-rw-r--r-- root/root ./usr/share/man/man1/beacon.1.gz
-rw-r--r-- root/root ./usr/share/zsh/vendor-completions/_beacon"
check "the package holds make install's files under /usr, the environment file 0600, and Debian's docs" \
    same "$expected_contents" "$(dpkg-deb --contents "$deb" | awk '$1 !~ /^d/ { print $1, $2, $6 }' | sort -k3)"
check "the maintainer scripts parse" bash -c "for script in postinst prerm postrm; do sh -n dist/debian/\$script || exit 1; done"

# lintian: no error or warning but those dist/debian/lintian-overrides overrides, each with its reason.
# lintian_says_nothing ARGUMENT...: lintian succeeds on the package and prints nothing (but its note on root).
lintian_says_nothing() {
    local out rc
    out=$(lintian "$@" "$deb" 2>&1); rc=$?
    out=$(grep -v 'running with root privileges' <<<"$out")
    [[ $rc -eq 0 && -z $out ]] || { echo "$out"; return 1; }
}
check "lintian finds no error or warning" lintian_says_nothing --fail-on error,warning
# unused-override is an informational tag: shown with -I only.
check "every lintian override in the package is used" \
    bash -c "! lintian -I --show-overrides '$deb' 2>&1 | grep -E 'unused-override|mismatched-override'"

# --- Installed into a scratch root.
root=$scratch/root
mkdir -p "$root/var/lib/dpkg/info" "$root/var/lib/dpkg/updates" "$root/var/lib/dpkg/triggers"
touch "$root/var/lib/dpkg/available"
depends=$(field Depends | sed 's/([^)]*)//g; s/,/ /g')
# seed_database PACKAGE...: the scratch root's dpkg database holds PACKAGE... as this machine has them.
seed_database() {
    local package
    dpkg-query --status "$@" > "$root/var/lib/dpkg/status" || return 1
    for package in $(dpkg-query --showformat '${binary:Package}\n' --show "$@"); do
        touch "$root/var/lib/dpkg/info/$package.list"
    done
}
dpkg_root() { dpkg --root="$root" --force-not-root --force-script-chrootless --log=/dev/null "$@"; }
# shellcheck disable=SC2086 # the package names are words
seed_database $(sed 's/libstdc++6//' <<<"$depends")
check "dpkg checks the Depends: without libstdc++6 in the root it refuses to configure the package" \
    bash -c "! dpkg --root='$root' --force-not-root --force-script-chrootless --log=/dev/null -i '$deb' \
        && dpkg --root='$root' --status beacon | grep -qx 'Status: install ok unpacked'"
dpkg_root --purge beacon >/dev/null 2>&1
# shellcheck disable=SC2086
seed_database $depends
dpkg_root -i "$deb" >"$scratch/dpkg-install.log" 2>&1
check "dpkg installs the package into the scratch root, its Depends met" \
    bash -c "grep -qx 'Status: install ok installed' <(dpkg --root='$root' --status beacon) || { cat '$scratch/dpkg-install.log'; false; }"
check "dpkg --verify finds every installed file as packaged" dpkg --root="$root" --verify beacon
beacon=$root/usr/bin/beacon
check "the installed beacon --version prints Version.swift's version" same "$version" "$(env -u LD_LIBRARY_PATH "$beacon" --version)"
# Each library the installed binary loads belongs to a package its Depends names (libc6's ld.so included).
libraries_from_depends() {
    local library package
    for library in $(ldd "$beacon" | awk '$2 == "=>" { print $3 }'); do
        package=$(dpkg -S "$library" 2>/dev/null || dpkg -S "${library#/usr}" 2>/dev/null || dpkg -S "/usr$library" 2>/dev/null) \
            || { echo "$library: in no package"; return 1; }
        package=${package%%:*}
        grep -qw -- "$package" <<<"$depends" || { echo "$library: in $package, which Depends does not name"; return 1; }
    done
}
check "every library the installed binary loads comes from a package Depends names" libraries_from_depends
if [[ $(id -u) -eq 0 ]]; then
    check "the postinst granted CAP_NET_RAW and CAP_NET_ADMIN" \
        bash -c "getcap '$beacon' | grep -q 'cap_net_admin,cap_net_raw=eip'"
    check "and said nothing about it" same "" "$(grep '^beacon:' "$scratch/dpkg-install.log")"
else
    check "the postinst, not root, says setcap could not grant the capabilities and what still works" \
        bash -c "grep -q 'setcap could not grant them' '$scratch/dpkg-install.log' && grep -q AmbientCapabilities '$scratch/dpkg-install.log'"
fi
# The postinst again, without setcap and with a setcap that fails: configured all the same, saying why.
mkdir -p "$scratch/no-setcap" "$scratch/failing-setcap"
printf '#!/bin/sh\nexit 1\n' > "$scratch/failing-setcap/setcap" && chmod 755 "$scratch/failing-setcap/setcap"
postinst=$root/var/lib/dpkg/info/beacon.postinst
# postinst_says PATH_DIR TEXT...: the installed postinst's configure, with only PATH_DIR and /usr/bin:/bin on the
# PATH, succeeds and says each TEXT.
postinst_says() {
    local dir=$1 out text
    shift
    out=$(DPKG_ROOT=$root PATH=$dir:/usr/bin:/bin sh "$postinst" configure "$version" 2>&1) || { echo "$out"; return 1; }
    for text in "$@"; do grep -qF -- "$text" <<<"$out" || { echo "no '$text' in:"; echo "$out"; return 1; }; done
}
check "setcap is outside /usr/bin:/bin here, so the next check runs without it" \
    bash -c "! PATH=/usr/bin:/bin command -v setcap"
check "without setcap the postinst succeeds and says how to grant the capabilities" \
    postinst_says "$scratch/no-setcap" "setcap is not installed" "AmbientCapabilities" \
    "sudo setcap cap_net_raw,cap_net_admin+eip /usr/bin/beacon"
check "with a filesystem that refuses capabilities the postinst succeeds and says so" \
    postinst_says "$scratch/failing-setcap" "setcap could not grant them" "AmbientCapabilities"

check "man -l renders the installed page without warnings" \
    bash -c "out=\$(MANWIDTH=80 man --warnings -l '$root/usr/share/man/man1/beacon.1.gz' 2>&1 >/dev/null); [[ -z \$out ]] || { echo \"\$out\"; false; }"
check "the installed page carries the version" bash -c "zcat '$root/usr/share/man/man1/beacon.1.gz' | grep -q '\"beacon $version\"'"
# Each completion where its shell, as Debian configures it, looks for a package's: the scratch root's
# /usr/share in place of /usr/share.
check "bash-completion's loader finds the installed bash completion" \
    same "complete -F _beacon beacon" "$(bash -c "source /usr/share/bash-completion/bash_completion
        XDG_DATA_DIRS='$root/usr/share' __load_completion beacon; complete -p beacon")"
check "fish finds the installed completion (the command on the PATH)" \
    same "range" "$(HOME=$scratch XDG_DATA_DIRS=$root/usr/share PATH=$root/usr/bin:$PATH fish -c 'complete -C "beacon ra"' | cut -f1)"
check "the zsh completion is in a directory of Debian's zsh's fpath" \
    bash -c "zsh -f -c 'print -l \$fpath' | grep -qx /usr/share/zsh/vendor-completions"
check "and compinit registers it there for beacon" same "_beacon" \
    "$(zsh -f -c "fpath=(\${fpath/\/usr\/share\/zsh\/vendor-completions/$root/usr/share/zsh/vendor-completions}); autoload -Uz compinit && compinit -u -d '$scratch/zcompdump'; print \${_comps[beacon]}")"
check "the installed units start /usr/bin/beacon" \
    bash -c "grep -qx 'ExecStart=/usr/bin/beacon range \$BEACON_RANGE_ARGS' '$root/usr/lib/systemd/system/beacon.service' \
        && grep -qx 'ExecStart=/usr/bin/beacon \$BEACON_ARGS' '$root/usr/lib/systemd/system/beacon@.service'"
check "beacon.service reads the packaged /etc/default/beacon" \
    grep -qx 'EnvironmentFile=-/etc/default/beacon' "$root/usr/lib/systemd/system/beacon.service"
# systemd-analyze verify checks that ExecStart's binary exists: the units, pointed at the scratch root's.
units=$scratch/units
mkdir -p "$units"
sed "s|^ExecStart=/usr/bin/beacon |ExecStart=$beacon |" "$root/usr/lib/systemd/system/beacon.service" > "$units/beacon.service"
sed "s|^ExecStart=/usr/bin/beacon |ExecStart=$beacon |" "$root/usr/lib/systemd/system/beacon@.service" > "$units/beacon@scan.service"
for unit in beacon.service beacon@scan.service; do
    check "systemd-analyze verify accepts the installed $unit" \
        bash -c "out=\$(MANPATH='$root/usr/share/man' systemd-analyze verify '$units/$unit' 2>&1); rc=\$?; [[ \$rc -eq 0 && -z \$out ]] || { echo \"\$out\"; false; }"
done
check "the installed environment file is mode 0600, its variables commented out" \
    bash -c "[[ \$(stat -c %a '$root/etc/default/beacon') == 600 ]] \
        && grep -q '^#BEACON_RANGE_ARGS=' '$root/etc/default/beacon' && ! grep -q '^[A-Z]' '$root/etc/default/beacon'"
check "the environment file's variables are the ones beacon and the units read" \
    bash -c "grep -q 'passwordVariable = \"BEACON_MQTT_PASSWORD\"' Sources/BeaconCLI/BrokerOptions.swift \
        && grep -q 'hciEnvironmentVariable = \"BEACON_HCI\"' Sources/BeaconCLI/CommonOptions.swift \
        && grep -q '^#BEACON_MQTT_PASSWORD=' '$root/etc/default/beacon' && grep -q '^#BEACON_HCI=' '$root/etc/default/beacon'"
check "the postinst recorded the units with deb-systemd-helper inside the scratch root" \
    test -e "$root/var/lib/systemd/deb-systemd-helper-enabled/beacon.service.dsh-also"

# --- Installed again over itself, as an upgrade is: the edited conffile stays, the capabilities are granted again.
echo 'BEACON_RANGE_ARGS=--uuid E2C56DB5-DFFB-48D2-B060-D0F5A71096E0' >> "$root/etc/default/beacon"
dpkg_root -i "$deb" >"$scratch/dpkg-reinstall.log" 2>&1
check "dpkg installs the package over itself" \
    bash -c "grep -qx 'Status: install ok installed' <(dpkg --root='$root' --status beacon) || { cat '$scratch/dpkg-reinstall.log'; false; }"
check "and keeps the edited /etc/default/beacon, mode 0600" \
    bash -c "grep -qx 'BEACON_RANGE_ARGS=--uuid E2C56DB5-DFFB-48D2-B060-D0F5A71096E0' '$root/etc/default/beacon' \
        && [[ \$(stat -c %a '$root/etc/default/beacon') == 600 ]]"
if [[ $(id -u) -eq 0 ]]; then
    check "the new binary has the capabilities again" bash -c "getcap '$beacon' | grep -q 'cap_net_admin,cap_net_raw=eip'"
fi

# --- Removed, then purged.
dpkg_root --remove beacon >"$scratch/dpkg-remove.log" 2>&1
check "dpkg --remove takes the files and keeps the edited conffile" \
    same "/etc/default/beacon" "$(cd "$root" && find etc usr -type f 2>/dev/null | sed 's|^|/|')"
dpkg_root --purge beacon >"$scratch/dpkg-purge.log" 2>&1
check "dpkg --purge takes the conffile and the units' recorded state too" \
    same "" "$(cd "$root" && find etc usr var/lib/systemd -type f 2>/dev/null)"

echo "deb: $passed passed, $failed failed"
[[ $failed -eq 0 ]]
