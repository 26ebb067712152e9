/// The seam between printing and the renderers: content that prints `.byConversion`
/// (text, images, SVG) becomes PDF here before it is sent.
///
/// The renderers with PDF export are built in the preview work (issue 3); until they are wired
/// in, conversion reports that it is not available rather than sending something wrong.
enum PrintConversion {
    /// PDF bytes for `document`, whose content prints by conversion.
    static func pdfData(for document: Document) throws(PrintError) -> [UInt8] {
        throw PrintError(.unprintable,
                         "\(document.path): printing \(document.contentType.localizedDescription) files needs conversion to PDF, which is not available in this build yet")
    }
}
