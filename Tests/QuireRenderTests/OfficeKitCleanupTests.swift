import Foundation
import Testing
@testable import QuireRender

/// Which of LibreOffice's `lu<pid><ticks>.tmp` directories belong to a dead office. The tick
/// count is base 36 and begins with a digit on a machine up between about 28 minutes and 4.7
/// hours: the process id is not simply the digits after `lu`.
@Suite struct OfficeKitCleanupTests {
    @Test func aTickCountThatBeginsWithADigitStillNamesTheDeadOffice() {
        let dead: Set<Int32> = [31136]
        let nobodyElse = { (_: Int32) in false }
        #expect(OfficeKitCleanup.officeTemporaryOwner(of: "lu31136f8uz.tmp", among: dead, isRunningOffice: nobodyElse) == 31136)
        #expect(OfficeKitCleanup.officeTemporaryOwner(of: "lu311362x8c1.tmp", among: dead, isRunningOffice: nobodyElse) == 31136)
        #expect(OfficeKitCleanup.officeTemporaryOwner(of: "lu3113609.tmp", among: dead, isRunningOffice: nobodyElse) == 31136)
    }

    @Test func aRunningOfficeIsRecognised() {
        // A process without LibreOffice (the test process itself may have loaded it for
        // another suite), and a process id no one has.
        let sleeper = Process()
        sleeper.executableURL = URL(fileURLWithPath: "/bin/sleep")
        sleeper.arguments = ["5"]
        try? sleeper.run()
        defer { sleeper.terminate() }
        #expect(sleeper.processIdentifier > 0 && !OfficeKitCleanup.isRunningOffice(sleeper.processIdentifier))
        #expect(!OfficeKitCleanup.isRunningOffice(Int32.max))
    }

    @Test func namesOfOtherProcessesStay() {
        let dead: Set<Int32> = [3113]
        // 31136 runs LibreOffice: "lu31136ab.tmp" may be its (pid 31136, ticks "ab") — it stays.
        #expect(OfficeKitCleanup.officeTemporaryOwner(of: "lu31136ab.tmp", among: dead, isRunningOffice: { $0 == 31136 }) == nil)
        // With no other office running (low process ids such as 3 or 31 are always taken), the
        // dead office's reading is the only one left.
        #expect(OfficeKitCleanup.officeTemporaryOwner(of: "lu31136ab.tmp", among: dead, isRunningOffice: { _ in false }) == 3113)
        // Another dead process that had no Quire office, and names that are not LibreOffice's.
        #expect(OfficeKitCleanup.officeTemporaryOwner(of: "lu4242ab.tmp", among: dead, isRunningOffice: { _ in false }) == nil)
        #expect(OfficeKitCleanup.officeTemporaryOwner(of: "lu3113.tmp", among: dead, isRunningOffice: { _ in false }) == nil)
        #expect(OfficeKitCleanup.officeTemporaryOwner(of: "lu3113abcdefg.tmp", among: dead, isRunningOffice: { _ in false }) == nil)
        #expect(OfficeKitCleanup.officeTemporaryOwner(of: "lu3113ab.txt", among: dead, isRunningOffice: { _ in false }) == nil)
        #expect(OfficeKitCleanup.officeTemporaryOwner(of: "lu3113A-b.tmp", among: dead, isRunningOffice: { _ in false }) == nil)
    }
}
