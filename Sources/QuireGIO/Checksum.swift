internal import CGIO

/// Digests through GLib's `GChecksum`.
package enum Checksum {
    /// The MD5 digest of `bytes` as 32 lower-case hex digits (thumbnail cache file names).
    package static func md5Hex(_ bytes: [UInt8]) -> String {
        bytes.withUnsafeBufferPointer { buffer in
            guard let digest = g_compute_checksum_for_data(G_CHECKSUM_MD5, buffer.baseAddress, gsize(buffer.count)) else {
                return ""
            }
            defer { g_free(digest) }
            return String(cString: digest)
        }
    }
}
