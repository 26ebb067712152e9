#!/bin/bash
# Runs `SWIFT test ARGS...` and passes only if the run reached its end and nothing failed.
# The verdict comes from Swift Testing's own report (--xunit-output), written once the run has
# ended: the console's lines are not enough — runs under load lost some of them (tests with an
# end line and no start line, and once the only failure's message), and a lost summary line
# would read as a run cut short. Failures are then listed with their messages from the report.
# A test process that ended early without failing (an exit() from a library inside a test, a
# process-wide _exit) writes no report: the tests it was running are named.
#
#   scripts/run-tests.sh SWIFT [ARGS...]
#
# With QUIRE_TEST_BUNDLE set (the built QuirePackageTests.xctest), that bundle is run directly
# with ARGS (--filter, --skip) instead of `SWIFT test`.
set -uo pipefail
swift=${1:?usage: scripts/run-tests.sh SWIFT [ARGS...]}
shift
log=$(mktemp /tmp/quire-test-run.XXXXXX)
results=$(mktemp -d /tmp/quire-test-results.XXXXXX)
# The run's own TMPDIR: nothing an earlier run (or another program) left in /tmp is seen, and
# what this run leaves is removed with it. Each quire a test starts gets a TMPDIR of its own
# below this one (QuireBinary.privateTemporary).
run_tmp=$(mktemp -d /tmp/qt.XXXXXX)   # short: Unix socket paths below it (Slurm's) have 108 bytes
# As /tmp is: the test beds' daemons run filters as other users (CUPS's as lp) inside it.
chmod 1777 "$run_tmp"
trap 'rm -f "$log"; rm -rf "$run_tmp" "$results"' EXIT
export TMPDIR=$run_tmp
report="$results/results-swift-testing.xml"
if [ -n "${QUIRE_TEST_BUNDLE:-}" ]; then
    # The built test bundle itself, as swift test runs it (scripts/run-test-shards.sh): several
    # can run at once, where each swift test would wait for the build database's lock.
    NO_COLOR=1 "$QUIRE_TEST_BUNDLE" --testing-library swift-testing --xunit-output "$report" "$@" 2>&1 | tee "$log"
else
    "$swift" test --xunit-output "$results/results.xml" "$@" 2>&1 | tee "$log"
fi
status=${PIPESTATUS[0]}
# The tests that had started and not ended when the process died: Swift Testing prints a line
# when each test starts and one when it passes or fails (by the test's name, without its suite).
unfinished() {
    grep -a -v -e 'Test case passing' -e 'Test run ' "$log" |
        sed -n -E 's/^.*Test (.*) started\.$/+ \1/p; s/^.*Test (.*) (passed|failed) after .*$/- \1/p' |
        awk '{ sign = $1; sub(/^[+-] /, ""); count[$0] += (sign == "+") ? 1 : -1 }
             END { for (name in count) if (count[name] > 0) print "  " name }' | sort
}
if [ ! -s "$report" ]; then
    echo "run-tests: the test run ended without Swift Testing's report (swift test's status $status): it was cut short" >&2
    echo "run-tests: tests running when it ended:" >&2
    unfinished >&2
    exit 1
fi
# "TESTS FAILURES", then one line per failed test: its suite and name, and its messages.
verdict=$(/usr/bin/python3 - "$report" <<'PY'
import re, sys, xml.etree.ElementTree as tree
# A failure's message can hold characters XML 1.0 does not allow (a form feed from pdftotext):
# the report writes them as they are or as references (&#12;), so they become spaces first.
def allowed(match):
    text = match.group(1)
    code = int(text[2:], 16) if text[:2] in (b"#x", b"#X") else int(text[1:])
    return match.group(0) if code in (9, 10, 13) or code >= 32 else b" "
raw = open(sys.argv[1], "rb").read()
raw = re.sub(rb"&(#[0-9]+|#[xX][0-9a-fA-F]+);", allowed, raw)
root = tree.fromstring(re.sub(rb"[\x00-\x08\x0b\x0c\x0e-\x1f]", b" ", raw))
cases = root.iter("testcase")
tests = failures = 0
lines = []
for case in cases:
    tests += 1
    problems = [p.get("message") or (p.text or "").strip() for p in case if p.tag in ("failure", "error")]
    if problems:
        failures += 1
        message = " | ".join(" ".join(p.split()) for p in problems)
        lines.append(f"  {case.get('classname')}/{case.get('name')}: {message[:4000]}")
print(tests, failures)
print("\n".join(lines))
PY
) || { echo "run-tests: Swift Testing's report cannot be read ($report)" >&2; exit 1; }
read -r tests failures <<<"$(head -1 <<<"$verdict")"
if [ "$tests" -eq 0 ]; then
    echo "run-tests: no test matched: $*" >&2
    exit 1
fi
if [ "$failures" -gt 0 ]; then
    echo "run-tests: $failures of $tests tests failed (Swift Testing's report):" >&2
    tail -n +2 <<<"$verdict" >&2
    exit 1
fi
if [ "$status" -ne 0 ]; then
    exit "$status"
fi
