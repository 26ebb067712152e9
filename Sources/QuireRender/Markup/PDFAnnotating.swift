internal import CPoppler
import QuireTypes

extension PDFDocument {
    /// Whether the document's permissions let annotations be added.
    public var allowsAnnotating: Bool {
        let permissions = libpoppler.poppler_document_get_permissions(document).rawValue
        return permissions & POPPLER_PERMISSIONS_OK_TO_ADD_NOTES.rawValue != 0
    }

    /// Whether the document's permissions let its pages be turned (assembled).
    public var allowsAssembling: Bool {
        let permissions = libpoppler.poppler_document_get_permissions(document).rawValue
        return permissions & POPPLER_PERMISSIONS_OK_TO_ASSEMBLE.rawValue != 0
    }

    /// Adds `annotation` to its page in memory (poppler-glib makes the dictionary; what it
    /// cannot make — ink, text boxes, arrowheads, line widths, appearance streams — the update after
    /// poppler's adds); ``savedUpdate(original:turns:annotations:flatten:moves:removed:)`` writes it.
    /// - Throws: ``FormValueError`` for a page that does not exist or geometry that is not a
    ///   place on the page.
    public func add(_ annotation: PageAnnotation) throws(FormValueError) {
        guard annotation.page >= 0, annotation.page < pageCount,
              let page = libpoppler.poppler_document_get_page(document, Int32(annotation.page)) else {
            throw FormValueError("page \(annotation.page + 1) does not exist (the PDF has \(pageCount) pages)")
        }
        defer { g_object_unref(UnsafeMutableRawPointer(page)) }
        let place = annotation.kind == .ink ? annotation.strokeBounds : annotation.boxes.first
        guard let place, annotation.boxes.allSatisfy(\.isFinite), annotation.strokes.joined().allSatisfy({ $0.x.isFinite && $0.y.isFinite }) else {
            let name = annotation.kind.rawValue
            throw FormValueError("\("aeiou".contains(name.first!) ? "an" : "a") \(name) needs a place on the page")
        }
        guard annotation.lineWidth.isFinite, annotation.lineWidth >= 0.25, annotation.lineWidth <= 50 else {
            throw FormValueError("a line width of \(annotation.lineWidth) points is not between 0.25 and 50")
        }
        if annotation.kind == .freeText {
            let text = annotation.text ?? ""
            guard !text.isEmpty else { throw FormValueError("a text box needs its text") }
            if let character = FreeTextLayout.unencodable(text) {
                throw FormValueError("a text box cannot show \(String(character).debugDescription): only Western European letters (Windows-1252) can be typed")
            }
            guard FreeTextLayout.fontSizes.contains(annotation.fontSize) else {
                throw FormValueError("a font size of \(annotation.fontSize) points is not between 4 and 144")
            }
            guard text.count <= FreeTextLayout.maximumLength else {
                throw FormValueError("a text box holds at most \(FreeTextLayout.maximumLength) characters")
            }
        }
        // Ink's rectangle holds its strokes' whole width.
        let first = annotation.kind == .ink
            ? PageAnnotation.Box(x: place.x - annotation.lineWidth, y: place.y - annotation.lineWidth,
                                 width: place.width + 2 * annotation.lineWidth, height: place.height + 2 * annotation.lineWidth)
            : place
        var width = 0.0, height = 0.0
        libpoppler.poppler_page_get_size(page, &width, &height)
        // From the top left, y down, to PDF space (y up), as poppler-glib takes it before it
        // adds the crop box and undoes the page's rotation.
        func rectangle(_ box: PageAnnotation.Box) -> PopplerRectangle {
            PopplerRectangle(x1: min(box.x, box.x + box.width), y1: height - max(box.y, box.y + box.height),
                             x2: max(box.x, box.x + box.width), y2: height - min(box.y, box.y + box.height))
        }
        var bounds = rectangle(first)
        for box in annotation.boxes.dropFirst() {
            let r = rectangle(box)
            bounds = PopplerRectangle(x1: min(bounds.x1, r.x1), y1: min(bounds.y1, r.y1), x2: max(bounds.x2, r.x2), y2: max(bounds.y2, r.y2))
        }
        let created: OpaquePointer?
        switch annotation.kind {
        case .highlight, .underline, .strikeOut:
            let quads = g_array_new(0, 0, guint(MemoryLayout<PopplerQuadrilateral>.stride))!
            defer { g_array_free(quads, 1) }
            for box in annotation.boxes {
                let r = rectangle(box)
                var quad = PopplerQuadrilateral(p1: PopplerPoint(x: r.x1, y: r.y2), p2: PopplerPoint(x: r.x2, y: r.y2),
                                                p3: PopplerPoint(x: r.x1, y: r.y1), p4: PopplerPoint(x: r.x2, y: r.y1))
                g_array_append_vals(quads, &quad, 1)
            }
            switch annotation.kind {
            case .highlight: created = libpoppler.poppler_annot_text_markup_new_highlight(document, &bounds, quads)
            case .underline: created = libpoppler.poppler_annot_text_markup_new_underline(document, &bounds, quads)
            default: created = libpoppler.poppler_annot_text_markup_new_strikeout(document, &bounds, quads)
            }
        case .note:
            // The note's icon: 24 points square at the box's top left.
            var icon = PopplerRectangle(x1: bounds.x1, y1: bounds.y2 - 24, x2: bounds.x1 + 24, y2: bounds.y2)
            created = libpoppler.poppler_annot_text_new(document, &icon)
        case .square: created = libpoppler.poppler_annot_square_new(document, &bounds)
        case .circle: created = libpoppler.poppler_annot_circle_new(document, &bounds)
        case .ink, .freeText:
            // poppler-glib 22 can make neither an ink annotation nor a text box: a square of
            // the strokes' bounds or the box stands in (poppler puts it on the page, with the
            // crop box and rotation applied to its rectangle) and the update after poppler's
            // makes it /Ink with its /InkList, or /FreeText (``PDFAppendedUpdate``).
            created = libpoppler.poppler_annot_square_new(document, &bounds)
        case .line, .arrow:
            var start = PopplerPoint(x: first.x, y: height - first.y)
            var end = PopplerPoint(x: first.x + first.width, y: height - (first.y + first.height))
            created = libpoppler.poppler_annot_line_new(document, &bounds, &start, &end)
        }
        guard let annot = created else { throw FormValueError("poppler could not make the \(annotation.kind.rawValue)") }
        defer { g_object_unref(UnsafeMutableRawPointer(annot)) }
        func channel(_ value: Double) -> guint16 { guint16(max(0, min(1, value)) * 65535) }
        var colour = PopplerColor(red: channel(annotation.colour.red), green: channel(annotation.colour.green),
                                  blue: channel(annotation.colour.blue))
        libpoppler.poppler_annot_set_color(annot, &colour)
        if let text = annotation.text { libpoppler.poppler_annot_set_contents(annot, text) }
        libpoppler.poppler_page_add_annot(page, annot)
    }
}

