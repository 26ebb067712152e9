#!/bin/bash
# Runs the test suite as several test processes at once, each through scripts/run-tests.sh
# (its own TMPDIR, its verdict from Swift Testing's report), and passes only if every one did.
#
#   scripts/run-test-shards.sh SWIFT SKIP SHARD...
#
# Why: Swift Testing runs a process's tests on the cooperative thread pool, one thread per core,
# and most window, printing and batch tests wait (on a window, a scheduler, a child process) with
# the thread held. On two cores one process ran its 952 tests in 8.8 min with the CPU half idle
# (user + sys 8.4 min); three processes at once take about 6 min.
#
# Shard i runs the tests matching the regular expression SHARD i (swift test --filter) except
# SKIP and the earlier shards' expressions, and one last shard runs everything else: every test
# runs exactly once however the expressions overlap, and a suite added later lands in the last
# shard. A shard whose expression matches nothing fails (run-tests.sh: "no test matched").
# Each shard's console is kept in a file and printed whole when all have ended, one after
# another, so the log reads as one run per shard; then one verdict line per shard.
# The environment (QUIRE_BINARY, QUIRE_TEST_SHARED_PROCESS) is passed on; the tests must have
# been built (swift build --build-tests); each shard runs the built bundle itself, as swift test
# would (two swift test processes cannot share a build directory at once).
set -uo pipefail
swift=${1:?usage: scripts/run-test-shards.sh SWIFT SKIP SHARD...}
skip=${2:?usage: scripts/run-test-shards.sh SWIFT SKIP SHARD...}
shift 2
here=$(cd "$(dirname "$0")" && pwd)
logs=$(mktemp -d /tmp/quire-test-shards.XXXXXX)
trap 'rm -rf "$logs"' EXIT

# The bundle swift test would run, run directly by each shard (see run-tests.sh).
bundle=$("$swift" build --show-bin-path)/QuirePackageTests.xctest
[ -x "$bundle" ] || { echo "run-test-shards: no test bundle at $bundle: build the tests first (swift build --build-tests)" >&2; exit 1; }
export QUIRE_TEST_BUNDLE=$bundle
filters=("$@" "")
pids=()
started=$(date +%s)
excluded=$skip
for index in "${!filters[@]}"; do
    filter=${filters[$index]}
    arguments=(--skip "$excluded")
    [ -n "$filter" ] && arguments+=(--filter "$filter")
    { "$here/run-tests.sh" "$swift" "${arguments[@]}" >"$logs/$index.log" 2>&1; status=$?
      echo $(( $(date +%s) - started )) >"$logs/$index.seconds"; exit $status; } &
    pids+=($!)
    [ -n "$filter" ] && excluded="$excluded|$filter"
done

statuses=()
for index in "${!pids[@]}"; do
    wait "${pids[$index]}"
    statuses+=($?)
done
elapsed=$(( $(date +%s) - started ))

failed=0
for index in "${!filters[@]}"; do
    echo "== test shard $((index + 1)) of ${#filters[@]}: ${filters[$index]:-everything else} =="
    cat "$logs/$index.log"
done
for index in "${!filters[@]}"; do
    name=${filters[$index]:-everything else}
    if [ "${statuses[$index]}" -eq 0 ]; then
        echo "run-test-shards: shard $((index + 1)) ($name): $(grep -a -o 'Test run with [0-9]* tests' "$logs/$index.log" | tail -1 | sed 's/Test run with //') passed in $(cat "$logs/$index.seconds") s"
    else
        failed=$((failed + 1))
        echo "run-test-shards: shard $((index + 1)) ($name) FAILED (status ${statuses[$index]}, after $(cat "$logs/$index.seconds" 2>/dev/null || echo ?) s):"
        sed -n '/^run-tests:/,$p' "$logs/$index.log" | head -60
    fi
done
echo "run-test-shards: ${#filters[@]} shards in ${elapsed} s, $failed failed"
[ "$failed" -eq 0 ]
