#!/bin/bash
# Runs the suites most exposed to timing (office, batch, viewers, printing) N times in a row
# under CPU load, and counts how many runs passed: flakiness shows here before it reaches CI.
#
#   scripts/test-repeat.sh SWIFT N [FILTER]
#
# The load is one busy process per core beside the tests (LOAD=0 turns it off, LOAD=K starts
# K). Each run goes through scripts/run-tests.sh, so a run counts as passed only when it reached
# Swift Testing's summary. The tests must have been built (swift build --build-tests).
set -uo pipefail
swift=${1:?usage: scripts/test-repeat.sh SWIFT N [FILTER]}
runs=${2:?usage: scripts/test-repeat.sh SWIFT N [FILTER]}
filter=${3:-OfficeEngine|OfficeSandbox|OfficeCommand|OfficeFirstPage|LookOffice|CSVSpreadsheet|ThumbnailBatch|ShardedBatch|ThumbnailCommand|Look|TerminalViewer|RenderQueue|Print}
load=${LOAD:-$(nproc)}
office=${IN_PROCESS_OFFICE_SUITES:-}
# The desktop suites need `make desktop-test`'s packages (Nautilus): make test leaves them out too.
desktop=${DESKTOP_SUITES:-}
skip=$(printf '%s\n' "$desktop" "$office" | sed '/^$/d' | paste -sd'|')
here=$(cd "$(dirname "$0")" && pwd)
logs=$(mktemp -d /tmp/quire-test-repeat.XXXXXX)

busy=()
stop_load() { for pid in "${busy[@]}"; do kill "$pid" 2>/dev/null; done; wait 2>/dev/null; }
trap stop_load EXIT
for _ in $(seq 1 "$load"); do
    sha256sum /dev/zero >/dev/null 2>&1 &
    busy+=($!)
done

passed=0
failed=0
for run in $(seq 1 "$runs"); do
    start=$(date +%s)
    # As make test runs them: the shared test process never loads LibreOffice; the tests that do
    # (IN_PROCESS_OFFICE_SUITES, from the Makefile) run in a process of their own after it.
    if QUIRE_TEST_SHARED_PROCESS=1 "$here/run-tests.sh" "$swift" --skip-build --filter "$filter" \
            ${skip:+--skip "$skip"} >"$logs/run-$run.log" 2>&1 \
        && { [ -z "$office" ] || "$here/run-tests.sh" "$swift" --skip-build --filter "$office" >>"$logs/run-$run.log" 2>&1; }; then
        passed=$((passed + 1))
        echo "run $run of $runs: passed in $(( $(date +%s) - start )) s"
    else
        failed=$((failed + 1))
        echo "run $run of $runs: FAILED in $(( $(date +%s) - start )) s — $logs/run-$run.log:"
        # run-tests.sh's verdict: the failed tests with their messages (Swift Testing's report).
        sed -n '/^run-tests:/,$p' "$logs/run-$run.log" | head -40
    fi
done
echo "test-repeat: $runs runs of '$filter' under a load of $load busy processes"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
