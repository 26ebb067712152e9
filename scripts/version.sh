#!/bin/sh
# Prints Quire's version: the one string `quire --version` prints (the build writes it into the
# binary through Plugins/QuireVersion) and `make deb` names the package with.
#
#   a commit tagged v0.2.0                 0.2.0
#   5 commits after the tag v0.2.0         0.2.0+git5.1a2b3c4d   (git describe: v0.2.0-5-g1a2b3c4d)
#   no v* tag in the history (yet)         0.1.0+git496.5620e8ff (496 commits; BASE below)
#   no git (an exported tree)              0.1.0
#
# Debian's spelling of `git describe`: '+' where git puts '-' (a native package's version has no
# '-'), so that each later commit sorts after the earlier ones and after its tag.
#
#   scripts/version.sh [SOURCE-DIRECTORY]
set -eu
BASE=0.1.0
directory=${1:-$(dirname "$0")/..}
if ! git -C "$directory" rev-parse --verify -q HEAD >/dev/null 2>&1; then
    echo "$BASE"
    exit 0
fi
if described=$(git -C "$directory" describe --tags --match 'v[0-9]*' --abbrev=8 --long 2>/dev/null); then
    # vX.Y.Z-N-gHASH
    hash=${described##*-g}
    rest=${described%-g*}
    count=${rest##*-}
    tag=${rest%-*}
    version=${tag#v}
    if [ "$count" = 0 ]; then echo "$version"; else echo "$version+git$count.$hash"; fi
else
    count=$(git -C "$directory" rev-list --count HEAD)
    hash=$(git -C "$directory" rev-parse --short=8 HEAD)
    echo "$BASE+git$count.$hash"
fi
