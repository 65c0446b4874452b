#!/usr/bin/env bash
# Checks `make install` and `make uninstall`, and the installed man page, completions and systemd
# unit, in scratch directories. Run by `make test-install` (and `make test`), from the repository root.
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."

scratch=$(mktemp -d /tmp/beacon-install.XXXXXX)
trap 'rm -rf "$scratch"' EXIT
source tests/install/checks.sh

# --- Layout: DESTDIR staging with the default prefix, then uninstall.
dest=$scratch/dest
make --no-print-directory install DESTDIR="$dest" PREFIX=/usr/local >"$scratch/install.log" 2>&1 \
    || { cat "$scratch/install.log"; echo "install: make install failed"; exit 1; }
expected_layout="/usr/local/bin/beacon
/usr/local/lib/systemd/system/beacon.service
/usr/local/lib/systemd/system/beacon@.service
/usr/local/share/bash-completion/completions/beacon
/usr/local/share/fish/vendor_completions.d/beacon.fish
/usr/local/share/man/man1/beacon.1
/usr/local/share/zsh/site-functions/_beacon"
check "make install puts each file in its standard place" \
    same "$expected_layout" "$(cd "$dest" && find . -type f | sed 's/^\.//' | sort)"
check "the installed binary is executable and the rest is not" \
    same "755 644 644 644 644 644 644" "$(cd "$dest/usr/local" && stat -c %a bin/beacon share/man/man1/beacon.1 \
        share/bash-completion/completions/beacon share/zsh/site-functions/_beacon \
        share/fish/vendor_completions.d/beacon.fish lib/systemd/system/beacon.service lib/systemd/system/beacon@.service \
        | tr '\n' ' ' | sed 's/ $//')"
# stripped PATH: no symbol table and no DWARF sections.
stripped() {
    local sections
    sections=$(readelf -S --wide "$1") || return 1
    ! grep -E ' \.(symtab|debug_[a-z_]+) ' <<<"$sections"
}
check "the installed binary is stripped" stripped "$dest/usr/local/bin/beacon"
check "without INSTALL_DEBUG_SYMBOLS the binary has no debuglink" \
    bash -c "readelf -S --wide '$dest/usr/local/bin/beacon' >/dev/null && ! readelf -S --wide '$dest/usr/local/bin/beacon' | grep -q gnu_debuglink"
check "stripped, it is smaller than the release build" \
    test "$(stat -c %s "$dest/usr/local/bin/beacon")" -lt "$(stat -c %s .build/release/beacon)"
check "the Swift runtime is linked in statically" \
    bash -c "! ldd '$dest/usr/local/bin/beacon' | grep -q libswiftCore"
check "the unit starts the installed binary" \
    grep -qx 'ExecStart=/usr/local/bin/beacon range $BEACON_RANGE_ARGS' "$dest/usr/local/lib/systemd/system/beacon.service"
check "the template unit starts the installed binary with its instance's command line" \
    grep -qx 'ExecStart=/usr/local/bin/beacon $BEACON_ARGS' "$dest/usr/local/lib/systemd/system/beacon@.service"
check "make install says where it installed and how to grant capabilities" grep -q "make install-caps" "$scratch/install.log"
make --no-print-directory uninstall DESTDIR="$dest" PREFIX=/usr/local >/dev/null
check "make uninstall removes every installed file" same "" "$(find "$dest" -type f)"

# --- INSTALL_DEBUG_SYMBOLS=1: what stripping removed, kept where gdb finds it through the binary's debuglink.
debug=$scratch/debug
make --no-print-directory install DESTDIR="$debug" PREFIX=/usr/local INSTALL_DEBUG_SYMBOLS=1 >"$scratch/install-debug.log" 2>&1 \
    || { cat "$scratch/install-debug.log"; echo "install: make install INSTALL_DEBUG_SYMBOLS=1 failed"; exit 1; }
check "INSTALL_DEBUG_SYMBOLS=1 adds bin/.debug/beacon.debug, nothing else" \
    same "$(sed 's|^/usr/local/bin/beacon$|&\n/usr/local/bin/.debug/beacon.debug|' <<<"$expected_layout" | sort)" \
    "$(cd "$debug" && find . -type f | sed 's/^\.//' | sort)"
check "with INSTALL_DEBUG_SYMBOLS=1 the binary is stripped all the same" stripped "$debug/usr/local/bin/beacon"
check "the .debug file holds the debug information" \
    bash -c "readelf -S --wide '$debug/usr/local/bin/.debug/beacon.debug' | grep -q ' \.debug_info '"