extension PDFDocument {
    /// Page `index`'s annotations in the page's order (poppler-glib's mapping keeps it).
    public func existingAnnotations(page index: Int) -> [ExistingAnnotation] {
        guard index >= 0, index < pageCount, let page = libpoppler.poppler_document_get_page(document, Int32(index)) else { return [] }
        defer { g_object_unref(UnsafeMutableRawPointer(page)) }
        var width = 0.0, height = 0.0
        libpoppler.poppler_page_get_size(page, &width, &height)
        let list = libpoppler.poppler_page_get_annot_mapping(page)
        defer { libpoppler.poppler_page_free_annot_mapping(list) }
        var found: [ExistingAnnotation] = []
        for (area, annot) in Self.annotations(in: list) {
            let type = libpoppler.poppler_annot_get_annot_type(annot)
            let contents = libpoppler.poppler_annot_get_contents(annot).map { pointer in
                defer { g_free(pointer) }
                return String(cString: pointer)
            }
            // poppler-glib's areas are in PDF space from the crop box's corner (y up).
            let box = TextBox(x: min(area.x1, area.x2), y: height - max(area.y1, area.y2),
                              width: abs(area.x2 - area.x1), height: abs(area.y2 - area.y1))
            found.append(ExistingAnnotation(index: found.count, kind: Self.kindName(type), box: box,
                                            text: contents.flatMap { $0.isEmpty ? nil : $0 }))
        }
        return found
    }

