internal import CLibRaw
import QuireTypes
import QuireSystem
import Synchronization

/// A camera RAW file opened by LibRaw (its C API), freed with this object: what the camera wrote
/// of the shot, and the preview JPEG it embedded — which is what Quire shows and thumbnails
/// (fast, and the camera's own rendering); the raw sensor data is not decoded.
final class RawPhoto {
    let api: quire_raw_api
    let data: UnsafeMutablePointer<libraw_data_t>
    let path: DocumentPath
    /// LibRaw's data-error count for this handle: the callback keeps this pointer, so it lives
    /// as long as the handle (freed after `libraw_close`).
    private let dataErrors = UnsafeMutablePointer<Int32>.allocate(capacity: 1)

    /// RAW types: shared-mime-info's `image/x-dcraw` and its subtypes (CR2, CR3, NEF, ARW, DNG,
    /// RAF, ORF, RW2, PEF…).
    static func applies(to type: ContentType) -> Bool {
        type.family == .image && type.conforms(to: "image/x-dcraw")
    }

    init(file: InputFile) throws(DocumentError) {
        let api = try LazyLibraries.raw(file.path)
        guard let data = api.libraw_init(0) else {
            throw DocumentError(kind: .limitExceeded, path: file.path, reason: "LibRaw could not start")
        }
        self.api = api
        self.data = data
        path = file.path
        dataErrors.initialize(to: 0)
        let status = api.libraw_open_file(data, file.procPath)
        guard status == LIBRAW_SUCCESS.rawValue else {
            throw DocumentError(kind: .damaged, path: file.path, reason: "not a readable camera RAW file (\(message(status)))")
        }
    }

    deinit {
        api.libraw_close(data)
        dataErrors.deallocate()
    }

    private func message(_ status: Int32) -> String {
        api.libraw_strerror(status).map { String(cString: $0) } ?? "LibRaw error \(status)"
    }

    /// The embedded preview's bytes (a JPEG, or 8-bit RGB pixels as LibRaw gives them), refused
    /// when it claims more than `limit` bytes before LibRaw reads it.
    func preview(limit: Int) throws(DocumentError) -> (isJPEG: Bool, width: Int, height: Int, bytes: [UInt8]) {
        let claimed = Int(quire_raw_thumbnail_length(data))
        guard claimed > 0 else {
            throw DocumentError(kind: .unsupported, path: path, reason: "the RAW file carries no preview image")
        }
        guard claimed <= limit else {
            throw DocumentError(kind: .limitExceeded, path: path,
                                reason: "the RAW file's preview claims \(claimed) bytes, " + Limit.inflatedSize.exceeded(limit, "bytes"),
                                remedy: .raise(.inflatedSize))
        }
        let unpacked = api.libraw_unpack_thumb(data)
        guard unpacked == LIBRAW_SUCCESS.rawValue else {
            throw DocumentError(kind: .damaged, path: path, reason: "the RAW file's preview cannot be read (\(message(unpacked)))")
        }
        var error: Int32 = 0
        guard let image = api.libraw_dcraw_make_mem_thumb(data, &error) else {
            throw DocumentError(kind: .damaged, path: path, reason: "the RAW file's preview cannot be read (\(message(error)))")
        }
        defer { api.libraw_dcraw_clear_mem(image) }
        let count = Int(image.pointee.data_size)
        let bytes = Array(UnsafeBufferPointer(start: quire_raw_image_data(image), count: count))
        return (quire_raw_image_is_jpeg(image) != 0, Int(image.pointee.width), Int(image.pointee.height), bytes)
    }

    /// The sensor data developed (8-bit RGB, the camera's white balance): at half size, quickly,
    /// for a file whose preview cannot be read; with `full`, every pixel demosaiced (AHD), as
    /// `preview --full` and the viewers' Develop ask. Refused before decoding past the pixel
    /// limit in sensor pixels.
    func developed(limits: RenderLimits, full: Bool = false) throws(DocumentError) -> (width: Int, height: Int, rgb: [UInt8]) {
        try limits.checkPixels(Int(quire_raw_raw_width(data)), Int(quire_raw_raw_height(data)), of: "the sensor data", path: path)
        if full { quire_raw_set_full_develop(data) } else { quire_raw_set_quick_develop(data) }
        // LibRaw's decoders keep large arrays on the stack: on a thread of Swift's pool (512 KiB)
        // a Panasonic file's unpack failed with "Input/output error". Developing runs on a
        // thread of its own with room for them; this one waits.
        nonisolated(unsafe) let data = data, api = api
        let path = path
        nonisolated(unsafe) let dataErrors = dataErrors
        let result = Mutex<Result<(width: Int, height: Int, rgb: [UInt8]), DocumentError>?>(nil)
        let thread = JoinableThread(stackSize: Self.developStackSize) {
            result.withLock { $0 = Self.develop(data, api: api, dataErrors: dataErrors, path: path) }
        }
        thread.join()
        guard let outcome = result.withLock({ $0 }) else {
            throw DocumentError(kind: .limitExceeded, path: path, reason: "LibRaw could not start")
        }
        return try outcome.get()
    }

