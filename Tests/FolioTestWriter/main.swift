// Usage: folio-test-writer DOC COUNT LABEL [--sync full|none]
// Makes COUNT changes to DOC, each writing "<LABEL> <i>" to <LABEL>.txt with message "<LABEL> change <i>",
// and prints "ack <i>" once the change is acknowledged (committed and in the work tree).
// With LABEL ":compact", compacts DOC COUNT times instead, printing "compacted <i>" after each.
import FolioCore
import Foundation

let arguments = CommandLine.arguments
guard arguments.count >= 4, let count = Int(arguments[2]) else {
    FileHandle.standardError.write(Data("usage: folio-test-writer DOC COUNT LABEL [--sync full|none]\n".utf8))
    exit(2)
}
let label = arguments[3]
var settings = Settings()
if arguments.count >= 6, arguments[4] == "--sync", let mode = SyncMode(rawValue: arguments[5]) { settings.sync = mode }

do {
    let store = DocumentStore(settings: settings, environment: ProcessInfo.processInfo.environment)
    let document = try store.open(at: URL(fileURLWithPath: arguments[1]))
    for i in 1...max(count, 1) {
        if label == ":compact" {
            try document.compact()
            FileHandle.standardOutput.write(Data("compacted \(i)\n".utf8))
            continue
        }
        try document.write(Data("\(label) \(i)\n".utf8), to: "\(label).txt", message: "\(label) change \(i)")
        FileHandle.standardOutput.write(Data("ack \(i)\n".utf8))
    }
    DocumentMaintenance.waitForAll()
} catch {
    FileHandle.standardError.write(Data("folio-test-writer: \(error)\n".utf8))
    exit(1)
}
