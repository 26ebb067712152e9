import ArgumentParser
import FoundationEssentials
import Quire
import QuireShare

struct ShareCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "share",
        abstract: "Send files by mail or to a paired phone or computer.",
        discussion: """
            --email starts a mail with the files attached, through the desktop portal \
            (org.freedesktop.portal.Email, the files passed as open descriptors) or, where no portal \
            answers on the session bus, xdg-email. --device sends them to a reachable paired device \
            of KDE Connect or GSConnect; --devices lists those devices. Files are checked before \
            anything is sent: one that is missing or unreadable sends nothing. At most 64 files go \
            in one share. Exits 69 when nothing here can send mail or reach a device (the message \
            names what to install), 66 when a file cannot be read, 64 for bad arguments, 1 when the \
            mail was cancelled.
            """)

    @Argument(help: ArgumentHelp("The files to share.", valueName: "file"))
    var files: [String] = []

    @Flag(name: .long, help: "Start a mail with the files attached.")
    var email = false

    @Option(name: .long, help: ArgumentHelp("The mail's recipient (with --email).", valueName: "address"))
    var to: String?

    @Option(name: .long, help: ArgumentHelp("The mail's subject (with --email; default: the file names).", valueName: "text"))
    var subject: String?

    @Option(name: .long, help: ArgumentHelp("Send the files to the reachable paired device with this name (or id).", valueName: "name"))
    var device: String?

    @Flag(name: .long, help: "List the reachable paired devices (KDE Connect, GSConnect).")
    var devices = false

    @Flag(name: .long, help: "With --devices: print JSON instead of text.")
    var json = false

    func validate() throws {
        let modes = [email, device != nil, devices].filter { $0 }.count
        if modes != 1 { throw ValidationError("Give one of --email, --device NAME or --devices.") }
        if devices && !files.isEmpty { throw ValidationError("--devices takes no files.") }
        if !devices && files.isEmpty { throw ValidationError("Give at least one file.") }
        if !email && (to != nil || subject != nil) { throw ValidationError("--to and --subject go with --email.") }
        if json && !devices { throw ValidationError("--json goes with --devices.") }
    }

    struct DeviceRecord: Encodable {
        let name: String
        let id: String
        let service: String
    }

    func run() async throws {
        if devices { return try listDevices() }
        let shared: ShareFiles
        do throws(ShareError) { shared = try ShareFiles(files.map(RawArguments.path)) } catch { throw Self.fail(error) }
        if email {
            let route = EmailRoute.find()
            do throws(ShareError) {
                let used = try EmailComposer.compose(shared, to: to, subject: subject, route: route)
                let count = shared.files.count
                Terminal.out("Mail started with \(count == 1 ? shared.files[0].name : "\(count) files") attached (\(used)).\n")
            } catch {
                throw Self.fail(error)
            }
        } else if let device {
            let directory = DeviceDirectory()
            guard let target = directory.device(named: device) else {
                if directory.runningServices.isEmpty { throw Self.fail(Self.noService) }
                Terminal.error("no reachable paired device named \(device.debugDescription) (quire share --devices lists them)")
                throw ExitCode(ExitStatus.unavailable.rawValue)
            }
            do throws(ShareError) { try directory.send(shared, to: target) } catch { throw Self.fail(error) }
            let count = shared.files.count
            Terminal.out("Sent \(count == 1 ? shared.files[0].name : "\(count) files") to \(target.name) (\(target.service.displayName)).\n")
        }
    }

    private func listDevices() throws {
        let directory = DeviceDirectory()
        if directory.runningServices.isEmpty { throw Self.fail(Self.noService) }
        let found = directory.devices()
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            let records = found.map { DeviceRecord(name: $0.name, id: $0.id, service: $0.service.rawValue) }
            Terminal.out(String(decoding: try encoder.encode(records), as: UTF8.self) + "\n")
            return
        }
        if found.isEmpty {
            Terminal.out("No paired device is reachable now.\n")
            return
        }
        for device in found {
            Terminal.out("\(device.name) (\(device.service.displayName), id \(device.id))\n")
        }
    }

    static let noService = "no device service runs on the session bus (install KDE Connect or GSConnect and pair a device)"

    /// One line on standard error; the exit status for the failure.
    static func fail(_ error: ShareError) -> ExitCode {
        Terminal.error(error.message)
        let status: ExitStatus
        switch error.kind {
        case .file: status = .noInput
        case .tooMany, .badArgument: status = .usage
        case .unavailable, .failed, .noSuchDevice: status = .unavailable
        case .cancelled: return ExitCode(1)
        }
        return status.exitCode
    }

    static func fail(_ message: String) -> ExitCode {
        Terminal.error(message)
        return ExitStatus.unavailable.exitCode
    }
}
