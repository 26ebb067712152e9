#!/usr/bin/env bash
# `make deb`: dist/quire_VERSION_amd64.deb from the release build (`make release`, the Swift
# runtime linked in), with Debian's own tools: dpkg-shlibdeps (Depends), dpkg-gencontrol (the
# control file) and dpkg-deb. No debian/rules and no dpkg-buildpackage: the Swift toolchain is not
# a Debian package, so there is no Build-Depends to declare or satisfy; the build needs Swift 6 on
# PATH and the Makefile's DEB_BUILD packages, as `make release` does. VERSION is
# scripts/version.sh's, the string the binary's `quire --version` prints (checked below).
#
#   scripts/build-deb.sh RELEASE-DIRECTORY [OUTPUT-DIRECTORY]
# Environment: DEB_MAINTAINER (default: the author of HEAD), DEB_WORK (default .build-deb),
# DEB_XZ_LEVEL (default 1: xz -6, Debian's default, is 12 % smaller and takes 4 times as long).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
release=$(cd "${1:?usage: scripts/build-deb.sh RELEASE-DIRECTORY [OUTPUT-DIRECTORY]}" && pwd)
output=${2:-$root/dist}
work=${DEB_WORK:-$root/.build-deb}
cd "$root"

fail() { echo "make deb: $*" >&2; exit 1; }
version=$(scripts/version.sh)
built=$("$release/quire" --version)
[[ "$built" == "$version" ]] || fail "the release build says it is $built, the tree is $version: run 'make release' first"
maintainer=${DEB_MAINTAINER:-$(git log -1 --format='%an <%ae>' 2>/dev/null || echo 'Quire developers <quire@localhost>')}
commit=$(git rev-parse HEAD 2>/dev/null || echo unknown)
# The commit's time, so that the same commit gives the same package (reproducible).
epoch=$(git log -1 --format=%ct 2>/dev/null || date +%s)
export SOURCE_DATE_EPOCH=$epoch

rm -rf "$work"
package="$work/debian/quire"
mkdir -p "$package/DEBIAN" "$package/usr/share/doc/quire"
cp packaging/debian/control "$work/debian/control"

# Everything `make install` installs, at Debian's paths under /usr (scripts/install-files.sh).
scripts/install-files.sh deb /usr "$package" "$release" > "$work/install.log"

# Debian's strip (dh_strip's options): no debug symbols or notes in the shipped objects.
for object in usr/bin/quire usr/libexec/quire/quire-look usr/lib/quire/libQuirePopplerSplash.so; do
    strip --remove-section=.comment --remove-section=.note --strip-unneeded "$package/$object"
done

# The changelog of a native package (its version has no Debian revision): this build's entry.
{
    echo "quire ($version) unstable; urgency=medium"
    echo
    echo "  * Built from commit $commit."
    echo
    echo " -- $maintainer  $(date -R -u -d "@$epoch")"
} > "$work/debian/changelog"
gzip -9n < "$work/debian/changelog" > "$package/usr/share/doc/quire/changelog.gz"
install -m 0644 packaging/debian/copyright "$package/usr/share/doc/quire/copyright"
if [[ -s packaging/debian/lintian-overrides ]]; then
    install -d "$package/usr/share/lintian/overrides"
    install -m 0644 packaging/debian/lintian-overrides "$package/usr/share/lintian/overrides/quire"
fi
for script in postinst prerm postrm; do install -m 0755 "packaging/debian/$script" "$package/DEBIAN/$script"; done
install -m 0644 packaging/debian/triggers "$package/DEBIAN/triggers"

# Depends: what the programs and the Splash shim link (dpkg-shlibdeps reads their ELF NEEDED
# entries and the libraries' symbols files); packaging/debian/control adds shared-mime-info (type
# detection is its database).
(cd "$work" && dpkg-shlibdeps -Tdebian/substvars -e debian/quire/usr/bin/quire \
    -e debian/quire/usr/libexec/quire/quire-look -e debian/quire/usr/lib/quire/libQuirePopplerSplash.so 2> shlibdeps.log) \
    || { cat "$work/shlibdeps.log" >&2; fail "dpkg-shlibdeps failed"; }

# Recommends: the libraries quire opens with dlopen when a file needs them (named in the C
# shims' headers, the one list the code loads), as the packages that ship them here; then the
# engines it runs or loads through them. Suggests: the large or less common ones.
depends=$(sed -n 's/^shlibs:Depends=//p' "$work/debian/substvars" | tr ',' '\n' | sed 's/^ *//; s/ .*//')
lazy=()
# Read whole, then searched: a reader that stops early (awk's exit, head) would leave the writer
# to die of SIGPIPE, which pipefail turns into this script's failure (exit 141, now and then).
ldcache=$(/sbin/ldconfig -p)
for soname in $(grep -ho '"lib[A-Za-z0-9_+.-]*\.so\.[0-9][0-9.]*"' Sources/C*/shim.h Sources/C*/*.h | tr -d '"' | sort -u); do
    path=$(awk -v name="$soname" '$1 == name && /x86-64/ && !found { print $NF; found = 1 }' <<<"$ldcache")
    [[ -n "$path" ]] || fail "$soname (opened with dlopen) is not installed on this build machine"
    owners=$(dpkg-query -S "$(readlink -f "$path")" 2>/dev/null) || fail "no package ships $path ($soname)"
    owner=$(sed -n '1s/:.*//p' <<<"$owners")
    grep -qx "$owner" <<<"$depends" || lazy+=("$owner")
done
recommends=$(printf '%s\n' "${lazy[@]}" bubblewrap gstreamer1.0-plugins-base gstreamer1.0-plugins-good \
    libgtk-4-media-gstreamer librsvg2-common webp-pixbuf-loader heif-gdk-pixbuf libavif-gdk-pixbuf ghostscript | sort -u | paste -sd, | sed 's/,/, /g')
suggests="libreoffice-writer, libreoffice-calc, libreoffice-impress, libreoffice-draw, gstreamer1.0-libav, gstreamer1.0-plugins-bad, cups"
{ echo "quire:Recommends=$recommends"; echo "quire:Suggests=$suggests"; } >> "$work/debian/substvars"

(cd "$work" && dpkg-gencontrol -pquire -Pdebian/quire -Tdebian/substvars -ldebian/changelog -cdebian/control \
    "-DMaintainer=$maintainer")

# md5sums of every shipped file (dh_md5sums).
(cd "$package" && find usr -type f -print0 | LC_ALL=C sort -z | xargs -0 md5sum > DEBIAN/md5sums)
chmod 0644 "$package/DEBIAN/md5sums" "$package/DEBIAN/control"
# Directories 0755, files 0644 or 0755, whatever the umask (dh_fixperms).
find "$package" -type d -exec chmod 0755 {} +
find "$package" -print0 | xargs -0 touch -h -d "@$epoch"

mkdir -p "$output"
deb="$output/quire_${version}_amd64.deb"
rm -f "$output"/quire_*_amd64.deb
dpkg-deb --root-owner-group -Zxz "-z${DEB_XZ_LEVEL:-1}" --build "$package" "$deb" >/dev/null
echo "$deb"
