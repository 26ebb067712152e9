#!/usr/bin/env bash
# Quire's libFuzzer targets: optimized builds with -sanitize=fuzzer,address, bounded runs with
# the settings written down in Fuzz/settings and docs/notes/fuzz.md.
#   scripts/fuzz.sh [SECONDS]           build every target, run each for SECONDS (default 60)
#   scripts/fuzz.sh build [TARGET…]     build only
#   scripts/fuzz.sh smoke [SECONDS]     CI smoke: each target over its seeds for SECONDS, one per core
#                                       (default 20); fails when a target does not build or crashes
#   scripts/fuzz.sh --dictionary TARGET print the path of TARGET's combined dictionary
# FUZZ_TARGETS="sniff open" picks targets. Runs are logged by scripts/fuzz-campaign.sh in
# .build-fuzz/runs (summary.tsv); crashes go to .build-fuzz/crashes/TARGET-*.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
all_targets=(sniff open thumbnail print-options desktop-entry previewer-uri terminal-replies terminal-escaping)
targets=(${FUZZ_TARGETS:-${all_targets[@]}})

# -O (release), libFuzzer + ASan for Swift; the package's C/C++ code (the poppler Splash shim)
# also gets UBSan, which traps (swiftc has no -sanitize=undefined on Linux; Swift code traps
# on overflow and out-of-bounds by itself, release builds included). The compare interceptors
# are kept out of the C libraries' reach (Fuzz/link/uninstrumented-compares.map: why).
# -parse-as-library: the targets' entry point is libFuzzer's main, not a top-level script.
# Optimised (.build-fuzz/release) unless FUZZ_CONFIG=debug (-Onone, .build-fuzz/debug: under
# half the build time, but a target's first execution can pass the 10-s unit timeout there —
# fuzz-desktop-entry's table of every registered type did on a loaded machine — so the smoke and
# the campaigns build -O).
FUZZ_CONFIG=${FUZZ_CONFIG:-release}
[[ "$FUZZ_CONFIG" == release || "$FUZZ_CONFIG" == debug ]] || { echo "fuzz: FUZZ_CONFIG is release or debug" >&2; exit 64; }
export FUZZ_CONFIG
flags=(-c "$FUZZ_CONFIG" --scratch-path .build-fuzz
       -Xswiftc -sanitize=fuzzer,address -Xswiftc -DFUZZING -Xswiftc -parse-as-library
       -Xcc -fsanitize=undefined -Xcc -fno-sanitize-recover=undefined -Xcc -fno-sanitize=vptr
       -Xcxx -fsanitize=undefined -Xcxx -fno-sanitize-recover=undefined -Xcxx -fno-sanitize=vptr
       -Xswiftc -Xclang-linker -Xswiftc -fuse-ld=lld
       -Xlinker "--version-script=$root/Fuzz/link/uninstrumented-compares.map" -Xlinker --undefined-version)

dictionary() {  # concatenates Fuzz/dict/<name>.dict for the names in Fuzz/settings/TARGET.dicts
    local target="$1" list="Fuzz/settings/$1.dicts"
    [[ -f "$list" ]] || return 0
    mkdir -p .build-fuzz/dict
    local out=".build-fuzz/dict/$target.dict"
    for name in $(cat "$list"); do cat "Fuzz/dict/$name.dict"; done > "$out"
    echo "$out"
}

seeds() {  # small PDFs of every structure (Samples/pdf-structures.py) and the Samples set
    [[ -f Samples/generated/document.pdf ]] || Samples/generate.sh >/dev/null
    [[ -f .build-fuzz/seeds/pdf/incremental.pdf && Samples/pdf-structures.py -ot .build-fuzz/seeds/pdf/incremental.pdf ]] ||
        python3 Samples/pdf-structures.py .build-fuzz/seeds/pdf >/dev/null
}

build() {
    local products=()
    for target in "$@"; do products+=(--product "fuzz-$target"); done
    # poppler's Splash shim (dlopened by QuireRender from beside the executable), UBSan-built too.
    products+=(--product QuirePopplerSplash)
    for product in "${products[@]}"; do
        [[ "$product" == --product ]] && continue
        swift build "${flags[@]}" --product "$product" 2>&1 | grep -E "error:|warning: unre|Compiling fuzz" >&2 || true
        [[ -x ".build-fuzz/$FUZZ_CONFIG/$product" || -f ".build-fuzz/$FUZZ_CONFIG/lib$product.so" ]] ||
            { echo "fuzz: $product did not build" >&2; return 1; }
    done
}

case "${1:-}" in
    --dictionary) dictionary "$2"; exit 0 ;;
    build) shift; build "${@:-${targets[@]}}"; exit 0 ;;
    smoke)
        seconds="${2:-20}"
        seeds; build "${targets[@]}"
        # One target per core at a time (each libFuzzer run is one process on one core), each
        # target's output held back and shown in the targets' order.
        cores=$(nproc); outputs=$(mktemp -d); trap 'rm -rf "$outputs"' EXIT
        pids=(); status=0
        for target in "${targets[@]}"; do
            while (( $(jobs -rp | wc -l) >= cores )); do wait -n || true; done
            { echo "== fuzz-$target smoke, ${seconds}s"
              if scripts/fuzz-campaign.sh "$target" "$seconds"; then echo ok; else echo failed; fi
            } > "$outputs/$target" 2>&1 &
        done
        wait
        for target in "${targets[@]}"; do
            sed '$d' "$outputs/$target"
            [[ "$(tail -1 "$outputs/$target")" == ok ]] || status=1
        done
        exit "$status" ;;
esac

seconds="${1:-60}"
seeds; build "${targets[@]}"
status=0
for target in "${targets[@]}"; do
    echo "== fuzz-$target for ${seconds}s"
    scripts/fuzz-campaign.sh "$target" "$seconds" || status=1
done
# slow-unit-* files are not failures (libFuzzer notes any input over 10 s; on a shared machine
# that is usually CPU starvation): crash-, leak-, timeout- and oom- are.
if ls .build-fuzz/crashes | grep -qE -- '-(crash|leak|timeout|oom)-'; then
    echo "crashes found (minimise with: .build-fuzz/$FUZZ_CONFIG/fuzz-TARGET -minimize_crash=1 -runs=100000 FILE):" >&2
    ls .build-fuzz/crashes | grep -E -- '-(crash|leak|timeout|oom)-' >&2
    status=1
fi
exit "$status"