check "the binary's debuglink names the .debug file" \
    bash -c "readelf --string-dump=.gnu_debuglink '$debug/usr/local/bin/beacon' | grep -q 'beacon\.debug'"
make --no-print-directory uninstall DESTDIR="$debug" PREFIX=/usr/local >/dev/null
check "make uninstall removes the .debug file and its directory" same "" "$(find "$debug" -type f -o -name .debug)"

# --- An install under a real prefix, to run what was installed.
prefix=$scratch/prefix
make --no-print-directory install PREFIX="$prefix" >/dev/null 2>&1 || { echo "install: make install PREFIX failed"; exit 1; }
beacon=$prefix/bin/beacon
caps_log=$(make --no-print-directory install-caps PREFIX="$prefix" 2>&1)
check "make install-caps grants CAP_NET_RAW and CAP_NET_ADMIN" \
    bash -c "getcap '$prefix/bin/beacon' | grep -q 'cap_net_admin,cap_net_raw=eip'"
check "make install-caps says what it granted" grep -q "granted CAP_NET_RAW and CAP_NET_ADMIN" <<<"$caps_log"
version=$(sed -n 's/.*static let number = "\(.*\)"/\1/p' Sources/BeaconCLI/Version.swift)
check "beacon --version prints the version set in Version.swift" same "$version" "$("$beacon" --version)"
check "beacon version prints it too" same "$version" "$("$beacon" version)"
check "the man page carries the same version" grep -q "\"beacon $version\"" "$prefix/share/man/man1/beacon.1"
check "man -l renders the page without warnings" \
    bash -c "out=\$(MANWIDTH=80 man --warnings -l '$prefix/share/man/man1/beacon.1' 2>&1 >/dev/null); [[ -z \$out ]] || { echo \"\$out\"; false; }"
check "mandoc -T lint finds nothing at warning level" mandoc -T lint -W warning "$prefix/share/man/man1/beacon.1"
check "groff -ww finds nothing" \
    bash -c "out=\$(groff -ww -man -Tutf8 '$prefix/share/man/man1/beacon.1' 2>&1 >/dev/null); [[ -z \$out ]] || { echo \"\$out\"; false; }"
check "man beacon finds the page through the prefix's MANPATH" \
    bash -c "MANPATH='$prefix/share/man' man -w beacon | grep -q '$prefix/share/man/man1/beacon.1'"

unit=$prefix/lib/systemd/system/beacon.service
check "systemd-analyze verify accepts the installed unit" \
    bash -c "out=\$(MANPATH='$prefix/share/man' systemd-analyze verify '$unit' 2>&1); rc=\$?; [[ \$rc -eq 0 && -z \$out ]] || { echo \"\$out\"; false; }"
sed 's/^Restart=on-failure/Restart=sometimes/' "$unit" > "$scratch/broken.service"
check "systemd-analyze verify here does reject a broken unit" \
    bash -c "out=\$(MANPATH='$prefix/share/man' systemd-analyze verify '$scratch/broken.service' 2>&1); [[ -n \$out ]]"
check "the unit prevents restarts after usage (64) and permission (77) failures" \
    grep -qx 'RestartPreventExitStatus=64 77' "$unit"
cp "$prefix/lib/systemd/system/beacon@.service" "$scratch/beacon@scan.service"
check "systemd-analyze verify accepts an instance of the installed template" \
    bash -c "out=\$(MANPATH='$prefix/share/man' systemd-analyze verify '$scratch/beacon@scan.service' 2>&1); rc=\$?; [[ \$rc -eq 0 && -z \$out ]] || { echo \"\$out\"; false; }"
check "the template reads its instance's environment file" grep -qx 'EnvironmentFile=/etc/default/beacon-%i' "$scratch/beacon@scan.service"
for service in "$unit" "$scratch/beacon@scan.service"; do
    check "$(basename "$service") drops the lines and keeps warnings and errors in the journal" \
        bash -c "grep -qx 'StandardOutput=null' '$service' && grep -qx 'StandardError=journal' '$service'"
done

