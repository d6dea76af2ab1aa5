import Foundation

/// {{summary}}
public struct {{name}}: Sendable {
    /// The greeting used when no name is given.
    public static let defaultName = "world"

    /// Creates a value.
    public init() {}

    /// A friendly greeting for `name`.
    public func greeting(for name: String = defaultName) -> String {
        let trimmed = name.trimmingCharacters(in: .whitespaces)
        return "Hello, \(trimmed.isEmpty ? Self.defaultName : trimmed)!"
    }
}
