#!/usr/bin/env bash
# Turns make install's staging (DESTDIR=ROOT PREFIX=/usr) into a Debian package with dpkg-deb: adds
# /etc/default/beacon (a conffile), the copyright and changelog, gzips the man page, and writes the control
# files. Depends comes from dpkg-shlibdeps, which reads the shlibs and symbols files of the packages
# installed here: no network. Run by `make deb` from the repository root:
#   dist/debian/build-deb.sh ROOT DEB MAINTAINER
set -euo pipefail

root=$1 deb=$2 maintainer=$3
here=dist/debian
version=$(sed -n 's/.*static let number = "\(.*\)"/\1/p' Sources/BeaconCLI/Version.swift)
version_date=$(sed -n 's/.*static let date = "\(.*\)"/\1/p' Sources/BeaconCLI/Version.swift)
arch=$(dpkg --print-architecture)
binary=$root/usr/bin/beacon
# The files' times in the package, and the changelog's date: when the version was set, so that building the
# same source again gives the same package.
export SOURCE_DATE_EPOCH=${SOURCE_DATE_EPOCH:-$(date -u -d "$version_date" +%s)}

fail() { echo "make deb: $*" >&2; exit 1; }
[[ -n $version && -n $version_date ]] || fail "no version in Sources/BeaconCLI/Version.swift"
[[ -x $binary ]] || fail "$binary is missing: make install DESTDIR=$root PREFIX=/usr stages it"

# Every library the binary loads must come from a Debian package: a Swift runtime from a toolchain
# (/opt/swift, swiftly's) would be missing on a machine without one, and dpkg-shlibdeps only warns of it.
libraries=$(ldd "$binary") || fail "ldd cannot read $binary"
if grep -q 'not found' <<<"$libraries"; then fail "$binary needs libraries not found here: $libraries"; fi
for library in $(awk '$2 == "=>" && $3 ~ /^\// { print $3 }' <<<"$libraries"); do
    # A merged /usr finds a library under /lib or /usr/lib, and its package may list either.
    dpkg -S "$library" >/dev/null 2>&1 || dpkg -S "${library#/usr}" >/dev/null 2>&1 \
        || dpkg -S "/usr${library}" >/dev/null 2>&1 \
        || fail "$binary loads $library, which no Debian package installed (the Swift runtime is linked in with --static-swift-stdlib)"
done

# What Debian wants beside the files make install put there.
find "$root" -type d -exec chmod 0755 {} +
gzip -9nf "$root/usr/share/man/man1/beacon.1"
# 0600: the password for the broker goes in it.
install -D -m 0600 "$here/beacon.default" "$root/etc/default/beacon"
install -D -m 0644 "$here/copyright" "$root/usr/share/doc/beacon/copyright"
printf 'beacon (%s) unstable; urgency=medium\n\n  * beacon %s.\n\n -- %s  %s\n' \
    "$version" "$version" "$maintainer" "$(date -u -R -d "@$SOURCE_DATE_EPOCH")" \
    | gzip -9n > "$root/usr/share/doc/beacon/changelog.gz"
chmod 0644 "$root/usr/share/doc/beacon/changelog.gz"
install -D -m 0644 "$here/lintian-overrides" "$root/usr/share/lintian/overrides/beacon"

# The control files.
mkdir -p "$root/DEBIAN"
install -m 0755 "$here/postinst" "$here/prerm" "$here/postrm" "$root/DEBIAN/"
install -m 0644 "$here/conffiles" "$root/DEBIAN/"
shlibdeps_dir=$(mktemp -d)
trap 'rm -rf "$shlibdeps_dir"' EXIT
mkdir "$shlibdeps_dir/debian"
printf 'Source: beacon\n\nPackage: beacon\nArchitecture: any\n' > "$shlibdeps_dir/debian/control"
binary_path=$(realpath "$binary")
shlibdeps=$(cd "$shlibdeps_dir" && dpkg-shlibdeps -O -e"$binary_path" 2>"$shlibdeps_dir/warnings") \
    || { cat "$shlibdeps_dir/warnings" >&2; fail "dpkg-shlibdeps failed"; }
depends=$(sed -n 's/^shlibs:Depends=//p' <<<"$shlibdeps")
[[ -n $depends ]] || fail "dpkg-shlibdeps found no dependencies for $binary"
# Installed-Size: each file's size in KiB, rounded up, as dpkg-gencontrol counts it.
installed_size=$(find "$root" -path "$root/DEBIAN" -prune -o -type f -printf '%s\n' \
    | awk '{ total += int(($1 + 1023) / 1024) } END { print total }')
sed -e "s|@VERSION@|$version|" -e "s|@ARCH@|$arch|" -e "s|@MAINTAINER@|$maintainer|" \
    -e "s|@INSTALLED_SIZE@|$installed_size|" -e "s|@DEPENDS@|$depends|" "$here/control.in" > "$root/DEBIAN/control"
(cd "$root" && find . -path ./DEBIAN -prune -o -path ./etc -prune -o -type f -printf '%P\0' \
    | LC_ALL=C sort -z | xargs -0 md5sum) > "$root/DEBIAN/md5sums"
chmod 0644 "$root/DEBIAN/control" "$root/DEBIAN/md5sums"

# xz's fastest level: the package is mostly built on the machine that installs it (a Raspberry Pi, say), where
# the default level takes four times as long to save an eighth of the size.
dpkg-deb -Zxz -z1 --root-owner-group --build "$root" "$deb" >/dev/null
echo "built $deb: beacon $version for $arch, Depends: $depends; Recommends: $(sed -n 's/^Recommends: //p' "$root/DEBIAN/control")"
