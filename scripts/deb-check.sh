#!/usr/bin/env bash
# The Debian package end to end, on this machine (as root; `make test` runs it after the suites):
#   1. lintian: no error, no warning (overrides carry their reasons: packaging/debian/lintian-overrides);
#      appstreamcli and desktop-file-validate on the metainfo and desktop files; no file that
#      gnome-sushi, tumbler or evince ship (their packages' file lists).
#   2. over a `make install` copy in /usr/local, an older package is installed (with a file at a
#      place this version moved it from), then this one as an upgrade: nothing of the old one is
#      left, the /usr/local copy still works and postinst says which comes first on PATH.
#   3. the installed files work: quire --version and info, a thumbnail from GNOME's thumbnail
#      factory (its bubblewrap sandbox on, proved by a control thumbnailer outside /usr that must
#      fail), Open With → Quire (gio mime), the D-Bus thumbnail service started by activation,
#      and `quire integrate` per user, which writes no second copy of the system's files.
#   4. apt-get purge while that thumbnail service runs: every path `dpkg -L` listed is gone (but
#      directories other packages use), and the postinst's font files too.
# Each step prints what it checked; the first failure stops with a line saying what was wrong.
#
#   scripts/deb-check.sh dist/quire_VERSION_amd64.deb [SAMPLES-DIRECTORY]
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
deb=$(readlink -f "${1:?usage: scripts/deb-check.sh dist/quire_VERSION_amd64.deb [SAMPLES]}")
samples=$(readlink -f "${2:-$root/Samples/generated}")
release="$root/.build-static/release"
start=$SECONDS

fail() { echo "deb-check: FAIL: $*" >&2; exit 1; }
ok() { echo "deb-check: ok: $*"; }
# A command that fails outside the checks below still says where.
trap 'echo "deb-check: FAIL: line $LINENO: $BASH_COMMAND exited $?" >&2' ERR
[[ "$(id -u)" -eq 0 ]] || fail "run as root: it installs and purges the package with apt-get"
[[ -f "$deb" ]] || fail "no package at $1 (make deb)"
[[ -f "$samples/document.pdf" && -f "$samples/notes.txt" ]] || fail "no samples in $samples (make samples)"
version=$(dpkg-deb -f "$deb" Version)
if dpkg-query -W -f='${db:Status-Status}' quire 2>/dev/null | grep -qx installed; then
    fail "quire is installed already (dpkg); apt-get purge quire first"
fi

work=$(mktemp -d /tmp/quire-deb-check.XXXXXX)
local_copy=""
bus_pid=""
cleanup() {
    [[ -n "$bus_pid" ]] && kill "$bus_pid" 2>/dev/null
    if dpkg-query -W -f='${db:Status-Status}' quire 2>/dev/null | grep -q .; then
        DEBIAN_FRONTEND=noninteractive apt-get purge -y -qq quire >/dev/null 2>&1 || true
    fi
    if [[ -n "$local_copy" ]]; then
        make -s -C "$root" uninstall PREFIX=/usr/local >/dev/null 2>&1
        # and the directories that install made (make uninstall leaves them), deepest first, with
        # the MIME cache the package's desktop-file-utils trigger wrote beside its desktop entry
        grep -qx /usr/local/share/applications "$work/local-dirs.txt" || rm -f /usr/local/share/applications/mimeinfo.cache
        find /usr/local -depth -type d | grep -vxFf "$work/local-dirs.txt" | xargs -r rmdir --ignore-fail-on-non-empty
    fi
    rm -rf "$work"
}
trap cleanup EXIT
export DEBIAN_FRONTEND=noninteractive

# --- 1. The package as files -------------------------------------------------------------------
lintian_start=$SECONDS
if ! lintian --fail-on error,warning --display-info --pedantic "$deb" > "$work/lintian.txt" 2>&1; then
    cat "$work/lintian.txt" >&2
    fail "lintian reports errors or warnings (above)"
fi
if grep -E '^[EW]: ' "$work/lintian.txt"; then fail "lintian reports errors or warnings (above)"; fi
ok "lintian: no error, no warning ($((SECONDS - lintian_start)) s); its info and pedantic tags, then the overrides:"
grep -E '^[IP]: ' "$work/lintian.txt" | sed -E 's/(spelling-error-in-binary) .*/\1 …/' | sort | uniq -c | sed 's/^/    /'
dpkg-deb --fsys-tarfile "$deb" | tar -xO ./usr/share/lintian/overrides/quire | grep -v '^#' | sed 's/^/    override: /'

