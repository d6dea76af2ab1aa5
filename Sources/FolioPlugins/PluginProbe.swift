import FolioCore
import FolioDisplayWidth
import FolioPluginWire
import FolioPluginRuntime
import FolioSwiftToolchain
import FoundationEssentials
import Glibc

/// What `folio plugins check FILE.so` found: what the library provides, or why it is refused.
public struct PluginProbeReport: Codable, Sendable, Equatable {
    public var library: String
    /// Whether the library loads, passes every check and matches its manifest (when one is beside it).
    public var ok: Bool
    /// The one-line reason when it is refused (or crashed).
    public var refusal: String?
    public var id: String?
    public var name: String?
    public var version: String?
    /// "major.minor" the library was built for.
    public var abi: String?
    /// The Swift toolchain a Swift plugin was built with ("6.3.1", from its FolioPluginKit record); nil for C.
    public var swift: String?
    /// The manifest beside it that it was checked against; nil when it has none (its description is its manifest).
    public var manifest: String?
    public var editors: [EditorManifest]
    /// What the library wrote to standard output while it was loaded and checked (its constructors, its entry
    /// function), exactly as written, as far as it was kept (`PluginProbeOutput.keptBytes`); nil when nothing.
    public var printed: String?
    /// How many bytes it wrote to standard output in all (more than `printed` holds when it wrote a lot).
    public var printedBytes: Int?

    /// An empty report for `library`.
    public init(library: String) {
        self.library = library
        ok = false
        editors = []
    }
}

extension EditorRegistry {
    /// Checks `library` in a plugin host process (`folio-plugin-host --check FILE`, found as `isolation` finds it,
    /// started with its environment): the library is loaded there as it is to run, but with immediate binding, so a
    /// plugin that crashes or hangs cannot take the caller down and a missing symbol is refused by name. The host writes
    /// the library's description (or its refusal) on `HostWire.checkReportFD`; what the plugin printed to standard output
    /// is kept in the report (and named in a refusal). Here the description is checked against the manifest beside
    /// the library, when there is one, and a Swift plugin's toolchain is read from its file.
    public static func check(library: URL, isolation: PluginIsolation, timeout: Duration = .seconds(20)) -> PluginProbeReport {
        var report = PluginProbeReport(library: library.path)
        let result: ChildResult
        do {
            result = try ChildProcess.run(executable: try isolation.hostExecutable().path, arguments: ["--check", library.path],
                                          environment: isolation.environment, timeout: timeout, reportFD: HostWire.checkReportFD)
        } catch {
            report.refusal = "\(library.path): cannot start the check: \(error)"
            return report
        }
        let printed = PluginProbeOutput(result.printed, total: result.printedBytes)
        if let reply = try? JSONDecoder().decode(HostCheckReply.self, from: result.output), result.signal == nil {
            var decoded = reply.report(library: library)
            decoded.printed = printed.text
            decoded.printedBytes = printed.text == nil ? nil : printed.total
            return decoded
        }
        report.printed = printed.text
        report.printedBytes = printed.text == nil ? nil : printed.total
        let what: String
        if let signal = result.signal {
            let name = ChildProcess.signalName(signal)
            what = result.timedOut ? "it did not finish loading within \(timeout)"
                : "loading it crashed the process (signal \(signal)\(name.map { ", \($0)" } ?? ""))"
        } else {
            what = "the check exited with status \(result.status) and no report"
        }
        report.refusal = "\(library.path): plugin refused: \(what)" + (printed.summary.map { "; \($0)" } ?? "")
        return report
    }
}

/// What `folio-plugin-host --check` writes (see `HostCheck`): the library's description, or why it was refused.
private struct HostCheckReply: Decodable {
    var ok: Bool
    var reason: String?
    var id: String?
    var name: String?
    var version: String?
    var abi: String?
    var editors: [EditorManifest]?

    /// The report on `library`: refused as the host said, or described and checked against the manifest beside it.
    func report(library: URL) -> PluginProbeReport {
        var report = PluginProbeReport(library: library.path)
        guard ok, let id, let name, let version, let abi, let editors else {
            report.refusal = "\(PluginRefusal(file: library.path, reason: reason ?? "the plugin host gave no reason"))"
            return report
        }
        report.id = id
        report.name = name
        report.version = version
        report.abi = abi
        report.swift = PluginELF.read(library.path)?.swiftRecord.flatMap(SwiftToolchain.version(record:))
        report.editors = editors
        do {
            report.manifest = try checkManifest(library: library)
            report.ok = true
        } catch {
            report.refusal = "\(error)"
        }
        return report
    }

    /// A manifest beside the library (an installed plugin) must say what the library says; without one, the
    /// description is the manifest discovery generates. Returns the manifest's path, nil when there is none.
    private func checkManifest(library: URL) throws -> String? {
        let manifestURL = ManifestLocator.besideManifest(for: library)
        guard FileManager.default.fileExists(atPath: manifestURL.path) else { return nil }
        let manifest: PluginManifest
        do { manifest = try PluginManifest.load(from: manifestURL) } catch {
            throw PluginRefusal(file: library.path, reason: "bad manifest: \(error)")
        }
        let major = abi.flatMap { $0.split(separator: ".").first.flatMap { Int($0) } } ?? -1
        try PluginManifestCheck.check(library: library, id: id ?? "", abiMajor: major, version: version ?? "",
                                      editors: editors ?? [], against: manifest, manifestURL: manifestURL)
        return manifestURL.path
    }
}

/// What a checked plugin printed to standard output: the first `keptBytes` bytes, and how many there were.
public struct PluginProbeOutput: Sendable, Equatable {
    /// The most bytes of a plugin's standard output kept in a report.
    public static let keptBytes = 4096
    /// The most characters of it quoted in one line.
    public static let quotedCharacters = 200

    /// The kept bytes as text (invalid UTF-8 replaced); nil when the plugin printed nothing.
    public let text: String?
    /// How many bytes it printed in all.
    public let total: Int
    /// Whether `text` holds all of it.
    public let isWhole: Bool

    /// The output of a report: `kept` bytes of `total`.
    public init(_ kept: Data, total: Int) {
        let kept = kept.prefix(Self.keptBytes)
        text = kept.isEmpty ? nil : String(decoding: kept, as: UTF8.self)
        self.total = total
        isWhole = total <= kept.count
    }

    /// The output of `report`.
    public init(_ report: PluginProbeReport) {
        text = report.printed
        total = report.printedBytes ?? report.printed?.utf8.count ?? 0
        isWhole = total <= (report.printed?.utf8.count ?? 0)
    }

    /// `the plugin printed to standard output: "…"` on one line: backslashes and quotes escaped, then shown as text
    /// (`shownAsText`: newlines, tabs and every other control character as visible escapes), cut after
    /// `quotedCharacters` characters; nil when it printed nothing.
    public var summary: String? {
        guard let text else { return nil }
        let quoted = String(text.prefix(Self.quotedCharacters)).replacing("\\", with: "\\\\").replacing("\"", with: "\\\"").shownAsText
        let cut = text.count > Self.quotedCharacters || !isWhole
        return "the plugin printed to standard output: \"\(quoted)\"" + (cut ? "… (\(total) bytes in all)" : "")
    }
}

