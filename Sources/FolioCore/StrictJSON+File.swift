import FoundationEssentials

extension StrictJSON {
    /// `value` in the form Folio writes its JSON files (manifests, the plugin lock and links, package descriptions,
    /// fixtures): two-space pretty print, sorted keys, slashes unescaped and a newline at the end, so the same value
    /// is always the same bytes and a change diffs line by line.
    public static func fileData<T: Encodable>(_ value: T, dates: JSONEncoder.DateEncodingStrategy = .deferredToDate) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = dates
        return try encoder.encode(value) + Data("\n".utf8)
    }
}
