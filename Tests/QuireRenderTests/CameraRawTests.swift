import Testing
@testable import QuireRender
import QuireTypes

/// Camera RAW files through LibRaw (real files from ExifTool's test images): the embedded
/// preview is what is shown, the shot's details are on the card, a file without a readable
/// preview is developed from its sensor data, a file LibRaw refuses is one line.
@Suite struct CameraRawTests {
    @Test func theEmbeddedPreviewIsShownWithTheShotsDetails() throws {
        let renderer = try SampleFiles.renderer("camera.rw2")
        #expect(renderer.embeddedPreviewName == "preview.jpg")
        #expect(renderer.pageCount == 1 && renderer.pageSize(at: 0) == PageSize(width: 8, height: 8), "the camera's 8×8 preview")
        #expect(try renderer.render(size: .longestSide(64)).width == 64)
        let details = Dictionary(uniqueKeysWithValues: renderer.details.map { ($0.label, $0.value) })
        #expect(details["Camera"] == "Panasonic DMC-LX3")
        #expect(details["Exposure"] == "1/250 s · f/4 · ISO 80 · 5.1 mm")
        #expect(details["Taken"] == "2008-08-06 15:21")
        #expect(details["Sensor"] == "3664 × 2754 pixels")
        #expect(details["Location"] == nil)
    }

    @Test func withoutAReadablePreviewTheSensorDataIsDeveloped() throws {
        let renderer = try SampleFiles.renderer("camera.dng")
        #expect(renderer.embeddedPreviewName == nil)
        // Half size, as `dcraw -h` develops it: 1737×1157.
        #expect(renderer.pageSize(at: 0) == PageSize(width: 1737, height: 1157))
        let image = try renderer.render(size: .longestSide(100))
        #expect(image.width == 100 && image.height == 67)
        #expect(renderer.details.first { $0.label == "Camera" }?.value == "Canon EOS 350D")
        #expect(renderer.details.first { $0.label == "Exposure" }?.value == "1/15 s · f/8 · ISO 400 · 55 mm")
    }

    /// `preview --full` and the viewers' Develop: every sensor pixel demosaiced instead of the
    /// camera's preview (the RW2's 8×8 JPEG; the DNG's half-size quick develop), the details
    /// kept and what is shown said; a thumbnail stays the preview.
    @Test func developingShowsEverySensorPixelInsteadOfThePreview() throws {
        // The DNG: its raw data is whole (the RW2's is cut short, and what LibRaw makes of a cut
        // file is not a fixed answer in a process full of threads: it is developed in the
        // CLI, tmux and window tests, one file per process).
        let developed = try SampleFiles.renderer("camera.dng", developRaw: true)
        #expect(developed.embeddedPreviewName == nil)
        #expect(developed.pageSize(at: 0) == PageSize(width: 3474, height: 2314), "full size, not the 1737×1157 quick develop")
        let details = Dictionary(uniqueKeysWithValues: developed.details.map { ($0.label, $0.value) })
        #expect(details["Camera"] == "Canon EOS 350D")
        #expect(details["Shown"] == "the sensor data, developed (3474×2314)")
        let image = try developed.render(size: .longestSide(200))
        #expect(image.width == 200 && image.height == 133)
        // A thumbnail is always the preview: developing is asked for, never done for a thumbnail.
        let thumbnail = try SampleFiles.renderer("camera.rw2", preferEmbeddedPreview: true, developRaw: true)
        #expect(thumbnail.embeddedPreviewName == "preview.jpg")
        // The pixel limit counts the sensor's pixels before anything is decoded.
        var limits = RenderLimits.standard
        limits.maximumImagePixels = 5_000_000
        #expect {
            _ = try SampleFiles.renderer("camera.rw2", limits: limits, developRaw: true)
        } throws: { ($0 as? DocumentError)?.kind == .limitExceeded }
    }

    @Test func aFileLibRawRefusesIsDamaged() throws {
        #expect {
            _ = try SampleFiles.renderer("stripped.cr2")
        } throws: { error in
            (error as? DocumentError)?.reason == "not a readable camera RAW file (Unsupported file format or not RAW file)"
        }
    }

    @Test func aSensorLargerThanThePixelLimitIsRefusedBeforeDecoding() throws {
        var limits = RenderLimits.standard
        limits.maximumImagePixels = 1_000_000
        #expect {
            _ = try SampleFiles.renderer("camera.dng", limits: limits)
        } throws: { ($0 as? DocumentError)?.kind == .limitExceeded }
    }

    @Test func theCameraIsNamedOnce() {
        #expect(PhotoDetails.camera(make: "Canon", model: "Canon EOS 350D") == "Canon EOS 350D")
        #expect(PhotoDetails.camera(make: "Panasonic", model: "DMC-LX3") == "Panasonic DMC-LX3")
        #expect(PhotoDetails.camera(make: nil, model: "X100") == "X100")
        #expect(PhotoDetails.exposureText(1.0 / 60) == "1/60 s" && PhotoDetails.exposureText(2.5) == "2.5 s")
    }

    /// A RAW file's orientation is applied after decoding: a 2×2 image of four colours turned.
    @Test func anImageIsTurnedToAnOrientation() throws {
        let image = try CairoImage(RenderedImage(width: 2, height: 1, pixels: [255, 0, 0, 255, 0, 0, 255, 255]))
        let clockwise = try image.oriented(6, path: nil).rendered()
        #expect(clockwise.width == 1 && clockwise.height == 2)
        #expect(clockwise.pixel(x: 0, y: 0).isClose(to: 255, 0, 0) && clockwise.pixel(x: 0, y: 1).isClose(to: 0, 0, 255))
        let anticlockwise = try image.oriented(8, path: nil).rendered()
        #expect(anticlockwise.pixel(x: 0, y: 0).isClose(to: 0, 0, 255) && anticlockwise.pixel(x: 0, y: 1).isClose(to: 255, 0, 0))
        let halfTurn = try image.oriented(3, path: nil).rendered()
        #expect(halfTurn.width == 2 && halfTurn.pixel(x: 0, y: 0).isClose(to: 0, 0, 255))
    }
}

