import QuireThumbnails
import Testing
import QuireRenderService

/// Detection of bubblewrap: `QUIRE_BWRAP` overrides the `PATH` search; anything missing or
/// broken degrades (no sandbox, with a notice) instead of failing.
@Suite struct WorkerSandboxDetectionTests {
    @Test func anOverrideThatIsNotExecutableDegradesWithTheReason() {
        let sandbox = WorkerSandbox.detect(environment: ["QUIRE_BWRAP": "/nonexistent/bwrap", "PATH": "/usr/bin:/bin"])
        #expect(!sandbox.isActive)
        #expect(sandbox.isDegraded)
        #expect(sandbox.reasonUnavailable?.contains("QUIRE_BWRAP=/nonexistent/bwrap") == true)
        #expect(sandbox.degradedNotice?.contains("resource limits only") == true)
        #expect(sandbox.summary.hasPrefix("none, resource limits only ("))
    }

    @Test func noBwrapOnPathDegrades() {
        let sandbox = WorkerSandbox.detect(environment: ["PATH": "/nonexistent:/also-not-there"])
        #expect(!sandbox.isActive)
        #expect(sandbox.isDegraded)
        #expect(sandbox.reasonUnavailable == "bwrap is not installed")
    }

    @Test func aBwrapThatFailsItsProbeDegrades() {
        let sandbox = WorkerSandbox.detect(environment: ["QUIRE_BWRAP": "/bin/false"])
        #expect(!sandbox.isActive)
        #expect(sandbox.isDegraded)
        #expect(sandbox.reasonUnavailable?.contains("does not work") == true)
    }

    @Test func theInstalledBwrapIsUsed() {
        // bubblewrap is a test dependency (make deps): it must be found and work here.
        let sandbox = WorkerSandbox.detect(environment: ["PATH": "/usr/bin:/bin"])
        #expect(sandbox.isActive, "\(sandbox.summary)")
        #expect(!sandbox.isDegraded)
        #expect(sandbox.degradedNotice == nil)
    }

    @Test func turningTheSandboxOffIsNotADegradation() {
        let sandbox = WorkerSandbox.disabled("--no-sandbox")
        #expect(!sandbox.isDegraded)
        #expect(sandbox.degradedNotice == nil)
    }
}
