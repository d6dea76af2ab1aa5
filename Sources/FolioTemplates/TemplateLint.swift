import FoundationEssentials
import Glibc
import FolioCore

/// One problem `folio templates lint` found: a stable code, where, how bad, and why.
public struct TemplateLintFinding: Sendable, Equatable, Encodable, CustomStringConvertible {
    /// How bad a finding is: errors make `lint` fail.
    public enum Severity: String, Sendable, Encodable { case error, warning }

    /// The stable code (`T101` …), documented in docs/TEMPLATES.md.
    public let code: String
    public let severity: Severity
    /// The file, relative to the template's folder (`template.json`, `files/…`, `partials/….mustache`).
    public let file: String
    /// 1-based line, 0 when the finding has no position.
    public let line: Int
    /// 1-based column (Unicode scalars), 0 when the finding has no position.
    public let column: Int
    public let message: String

    /// Creates a finding; the severity comes from the code's entry in `TemplateLintCode`.
    public init(_ code: TemplateLintCode, file: String, line: Int = 0, column: Int = 0, _ message: String) {
        self.code = code.rawValue
        self.severity = code.severity
        self.file = file
        self.line = line
        self.column = column
        self.message = message.split(whereSeparator: \.isNewline).joined(separator: " ")
    }

    /// `file:line:column: severity CODE: message` (the position left out when unknown).
    public var description: String {
        let position = line > 0 ? ":\(line):\(column)" : ""
        return "\(file)\(position): \(severity.rawValue) \(code): \(message)"
    }
}

/// Every lint code, with its severity. Codes never change meaning; new checks get new codes.
public enum TemplateLintCode: String, Sendable, CaseIterable {
    // Manifest schema.
    case manifestMissing = "T101"
    case manifestInvalidJSON = "T102"
    case unknownKey = "T103"
    case wrongType = "T104"
    case missingKey = "T105"
    case invalidID = "T106"
    case invalidVersion = "T107"
    case noVersion = "T108"
    case newerFolio = "T109"
    case invalidVariableName = "T110"
    case duplicateVariable = "T111"
    case choicesMismatch = "T112"
    case invalidPattern = "T113"
    case minAboveMax = "T114"
    case whenNotEarlier = "T115"
    case badDefault = "T116"
    case manifestRefused = "T117"
    // Tags.
    case mustacheSyntax = "T201"
    case unknownName = "T202"
    case unknownHelper = "T203"
    case unusedVariable = "T204"
    case missingPartial = "T205"
    case notUTF8 = "T206"
    case jinjaSyntax = "T207"
    // Globs.
    case excludeMatchesNothing = "T301"
    case copyOnlyMatchesNothing = "T302"
    case copyOnlyHasTags = "T303"
    // Paths and rendering.
    case unsafePathSegment = "T401"
    case refusedPath = "T402"
    case primaryFileMissing = "T403"
    case renderFails = "T404"
    // Fixtures.
    case noFixtures = "T501"

    /// Errors make the template unusable or wrong; warnings point at dead or surprising parts.
    public var severity: TemplateLintFinding.Severity {
        switch self {
        case .noVersion, .newerFolio, .unusedVariable, .notUTF8, .excludeMatchesNothing, .copyOnlyMatchesNothing, .copyOnlyHasTags, .noFixtures:
            return .warning
        default:
            return .error
        }
    }
}

/// What lint found in one template.
public struct TemplateLintReport: Sendable, Encodable {
    /// The template's name as given (its folder or `source: path`).
    public let template: String
    /// Findings ordered by file, line, column and code.
    public let findings: [TemplateLintFinding]

    /// Whether any finding is an error.
    public var hasErrors: Bool { findings.contains { $0.severity == .error } }
}

/// Checks a template's manifest and meaning without instantiating it (`folio templates lint`).
public enum TemplateLinter {
    /// The context a fixture-less render for lint uses for `folder_name` and `current_year` in defaults.
    static let sampleContext: [String: JSONValue] = ["folder_name": .string("example-project"), "current_year": .string("2025")]

    /// Lints `tree`. Never throws: every problem, including an unreadable manifest, is a finding.
    public static func lint(_ tree: TemplateAuthoringTree) -> TemplateLintReport {
        var findings: [TemplateLintFinding] = []
        if isForeign(tree) {
            findings = lintForeign(tree)
            findings.sort { ($0.file, $0.line, $0.column, $0.code) < ($1.file, $1.line, $1.column, $1.code) }
            return TemplateLintReport(template: tree.name, findings: findings)
        }
        let manifest = lintManifest(tree.manifest, into: &findings)
        if let manifest {
            var meaning = MeaningLint(tree: tree, manifest: manifest)
            meaning.run()
            findings += meaning.findings
        }
        if !tree.tests.contains(where: { $0.path.hasSuffix("/fixture.json") }) {
            findings.append(TemplateLintFinding(.noFixtures, file: "tests", "no fixtures (tests/NAME/fixture.json); `folio templates test` has nothing to check"))
        }
        findings.sort { ($0.file, $0.line, $0.column, $0.code) < ($1.file, $1.line, $1.column, $1.code) }
        return TemplateLintReport(template: tree.name, findings: findings)
    }
}
