import QuireGIO

/// The reachable paired devices on the session bus and sending files to one: KDE Connect's
/// daemon (`org.kde.kdeconnect`: `devices(onlyReachable, onlyPaired)`, each device's `name`,
/// its share plugin's `shareUrl`) and GSConnect (`org.gnome.Shell.Extensions.GSConnect`: its
/// object manager's devices with `Connected` and `Paired`, the device's `shareFile` action
/// through `org.gtk.Actions`). Only services already running are asked: listing devices never
/// starts a daemon.
package struct DeviceDirectory: Sendable {
    static let kdeConnectName = "org.kde.kdeconnect"
    static let kdeConnectPath = "/modules/kdeconnect"
    static let gsconnectName = "org.gnome.Shell.Extensions.GSConnect"
    static let gsconnectPath = "/org/gnome/Shell/Extensions/GSConnect"
    static let gsconnectDevice = "org.gnome.Shell.Extensions.GSConnect.Device"

    private let bus: DBusConnection?
    /// How long a device service may take to list its devices (the window asks as its menu
    /// opens): one that hangs lists none.
    static let listTimeout: Int32 = 2000

    /// On `bus`, or the user's session bus when one runs.
    package init(bus: DBusConnection? = nil) {
        self.bus = bus ?? SessionBus.connect()
    }

    /// Which device services run now (for saying what is missing).
    package var runningServices: [ShareDevice.Service] {
        guard let bus else { return [] }
        var services: [ShareDevice.Service] = []
        if bus.nameOwner(Self.kdeConnectName) != nil { services.append(.kdeConnect) }
        if bus.nameOwner(Self.gsconnectName) != nil { services.append(.gsconnect) }
        return services
    }

    /// The reachable paired devices, KDE Connect's first, each service's in its order. A
    /// service that fails to answer lists none.
    package func devices() -> [ShareDevice] {
        guard let bus else { return [] }
        var found: [ShareDevice] = []
        if bus.nameOwner(Self.kdeConnectName) != nil { found += kdeConnectDevices(bus) }
        if bus.nameOwner(Self.gsconnectName) != nil { found += gsconnectDevices(bus) }
        return found
    }

    private func kdeConnectDevices(_ bus: DBusConnection) -> [ShareDevice] {
        guard let ids = try? bus.call(destination: Self.kdeConnectName, path: Self.kdeConnectPath,
                                      interface: "org.kde.kdeconnect.daemon", method: "devices",
                                      [.boolean(true), .boolean(true)], fileDescriptors: [], autoStart: false, timeout: Self.listTimeout).strings(0) else {
            return []
        }
        return ids.map { id in
            let path = "\(Self.kdeConnectPath)/devices/\(id)"
            var name = id
            if case .string(let value)? = try? bus.property(destination: Self.kdeConnectName, path: path,
                                                            interface: "org.kde.kdeconnect.device", name: "name", autoStart: false,
                                                            timeout: Self.listTimeout) {
                name = value
            }
            return ShareDevice(id: id, name: name, service: .kdeConnect, objectPath: path)
        }
    }

    private func gsconnectDevices(_ bus: DBusConnection) -> [ShareDevice] {
        guard let reply = try? bus.call(destination: Self.gsconnectName, path: Self.gsconnectPath,
                                        interface: "org.freedesktop.DBus.ObjectManager", method: "GetManagedObjects", [],
                                        fileDescriptors: [], autoStart: false, timeout: Self.listTimeout),
              case .dictionary(let objects)? = reply[0] else {
            return []
        }
        var found: [ShareDevice] = []
        for (path, interfaces) in objects.sorted(by: { $0.key < $1.key }) {
            guard case .dictionary(let all) = interfaces, case .dictionary(let properties)? = all[Self.gsconnectDevice],
                  properties["Connected"] == .boolean(true), properties["Paired"] == .boolean(true) else { continue }
            var name = "", id = String(path.split(separator: "/").last ?? "")
            if case .string(let value)? = properties["Name"] { name = value }
            if case .string(let value)? = properties["Id"] { id = value }
            found.append(ShareDevice(id: id, name: name.isEmpty ? id : name, service: .gsconnect, objectPath: path))
        }
        return found
    }

    /// The reachable device called `name` (or with that id).
    package func device(named name: String) -> ShareDevice? {
        let all = devices()
        return all.first { $0.name == name } ?? all.first { $0.id == name }
    }

    /// Sends `files` to `device`, checking first that it is still reachable (it may have gone
    /// since it was listed). The service transfers the files in the background; a failure
    /// there is its to report (KDE Connect and GSConnect notify).
    package func send(_ files: ShareFiles, to device: ShareDevice) throws(ShareError) {
        guard let bus else { throw ShareError(.unavailable, "no session bus") }
        guard devices().contains(where: { $0.id == device.id && $0.service == device.service }) else {
            throw ShareError(.noSuchDevice, "\(device.name) is no longer reachable; nothing was sent")
        }
        for file in files.files {
            do {
                switch device.service {
                case .kdeConnect:
                    _ = try bus.call(destination: Self.kdeConnectName, path: device.objectPath + "/share",
                                     interface: "org.kde.kdeconnect.device.share", method: "shareUrl", [.string(file.uri)],
                                     fileDescriptors: [], autoStart: false)
                case .gsconnect:
                    _ = try bus.call(destination: Self.gsconnectName, path: device.objectPath, interface: "org.gtk.Actions",
                                     method: "Activate",
                                     [.string("shareFile"), .variants([.tuple([.string(file.uri), .boolean(false)])]), .dictionary([:])],
                                     fileDescriptors: [], autoStart: false)
                }
            } catch {
                throw ShareError(.failed, "\(device.service.displayName) did not take \(file.name): \(error.remoteDetail ?? error.message)",
                                 underlying: error)
            }
        }
    }
}
