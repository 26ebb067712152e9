#!/usr/bin/env bash
# One long libFuzzer run of a built target, at a low CPU priority, logged for the notes.
#   [FUZZ_NICE=N] scripts/fuzz-campaign.sh TARGET SECONDS [extra libFuzzer flags…]
# FUZZ_NICE is the niceness (default 19, the lowest priority); it is part of the logged command.
# Uses the binary scripts/fuzz.sh built (.build-fuzz/$FUZZ_CONFIG/fuzz-TARGET, release unless
# FUZZ_CONFIG=debug), the settings of
# Fuzz/settings/TARGET.options, the dictionaries Fuzz/settings/TARGET.dicts names, and the
# corpus .build-fuzz/corpus/TARGET (grown in place) seeded by Fuzz/corpus/TARGET and Samples.
# Appends "date target seconds executions exec/s cov ft corpus rss exit command elapsed load" to
# .build-fuzz/runs/summary.tsv and keeps the whole log in .build-fuzz/runs/.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
target="$1"; seconds="$2"; shift 2
binary=".build-fuzz/${FUZZ_CONFIG:-release}/fuzz-$target"
[[ -x "$binary" ]] || { echo "fuzz-campaign: $binary not built (scripts/fuzz.sh --build-only $target)" >&2; exit 69; }
mkdir -p .build-fuzz/runs .build-fuzz/crashes ".build-fuzz/corpus/$target" "Fuzz/corpus/$target"
options=()
[[ -f "Fuzz/settings/$target.options" ]] && read -r -a options < "Fuzz/settings/$target.options"
dictionary="$(scripts/fuzz.sh --dictionary "$target")"
[[ -n "$dictionary" ]] && options+=("-dict=$dictionary")
seeds=("Fuzz/corpus/$target")
[[ -d "Fuzz/seeds/$target" ]] && seeds+=("Fuzz/seeds/$target")
case "$target" in
    sniff) seeds+=(Samples/generated) ;;
    open|thumbnail) seeds+=(Samples/generated .build-fuzz/seeds/pdf) ;;
esac
stamp="$(date -u +%Y%m%dT%H%M%SZ)"
log=".build-fuzz/runs/$target-$stamp.log"
niceness="${FUZZ_NICE:-19}"
[[ "$niceness" =~ ^-?[0-9]+$ ]] || { echo "fuzz-campaign: FUZZ_NICE must be a number" >&2; exit 64; }
command=(nice -n "$niceness" "$binary" "${options[@]}" -max_total_time="$seconds" -print_final_stats=1
         -artifact_prefix=".build-fuzz/crashes/$target-" "$@" ".build-fuzz/corpus/$target" "${seeds[@]}")
echo "${command[*]}" > "$log"
export LSAN_OPTIONS="suppressions=$root/Fuzz/lsan.supp:print_suppressions=0"
# Swift's crash backtracer reads other threads' memory through its own server thread, which ASan
# reports as an "unknown-crash" after the real failure; libFuzzer prints the stack itself.
export SWIFT_BACKTRACE=enable=no
status=0
started=$(date -u +%s)
load_start=$(cut -d' ' -f1 /proc/loadavg)
"${command[@]}" >> "$log" 2>&1 || status=$?
executions=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo 0)
rate=$(grep -o 'stat::average_exec_per_sec: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo 0)
rss=$(grep -o 'stat::peak_rss_mb: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo 0)
last=$(grep -E '^#[0-9]+' "$log" | tail -1)
cov=$(sed -n 's/.*cov: \([0-9]*\).*/\1/p' <<<"$last"); ft=$(sed -n 's/.* ft: \([0-9]*\).*/\1/p' <<<"$last")
corpus=$(sed -n 's/.* corp: \([0-9]*\/[0-9a-zA-Z]*\).*/\1/p' <<<"$last")
elapsed=$(( $(date -u +%s) - started ))
load="$load_start → $(cut -d' ' -f1 /proc/loadavg)"
# One line, appended in one write: smoke runs several targets at once.
line=$(printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\texit %s\t%s\t%s\t%s' "$stamp" "$target" "$seconds" "${executions:-0}" "${rate:-0}" \
    "${cov:-?}" "${ft:-?}" "${corpus:-?}" "${rss:-?}" "$status" "${command[*]}" "$elapsed" "$load")
echo "$line" >> .build-fuzz/runs/summary.tsv
echo "$line"
if [[ "$status" != 0 ]]; then
    # What CI shows is the tail of its output: the report and the input, so a finding on a fresh
    # machine can be replayed here (base64 -d > FILE; .build-fuzz/release/fuzz-TARGET FILE).
    echo "fuzz-$target exited $status; its report ($log):" >&2
    first=$(grep -n -m1 -E '==[0-9]+==|ERROR: libFuzzer|deadly signal|out-of-memory|Fatal error|SUMMARY' "$log" | cut -d: -f1 || true)
    sed -n "${first:-1},\$p" "$log" | grep -v -E '^#[0-9]+' | head -80 >&2
    for artifact in $(grep -o 'Test unit written to [^ ]*' "$log" | awk '{print $5}'); do
        if [[ -f "$artifact" && $(stat -c %s "$artifact") -le 8192 ]]; then
            echo "$artifact, base64:" >&2; base64 -w 0 "$artifact" >&2; echo >&2
        fi
    done
fi
exit "$status"
