import QuireTypes

extension RenderEngine {
    /// Camera RAW files (CR2, NEF, ARW, DNG, RW2…): the preview JPEG the camera embedded, through
    /// the image engine's decoder, turned as the camera was held; the shot's details on the card.
    /// With ``RenderEngine/Input/developRaw`` (`preview --full`, the viewers' Develop), the
    /// sensor data demosaiced at full size instead.
    static let cameraRaw = RenderEngine(name: "camera-raw", families: [.image],
                                        open: { (input) throws(DocumentError) in
        let photo = try RawPhoto(file: input.file)
        var details = photo.details().cardRows
        if input.developRaw {
            let developed = try photo.developed(limits: input.limits, full: true)
            let image = try CairoImage(copyingRGB: developed.rgb, width: developed.width, height: developed.height, path: input.file.path)
            details.append(CardRow("Shown", "the sensor data, developed (\(developed.width)×\(developed.height))"))
            return Opened(source: DecodedImageSource(image: try image.oriented(photo.orientation, path: input.file.path), path: input.file.path),
                          details: details)
        }
        do throws(DocumentError) {
            let preview = try photo.preview(limit: input.limits.maximumInflatedBytes)
            if preview.isJPEG {
                let decoder = ImageDecoder(source: .bytes(preview.bytes, name: "preview.jpg"), path: input.file.path, limits: input.limits)
                let source = try ImageSource(decoder: decoder, header: Array(preview.bytes.prefix(256 * 1024)), orientation: photo.orientation)
                return Opened(source: source, embeddedPreviewName: "preview.jpg", details: details)
            }
        } catch where error.kind == .limitExceeded {
            throw error
        } catch {
            // No readable preview (a stripped or cut one): the sensor data is developed instead.
        }
        // A fresh LibRaw handle: one whose preview read failed is not used again.
        let developed = try RawPhoto(file: input.file).developed(limits: input.limits)
        let image = try CairoImage(copyingRGB: developed.rgb, width: developed.width, height: developed.height, path: input.file.path)
        let source = DecodedImageSource(image: try image.oriented(photo.orientation, path: input.file.path), path: input.file.path)
        return Opened(source: source, details: details)
    }, accepts: { (type, _) in RawPhoto.applies(to: type) })
}