    /// Stack for developing (reserved, used as LibRaw needs it).
    static let developStackSize = 16 << 20

    private static func develop(_ data: UnsafeMutablePointer<libraw_data_t>, api: quire_raw_api,
                                dataErrors: UnsafeMutablePointer<Int32>, path: DocumentPath) -> Result<(width: Int, height: Int, rgb: [UInt8]), DocumentError> {
        func message(_ status: Int32) -> String {
            api.libraw_strerror(status).map { String(cString: $0) } ?? "LibRaw error \(status)"
        }
        // A decoder that meets the file's end or corrupt data says so through this callback and
        // goes on; its pixels would then be partly never written: refused instead.
        var api = api
        quire_raw_watch_data_errors(&api, data, dataErrors)
        var status = api.libraw_unpack(data)
        if status == LIBRAW_SUCCESS.rawValue, dataErrors.pointee > 0 {
            return .failure(DocumentError(kind: .damaged, path: path, reason: "the RAW file's sensor data is cut short or damaged"))
        }
        if status == LIBRAW_SUCCESS.rawValue { status = api.libraw_dcraw_process(data) }
        guard status == LIBRAW_SUCCESS.rawValue, dataErrors.pointee == 0 else {
            return .failure(DocumentError(kind: .damaged, path: path, reason: "the RAW file's sensor data cannot be read (\(message(status)))"))
        }
        var error: Int32 = 0
        guard let image = api.libraw_dcraw_make_mem_image(data, &error) else {
            return .failure(DocumentError(kind: .damaged, path: path, reason: "the RAW file's picture cannot be made (\(message(error)))"))
        }
        defer { api.libraw_dcraw_clear_mem(image) }
        let width = Int(image.pointee.width), height = Int(image.pointee.height)
        guard image.pointee.colors == 3, image.pointee.bits == 8, Int(image.pointee.data_size) >= width * height * 3 else {
            return .failure(DocumentError(kind: .unsupported, path: path, reason: "LibRaw developed the RAW file in a form Quire does not show"))
        }
        return .success((width, height, Array(UnsafeBufferPointer(start: quire_raw_image_data(image), count: width * height * 3))))
    }

    /// EXIF orientation (1 upright, 3 half a turn, 6 a quarter turn clockwise, 8 anticlockwise)
    /// from LibRaw's flip.
    var orientation: Int {
        switch quire_raw_flip(data) {
        case 3: return 3
        case 5: return 8
        case 6: return 6
        default: return 1
        }
    }

    /// What the camera wrote of the shot; with `includingLocation`, the GPS position too (else
    /// only that there is one).
    func details(includingLocation: Bool = false) -> PhotoDetails {
        func text(_ pointer: UnsafePointer<CChar>) -> String? {
            let value = String(cString: pointer).split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
            return value.isEmpty ? nil : value
        }
        let make = text(quire_raw_make(data)), model = text(quire_raw_model(data))
        let timestamp = quire_raw_timestamp(data)
        var details = PhotoDetails(camera: PhotoDetails.camera(make: make, model: model), lens: text(quire_raw_lens(data)),
                            exposureTime: quire_raw_shutter(data) > 0 ? Double(quire_raw_shutter(data)) : nil,
                            aperture: quire_raw_aperture(data) > 0 ? Double(quire_raw_aperture(data)) : nil,
                            iso: quire_raw_iso(data) > 0 ? Int(quire_raw_iso(data)) : nil,
                            focalLength: quire_raw_focal_length(data) > 0 ? Double(quire_raw_focal_length(data)) : nil,
                            taken: timestamp > 0 ? Int64(timestamp) : nil,
                            width: Int(quire_raw_width(data)), height: Int(quire_raw_height(data)),
                            hasLocation: quire_raw_has_location(data) != 0)
        guard includingLocation, details.hasLocation else { return details }
        func degrees(_ part: (Int32) -> Float) -> Double {
            Double(part(0)) + Double(part(1)) / 60 + Double(part(2)) / 3600
        }
        let latitude = degrees { quire_raw_latitude(data, $0) }, longitude = degrees { quire_raw_longitude(data, $0) }
        if latitude.isFinite, longitude.isFinite, (0...90).contains(latitude), (0...180).contains(longitude) {
            details.latitude = quire_raw_latitude_ref(data) == CChar(UInt8(ascii: "S")) ? -latitude : latitude
            details.longitude = quire_raw_longitude_ref(data) == CChar(UInt8(ascii: "W")) ? -longitude : longitude
        }
        return details
    }
}

extension PhotoDetails {
    /// Whether `type` is a camera RAW format (read by LibRaw, not gdk-pixbuf).
    public static func isCameraRaw(_ type: ContentType) -> Bool { RawPhoto.applies(to: type) }

    /// A camera RAW file's shot details, as LibRaw reads them (no pixel decoded); its GPS
    /// position only with `includingLocation` (`info --show-location`).
    public static func ofCameraRaw(_ file: InputFile, includingLocation: Bool = false) throws(DocumentError) -> PhotoDetails {
        try RawPhoto(file: file).details(includingLocation: includingLocation)
    }
}
