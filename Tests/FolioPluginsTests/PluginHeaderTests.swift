import FolioTestSupport
import Foundation
import XCTest

/// `folio_plugin.h` is all a C plugin needs: it compiles alone, strictly, as C and as C++.
final class PluginHeaderTests: XCTestCase {
    private var header: URL { PluginFixtures.headerFolder.appendingPathComponent("folio_plugin.h") }

    private func compile(_ compiler: String, _ arguments: [String]) throws {
        let result = try runProgram(compiler, arguments + [header.path])
        XCTAssertEqual(result.status, 0, "\(compiler) \(arguments.joined(separator: " ")): \(result.stderr)")
    }

    func testGivenTheHeaderAloneWhenCompiledAsStrictC99ThenItHasNoWarnings() throws {
        try compile("cc", ["-std=c99", "-Wall", "-Wextra", "-Werror", "-pedantic", "-fsyntax-only", "-x", "c"])
    }

    func testGivenTheHeaderAloneWhenCompiledAsCPlusPlusThenItHasNoWarnings() throws {
        try compile("c++", ["-std=c++11", "-Wall", "-Wextra", "-Werror", "-fsyntax-only", "-x", "c++"])
    }

    func testGivenAPluginUsingTheHelpersWhenLinkedWithNothingButTheHeaderThenItsBuffersWork() throws {
        let folder = try PluginFixtures.temporaryFolder(self)
        let source = folder.appendingPathComponent("main.c")
        try Data("""
        #include <folio_plugin.h>
        #include <stdio.h>
        int main(void) {
            folio_buffer error = {0};
            if (folio_fail(&error, FOLIO_STATUS_INVALID_ARGUMENT, "bad N") != FOLIO_STATUS_INVALID_ARGUMENT) return 1;
            printf("%zu %s\\n", error.size, (const char *)error.data);
            folio_buffer_release(&error);
            return error.data == NULL && error.release == NULL ? 0 : 2;
        }
        """.utf8).write(to: source)
        let program = folder.appendingPathComponent("main")
        let build = try runProgram("cc", ["-std=c99", "-Wall", "-Werror", "-I", PluginFixtures.headerFolder.path, "-o", program.path, source.path])
        XCTAssertEqual(build.status, 0, build.stderr)
        let run = try runProgram(program.path, [])
        XCTAssertEqual(run.status, 0)
        XCTAssertEqual(run.stdout, "5 bad N\n")
    }
}
