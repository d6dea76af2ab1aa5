// folio-bench: Folio measured side by side with its peers, in one run.
// Usage: swift run -c release folio-bench SUITE [--json] [--n N] [--keep]  (--keep leaves the scratch folder)
import Foundation

let arguments = Array(CommandLine.arguments.dropFirst())
// The soak's writer process (`soak` starts it; not a suite).
if arguments.first == "soak-writer" { exit(soakWriter(arguments)) }
let json = arguments.contains("--json")
let suites: [String: (Bench) throws -> Void] = [
    "changes": changesSuite,
    "history": historySuite,
    "size": sizeSuite,
    "templates": templatesSuite,
    "plugins": pluginsSuite,
    "launch": launchSuite,
    "checklist-diff": checklistDiffSuite,
    "startup": startupSuite,
    "soak": soakSuite,
    "mustache": mustacheSuite,
    "jinja": jinjaSuite,
    "fetch": fetchSuite,
    "sharing": sharingSuite,
    "pull-memory": pullMemorySuite,
    "model": modelSuite,
]
guard let name = arguments.first(where: { !$0.hasPrefix("--") && Int($0) == nil }), let suite = suites[name] else {
    FileHandle.standardError.write(Data("usage: folio-bench \(suites.keys.sorted().joined(separator: "|")) [--json] [--n N]\n".utf8))
    exit(2)
}
let bench = Bench(json: json, arguments: arguments)
do {
    try suite(bench)
    bench.finish()
    if arguments.contains("--keep") { FileHandle.standardError.write(Data("kept \(bench.work.path)\n".utf8)) } else { bench.cleanUp() }
} catch {
    if arguments.contains("--keep") { FileHandle.standardError.write(Data("kept \(bench.work.path)\n".utf8)) } else { bench.cleanUp() }
    FileHandle.standardError.write(Data("folio-bench \(name): \(error)\n".utf8))
    exit(1)
}