dpkg-deb -x "$deb" "$work/contents"
metainfo=$(find "$work/contents/usr/share/metainfo" -name '*.metainfo.xml')
appstreamcli validate --no-net "$metainfo" > "$work/appstream.txt" 2>&1 || { cat "$work/appstream.txt" >&2; fail "appstreamcli validate $metainfo"; }
if grep -E '^[EW]: ' "$work/appstream.txt"; then fail "appstreamcli: errors or warnings in $metainfo"; fi
ok "appstreamcli validate: $(tail -1 "$work/appstream.txt")"
# (Dolphin's service menus are KDE's Type=Service, which desktop-file-validate does not know:
# IntegrationTests checks them, less the Service-only keys.)
for desktop in "$work"/contents/usr/share/applications/*.desktop; do
    desktop-file-validate "$desktop" > "$work/validate.txt" 2>&1 || { cut -c1-300 "$work/validate.txt" >&2; fail "desktop-file-validate ${desktop#"$work"/contents}"; }
    [[ ! -s "$work/validate.txt" ]] || { cut -c1-300 "$work/validate.txt" >&2; fail "desktop-file-validate warns about ${desktop#"$work"/contents}"; }
done
ok "desktop-file-validate: the desktop entry, no error and no warning"

# No file conflict with the packages that provide the same services (their file lists, from
# their .debs: gnome-sushi is the previewer, tumbler the thumbnail service, evince a thumbnailer).
dpkg-deb -c "$deb" | awk '$1 !~ /^d/ { print $6 }' | sed 's|^\.||' | sort > "$work/ours.txt"
(cd "$work" && apt-get download -qq gnome-sushi tumbler evince >/dev/null 2>&1) \
    || (apt-get update -qq && cd "$work" && apt-get download -qq gnome-sushi tumbler evince >/dev/null) \
    || fail "apt-get download gnome-sushi tumbler evince (for their file lists)"
for other in "$work"/*.deb; do
    dpkg-deb -c "$other" | awk '$1 !~ /^d/ { print $6 }' | sed 's|^\.||' | sort > "$work/theirs.txt"
    shared=$(comm -12 "$work/ours.txt" "$work/theirs.txt")
    [[ -z "$shared" ]] || fail "$(basename "$other") ships the same files: $shared"
done
ok "no file in common with $(cd "$work" && ls *.deb | cut -d_ -f1 | paste -sd' ')"

# --- 2. Over a `make install` copy, an older package, then the upgrade -------------------------
if [[ ! -e /usr/local/bin/quire ]]; then
    find /usr/local -type d > "$work/local-dirs.txt"
    "$root/scripts/install-files.sh" local /usr/local "" "$release" > "$work/make-install.log"
    local_copy=yes
fi
local_version=$(/usr/local/bin/quire --version) || fail "/usr/local/bin/quire does not run"

# The package's directories that exist before it: those stay after the purge.
dpkg-deb -c "$deb" | awk '$1 ~ /^d/ { print $6 }' | sed 's|^\.||; s|/$||' | grep . \
    | while read -r dir; do if [[ -d "$dir" ]]; then echo "$dir"; fi; done > "$work/dirs-before.txt"

# The older package: this one's files as version 0.0.1, with the zsh completion where Debian's
# zsh does not read it (site-functions) — a file the next version moved.
dpkg-deb -R "$deb" "$work/old"
sed -i 's/^Version: .*/Version: 0.0.1/' "$work/old/DEBIAN/control"
mkdir -p "$work/old/usr/share/zsh/site-functions"
mv "$work/old/usr/share/zsh/vendor-completions/_quire" "$work/old/usr/share/zsh/site-functions/_quire"
rmdir "$work/old/usr/share/zsh/vendor-completions"
(cd "$work/old" && find usr -type f -print0 | LC_ALL=C sort -z | xargs -0 md5sum > DEBIAN/md5sums)
dpkg-deb --root-owner-group -Zxz --build "$work/old" "$work/quire_0.0.1_amd64.deb" >/dev/null
apt-get install -y -qq --no-install-recommends "$work/quire_0.0.1_amd64.deb" > "$work/apt-old.log" 2>&1 \
    || { cat "$work/apt-old.log" >&2; fail "apt-get install the older package"; }
