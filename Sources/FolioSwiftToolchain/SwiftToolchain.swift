/// The Swift toolchain a module was compiled with. A Swift plugin must come from the same toolchain as Folio: Swift
/// has no stable ABI on Linux, and a plugin runs on Folio's shipped copy of the runtime. FolioPluginKit links this
/// module, so every Swift plugin carries the record (`folio_swift` ELF section) that Folio checks before loading it.
public enum SwiftToolchain {
    /// The name of the ELF section holding the record.
    public static let sectionName = "folio_swift"

    /// "MAJOR.MINOR.PATCH" of the compiler that compiled this module (e.g. "6.3.1"); nil when outside the known range.
    public static var version: String? { version(record: withUnsafeBytes(of: swiftToolchainRecord) { Array($0) }) }

    /// The version a record's bytes name, or nil when they are not a record of format 1 or name no known version.
    public static func version(record bytes: [UInt8]) -> String? {
        guard bytes.count >= 8, bytes[0] == 70, bytes[1] == 83, bytes[2] == 86, bytes[3] == 1, bytes[4] != 0 else { return nil }
        return "\(bytes[4]).\(bytes[5]).\(bytes[6])"
    }
}
