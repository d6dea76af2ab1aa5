import FolioCore
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

extension PluginHost {
    /// Loads `library` into this process and describes it. Used by the child process of `check`; a plugin that
    /// crashes takes this process down with it.
    public static func probe(library: URL) -> PluginProbeReport {
        var report = PluginProbeReport(library: library.path)
        do {
            let loaded = try LoadedPlugin.load(library)
            report.id = loaded.id
            report.name = loaded.name
            report.version = loaded.version
            report.abi = "\(loaded.abiMajor).\(loaded.abiMinor)"
            report.swift = PluginELF.read(library.path)?.swiftRecord.flatMap(SwiftToolchain.version(record:))
            report.editors = loaded.editors.map(\.manifest)
            // A manifest beside the library (an installed plugin) must say what the library says; without one, the
            // description above is the manifest discovery generates.
            let manifestURL = ManifestLocator.besideManifest(for: library)
            if FileManager.default.fileExists(atPath: manifestURL.path) {
                report.manifest = manifestURL.path
                let manifest: PluginManifest
                do { manifest = try PluginManifest.load(from: manifestURL) } catch {
                    throw PluginRefusal(file: library.path, reason: "bad manifest: \(error)")
                }
                try loaded.check(against: manifest, manifestURL: manifestURL)
            }
            report.ok = true
        } catch {
            report.refusal = "\(error)"
        }
        return report
    }

    /// The descriptor on which the child of `check` writes its report: the plugin's own standard output is a separate
    /// channel, so nothing a plugin prints can be taken for (or spoil) the report.
    public static let probeReportFD: Int32 = 3

    /// The child's side of `check`: probes `library` and writes the report as JSON on `probeReportFD` (on standard
    /// output when that descriptor is not the parent's socket: a manual run). Returns whether the library passed.
    public static func runProbeChild(library: URL) -> Bool {
        var info = stat()
        let fromParent = fstat(probeReportFD, &info) == 0 && info.st_mode & S_IFMT == S_IFSOCK
        // Moved out of the plugin's way (and closed on exec) before any of its code runs.
        let reportFD = fromParent ? fcntl(probeReportFD, F_DUPFD_CLOEXEC, 10) : STDOUT_FILENO
        if fromParent, reportFD >= 0 { close(probeReportFD) }
        let report = probe(library: library)
        fflush(nil)  // what the plugin printed through C's stdio reaches its channel before the report ends
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard reportFD >= 0, let data = try? encoder.encode(report) else { return false }
        let line = data + Data("\n".utf8)
        return line.withUnsafeBytes { AtomicFile.writeAll(reportFD, $0) } && report.ok
    }

    /// Checks `library` in a child process (`executable ARGUMENTS… FILE`, spawned with posix_spawn) so that a plugin
    /// that crashes or hangs cannot take the caller down. The child writes a `PluginProbeReport` as JSON on
    /// `probeReportFD`; what the plugin printed to standard output is kept in the report (and named in a refusal).
    public static func check(library: URL, executable: URL, arguments: [String], environment: [String: String],
                             timeout: Duration = .seconds(20)) -> PluginProbeReport {
        var report = PluginProbeReport(library: library.path)
        let result: ChildResult
        do {
            result = try ChildProcess.run(executable: executable.path, arguments: arguments + [library.path], environment: environment,
                                          timeout: timeout, reportFD: probeReportFD)
        } catch {
            report.refusal = "\(library.path): cannot start the check: \(error)"
            return report
        }
        let printed = PluginProbeOutput(result.printed, total: result.printedBytes)
        if var decoded = try? JSONDecoder().decode(PluginProbeReport.self, from: result.output), result.signal == nil {
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

    /// `the plugin printed to standard output: "…"` on one line (newlines, tabs, quotes and backslashes escaped; other
    /// control characters are left to the output's own escaping), cut after `quotedCharacters` characters; nil
    /// when it printed nothing.
    public var summary: String? {
        guard let text else { return nil }
        var quoted = ""
        for character in text.prefix(Self.quotedCharacters) {
            switch character {
            case "\n": quoted += "\\n"
            case "\r\n": quoted += "\\r\\n"
            case "\r": quoted += "\\r"
            case "\t": quoted += "\\t"
            case "\"": quoted += "\\\""
            case "\\": quoted += "\\\\"
            default: quoted.append(character)
            }
        }
        let cut = text.count > Self.quotedCharacters || !isWhole
        return "the plugin printed to standard output: \"\(quoted)\"" + (cut ? "… (\(total) bytes in all)" : "")
    }
}

