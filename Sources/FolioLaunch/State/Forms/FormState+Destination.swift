import FoundationEssentials
import FolioBasics
import Glibc
import FolioTerminal

// A new document's destination resolved as it will be created (against the current folder, `~/` in the home folder),
// shown under its field, and a destination outside the current folder asked about before anything is created.

extension FormState {
    /// Whether `field` is a new document's destination (its resolved path is shown under it).
    static func isDestination(_ field: Field) -> Bool { field.name == "destination" }

    /// `text` resolved as the command line resolves a path: absolute as it is, `~/…` in `home`, else in `folder`;
    /// `.` and `..` taken out. Nil when empty.
    package static func resolvedDestination(_ text: String, folder: String, home: String?) -> String? {
        let trimmed = text.trimming(.whitespaces)
        guard !trimmed.isEmpty else { return nil }
        let url: URL
        if trimmed.hasPrefix("/") {
            url = URL(fileURLWithPath: trimmed)
        } else if trimmed == "~" || trimmed.hasPrefix("~/"), let home {
            url = URL(fileURLWithPath: home + trimmed.dropFirst())
        } else {
            url = URL(fileURLWithPath: folder).appendingPathComponent(trimmed)
        }
        return url.standardizedFileURL.path
    }

    /// Whether `path` (resolved) is outside `folder`: neither the folder nor inside it.
    package static func isOutside(_ path: String, folder: String) -> Bool {
        let base = URL(fileURLWithPath: folder).standardizedFileURL.path
        let prefix = base.hasSuffix("/") ? base : base + "/"
        return path != base && !path.hasPrefix(prefix)
    }

    /// The destination field's value resolved, nil without a destination field.
    func resolvedDestination(folder: String, home: String?) -> String? {
        fields.first(where: Self.isDestination).flatMap { Self.resolvedDestination($0.value, folder: folder, home: home) }
    }

    /// Whether the destination resolves outside both the current folder and the folder the form offered (the
    /// scene's documents folder, where its first value pointed).
    func destinationIsOutside(folder: String, home: String?) -> Bool {
        guard let field = fields.first(where: Self.isDestination),
              let resolved = Self.resolvedDestination(field.value, folder: folder, home: home) else { return false }
        let offered = Self.resolvedDestination(field.initial, folder: folder, home: home).map { PathText.parent($0) }
        return Self.isOutside(resolved, folder: folder) && offered.map { Self.isOutside(resolved, folder: $0) } ?? true
    }
}

extension AppState {
    /// The question to ask before submitting `form`: its destination is outside the current folder (`a/../../etc`)
    /// and outside the folder the form offered. Nil when there is nothing to ask (or the current folder is unknown).
    func destinationQuestion(_ form: FormState) -> Confirmation? {
        guard let folder = currentFolder, form.destinationIsOutside(folder: folder, home: home),
              let resolved = form.resolvedDestination(folder: folder, home: home) else { return nil }
        return .createOutside(resolved: resolved)
    }
}

extension Screens {
    /// The line under a destination field: where it resolves ("→ /home/u/docs/report"), marked when outside the
    /// current folder; the end of a long path is kept (it names the document).
    static func drawResolvedDestination(_ field: FormState.Field, folder: String?, home: String?, x: Int, y: Int, into grid: inout CellGrid) {
        guard let folder, let resolved = FormState.resolvedDestination(field.value, folder: folder, home: home) else { return }
        let outside = FormState(title: "", purpose: .open, fields: [field], focus: 0).destinationIsOutside(folder: folder, home: home)
        let room = max(0, grid.width - x - 2)
        var note = outside ? "  (outside the current folder)" : ""
        if DisplayWidth.width(of: "→ " + resolved + note) > room { note = "" }  // the path first; its colour still says so
        var text = "→ " + resolved + note
        if DisplayWidth.width(of: text) > room {
            // Keep the end: cut from the start of the path.
            let keep = max(0, room - DisplayWidth.width(of: "→ …" + note))
            let tail = String(resolved.reversed().prefix(keep).reversed())
            text = "→ …" + tail + note
        }
        grid.put(text, x: x, y: y, style: outside ? theme.error : theme.subtitle, maxWidth: room)
    }
}