[[ -f /usr/share/zsh/site-functions/_quire ]] || fail "the older package did not install its zsh completion"
grep -q "note: /usr/local/bin/quire" "$work/apt-old.log" || { cat "$work/apt-old.log" >&2; fail "postinst did not say that /usr/local/bin/quire comes first"; }
ok "installed the older package 0.0.1 over a make install copy in /usr/local (postinst says which comes first)"

install_start=$SECONDS
apt-get install -y -qq --no-install-recommends "$deb" > "$work/apt-new.log" 2>&1 \
    || { cat "$work/apt-new.log" >&2; fail "apt-get install $deb (upgrade from 0.0.1)"; }
[[ "$(dpkg-query -W -f='${Version}' quire)" == "$version" ]] || fail "dpkg has $(dpkg-query -W -f='${Version}' quire), not $version"
[[ ! -e /usr/share/zsh/site-functions/_quire ]] || fail "the upgrade left the older package's /usr/share/zsh/site-functions/_quire"
dpkg -L quire > "$work/installed.txt"
while read -r path; do
    [[ -e "$path" || -L "$path" ]] || fail "dpkg -L lists $path, which is not there"
done < "$work/installed.txt"
# Nothing the old package installed that the new one does not: its list was the same but the moved file.
dpkg -V quire || fail "dpkg -V quire: installed files differ from the package"
ok "upgraded 0.0.1 → $version ($((SECONDS - install_start)) s): the moved file is gone, every listed file is there, dpkg -V clean"

# --- 3. The installed files work -----------------------------------------------------------------
[[ "$(/usr/bin/quire --version)" == "$version" ]] || fail "/usr/bin/quire --version says $(/usr/bin/quire --version), the package is $version"
[[ "$(PATH=/usr/local/bin:/usr/bin:/bin command -v quire)" == /usr/local/bin/quire ]] || fail "PATH order: /usr/local/bin/quire should come first"
[[ "$(/usr/local/bin/quire --version)" == "$local_version" ]] || fail "the make install copy in /usr/local stopped working"
/usr/bin/quire info "$samples/document.pdf" > "$work/info.txt" || fail "quire info document.pdf: exit $?"
grep -q "application/pdf" "$work/info.txt" || { cat "$work/info.txt"; fail "quire info document.pdf does not say application/pdf"; }
ok "quire --version is $version; quire info document.pdf: $(grep -m1 -i 'kind' "$work/info.txt" | sed 's/  */ /g')"
[[ -s /usr/share/quire/fonts.conf ]] || fail "postinst did not write /usr/share/quire/fonts.conf"
[[ -n "$(ls /usr/share/quire/fontconfig-cache 2>/dev/null)" ]] || fail "postinst did not build the sandbox's font cache"
ok "postinst wrote the thumbnail sandbox's fonts.conf and font cache"

# GNOME's thumbnail factory with the package's files only (XDG_DATA_DIRS=/usr/share: not the
# /usr/local copy's), a private cache and home, and a control: a thumbnailer outside /usr, for a
# made-up type, that only the factory's sandbox stops.
home="$work/home"
mkdir -p "$home/data/thumbnailers" "$home/config" "$home/cache"
printf '#!/bin/sh\nexec /bin/cp %s "$1"\n' "$samples/quadrants.png" > "$work/probe-thumbnailer"
chmod 0755 "$work/probe-thumbnailer"
printf '[Thumbnailer Entry]\nExec=%s %%o\nMimeType=application/x-quire-sandbox-probe;\n' "$work/probe-thumbnailer" \
    > "$home/data/thumbnailers/probe.thumbnailer"
