#!/usr/bin/env bash
# Installs Python test tools from PyPI into DIR (pip --target, no dependencies: those are Debian
# packages), if they are missing. Used by `make deps`; the sample scripts put DIR on PYTHONPATH.
#   scripts/install-python-deps.sh DIR name==version...
set -euo pipefail
target="$1"
shift
missing=()
for requirement in "$@"; do
    name="${requirement%%==*}"
    version="${requirement#*==}"
    # pip writes NAME-VERSION.dist-info (the name with - as _).
    [[ -d "$target/${name//-/_}-$version.dist-info" ]] || missing+=("$requirement")
done
if [[ ${#missing[@]} -eq 0 ]]; then
    exit 0
fi
echo "installing into $target: ${missing[*]}"
python3 -m pip install --quiet --disable-pip-version-check --no-deps --target "$target" "${missing[@]}"