# The steps of docs/recipes.md that write /etc/default/beacon, run on a scratch copy (a world-readable one there
# already, as an earlier `sudo tee` left it): the file ends up mode 0600, password and all.
env_steps=$(awk '/^<!-- not run: writes \/etc\/default\/beacon/ { found = 1; next }
    found && /^```/ { if (inside) exit; inside = 1; next } inside' docs/recipes.md)
env_dir=$scratch/etc-default
mkdir -p "$env_dir" && install -m 644 /dev/null "$env_dir/beacon"
check "the recipe's environment file steps are found" grep -q 'install -m 600' <<<"$env_steps"
check "the recipe's environment file steps run" \
    bash -c "$(sed -e "s|/etc/default/|$env_dir/|g" -e 's/^sudo //; s/| sudo /| /' -e 's/ -o root -g root//' <<<"$env_steps")"
check "the recipe's steps leave the environment file mode 0600" same "600" "$(stat -c %a "$env_dir/beacon")"
check "the environment file holds the arguments and the password" \
    bash -c "grep -q '^BEACON_RANGE_ARGS=' '$env_dir/beacon' && grep -q '^BEACON_MQTT_PASSWORD=' '$env_dir/beacon'"

# bash: the installed completion function, loaded as bash-completion loads it.
bash_complete() {
    bash -c '
        source /usr/share/bash-completion/bash_completion
        source "$1"; shift
        COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); COMP_LINE="$*"; COMP_POINT=${#COMP_LINE}
        _beacon beacon "${COMP_WORDS[-1]}" "${COMP_WORDS[-2]}"
        printf "%s\n" "${COMPREPLY[@]}" | sort | tr "\n" " " | sed "s/ $//"' \
        _ "$prefix/share/bash-completion/completions/beacon" "$@"
}
touch "$scratch/day.btsnoop" "$scratch/day.jsonl"
check "bash completes subcommands" same "range" "$(bash_complete beacon ra)"
check "bash completes help's subcommand" same "advertise" "$(bash_complete beacon help adv)"
check "bash completes a subcommand's options" same "--exit-after" "$(bash_complete beacon range --exit)"
check "bash completes only the options of the subcommand given" same "--legacy" "$(bash_complete beacon advertise --le)"
check "bash completes the --hci forms" same "btsnoop: hci-user: serial: tcp: unix:" \
    "$(bash_complete beacon range --hci '' | tr ' ' '\n' | grep -v '^hci[0-9]' | tr '\n' ' ' | sed 's/ $//')"
check "bash completes a capture file after btsnoop:" same "$scratch/day.btsnoop" \
    "$(bash_complete beacon range --hci "btsnoop:$scratch/day.b")"
check "bash completes --hci=btsnoop:FILE" same "$scratch/day.btsnoop" \
    "$(bash_complete beacon range "--hci=btsnoop:$scratch/day.b")"
check "bash completes filter names" same "mean median" "$(bash_complete beacon range --rssi-filter me)"
check "bash offers nothing for a UUID" same "" "$(bash_complete beacon range --uuid '')"

# fish: complete -C against the installed file.
fish_complete() {
    fish --no-config -c "source '$prefix/share/fish/vendor_completions.d/beacon.fish'; complete -C '$1'" \
        | cut -f1 | sort | tr '\n' ' ' | sed 's/ $//'
}
check "fish completes subcommands" same "range" "$(fish_complete 'beacon ra')"
check "fish completes a subcommand's options" same "--exit-after" "$(fish_complete 'beacon range --exit')"
check "fish completes the --hci forms" same "btsnoop: hci-user: serial: tcp: unix:" \
    "$(fish_complete 'beacon range --hci ' | tr ' ' '\n' | grep -v '^hci[0-9]' | tr '\n' ' ' | sed 's/ $//')"
check "fish completes a capture file after btsnoop:" same "btsnoop:$scratch/day.btsnoop" \
    "$(fish_complete "beacon range --hci btsnoop:$scratch/day.b")"
check "fish completes report kinds" same "extended legacy mixed" "$(fish_complete 'beacon simulate --reports ')"

# zsh: the function parses, and compinit finds it for beacon in the installed site-functions.
check "the zsh completion parses" zsh -n "$prefix/share/zsh/site-functions/_beacon"
check "zsh's compinit registers it for beacon" same "_beacon" \
    "$(zsh -f -c "fpath=('$prefix/share/zsh/site-functions' \$fpath); autoload -Uz compinit && compinit -u -d '$scratch/zcompdump'; print \${_comps[beacon]}")"

echo "install: $passed passed, $failed failed"
[[ $failed -eq 0 ]]
