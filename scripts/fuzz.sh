#!/usr/bin/env bash
# Builds Quire's libFuzzer targets (-sanitize=fuzzer,address) and runs each for a bounded time.
#   scripts/fuzz.sh [SECONDS_PER_TARGET]      default 60
# Seeds: Samples/generated plus Fuzz/corpus/<target>/ (crash regressions are committed there).
# New interesting inputs go to .build-fuzz/corpus/<target>; crashes to .build-fuzz/crashes.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
seconds="${1:-60}"
targets=(${FUZZ_TARGETS:-sniff open thumbnail})
flags=(-Xswiftc -sanitize=fuzzer,address -Xswiftc -DFUZZING -Xswiftc -parse-as-library
       -Xswiftc -Xclang-linker -Xswiftc -fuse-ld=lld)
[[ -f Samples/generated/document.pdf ]] || Samples/generate.sh >/dev/null
export LSAN_OPTIONS="suppressions=$root/Fuzz/lsan.supp:print_suppressions=0"
mkdir -p .build-fuzz/crashes
for target in "${targets[@]}"; do
    swift build --product "fuzz-$target" --scratch-path .build-fuzz "${flags[@]}" >/dev/null
    corpus=".build-fuzz/corpus/$target"
    mkdir -p "$corpus" "Fuzz/corpus/$target"
    echo "== fuzz-$target for ${seconds}s"
    .build-fuzz/debug/"fuzz-$target" -max_total_time="$seconds" -rss_limit_mb=2048 -timeout=10 -max_len="${FUZZ_MAX_LEN:-65536}" \
        -artifact_prefix=".build-fuzz/crashes/$target-" -print_final_stats=1 \
        "$corpus" "Fuzz/corpus/$target" Samples/generated 2>&1 \
        | grep -E "^(stat::number_of_executed_units|stat::peak_rss_mb|Done|==[0-9]+==ERROR|SUMMARY)" || true
done
if compgen -G ".build-fuzz/crashes/*" >/dev/null; then
    echo "crashes found:" >&2
    ls .build-fuzz/crashes >&2
    exit 1
fi
