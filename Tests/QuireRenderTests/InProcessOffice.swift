import Testing

/// Tests that run LibreOfficeKit in the test process itself take turns: one at a time, each test
/// case holding the turn from its first document to its last. LibreOffice 7.4 in one process
/// crashes when documents' lives interleave in some orders (docs/notes/office.md), and a crash
/// there ends the whole test run ("Unspecified Application Error", no result printed). Quire's
/// own processes never interleave them: a worker serves one request at a time.
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

    var isRecursive: Bool { true }

    /// Each test case takes the turn; a suite itself does not (its tests do).
    func scopeProvider(for test: Test, testCase: Test.Case?) -> InProcessOffice? {
        testCase == nil ? nil : self
    }

    func provideScope(for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void) async throws {
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
    /// LibreOfficeKit runs in the test process: one such test case at a time.
    static var inProcessOffice: InProcessOffice { InProcessOffice() }
}
