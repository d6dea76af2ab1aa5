import FoundationEssentials
import FolioBasics
import Glibc
import FolioCore
import FolioTemplates
import FolioTerminal

/// The templates `lint` and `test` work on: `DIR` (a folder holding template.json), `ID` (found in the sources),
/// or, with neither, every template of `--source` (default: the bundled ones). Also returns listing warnings
/// (a template whose manifest the source listing refused), which count as errors.
func authoringTrees(_ args: Arguments, _ io: CommandIO) throws -> (trees: [TemplateAuthoringTree], warnings: [String]) {
    let limits = TemplateLimits(settings: try Settings.load(environment: io.environment))
    if let target = args.positionals.count > 1 ? args.positionals[1] : nil {
        let url = io.url(target)
        var isDirectory: Bool = false
        if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), isDirectory {
            var tree = try TemplateAuthoringTree.read(folder: url, limits: limits)
            tree.name = target
            return ([tree], [])
        }
        if target.hasPrefix("/") || target.hasPrefix("."), FileManager.default.fileExists(atPath: url.path) {
            throw FolioError.invalidFile(path: url.path, problem: "not a template folder (give the folder holding template.json)")
        }
        let sources = try chosenSources(args, io)
        let resolver = try templateResolver(io, offline: args.flag("--offline"), args)
        return ([try waitFor { try await resolver.authoringTree(target, in: sources) }], [])
    }
    let sources = args.value("--source") == nil ? [TemplateSource.bundled] : try chosenSources(args, io)
    let resolver = try templateResolver(io, offline: args.flag("--offline"), args)
    var trees: [TemplateAuthoringTree] = []
    var warnings: [String] = []
    for source in sources {
        let found = try waitFor { try await resolver.authoringTrees(of: source) }
        trees += found.trees
        warnings += found.warnings
    }
    return (trees, warnings)
}

/// `folio templates lint [DIR|ID]`: findings as `file:line:column: severity CODE: message`; exit 1 on any error.
func lintTemplates(_ args: Arguments, _ io: CommandIO) throws -> Int32 {
    let (trees, warnings) = try authoringTrees(args, io)
    let reports = trees.map(TemplateLinter.lint)
    let failed = !warnings.isEmpty || reports.contains(where: \.hasErrors)
    if args.flag("--json") {
        struct Output: Encodable { let templates: [TemplateLintReport]; let sourceProblems: [String]; let errors: Int; let warnings: Int }
        let all = reports.flatMap(\.findings)
        try io.json(Output(templates: reports, sourceProblems: warnings, errors: all.filter { $0.severity == .error }.count + warnings.count,
                           warnings: all.filter { $0.severity == .warning }.count))
    } else {
        var text = ""
        for report in reports {
            // One line per finding, whatever path or value from the template it quotes.
            for finding in report.findings { text += "\(report.template)/\(finding)".shownAsText + "\n" }
        }
        io.text(text)
        for warning in warnings { io.error("folio templates lint: \(warning.shownAsText)") }
        let all = reports.flatMap(\.findings)
        let errors = all.filter { $0.severity == .error }.count + warnings.count
        let warned = all.filter { $0.severity == .warning }.count
        let summary = "\(reports.count) template\(reports.count == 1 ? "" : "s"): \(errors) error\(errors == 1 ? "" : "s"), \(warned) warning\(warned == 1 ? "" : "s")"
        if failed { io.error("folio templates lint: \(summary)") } else { io.line(summary) }
    }
    return failed ? FolioCommandLine.failure : 0
}
