import QuireSystem

/// An EPUB book's own table of contents, read from its navigation files: the EPUB 3 navigation
/// document's `toc` list (nested `ol`s of `li`s, each an `a` whose text is the title and whose
/// `href` the place), else the EPUB 2 NCX (`navPoint`s in the `navMap`, each a `navLabel` text
/// and a `content src`). Places are kept as the book's entries with their fragment; a place
/// outside the book is kept as a title that goes nowhere. Bounded by ``TableOfContents``' limits.
enum EpubContents {
    /// An entry before it is placed in the text: the chapter (a book entry) and the fragment.
    struct Target: Equatable {
        var level: Int
        var title: String
        var chapter: String?
        var fragment: String?
    }

    /// The `toc` list of an EPUB 3 navigation document at `folder` (the first `nav` when none
    /// says it is the contents).
    static func navigation(_ bytes: [UInt8], folder: String, present: Set<String>) -> [Target] {
        let navs = XMLScan(bytes).elements.filter { $0.name == "nav" }
        let hasToc = navs.contains { Self.isToc($0.attributes) }
        var targets: [Target] = []
        var navDepth = 0          // nav elements open, counting from the contents' own
        var done = false
        var listDepth = 0
        var link: (href: String?, title: String)?
        XMLScan.tokens(bytes) { token in
            switch token {
            case .tag(let name, let closing, let selfClosing, let attributes):
                if name == "nav" && !selfClosing {
                    if navDepth == 0 {
                        if !closing, !hasToc || Self.isToc(attributes) { navDepth = 1 }
                    } else {
                        navDepth += closing ? -1 : 1
                        if navDepth == 0 { done = true }
                    }
                    return !done
                }
                guard navDepth == 1 else { return true }
                switch name {
                case "ol" where !selfClosing: listDepth = max(0, listDepth + (closing ? -1 : 1))
                case "a" where listDepth > 0:
                    if !closing {
                        link = (attributes["href"], "")
                        if selfClosing { link = nil }
                    } else if let found = link {
                        link = nil
                        let title = TableOfContents.clipped(found.title)
                        if !title.isEmpty {
                            targets.append(place(level: listDepth, title: title, href: found.href, folder: folder, present: present))
                        }
                    }
                default: break
                }
            case .text(let text, let isCData):
                if link != nil {
                    let raw = String(String.UnicodeScalarView(text))
                    link?.title += isCData ? raw : XMLScan.unescape(raw)
                }
            }
            return targets.count < TableOfContents.maximumEntries
        }
        return targets
    }

    /// The `navMap` of an EPUB 2 NCX at `folder`.
    static func ncx(_ bytes: [UInt8], folder: String, present: Set<String>) -> [Target] {
        var targets: [Target] = []
        var inMap = false
        var open: [Int] = []          // the targets of the navPoints open, innermost last
        var inLabel = false
        var inText = false
        var label = ""
        var labelled = Set<Int>()
        XMLScan.tokens(bytes) { token in
            switch token {
            case .tag(let name, let closing, let selfClosing, let attributes):
                switch name {
                case "navMap": inMap = !closing && !selfClosing
                case "navPoint" where inMap:
                    if closing { if !open.isEmpty { open.removeLast() } } else if !selfClosing {
                        targets.append(Target(level: open.count + 1, title: ""))
                        open.append(targets.count - 1)
                    }
                case "navLabel" where inMap: inLabel = !closing && !selfClosing; label = ""
                case "text" where inLabel:
                    inText = !closing && !selfClosing
                    if closing, let current = open.last, !labelled.contains(current) {
                        targets[current].title = TableOfContents.clipped(label)
                        labelled.insert(current)
                    }
                case "content" where inMap:
                    if let current = open.last, targets[current].chapter == nil, let src = attributes["src"] {
                        let placed = place(level: 0, title: "", href: src, folder: folder, present: present)
                        targets[current].chapter = placed.chapter
                        targets[current].fragment = placed.fragment
                    }
                default: break
                }
            case .text(let text, let isCData):
                if inText {
                    let raw = String(String.UnicodeScalarView(text))
                    label += isCData ? raw : XMLScan.unescape(raw)
                }
            }
            return targets.count < TableOfContents.maximumEntries
        }
        return targets.filter { !$0.title.isEmpty }
    }

    private static func isToc(_ attributes: [String: String]) -> Bool {
        (attributes["type"] ?? "").split(separator: " ").contains("toc")
    }

    private static func place(level: Int, title: String, href: String?, folder: String, present: Set<String>) -> Target {
        let level = max(1, min(TableOfContents.maximumLevel, level))
        guard let href else { return Target(level: level, title: title) }
        let parts = href.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
        let fragment = parts.count > 1 && !parts[1].isEmpty ? PercentEncoding.decodedString(String(parts[1])) ?? String(parts[1]) : nil
        return Target(level: level, title: title, chapter: EpubBook.resolve(href, from: folder, in: present), fragment: fragment)
    }
}
