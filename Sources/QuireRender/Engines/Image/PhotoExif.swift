import QuireTypes

extension PhotoDetails {
    /// A photo's details: a JPEG's or TIFF's from its first 256 KiB (where its EXIF block is), a
    /// HEIC's or AVIF's from its EXIF item; nil when it has none.
    public static func ofPhoto(_ file: InputFile, includingLocation: Bool = false) -> PhotoDetails? {
        (try? file.read(upTo: 256 * 1024)).flatMap { ofPhoto(head: $0, file: file, includingLocation: includingLocation) }
    }

    /// ``ofPhoto(_:includingLocation:)`` with the file's first 256 KiB already read (`head`).
    static func ofPhoto(head: [UInt8], file: InputFile, includingLocation: Bool = false) -> PhotoDetails? {
        if HEIFImageSize.mayBeHEIF(head.prefix(12)) {
            return HEIFExif.tiff(head: head, file: file).flatMap { exif($0, includingLocation: includingLocation) }
        }
        return exif(head, includingLocation: includingLocation)
    }

    /// A photo's details from the EXIF block at the start of a JPEG or TIFF file: camera (Make,
    /// Model), lens (LensModel), exposure time, f-number, ISO, focal length, date taken
    /// (DateTimeOriginal, else DateTime), pixel size, and whether a GPS IFD is there. Nil when
    /// the file has no EXIF block or it names none of these.
    /// With `includingLocation`, the GPS position is read too (else only that there is one).
    static func exif(_ fileStart: [UInt8], includingLocation: Bool = false) -> PhotoDetails? {
        guard let exif = ExifTIFF(fileStart: fileStart), let first = exif.firstIFD else { return nil }
        var make: String?, model: String?, dateTime: String?
        var details = PhotoDetails(hasLocation: false)
        var subIFD: Int?
        var gpsIFD: Int?
        for entry in exif.entries(at: first) {
            switch entry.tag {
            case 0x010F: make = exif.text(entry)
            case 0x0110: model = exif.text(entry)
            case 0x0132: dateTime = exif.text(entry)
            case 0x8769: subIFD = exif.integer(entry)
            case 0x8825:
                gpsIFD = exif.integer(entry)
                details.hasLocation = gpsIFD.map { $0 > 0 } ?? false
            default: break
            }
        }
        if let subIFD, subIFD != first {
            for entry in exif.entries(at: subIFD) {
                switch entry.tag {
                case 0x829A: details.exposureTime = exif.rational(entry)
                case 0x829D: details.aperture = exif.rational(entry)
                case 0x8827: details.iso = exif.integer(entry)
                case 0x9003: dateTime = exif.text(entry) ?? dateTime
                case 0x920A: details.focalLength = exif.rational(entry)
                case 0xA434: details.lens = exif.text(entry)
                case 0xA002: details.width = exif.integer(entry)
                case 0xA003: details.height = exif.integer(entry)
                default: break
                }
            }
        }
        if includingLocation, let gpsIFD, gpsIFD > 0, gpsIFD != first {
            var latitude: Double?, longitude: Double?, south = false, west = false
            func degrees(_ parts: [Double]?) -> Double? {
                guard let parts, parts.count == 3 else { return nil }
                return parts[0] + parts[1] / 60 + parts[2] / 3600
            }
            for entry in exif.entries(at: gpsIFD) {
                switch entry.tag {
                case 1: south = exif.text(entry) == "S"
                case 2: latitude = degrees(exif.rationals(entry))
                case 3: west = exif.text(entry) == "W"
                case 4: longitude = degrees(exif.rationals(entry))
                default: break
                }
            }
            if let latitude, let longitude, latitude <= 90, longitude <= 180 {
                details.latitude = south ? -latitude : latitude
                details.longitude = west ? -longitude : longitude
            }
        }
        details.camera = camera(make: make, model: model)
        details.taken = dateTime.flatMap(Self.exifDate)
        let named = details.camera != nil || details.exposureTime != nil || details.iso != nil || details.taken != nil
            || details.hasLocation || details.lens != nil
        return named ? details : nil
    }

    /// "2024:05:01 13:45:00" as seconds since 1970 of that clock reading (no time zone).
    static func exifDate(_ text: String) -> Int64? {
        let parts = text.split(whereSeparator: { $0 == ":" || $0 == " " }).compactMap { Int($0) }
        guard parts.count >= 5, (1...12).contains(parts[1]), (1...31).contains(parts[2]), parts[0] > 1900 else { return nil }
        // Days from 1970-01-01 to the date (proleptic Gregorian; Howard Hinnant's days_from_civil).
        let y = parts[1] <= 2 ? parts[0] - 1 : parts[0]
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let m = parts[1], d = parts[2]
        let doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        let days = era * 146097 + doe - 719468
        let seconds = parts.count > 5 ? parts[5] : 0
        return Int64(days * 86400 + parts[3] * 3600 + parts[4] * 60 + seconds)
    }
}
