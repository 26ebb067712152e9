import CGtk

/// A file type's own icon, in colour, as the file manager shows it: GIO's icon for the content
/// type (its own name, then the shared-mime-info generic icon, e.g. `x-office-document`), not
/// a symbolic or a blank generic page.
@MainActor
enum TypeIcon {
    /// Shows the icon for `mimeType` in `image`; `fallback` (an icon name) without a type.
    static func show(_ image: UnsafeMutablePointer<GtkWidget>, mimeType: String?, fallback: String) {
        if let mimeType, let icon = g_content_type_get_icon(mimeType) {
            gtk_image_set_from_gicon(cast(image), icon)
            g_object_unref(UnsafeMutableRawPointer(icon))
        } else {
            gtk_image_set_from_icon_name(cast(image), fallback)
        }
    }
}
