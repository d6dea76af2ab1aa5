/// A command's positional arguments with checks that fail as `EditorFailure.invalidArgument`.
public struct CommandArguments: Sendable, Equatable {
    /// The raw strings.
    public let values: [String]
    /// The command's usage, quoted in errors.
    public let usage: String

    /// Wraps positional argument strings.
    public init(_ values: [String], usage: String = "") {
        self.values = values
        self.usage = usage
    }

    private func fail(_ message: String) -> EditorFailure {
        .invalidArgument(usage.isEmpty ? message : "\(message) (usage: \(usage))")
    }

    /// Fails unless exactly `count` arguments (or between `count` and `maximum`) were given.
    public func expect(_ count: Int, upTo maximum: Int? = nil) throws {
        let upper = maximum ?? count
        if values.count < count { throw fail("expected \(count == upper ? "" : "at least ")\(count) argument\(count == 1 ? "" : "s"), got \(values.count)") }
        if values.count > upper { throw fail("expected at most \(upper) argument\(upper == 1 ? "" : "s"), got \(values.count)") }
    }

    /// The text at `index`, named `name` in errors.
    public func text(_ index: Int, _ name: String) throws -> String {
        guard index >= 0, index < values.count else { throw fail("missing \(name)") }
        return values[index]
    }

    /// The optional text at `index`.
    public func optionalText(_ index: Int) -> String? {
        index >= 0 && index < values.count ? values[index] : nil
    }

    /// A whole number at `index` within `range`.
    public func int(_ index: Int, _ name: String, in range: ClosedRange<Int>) throws -> Int {
        let raw = try text(index, name)
        guard let number = Int(raw.trimmingCharacters(in: " ")) else { throw fail("\(name) must be a whole number, got '\(raw)'") }
        guard range.contains(number) else { throw fail("\(name) must be between \(range.lowerBound) and \(range.upperBound), got \(number)") }
        return number
    }

    /// An item number (from 1) among `count` items, returned as a 0-based index.
    public func item(_ index: Int, _ name: String, count: Int) throws -> Int {
        let raw = try text(index, name)
        guard let number = Int(raw.trimmingCharacters(in: " ")) else { throw fail("\(name) must be a whole number, got '\(raw)'") }
        guard count > 0 else { throw fail("\(name) \(number) is out of range: there are no items") }
        guard number >= 1, number <= count else { throw fail("\(name) \(number) is out of range 1…\(count)") }
        return number - 1
    }
}

extension String {
    fileprivate func trimmingCharacters(in set: Character) -> Substring {
        var slice = self[...]
        while slice.first == set { slice = slice.dropFirst() }
        while slice.last == set { slice = slice.dropLast() }
        return slice
    }
}