cat > "$work/factory.py" <<'EOF'
import sys, gi
gi.require_version("GnomeDesktop", "3.0")
from gi.repository import GnomeDesktop, Gio
factory = GnomeDesktop.DesktopThumbnailFactory.new(GnomeDesktop.DesktopThumbnailSize.NORMAL)
arguments = sys.argv[1:]
for path, mime in zip(arguments[0::2], arguments[1::2]):
    try:
        pixbuf = factory.generate_thumbnail(Gio.File.new_for_path(path).get_uri(), mime, None)
        print("OK", path, pixbuf.get_width(), pixbuf.get_height(), pixbuf.get_option("tEXt::Software") or "-", flush=True)
    except Exception as error:
        print("FAIL", path, str(error).replace("\n", " "), flush=True)
EOF
session=(env -i PATH=/usr/bin:/bin HOME="$home" XDG_DATA_HOME="$home/data" XDG_CONFIG_HOME="$home/config"
         XDG_CACHE_HOME="$home/cache" XDG_DATA_DIRS=/usr/share LANG=C.UTF-8)
"${session[@]}" python3 "$work/factory.py" "$samples/document.pdf" application/pdf "$samples/notes.txt" text/plain \
    "$samples/notes.txt" application/x-quire-sandbox-probe > "$work/factory.txt" 2>&1 || { cat "$work/factory.txt" >&2; fail "the thumbnail factory script failed"; }
mapfile -t lines < "$work/factory.txt"
for index in 0 1; do
    read -r status path width height software <<<"${lines[$index]:-}"
    [[ "$status" == OK && "$software" == "Quire $version" && ( "$width" == 128 || "$height" == 128 ) ]] \
        || { cat "$work/factory.txt" >&2; fail "GNOME's factory did not make a 128-pixel thumbnail with the installed Quire: ${lines[$index]:-nothing}"; }
done
[[ "${lines[2]:-}" == FAIL* ]] || fail "the control thumbnailer outside /usr ran: the factory had no sandbox (${lines[2]:-nothing})"
ok "GNOME's thumbnail factory (sandbox on) made document.pdf's and notes.txt's thumbnails with /usr/bin/quire"

"${session[@]}" gio mime application/pdf > "$work/gio-mime.txt" 2>&1 || true
sed -n '/^Recommended applications:/,$p' "$work/gio-mime.txt" | grep -q "io.github.quire.Quire.desktop" \
    || { cat "$work/gio-mime.txt" >&2; fail "Open With: gio mime application/pdf does not recommend Quire's desktop entry"; }
# (Which application is the default is not checked: with no defaults list naming one, as on this
# machine, GIO takes the first of the desktop database's alphabetical list, which may be Quire's;
# see docs/file-managers.md.)
ok "Open With → Quire: gio mime application/pdf recommends io.github.quire.Quire.desktop (default here: $(sed -n 's/^Default application.*: //p' "$work/gio-mime.txt"))"

# Per user, `quire integrate install` writes no second copy of what the package installed.
"${session[@]}" /usr/bin/quire integrate install > "$work/integrate.txt" 2>&1 || { cat "$work/integrate.txt" >&2; fail "quire integrate install (per user)"; }
grep -q "^provided system-wide: /usr/share/thumbnailers/quire.thumbnailer" "$work/integrate.txt" \
    || { cat "$work/integrate.txt" >&2; fail "quire integrate install did not find the package's thumbnailer"; }
duplicates=$(cd "$home/data" && find . -type f ! -path './thumbnailers/probe.thumbnailer' ! -path './nautilus/scripts/*' ! -path './quire/installed-files' | sed 's|^\./||' | while read -r f; do if [[ -e "/usr/share/$f" ]]; then echo "$f"; fi; done)
[[ -z "$duplicates" ]] || fail "quire integrate install (per user) duplicated the package's files: $duplicates"
[[ -x "$home/data/nautilus/scripts/Quick Look with Quire" ]] || fail "quire integrate install did not write the per-user Nautilus scripts"
"${session[@]}" /usr/bin/quire integrate status > "$work/status.txt" 2>&1 || { cat "$work/status.txt" >&2; fail "quire integrate status (per user) exit $?"; }
"${session[@]}" /usr/bin/quire integrate uninstall > /dev/null || fail "quire integrate uninstall (per user)"
ok "quire integrate (per user) found the system-wide install: $(grep -c '^provided system-wide' "$work/integrate.txt") files not duplicated, status exit 0"

