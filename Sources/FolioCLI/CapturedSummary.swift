import FolioLaunch

/// The one line the launcher shows for a `folio` command it ran with its output captured: "folio ARGS: " and what
/// the command said last, or on failure its error without the "folio NAME: " the command line put before it (so
/// the prefix is never doubled: not "folio templates update: folio templates: remote: …").
enum CapturedSummary {
    static func line(arguments: [String], output: String, status: Int32) -> StatusLine {
        let lines = output.split(whereSeparator: \.isNewline).map(String.init).filter { !$0.trimming(.whitespaces).isEmpty }
        let ownPrefix = arguments.first.map { "folio \($0): " }
        // A failure's error line (the usage line that may follow it says less).
        let error = status == 0 ? nil : lines.last { line in ownPrefix.map(line.hasPrefix) ?? false }
        var said = error ?? lines.last ?? ""
        if let ownPrefix, said.hasPrefix(ownPrefix) { said.removeFirst(ownPrefix.count) }
        let summary = "folio \(arguments.joined(separator: " ")): " + (said.isEmpty ? (status == 0 ? "done" : "failed") : said)
        return status == 0 ? .note(summary) : .failure(summary)
    }
}
