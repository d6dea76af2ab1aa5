import FolioCLI
import FolioCore
import FolioCLITestSupport
import Foundation
import XCTest

/// The terminal editor runs a plugin confined like every other path: the "probe" plugin's `probe` command, chosen
/// from the palette, tries to read a private key, write into the home folder, connect to a listener, start a shell
/// and append to another document's config; each is refused, the window says so in one line naming what the plugin
/// tried, and nothing happened.
final class EditorConfinementTests: TmuxTestCase {
    override var session: String { "confined" }
    override var defaultTimeout: TimeInterval { 8 }

    func testGivenAPluginThatTriesFiveEscapesWhenItsCommandRunsInTheEditorThenEachIsRefusedAndNamed() throws {
        env["FOLIO_PLUGIN_PATH"] = dir.path("plugins").path
        let folder = dir.path("plugins")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        chmod(folder.path, 0o755)
        let source = folder.appendingPathComponent("probe.c")
        try Data(ConfinementProbePlugin.source.utf8).write(to: source)
        let header = repositoryRoot.appendingPathComponent("Sources/FolioPluginABI/include")
        let compiled = try runProgram("cc", ["-shared", "-fPIC", "-I", header.path, "-o", folder.appendingPathComponent("libprobe.so").path, source.path])
        guard compiled.status == 0 else { throw XCTSkip("cc could not build the probe: \(compiled.stderr)") }
        _ = try dir.write("home/.ssh/id_rsa", "-----BEGIN OPENSSH PRIVATE KEY-----\nfake\n-----END OPENSSH PRIVATE KEY-----\n")
        for name in ["victim", "probe"] {
            let made = runFolio(["new", name, "--type", "org.test.probe"], environment: env, cwd: dir.url)
            XCTAssertEqual(made.status, 0, made.stderr)
        }
        let victimConfig = try Data(contentsOf: dir.path("victim/.git/config"))
        let targets = ["key=\(dir.path("home/.ssh/id_rsa").path)", "home=\(dir.path("home").path)", "port=1",
                       "touch=\(dir.path("touched").path)", "config=\(dir.path("victim/.git/config").path)"]
        let document = try DocumentStore(environment: env).open(at: dir.path("probe"))
        _ = try document.write(Data((targets.joined(separator: "\n") + "\n").utf8), to: document.metadata.primaryFile, message: "targets")

        let folio = [folioExecutable.path, "open", dir.path("probe").path].map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }
        try startShell(folio.joined(separator: " ") + "; echo FOLIO-EXIT=$?; sleep 30", width: 220, height: 30, cwd: dir.url)
        waitFor(text: "Probe")
        try keys("C-p")
        try keys("P", "r", "o", "b", "e")
        try keys("Enter")
        let refused = waitFor(text: "read=EPERM write=EPERM connect=EPERM fork=EPERM exec=EPERM config=EPERM")
        XCTAssertTrue(refused.contains("the plugin tried to read a file (openat)"), refused)
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir.path("home/pwned").path), "a file was written into HOME")
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir.path("touched").path), "a shell ran")
        XCTAssertEqual(try Data(contentsOf: dir.path("victim/.git/config")), victimConfig, "another document's config changed")
        try keys("C-q")
        waitFor(text: "FOLIO-EXIT=0")
    }
}