# The D-Bus thumbnail service, started by activation from the package's .service file on a
# private session bus, kept running for step 4.
"${session[@]}" dbus-daemon --session --fork --print-address=1 --print-pid=1 > "$work/bus.txt" \
    || fail "dbus-daemon --session did not start"
bus_address=$(sed -n 1p "$work/bus.txt"); bus_pid=$(sed -n 2p "$work/bus.txt")
call() { "${session[@]}" DBUS_SESSION_BUS_ADDRESS="$bus_address" gdbus call --session "$@"; }
call --dest org.freedesktop.thumbnails.Thumbnailer1 --object-path /org/freedesktop/thumbnails/Thumbnailer1 \
    --method org.freedesktop.thumbnails.Thumbnailer1.GetSupported > "$work/supported.txt" 2>&1 \
    || { cat "$work/supported.txt" >&2; fail "D-Bus activation of org.freedesktop.thumbnails.Thumbnailer1"; }
grep -q "application/pdf" "$work/supported.txt" || fail "the thumbnail service does not list application/pdf"
service_pid=$(call --dest org.freedesktop.DBus --object-path /org/freedesktop/DBus \
    --method org.freedesktop.DBus.GetConnectionUnixProcessID org.freedesktop.thumbnails.Thumbnailer1 | sed -n 's/^(uint32 \([0-9]*\),)$/\1/p')
[[ "$(readlink "/proc/$service_pid/exe")" == /usr/bin/quire ]] || fail "the Thumbnailer1 service is not /usr/bin/quire (pid $service_pid)"
ok "D-Bus activation started /usr/bin/quire thumbnailer-service (pid $service_pid)"

# --- 4. Purge while the service runs -----------------------------------------------------------
purge_start=$SECONDS
apt-get purge -y -qq quire > "$work/apt-purge.log" 2>&1 || { cat "$work/apt-purge.log" >&2; fail "apt-get purge quire"; }
! dpkg-query -W -f='${db:Status-Status}' quire 2>/dev/null | grep -q . || fail "dpkg still knows quire after the purge"
left=()
while read -r path; do
    [[ "$path" == /. ]] && continue   # dpkg -L's first line, the root
    if [[ -d "$path" && ! -L "$path" ]]; then
        # A directory may stay when it was there before or another package has files in it.
        grep -qx "$path" "$work/dirs-before.txt" && continue
        [[ -n "$(ls -A "$path")" ]] && dpkg-query -S "$path" >/dev/null 2>&1 && continue
        left+=("$path/")
    elif [[ -e "$path" || -L "$path" ]]; then
        left+=("$path")
    fi
done < "$work/installed.txt"
[[ -e /usr/share/quire ]] && left+=("/usr/share/quire (postinst's font files)")
[[ ${#left[@]} -eq 0 ]] || fail "apt-get purge left: ${left[*]}"
ok "apt-get purge ($((SECONDS - purge_start)) s) left none of the $(wc -l < "$work/installed.txt") paths dpkg -L listed, nor /usr/share/quire"

# The service that ran during the purge still answers (it runs from its open files), and ends
# with its bus.
kill -0 "$service_pid" 2>/dev/null || fail "the thumbnail service died during the purge"
call --dest org.freedesktop.thumbnails.Thumbnailer1 --object-path /org/freedesktop/thumbnails/Thumbnailer1 \
    --method org.freedesktop.thumbnails.Thumbnailer1.GetSchedulers > /dev/null 2>&1 \
    || fail "the thumbnail service that ran during the purge stopped answering"
# (It does not notice its bus closing: it would end at its idle time-out, 30 s, so it is told to
# end, as a session's end does.)
kill -TERM "$service_pid"
for _ in $(seq 50); do kill -0 "$service_pid" 2>/dev/null || break; sleep 0.1; done
! kill -0 "$service_pid" 2>/dev/null || fail "the thumbnail service (pid $service_pid) did not end within 5 s of SIGTERM"
kill "$bus_pid"; bus_pid=""
ok "the thumbnail service running during the purge kept answering, and ended on SIGTERM"
[[ "$(/usr/local/bin/quire --version)" == "$local_version" ]] || fail "the purge broke the make install copy in /usr/local"
ok "the make install copy in /usr/local still works after the purge"

echo "deb-check: passed in $((SECONDS - start)) s"
