#!/usr/bin/env bash
# Installs the Debian packages Quire needs to build and test, if any are missing.
# As root: installs them with apt-get. Otherwise: prints the exact command and fails.
set -euo pipefail
packages=("$@")
missing=()
for package in "${packages[@]}"; do
    status="$(dpkg-query -W -f='${db:Status-Status}' "$package" 2>/dev/null || true)"
    [[ "$status" == "installed" ]] || missing+=("$package")
done
if [[ ${#missing[@]} -eq 0 ]]; then
    exit 0
fi
command="apt-get install -y --no-install-recommends ${missing[*]}"
if [[ "$(id -u)" -ne 0 ]]; then
    echo "quire: missing Debian packages; run as root:" >&2
    echo "  $command" >&2
    exit 1
fi
echo "installing: ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
# A package run that was cut off (a machine image taken mid-install, a killed apt) leaves
# dpkg "interrupted", and apt then refuses everything until it is finished.
if [[ -n "$(ls -A /var/lib/dpkg/updates 2>/dev/null)" ]] || dpkg --audit 2>/dev/null | grep -q .; then
    echo "finishing an interrupted dpkg run: dpkg --configure -a"
    dpkg --configure -a
fi
# Another apt (an unattended upgrade) may hold the lock: wait for it instead of failing.
apt_options=(-o DPkg::Lock::Timeout=600)
# Recommends are left out on purpose: CUPS's would pull avahi and cups-browsed.
if ! apt-get "${apt_options[@]}" install -y -qq --no-install-recommends "${missing[@]}"; then
    apt-get "${apt_options[@]}" update -qq
    apt-get "${apt_options[@]}" install -y -qq --no-install-recommends "${missing[@]}"
fi
