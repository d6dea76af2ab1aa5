/// Why a plugin file was refused: the file and the reason, printed as one line.
public struct PluginRefusal: Error, CustomStringConvertible, Sendable, Equatable {
    /// The refused file (library or manifest).
    public let file: String
    /// Why, e.g. "not a shared object (no ELF header)".
    public let reason: String

    /// Creates a refusal.
    public init(file: String, reason: String) {
        self.file = file
        self.reason = reason
    }

    public var description: String { "\(file): plugin refused: \(reason)" }
}

/// An editor operation that failed inside a plugin: which editor, what, and the plugin's message.
public struct EditorOperationError: Error, CustomStringConvertible, Sendable, Equatable {
    /// What the status code means.
    public enum Kind: String, Sendable {
        case invalidArgument = "invalid argument", unknownCommand = "unknown command", invalidDocument = "invalid document"
        case conflict, unsupported, outOfMemory = "out of memory", `internal` = "internal error"
    }
    public let editor: String
    public let operation: String
    public let kind: Kind
    public let message: String
    /// What the kernel refused the plugin during the call (its confinement), when it tried anything.
    public var refused: PluginRefusedCalls?

    /// Creates an operation error; `refused` names what the plugin was refused during the call.
    public init(editor: String, operation: String, kind: Kind, message: String, refused: PluginRefusedCalls? = nil) {
        self.editor = editor
        self.operation = operation
        self.kind = kind
        self.message = message
        self.refused = refused
    }

    public var description: String {
        let text = message.isEmpty ? kind.rawValue : message
        return "\(editor) \(operation): " + text.split(whereSeparator: \.isNewline).joined(separator: " ") + (refused.map { " (\($0))" } ?? "")
    }
}
