import Foundation
import XCTest
import FolioCore
import FolioTemplates
import FolioTestSupport

final class TemplateRenderTests: XCTestCase {
    func testRenderingFillsContentsAndPathSegmentsAndDropsEmptySegments() throws {
        // Given files whose names and contents use answers, one under a conditional folder
        let template = try memoryTemplate(files: [
            file("{{name}}/{{name.snake_case}}.txt", "Hi {{name}}"),
            file("{{#extra}}extra{{%2Fextra}}/notes.md", "notes"),
            file("{{#extra}}only.txt{{%2Fextra}}", "x"),
        ], manifestJSON: #"{"id": "a/b", "name": "B", "variables": [{"name": "name", "type": "string"}, {"name": "extra", "type": "bool"}]}"#)
        // When rendered without the extra flag
        let files = try template.render(answers: ["name": .string("MyThing"), "extra": .bool(false)])
        // Then the paths and contents are rendered and the conditional files are gone
        XCTAssertEqual(files.map(\.path), ["MyThing/my_thing.txt"])
        XCTAssertEqual(String(decoding: files[0].data, as: UTF8.self), "Hi MyThing")
        // And with the flag they are there
        let more = try template.render(answers: ["name": .string("X"), "extra": .bool(true)])
        XCTAssertEqual(Set(more.map(\.path)), ["X/x.txt", "extra/notes.md", "only.txt"])
    }

    func testExecBitBinaryFilesCopyOnlyAndExcludeAreHonoured() throws {
        // Given an executable script, a binary file, a copyOnly file and an excluded file
        var binary = Data("{{name}}".utf8); binary.append(0); binary.append(0xFF)
        let template = try memoryTemplate(files: [
            file("run.sh", "#!/bin/sh\necho {{name}}\n", mode: 0o100755),
            TemplateFile(path: "logo.bin", data: binary),
            TemplateFile(path: "bad-utf8.txt", data: Data([0x7B, 0x7B, 0xC3, 0x28, 0x7D, 0x7D])),
            file("raw/keep.txt", "{{name}} stays"),
            file("junk.orig", "x"),
        ], manifestJSON: #"{"id": "a/b", "name": "B", "variables": [{"name": "name", "type": "string"}], "copyOnly": ["raw/**"], "exclude": ["*.orig"]}"#)
        // When rendered
        let files = try template.render(answers: ["name": .string("n")])
        let byPath = Dictionary(uniqueKeysWithValues: files.map { ($0.path, $0) })
        // Then the exec bit is kept, binaries and copyOnly files are byte for byte, excluded files are gone
        XCTAssertEqual(byPath["run.sh"]?.executable, true)
        XCTAssertEqual(String(decoding: byPath["run.sh"]?.data ?? Data(), as: UTF8.self), "#!/bin/sh\necho n\n")
        XCTAssertEqual(byPath["logo.bin"]?.data, binary)
        XCTAssertEqual(byPath["bad-utf8.txt"]?.data, Data([0x7B, 0x7B, 0xC3, 0x28, 0x7D, 0x7D]))
        XCTAssertEqual(String(decoding: byPath["raw/keep.txt"]?.data ?? Data(), as: UTF8.self), "{{name}} stays")
        XCTAssertNil(byPath["junk.orig"])
    }

    func testPartialsComeFromTheTemplateThenTheRepositoryRoot() throws {
        // Given a partial in the template and one at the repository root, and a shadowed name
        let template = try memoryTemplate(files: [file("a.txt", "{{>own}}|{{>shared}}|{{>both}}")],
                                          partials: ["own": "T", "both": "template wins"],
                                          repositoryPartials: ["shared": "R", "both": "root"])
        // When rendered, then each is found in order
        let files = try template.render(answers: [:])
        XCTAssertEqual(String(decoding: files[0].data, as: UTF8.self), "T|R|template wins")
    }

    func testPartialNamesThatLeaveThePartialsFoldersAreErrors() throws {
        for name in ["../secret", "/etc/passwd", "a/../../b", "..\\x", "%2e%2e/x"] {
            let template = try memoryTemplate(files: [file("a.txt", "{{>\(name)}}")])
            assertThrows(try template.render(answers: [:]), containing: ["leave"])
        }
    }

    func testGivenSelfIncludingPartialWhenRenderedThenDepthLimitErrorNamesFile() throws {
        // Given a partial that includes itself forever
        let template = try memoryTemplate(files: [file("a.txt", "{{>loop}}")], partials: ["loop": "x{{>loop}}"])
        // When rendered, then it is an error naming the limit and the file, not a stack overflow
        assertThrows(try template.render(answers: [:]), containing: ["100 levels", "maxDepth", "files/a.txt"])
    }

    func testRenderedPathsThatLeaveTheDocumentAreRefusedNamingTheFile() throws {
        let cases: [(String, String)] = [
            ("{{name}}", "/etc/passwd"), ("{{name}}/x", ".."), ("a/{{name}}", "../../x"),
            ("{{name}}", "%2e%2e/x"), ("{{name}}", "..%2Fx"), ("{{name}}", "a\\..\\..\\x"), ("{{name}}.txt", "~/x"),
        ]
        for (path, value) in cases {
            let template = try memoryTemplate(files: [file(path, "x")])
            assertThrows(try template.render(answers: ["name": .string(value)]), containing: ["test: t/files/\(path)", "rendered path"])
        }
    }

    func testPathsIntoGitOrFolioAreRefused() throws {
        for value in [".git", ".GIT", ".git/hooks", ".folio", "sub/.git", ".git."] {
            let template = try memoryTemplate(files: [file("{{name}}/post-checkout", "#!/bin/sh\nrm -rf /\n", mode: 0o100755)])
            assertThrows(try template.render(answers: ["name": .string(value)]), containing: ["files/{{name}}/post-checkout"])
        }
        let literal = try memoryTemplate(files: [file(".git/hooks/pre-commit", "x")])
        assertThrows(try literal.render(answers: [:]), containing: [".git"])
    }

    func testLinksOutsideTheTemplateAreRefusedAndLinksInsideAreKept() throws {
        // Given a link to a sibling file, then links escaping the template
        let inside = try memoryTemplate(files: [file("docs/readme.md", "r"), TemplateFile(path: "README.md", data: Data("docs/readme.md".utf8), mode: 0o120000)])
        let files = try inside.render(answers: [:])
        XCTAssertEqual(files.first { $0.path == "README.md" }?.symlinkTarget, "docs/readme.md")
        for target in ["/etc/passwd", "../../outside", "../x", "a/../../b", ".git/config"] {
            let outside = try memoryTemplate(files: [TemplateFile(path: "link", data: Data(target.utf8), mode: 0o120000)])
            assertThrows(try outside.render(answers: [:]), containing: ["files/link", "link to"])
        }
        // And no file may be written through a link
        let through = try memoryTemplate(files: [TemplateFile(path: "d", data: Data("sub".utf8), mode: 0o120000), file("d/x.txt", "x"), file("sub/y", "y")])
        assertThrows(try through.render(answers: [:]), containing: ["through the link"])
    }

    func testRenderingIsPureAndHandlesManyFilesInParallel() throws {
        // Given 300 files of 40 lines
        let body = (0..<40).map { "line \($0) for {{name}} ({{name.kebab_case}})" }.joined(separator: "\n")
        let template = try memoryTemplate(files: (0..<300).map { file("dir\($0 % 10)/{{name}}-\($0).txt", body) })
        // When rendered twice, then the result is identical and complete
        let a = try template.render(answers: ["name": .string("BigOne")])
        let b = try template.render(answers: ["name": .string("BigOne")])
        XCTAssertEqual(a, b)
        XCTAssertEqual(a.count, 300)
        XCTAssertTrue(String(decoding: a[0].data, as: UTF8.self).hasPrefix("line 0 for BigOne (big-one)"))
    }
}
