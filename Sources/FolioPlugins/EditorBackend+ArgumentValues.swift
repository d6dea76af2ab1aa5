import FolioCore
import FolioPluginABI
import FolioPluginWire
import FoundationEssentials
import FolioBasics
import Glibc

/// A command's arguments as the item has them now (`folio.argument-values/1`), for a form to start from.
public enum ArgumentValues {
    /// The most bytes an answer may have (a scene's text, as `$EDITOR` may give back).
    public static let byteLimit = HostWire.argumentValuesByteLimit

    /// Reads and checks a plugin's answer — the one place it comes in, from either backend: UTF-8 of at most
    /// `byteLimit` bytes, a JSON array of exactly `count` elements, each a string (without NUL) or null. Anything else
    /// throws with what is wrong; the caller ignores the answer then.
    public static func parse(_ data: Data, count: Int, editor: String, command: String) throws -> [String?] {
        func refuse(_ why: String) -> EditorOperationError {
            EditorOperationError(editor: editor, operation: "argument values of '\(PluginText.description(command))'", kind: .internal, message: why)
        }
        guard data.count <= byteLimit else { throw refuse("the answer is \(data.count) bytes, over the limit of \(byteLimit)") }
        guard String(validating: [UInt8](data), as: UTF8.self) != nil else { throw refuse("the answer is not UTF-8") }
        // FolioCore's parser: bounded depth, positioned errors, no trap on hostile input.
        let node: JSONNode
        do { node = try JSONNode.parse(data) } catch { throw refuse("the answer is not JSON: \(error)") }
        guard case let .array(elements) = node.kind else { throw refuse("the answer is not a JSON array") }
        guard elements.count == count else { throw refuse("the answer has \(elements.count) values for \(count) arguments") }
        return try elements.enumerated().map { index, element in
            switch element.kind {
            case .null: return nil
            case let .string(text) where !text.contains("\0"): return text
            default: throw refuse("value \(index + 1) is neither a string nor null")
            }
        }
    }
}

extension IsolatedDocument {
    /// Asks the plugin's host process; its answer is checked here (`ArgumentValues.parse`).
    func argumentValues(_ command: String, count: Int, selection: ViewSelection) throws -> [String?]? {
        let reply = try call(.values, "argument values", [Data(command.utf8)] + Self.selectionFields(selection), limit: editor.plugin.isolation.limits.call)
        try editor.check(reply, "argument values")
        guard let answer = reply.fields.first else { return nil }
        return try ArgumentValues.parse(answer, count: count, editor: editor.editorID, command: command)
    }
}

extension FolioExtensionID {
    /// `folio.argument-values/1` (ABI 1.2): a command's arguments as the item has them now.
    public static let argumentValues = "folio.argument-values/1"
}

extension EditorRegistry {
    /// The current values of `command`'s arguments in the document's primary file at version `base` (default: the
    /// newest) for `selection`, checked (`ArgumentValues.parse`); nil when the editor has none for it (an editor
    /// built for ABI 1.0/1.1 never has). Throws when the plugin fails or its answer is malformed.
    public func argumentValues(document: Document, command: String, base: String? = nil, selection: ViewSelection = ViewSelection(),
                               associations: [String: String] = [:], editor override: String? = nil) throws -> [String?]? {
        let chosen = try chooseEditor(for: document, associations: associations, override: override)
        guard chosen.extensions.contains(FolioExtensionID.argumentValues),
              let count = chosen.commands.first(where: { $0.id == command })?.argumentNames.count else { return nil }
        let shown = try base.map { "\(try document.resolve($0))" }
        let opened = try backend(chosen.id).openDocument(try document.read(path: document.metadata.primaryFile, at: shown))
        return try opened.argumentValues(command, count: count, selection: selection)
    }
}
