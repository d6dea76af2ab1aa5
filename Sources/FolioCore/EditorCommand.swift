/// A command an editor offers: the one model of it in Folio — read from the plugin's descriptor, kept in its
/// manifest (`EditorManifest.commands`), listed by `folio commands` and `folio plugins info`, and bound to keys in
/// the editor host (the host's own commands, undo, history…, are values of it too).
///
/// In manifest JSON a command is `{"id", "title", "shortcut", "usage", "needsSelection"}`; reading defaults the
/// title and usage to the id, a missing or empty shortcut means none and `needsSelection` to false; writing writes
/// every key, the shortcut as `""` when there is none.
public struct EditorCommand: Codable, Sendable, Equatable {
    /// The id the plugin's `apply` receives, e.g. `add`.
    public var id: String
    /// The name shown in the command palette, e.g. `Add item`.
    public var title: String
    /// The key in the terminal UI as the editor declares it, e.g. `a`, `space`, `^B`; nil for none.
    public var shortcut: String?
    /// Whether the command acts on the cursor's item or the selection (the palette offers it only when there is one).
    public var needsSelection: Bool
    /// How the command is called, e.g. `rename N TITLE`: the words after the first name its arguments.
    public var usage: String

    /// Creates a command; the usage defaults to the id (no arguments) and an empty shortcut means none.
    public init(id: String, title: String, shortcut: String? = nil, needsSelection: Bool = false, usage: String? = nil) {
        self.id = id
        self.title = title
        self.shortcut = shortcut?.isEmpty == true ? nil : shortcut
        self.needsSelection = needsSelection
        self.usage = usage ?? id
    }

    private enum CodingKeys: String, CodingKey, CaseIterable { case id, title, shortcut, usage, needsSelection }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let id = try c.decode(String.self, forKey: .id)
        self.init(id: id, title: try c.decodeIfPresent(String.self, forKey: .title) ?? id,
                  shortcut: try c.decodeIfPresent(String.self, forKey: .shortcut),
                  needsSelection: try c.decodeIfPresent(Bool.self, forKey: .needsSelection) ?? false,
                  usage: try c.decodeIfPresent(String.self, forKey: .usage))
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id, forKey: .id)
        try c.encode(title, forKey: .title)
        try c.encode(shortcut ?? "", forKey: .shortcut)
        try c.encode(usage, forKey: .usage)
        try c.encode(needsSelection, forKey: .needsSelection)
    }
}
