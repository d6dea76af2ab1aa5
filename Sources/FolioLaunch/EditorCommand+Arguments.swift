import FolioCore

/// How the editor host reads a command's usage: the arguments it fills in from the cursor and those it asks for.
extension EditorCommand {
    /// The argument names from `usage`. `N` is an item number (taken from the cursor or the selection); any other
    /// word is asked for in a prompt.
    public var argumentNames: [String] { usage.split(separator: " ").dropFirst().map(String.init) }
    /// Whether an argument name is an item number the host fills in from the cursor or the selection.
    public static func isItemArgument(_ name: String) -> Bool { name == "N" || name == "ITEM" || name == "LINE" }
}
