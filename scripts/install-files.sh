#!/usr/bin/env bash
# Installs the release build and everything generated from it under DESTDIR/PREFIX: the one list
# of what an installed Quire is, used by `make install` (LAYOUT local: PREFIX /usr/local) and by
# `make deb` (LAYOUT deb: PREFIX /usr, staged in a DESTDIR, Debian's paths and compressed man
# pages). Every file comes from its one generator: the binaries from the build, man pages from
# man/ (scripts/generate-man.sh), completions from `quire --generate-completion-script`, and the
# desktop files (thumbnailer, D-Bus services, file-manager actions, desktop entry, icon,
# AppStream metainfo) from `quire integrate install --system`.
#
#   scripts/install-files.sh LAYOUT PREFIX DESTDIR RELEASE-DIRECTORY
set -euo pipefail
layout=${1:?usage: scripts/install-files.sh local|deb PREFIX DESTDIR RELEASE-DIRECTORY}
prefix=${2:?PREFIX}
destdir=${3-}
release=${4:?RELEASE-DIRECTORY (.build-static/release)}
root="$(cd "$(dirname "$0")/.." && pwd)"
quire="$release/quire"
case "$layout" in
    local) zsh_dir=share/zsh/site-functions ;;
    # Debian's zsh reads packages' completions from vendor-completions.
    deb) zsh_dir=share/zsh/vendor-completions ;;
    *) echo "install-files: LAYOUT is local or deb, not '$layout'" >&2; exit 64 ;;
esac
target="$destdir$prefix"

install -d "$target/bin" "$target/libexec/quire" "$target/lib/quire" "$target/share/man/man1" \
    "$target/share/bash-completion/completions" "$target/$zsh_dir" "$target/share/fish/vendor_completions.d"
install -m 0755 "$quire" "$target/bin/quire"
install -m 0755 "$release/quire-look" "$target/libexec/quire/quire-look"
install -m 0644 "$release/libQuirePopplerSplash.so" "$target/lib/quire/libQuirePopplerSplash.so"

# Man pages, and `man quire-print` as well as `man quire.print` (git's spelling): a .so page per
# subcommand where installed by hand; Debian wants compressed pages and symbolic links for them.
for page in "$root"/man/*.1; do
    name=$(basename "$page")
    case "$layout" in
        local) install -m 0644 "$page" "$target/share/man/man1/$name" ;;
        deb) gzip -9n < "$page" > "$target/share/man/man1/$name.gz"; chmod 0644 "$target/share/man/man1/$name.gz" ;;
    esac
done
for page in "$root"/man/quire.*.1; do
    name=${page#"$root"/man/quire.}
    alias="quire-$(echo "${name%.1}" | tr . -).1"
    case "$layout" in
        local) printf '.so man1/quire.%s\n' "$name" > "$target/share/man/man1/$alias" ;;
        deb) ln -sf "quire.$name.gz" "$target/share/man/man1/$alias.gz" ;;
    esac
done

# bash sources its completions: no #! line.
"$quire" --generate-completion-script bash | sed '1{/^#!/d}' > "$target/share/bash-completion/completions/quire"
"$quire" --generate-completion-script zsh > "$target/$zsh_dir/_quire"
"$quire" --generate-completion-script fish > "$target/share/fish/vendor_completions.d/quire.fish"
chmod 0644 "$target/share/bash-completion/completions/quire" "$target/$zsh_dir/_quire" \
    "$target/share/fish/vendor_completions.d/quire.fish"

integrate=(integrate install --system --prefix "$prefix")
[[ -n "$destdir" ]] && integrate+=(--destdir "$destdir")
# The package ships no manifest, no previewer and no machine-specific font configuration
# (its maintainer scripts write that on the machine: packaging/debian/postinst).
[[ "$layout" == deb ]] && integrate+=(--packaged)
"$quire" "${integrate[@]}"
