import Foundation
import FolioCLI
import Synchronization
@_exported import FolioTestSupport

/// Captured output of an in-process `folio` run (written from the command's threads, read after it returns).
public final class CapturedOutput: Sendable {
    private let text = Mutex((out: "", err: ""))
    public init() {}
    public func appendOut(_ s: String) { text.withLock { $0.out += s } }
    public func appendErr(_ s: String) { text.withLock { $0.err += s } }
    public var stdout: String { text.withLock { $0.out } }
    public var stderr: String { text.withLock { $0.err } }
}

/// Runs `folio` in-process with captured output; returns the exit code and what it printed.
@discardableResult
public func runFolio(_ arguments: [String], environment: [String: String], cwd: URL, stdin: Data = Data(), interactive: Bool = false) -> RunResult {
    let captured = CapturedOutput()
    let io = CommandIO(environment: environment, currentDirectory: cwd, isInteractive: interactive,
                       out: { captured.appendOut($0) }, err: { captured.appendErr($0) }, stdin: { stdin })
    let status = FolioCommandLine.run(arguments, io: io)
    return RunResult(status: status, stdout: captured.stdout, stderr: captured.stderr)
}
