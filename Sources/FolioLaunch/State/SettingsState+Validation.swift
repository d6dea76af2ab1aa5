import FoundationEssentials
import FolioBasics
import Glibc
import FolioCore
import FolioTerminal

// Every settings field is checked where it is entered: as it is left and again before saving. A problem stays on
// its field (shown under it), the value is kept, and nothing is saved while any field has one.

extension SettingsState {
    /// Checks `field` and records its problem (or clears it).
    mutating func check(_ field: Field) {
        problems[field] = problem(field)
    }

    /// Checks every field before saving.
    mutating func checkAll(against settings: Settings) {
        for field in Field.allCases { problems[field] = problem(field, settings: settings) }
    }

    /// The problem with `field`'s value, nil when it is acceptable (an empty entry field is acceptable: it changes
    /// nothing).
    func problem(_ field: Field, settings: Settings? = nil) -> String? {
        let value = text(field).trimming(.whitespaces)
        switch field {
        case .authorName:
            if value.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) { return "a name has no control characters" }
            if value.isEmpty, !authorEmail.trimming(.whitespaces).isEmpty { return "a name is needed with the e-mail" }
            return nil
        case .authorEmail:
            if value.isEmpty { return authorName.trimming(.whitespaces).isEmpty ? nil : "an e-mail is needed with the name" }
            return Self.emailProblem(value)
        case .sync: return nil
        case .syncInterval: return value.isEmpty ? nil : Self.syncIntervalProblem(value)
        case .color: return value.isEmpty ? nil : Self.colorProblem(value)
        case .source: return value.isEmpty ? nil : Self.sourceProblem(value, existing: (settings?.templateSources ?? []).map(\.name), home: home)
        case .association: return value.isEmpty ? nil : Self.associationProblem(value, editors: knownEditors)
        }
    }

    /// Whole seconds within `Settings.syncIntervalRange`.
    static func syncIntervalProblem(_ value: String) -> String? {
        let range = Settings.syncIntervalRange
        guard let seconds = Int(value), range.contains(Double(seconds)) else {
            return "'\(value)' is not a number of seconds from \(Int(range.lowerBound)) to \(Int(range.upperBound))"
        }
        return nil
    }

    /// `name@host.tld`, one `@`, no spaces or angle brackets.
    static func emailProblem(_ value: String) -> String? {
        let parts = value.split(separator: "@", omittingEmptySubsequences: false)
        let ok = parts.count == 2 && !parts[0].isEmpty && parts[1].contains(".") && !parts[1].hasPrefix(".") && !parts[1].hasSuffix(".")
            && !value.contains(where: { $0.isWhitespace || $0 == "<" || $0 == ">" || $0 == "," })
        return ok ? nil : "'\(value)' is not an e-mail address (name@example.org)"
    }

    /// `PART=COLOR` where PART is a part of the screens that has a color (`ColorSlots.names`) and COLOR a color name
    /// (`ColorSlots.colorNames`) or `#rrggbb`; or `PART=` to remove it.
    static func colorProblem(_ value: String) -> String? {
        guard let eq = value.firstIndex(of: "=") else { return "write PART=COLOR, such as key=cyan (or PART= to remove)" }
        let name = value[..<eq].trimming(.whitespaces), color = value[value.index(after: eq)...].trimming(.whitespaces)
        if name.isEmpty { return "the color needs a PART before '=' (the parts are listed below)" }
        if !ColorSlots.names.contains(name.lowercased()) {
            return "'\(name.shownAsText)' is not a part Folio colors (see parts below)"
        }
        if color.isEmpty || TerminalColor(parsing: color) != nil { return nil }
        return "'\(color.shownAsText)' is not a color (a name below, or #rrggbb)"
    }

    /// `NAME URL [REF]` where URL is a URL (https, http, ssh, git, file), `user@host:path`, or a folder that exists;
    /// or `-NAME` naming a configured source.
    static func sourceProblem(_ value: String, existing: [String], home: String?) -> String? {
        let words = value.split(separator: " ").map(String.init)
        if words.count == 1, words[0].hasPrefix("-") {
            let name = String(words[0].dropFirst())
            return existing.isEmpty || existing.contains(name) ? nil : "no template source named '\(name)' (\(existing.joined(separator: ", ")))"
        }
        guard (2...3).contains(words.count) else { return "write NAME URL [REF], or -NAME to remove" }
        return locationProblem(words[1], home: home)
    }

    /// The problem with a template source's location, nil for a URL or an existing local folder.
    static func locationProblem(_ location: String, home: String?) -> String? {
        if let (scheme, rest) = RemoteLocation.urlParts(location) {
            if let problem = RemoteLocation.schemeProblem(scheme) { return problem }
            if rest.isEmpty || rest.contains(where: \.isWhitespace) { return "'\(location)' is not a valid URL" }
            if scheme == "file" { return folderProblem(String(rest)) }
            return nil
        }
        if let colon = location.firstIndex(of: ":"), location[..<colon].contains("@"), !location[..<colon].contains("/") { return nil }
        var path = location
        if path == "~" || path.hasPrefix("~/") {
            guard let home else { return "'~' needs HOME to be set" }
            path = home + path.dropFirst()
        }
        return folderProblem(path)
    }

    static func folderProblem(_ path: String) -> String? {
        var isFolder: Bool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else { return "'\(path)' does not exist (a URL or a template folder)" }
        return isFolder ? nil : "'\(path)' is a file, not a template folder"
    }

    /// `CONTENT.TYPE=EDITOR` with an editor that is installed (when the list is known), or `CONTENT.TYPE=` to remove.
    static func associationProblem(_ value: String, editors: [String]) -> String? {
        guard let eq = value.firstIndex(of: "=") else { return "write CONTENT.TYPE=EDITOR (or CONTENT.TYPE= to remove)" }
        let type = value[..<eq].trimming(.whitespaces), editor = value[value.index(after: eq)...].trimming(.whitespaces)
        if type.isEmpty || !type.contains(".") || !type.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "." || $0 == "-" }) {
            return "'\(type)' is not a content type (such as org.folio.story)"
        }
        if editor.isEmpty || editors.isEmpty || editors.contains(editor) { return nil }
        return "no editor '\(editor)' is installed (\(editors.sorted().joined(separator: ", ")))"
    }
}