    /// Removes annotations from their pages in memory, named by page and ``ExistingAnnotation/index``
    /// with the kind the viewer showed (a check that the page is as it was listed); each one's
    /// pop-up goes with it. Saved by ``savedUpdate(original:turns:annotations:flatten:moves:removed:)``.
    /// - Throws: ``FormValueError`` when one is not there, is another kind, or is not removable.
    public func remove(_ removals: [AnnotationRemoval]) throws(FormValueError) {
        for (pageIndex, onPage) in Dictionary(grouping: removals, by: \.page).sorted(by: { $0.key < $1.key }) {
            guard pageIndex >= 0, pageIndex < pageCount, let page = libpoppler.poppler_document_get_page(document, Int32(pageIndex)) else {
                throw FormValueError("page \(pageIndex + 1) does not exist (the PDF has \(pageCount) pages)")
            }
            defer { g_object_unref(UnsafeMutableRawPointer(page)) }
            let list = libpoppler.poppler_page_get_annot_mapping(page)
            defer { libpoppler.poppler_page_free_annot_mapping(list) }
            let annots = Self.annotations(in: list).map(\.annot)
            // All found before any is removed: the indexes are the page's as it was listed.
            var chosen: [OpaquePointer] = []
            for removal in onPage {
                guard annots.indices.contains(removal.index) else {
                    throw FormValueError("page \(pageIndex + 1) has no annotation \(removal.index + 1) (it has \(annots.count)): open the file again")
                }
                let type = libpoppler.poppler_annot_get_annot_type(annots[removal.index])
                guard Self.kindName(type) == removal.kind else {
                    throw FormValueError("annotation \(removal.index + 1) of page \(pageIndex + 1) is a \(Self.kindName(type)), not a \(removal.kind): open the file again")
                }
                guard ExistingAnnotation.isRemovable(kind: removal.kind) else {
                    throw FormValueError("a \(removal.kind) cannot be removed in Markup")
                }
                if !chosen.contains(annots[removal.index]) { chosen.append(annots[removal.index]) }
            }
            for annot in chosen { libpoppler.poppler_page_remove_annot(page, annot) }
        }
    }

    /// The annotations of a page's annot mapping, in its order (valid while the list is).
    private static func annotations(in list: UnsafeMutablePointer<GList>?) -> [(area: PopplerRectangle, annot: OpaquePointer)] {
        var found: [(area: PopplerRectangle, annot: OpaquePointer)] = []
        var node = list
        while let current = node {
            node = current.pointee.next
            if let mapping = current.pointee.data?.assumingMemoryBound(to: PopplerAnnotMapping.self), let annot = mapping.pointee.annot {
                found.append((mapping.pointee.area, annot))
            }
        }
        return found
    }

    /// The kind in a person's words (``ExistingAnnotation/kind(subtype:)``) of poppler's type.
    static func kindName(_ type: PopplerAnnotType) -> String {
        let subtypes = ["Unknown", "Text", "Link", "FreeText", "Line", "Square", "Circle", "Polygon", "PolyLine", "Highlight",
                        "Underline", "Squiggly", "StrikeOut", "Stamp", "Caret", "Ink", "Popup", "FileAttachment", "Sound", "Movie",
                        "Widget", "Screen", "PrinterMark", "TrapNet", "Watermark", "3D"]
        let raw = Int(type.rawValue)
        return ExistingAnnotation.kind(subtype: subtypes.indices.contains(raw) ? subtypes[raw] : "Unknown")
    }
}
