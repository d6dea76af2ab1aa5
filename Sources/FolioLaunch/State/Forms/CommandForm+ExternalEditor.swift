import FoundationEssentials
import Glibc
import FolioTerminal

/// Carries out `AppEffect.editArgumentText`: the focused text field of a command's form edited in the user's editor
/// (`$VISUAL`/`$EDITOR`, as git chooses it), in a private temporary file, the terminal handed over meanwhile.
enum CommandFormEditing {
    /// The most text taken back from the editor (a scene's text, not a data file).
    static let limit = 1 << 20

    /// Edits `text` and gives the result (or the reason it could not) to the open form.
    static func carryOut(_ text: String, state: inout AppState, terminal: TerminalSession, environment: [String: String]) {
        do {
            let edited = try edit(text) { file in try terminal.suspended { try ExternalEditor(environment: environment).run(file: file) } }
            state.editedArgumentText(edited)
        } catch {
            state.editedArgumentText(nil, failure: LaunchApp.oneLine(error))
        }
    }

    /// Writes `text` to a file only this user can read, lets `run` edit it, and reads it back.
    static func edit(_ text: String, run: (String) throws -> Void) throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("folio-edit-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("text.txt")
        guard FileManager.default.createFile(atPath: file.path, contents: Data(text.utf8), attributes: [.posixPermissions: 0o600]) else {
            throw ExternalEditorError(command: "editor", problem: "cannot write \(file.path)", ran: false)
        }
        try run(file.path)
        let data = try Data(contentsOf: file)
        guard data.count <= limit else { throw ExternalEditorError(command: "editor", problem: "the text is over \(limit) bytes; the field is as it was", ran: true) }
        guard let edited = String(data: data, encoding: .utf8) else {
            throw ExternalEditorError(command: "editor", problem: "the text is not UTF-8; the field is as it was", ran: true)
        }
        return edited
    }
}