/// A JPEG's EXIF block: the shot's details on the card, the place only said to be recorded.
@Suite struct PhotoExifTests {
    @Test func aJPEGsShotIsOnTheCard() throws {
        let renderer = try SampleFiles.renderer("photo-exif.jpg")
        let details = Dictionary(uniqueKeysWithValues: renderer.details.map { ($0.label, $0.value) })
        #expect(details["Camera"] == "FUJIFILM X-T30")
        #expect(details["Lens"] == "XF35mmF2 R WR")
        #expect(details["Exposure"] == "1/125 s · f/2.8 · ISO 200 · 35 mm")
        #expect(details["Taken"] == "2024-05-01 13:45")
        #expect(details["Location"] == "recorded (not shown)")
        // A JPEG with only an orientation names nothing.
        #expect(try SampleFiles.renderer("photo-rotated.jpg").details.isEmpty)
    }

    /// Issue 39: a HEIC's and an AVIF's EXIF item (heif-enc copied the JPEGs' blocks into them),
    /// found through the item boxes (`iinf`, `iloc`), gives the same card; a HEIC without one
    /// names nothing.
    @Test(arguments: [("photo-exif.heic", "FUJIFILM X-T30"), ("photo-gps.avif", "QuireCam")])
    func aHEIFPhotosShotIsOnTheCard(sample: String, camera: String) throws {
        let details = Dictionary(uniqueKeysWithValues: try SampleFiles.renderer(sample).details.map { ($0.label, $0.value) })
        #expect(details["Camera"] == camera, "\(details)")
        if sample.hasSuffix(".heic") {
            #expect(details["Exposure"] == "1/125 s · f/2.8 · ISO 200 · 35 mm" && details["Taken"] == "2024-05-01 13:45", "\(details)")
        } else {
            #expect(details["Location"] == "recorded (not shown)", "\(details)")
            let file = try SampleFiles.open(sample)
            let located = try #require(PhotoDetails.ofPhoto(file, includingLocation: true))
            #expect(abs((located.latitude ?? 0) - (48 + 51.0 / 60 + 30.12 / 3600)) < 1e-9, "\(located)")
        }
        #expect(try SampleFiles.renderer("photo.heic").details.isEmpty)
    }

    @Test func exifDatesAreReadAsTheClockSaid() {
        #expect(PhotoDetails.exifDate("1970:01:01 00:00:00") == 0)
        #expect(PhotoDetails.exifDate("2024:05:01 13:45:09") == 1_714_571_109)
        #expect(PhotoDetails.exifDate("0000:00:00 00:00:00") == nil)
        #expect(PhotoDetails.exifDate("garbage") == nil)
    }

    @Test func aCutOrLyingEXIFBlockIsNotACrash() {
        // An IFD whose count and offsets point past the bytes given.
        let tiff: [UInt8] = [0x49, 0x49, 0x2A, 0, 8, 0, 0, 0, 0xFF, 0xFF, 0x0F, 0x01, 2, 0, 0xFF, 0xFF, 0, 0, 0xF0, 0xFF, 0xFF, 0x7F]
        #expect(PhotoDetails.exif(tiff) == nil)
        #expect(ExifOrientation.read(tiff) == 1)
    }
}

