/// The protocol between Folio and its plugin host process, the part both sides share: the header layout, the version
/// and the message kinds, in a module of their own that both sides import (Folio's side, with deadlines, is `PluginWire`
/// in FolioPlugins; the host's blocking codec over `[UInt8]` is `HostChannel` in FolioPluginHost). Free of Foundation and
/// of Glibc, so that the host executable loads nothing a plugin does not need.
///
///     magic u32 "FPLH" | version u16 | kind u16 | sequence u32 | length u32     (little-endian)
///
/// then the payload: fields, each `length u32` + bytes; integers are 8-byte little-endian fields.
public enum HostWire {
    public static let magic: UInt32 = 0x4850_4C46  // "FPLH" as little-endian bytes
    /// Bumped on any incompatible change. 2: the host is its own executable and the `load` reply describes the
    /// library (Folio checks it against the manifest). 3: `items` and `take` (the `folio.items/1` extension). 4: the selection fields end with
    /// the view pan (x, y), and `values` (the `folio.argument-values/1` extension).
    public static let version: UInt16 = 4
    public static let headerSize = 16
    /// The most fields a message may have.
    public static let maximumFields = 64

    /// Message kinds: requests from Folio (1…), replies from the host (100…).
    public enum Kind: UInt16, Sendable {
        case load = 1, open, apply, serialize, render, release, diff, merge, items, take, values
        case ready = 100, ok, failure, conflicts
    }

    /// The largest message payload for a plugin buffer cap: three plugin buffers (a merge) plus room for the rest.
    public static func messageCap(bufferCap: Int) -> Int {
        let (tripled, overflow) = bufferCap.multipliedReportingOverflow(by: 3)
        return overflow ? Int(UInt32.max) : min(Int(UInt32.max), tripled + (64 << 10))
    }

    /// The bytes of an integer field.
    public static func integer(_ value: Int64) -> [UInt8] {
        withUnsafeBytes(of: value.littleEndian) { Array($0) }
    }

    /// The descriptor on which a plugin host started for `folio plugins check` (`folio-plugin-host --check LIBRARY`)
    /// writes its one JSON report; the plugin's standard output is a channel of its own.
    public static let checkReportFD: Int32 = 3

    /// The descriptor a plugin host started to run plugins is given its end of the socket on.
    public static let socketFD: Int32 = 3

    /// The descriptor a plugin host started to run plugins writes its refusals on, one line each (`CATEGORY SYSCALL`,
    /// e.g. `network connect`), at the moment the kernel refuses the plugin a system call: Folio reads them to name what
    /// a plugin tried when its call fails or it crashes.
    public static let refusalFD: Int32 = 4

    /// The argument that starts a plugin host without confinement (`folio-bench plugins` only, for the comparison).
    public static let unconfinedOption = "--unconfined"

    /// The argument naming the folder of the plugins' own logs: once its plugin is loaded (before it is confined), a
    /// host appends its standard error to `FOLDER/ID.log` (`logFileName`), so each plugin's output is its own.
    public static let logFolderOption = "--log-folder"

    /// The most bytes a plugin's log keeps: past it, the host starts it again when it opens it.
    public static let logLimit = 512 << 10

    /// The file name of plugin `id`'s log, nil when the id cannot name a file (empty, starting with `.`, holding `/` or
    /// control characters, over 200 bytes): such a plugin's output stays in the hosts' shared log.
    public static func logFileName(forPlugin id: String) -> String? {
        guard !id.isEmpty, !id.hasPrefix("."), !id.contains("/"), id.utf8.count <= 200,
              !id.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else { return nil }
        return id + ".log"
    }

    /// How many generated calls `folio-plugin-host --validate calls` makes from the sample before starting from it
    /// again; Folio's shrinker replays a failing call from the start of its walk.
    public static let validateWalkLength = 50

    /// The most bytes a `folio.argument-values/1` answer may have (a scene's text, as `$EDITOR` may give back): Folio
    /// ignores a longer one, and the validating host passes on no more than one byte past it.
    public static let argumentValuesByteLimit = 1 << 20
}
