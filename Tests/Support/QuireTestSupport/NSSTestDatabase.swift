import Foundation

/// A throw-away NSS database (`certutil`, the `sql:` kind `~/.pki/nssdb` is) with self-signed
/// RSA certificates that can sign: "quire-test" (CN=Quire Test), or those named.
public enum NSSTestDatabase {
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// The database's folder (`directory/nssdb-…`, or `folder` when given); its keys protected by
    /// `password` when one is given; one certificate for each of `nicknames` (CN=Quire Test).
    public static func make(in directory: TemporaryDirectory, folder: String? = nil, password: String? = nil,
                            nicknames: [String] = ["quire-test"]) throws -> String {
        let database = folder ?? directory.file("nssdb-\(UUID().uuidString)")
        try FileManager.default.createDirectory(atPath: database, withIntermediateDirectories: true)
        let noise = directory.file("noise-\(UUID().uuidString)")
        try Data((0..<64).map { _ in UInt8.random(in: 0...255) }).write(to: URL(fileURLWithPath: noise))
        var passwordArguments = ["--empty-password"]
        if let password {
            let file = directory.file("nss-password-\(UUID().uuidString)")
            try Data((password + "\n").utf8).write(to: URL(fileURLWithPath: file))
            passwordArguments = ["-f", file]
        }
        let create = ProcessRunner.run(["/usr/bin/certutil", "-N", "-d", "sql:" + database] + passwordArguments, timeout: 60)
        guard create.status == 0 else { throw Failure(description: "certutil -N: \(create.standardError)") }
        for (serial, nickname) in nicknames.enumerated() {
            let certificate = ProcessRunner.run(["/usr/bin/certutil", "-S", "-d", "sql:" + database, "-n", nickname, "-s", "CN=Quire Test",
                                                 "-x", "-t", "CT,C,C", "-k", "rsa", "-g", "2048", "-Z", "SHA256", "-v", "12",
                                                 "-m", "\(serial + 1)", "-z", noise, "--keyUsage", "digitalSignature,nonRepudiation"]
                                                + (password == nil ? [] : passwordArguments), timeout: 120)
            guard certificate.status == 0 else { throw Failure(description: "certutil -S \(nickname): \(certificate.standardError)") }
        }
        return database
    }
}
