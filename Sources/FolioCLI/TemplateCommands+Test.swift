import FoundationEssentials
import Glibc
import FolioCore
import FolioSync
import FolioTemplates
import FolioTerminal

/// `folio templates test [DIR|ID] [--update-golden]`: runs each template's fixtures; prints what differs; exit 1 on a failure.
func testTemplates(_ args: Arguments, _ io: CommandIO) throws -> Int32 {
    let (trees, warnings) = try authoringTrees(args, io)
    let limits = TemplateLimits(settings: try Settings.load(environment: io.environment))
    let updateGolden = args.flag("--update-golden")
    let reports = try trees.map { try TemplateTester.run($0, updateGolden: updateGolden, limits: limits) }
    let fixtures = reports.flatMap(\.fixtures)
    let failures = fixtures.filter { !$0.passed }.count
    let noFixtures = reports.filter { $0.fixtures.isEmpty }.map(\.template)
    let failed = failures > 0 || !warnings.isEmpty || !noFixtures.isEmpty
    if args.flag("--json") {
        struct Output: Encodable { let templates: [TemplateTestReport]; let sourceProblems: [String]; let passed: Bool }
        try io.json(Output(templates: reports, sourceProblems: warnings, passed: !failed))
        return failed ? FolioCommandLine.failure : 0
    }
    var text = ""
    for report in reports {
        for fixture in report.fixtures {
            let status = fixture.updated ? "UPDATED" : fixture.passed ? "ok" : "FAIL"
            text += "\(status) \(report.template.shownAsText) \(fixture.name.shownAsText) (\(fixture.kind))\n"
            if !fixture.passed || fixture.updated { text += fixture.differences.map { "  \($0.shownAsText)\n" }.joined() }
        }
    }
    io.text(text)
    for warning in warnings { io.error("folio templates test: \(warning.shownAsText)") }
    for template in noFixtures { io.error("folio templates test: \(template.shownAsText) has no fixtures (tests/NAME/fixture.json)") }
    let summary = "\(fixtures.count) fixture\(fixtures.count == 1 ? "" : "s") in \(reports.count) template\(reports.count == 1 ? "" : "s"): "
        + "\(fixtures.count - failures) passed, \(failures) failed" + (updateGolden ? ", \(fixtures.filter(\.updated).count) rewritten" : "")
    if failed { io.error("folio templates test: \(summary)") } else { io.line(summary) }
    return failed ? FolioCommandLine.failure : 0
}
