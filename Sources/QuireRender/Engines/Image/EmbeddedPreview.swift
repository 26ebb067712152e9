import QuireTypes

/// Whether an office file carries a preview image Quire can show: what `actions` and `info`
/// say for office files when LibreOffice is not installed (only that image can be shown then).
public enum EmbeddedPreview {
    /// True when the zip-based file names a preview entry (`Thumbnails/thumbnail.png`,
    /// `docProps/thumbnail.*`, `QuickLook/Thumbnail.jpg`…) that is not a Windows metafile. Reads
    /// the zip's entry names only.
    public static func isPresent(in file: InputFile, contentType: ContentType, limits: RenderLimits = .standard) -> Bool {
        guard DocumentFamily.carriesPreviewImage(contentType.mimeType),
              let names = try? ZipArchive(file: file, limits: limits).entryNames() else { return false }
        let present = Set(names)
        guard let chosen = ContainerPreview.officeNames.first(where: present.contains)
                ?? names.first(where: { $0.hasPrefix("docProps/thumbnail.") }) else { return false }
        let lower = chosen.lowercased()
        return !lower.hasSuffix(".wmf") && !lower.hasSuffix(".emf")
    }
}
