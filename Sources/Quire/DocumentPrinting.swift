extension Document {
    /// Which of Preview, Thumbnail and Print apply to this document now, each with its reason.
    public func interaction(printSystem: PrintSystem = PrintSystem(),
                            conversion: PrintConversion = .standard) -> DocumentInteraction {
        DocumentInteraction(document: self, printSystem: printSystem, conversion: conversion)
    }

    /// Prints this document: checks the content, the destination (`nil` for the default, as
    /// `lp` resolves it), the options and the page ranges, then submits one job.
    ///
    /// ```swift
    /// var options = PrintOptions()
    /// options.copies = 2
    /// let job = try Document(path: DocumentPath("report.pdf")).print(options: options)
    /// print("request id is \(job.requestID)")
    /// ```
    /// - Throws: ``PrintError`` or ``DocumentError``; nothing is left queued on failure.
    @discardableResult
    public func print(to destination: String? = nil, options: PrintOptions = PrintOptions(),
                      system: PrintSystem = PrintSystem()) throws -> PrintJob {
        let printer = DocumentPrinter(system: system)
        return try printer.submit(try printer.plan([self], destination: destination, options: options))
    }
}
