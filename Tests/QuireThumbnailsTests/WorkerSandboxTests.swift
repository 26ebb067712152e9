import Foundation
import QuireThumbnails
import Testing
import QuireRenderService
import QuireTestSupport

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

/// The sandboxed program runs when it is named through a linked directory, as the release build
/// is (`.build-static/release` links to `x86_64-unknown-linux-gnu/release`): bubblewrap binds the
/// real directory, so the program is started by its real path.
@Suite struct WorkerSandboxProgramPathTests {
    @Test func aProgramNamedThroughALinkedDirectoryStarts() throws {
        let sandbox = WorkerSandbox.detect(environment: ["PATH": "/usr/bin:/bin"])
        try #require(sandbox.isActive, "bubblewrap: make test installs it")
        let work = TemporaryDirectory("quire-sandbox-link")
        let real = work.file("real")
        try FileManager.default.createDirectory(atPath: real, withIntermediateDirectories: true)
        try ExecutableScript.write("#!/bin/sh\nexit 7\n", to: real + "/program")
        try FileManager.default.createSymbolicLink(atPath: work.file("linked"), withDestinationPath: "real")
        let argv = sandbox.command(executable: work.file("linked") + "/program", arguments: [])
        #expect(ProcessRunner.run(argv, timeout: 30).status == 7, "\(argv)")
    }
}
