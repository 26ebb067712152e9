#!/bin/bash
# Runs `SWIFT test ARGS...` and passes only if the run reached its end: swift test's own status
# and Swift Testing's closing summary ("Test run with N tests in M suites passed"). A test
# process that ended early without failing (an exit() from a library inside a test, a
# process-wide _exit) would otherwise return 0 with part of the suite never run.
#
#   scripts/run-tests.sh SWIFT [ARGS...]
set -uo pipefail
swift=${1:?usage: scripts/run-tests.sh SWIFT [ARGS...]}
shift
log=$(mktemp /tmp/quire-test-run.XXXXXX)
# The run's own TMPDIR: nothing an earlier run (or another program) left in /tmp is seen, and
# what this run leaves is removed with it. Each quire a test starts gets a TMPDIR of its own
# below this one (QuireBinary.privateTemporary).
run_tmp=$(mktemp -d /tmp/qt.XXXXXX)   # short: Unix socket paths below it (Slurm's) have 108 bytes
# As /tmp is: the test beds' daemons run filters as other users (CUPS's as lp) inside it.
chmod 1777 "$run_tmp"
trap 'rm -f "$log"; rm -rf "$run_tmp"' EXIT
export TMPDIR=$run_tmp
"$swift" test "$@" 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
# The tests that had started and not ended when the process died: Swift Testing prints a line
# when each test starts and one when it passes or fails (by the test's name, without its suite).
unfinished() {
    grep -v -e 'Test case passing' -e 'Test run ' "$log" |
        sed -n -E 's/^.*Test (.*) started\.$/+ \1/p; s/^.*Test (.*) (passed|failed) after .*$/- \1/p' |
        awk '{ sign = $1; sub(/^[+-] /, ""); count[$0] += (sign == "+") ? 1 : -1 }
             END { for (name in count) if (count[name] > 0) print "  " name }' | sort
}
if grep -Eq 'Test run with 0 tests' "$log"; then
    echo "run-tests: no test matched: $*" >&2
    exit 1
fi
if ! grep -Eq 'Test run with [0-9]+ tests? in [0-9]+ suites? (passed|failed)' "$log"; then
    echo "run-tests: the test run ended without Swift Testing's summary (swift test's status $status): it was cut short" >&2
    echo "run-tests: tests running when it ended:" >&2
    unfinished >&2
    exit 1
fi
if [ "$status" -ne 0 ]; then
    exit "$status"
fi
