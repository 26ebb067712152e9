import Foundation
import Testing

/// Tests that run LibreOfficeKit in the test process itself. LibreOffice, once loaded, stays in
/// the process for good: it installs its own handlers for crash signals (any crash afterwards,
/// anywhere in the process, ends as LibreOffice's "Unspecified Application Error"), keeps its
/// threads, and in 7.4 crashes when documents' lives interleave in some orders
/// (docs/notes/office.md). So these tests run in a test process of their own — `make test`'s
/// office pass (`IN_PROCESS_OFFICE_SUITES` in the Makefile) — never in the shared one, which
/// `scripts/run-tests.sh` marks with `QUIRE_TEST_SHARED_PROCESS`; and there they take turns, one
/// test case at a time from its first document to its last. Quire's own processes never
/// interleave documents: a worker serves one request at a time.
struct InProcessOffice: TestTrait, SuiteTrait, TestScoping {
    /// The turn, handed to waiters in order.
    actor Turn {
        private var taken = false
        private var waiting: [CheckedContinuation<Void, Never>] = []

        func take() async {
            guard taken else {
                taken = true
                return
            }
            await withCheckedContinuation { waiting.append($0) }
        }

        func give() {
            if waiting.isEmpty { taken = false } else { waiting.removeFirst().resume() }
        }
    }

    static let turn = Turn()

    /// Whether this is the shared test process (set by `make test` for its main pass), where
    /// LibreOffice must not be loaded.
    static var isSharedProcess: Bool {
        if let value = getenv("QUIRE_TEST_SHARED_PROCESS"), value.pointee != 0 { return true }
        return false
    }

    var isRecursive: Bool { true }

    /// Each test case takes the turn; a suite itself does not (its tests do).
    func scopeProvider(for test: Test, testCase: Test.Case?) -> InProcessOffice? {
        testCase == nil ? nil : self
    }

    func provideScope(for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void) async throws {
        guard !Self.isSharedProcess else {
            Issue.record("\(test.name) runs LibreOffice in the test process: it belongs in make test's office pass (IN_PROCESS_OFFICE_SUITES), not the shared process")
            return
        }
        await Self.turn.take()
        do {
            try await function()
        } catch {
            await Self.turn.give()
            throw error
        }
        await Self.turn.give()
    }
}

extension Trait where Self == InProcessOffice {
    /// LibreOfficeKit runs in the test process: only in the office pass, one such test case at a time.
    static var inProcessOffice: InProcessOffice { InProcessOffice() }
}
