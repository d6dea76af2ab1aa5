@testable import FolioPlugins
import Foundation
import XCTest

final class PlainTextPluginTests: XCTestCase {
    private func open(_ text: String) throws -> HostedDocument {
        try HostedPlugins.editor("plain-text").open(Data(text.utf8))
    }

    func testGivenTextWhenLinesAreAppendedInsertedDeletedAndReplacedThenEachChangeIsDescribed() throws {
        var (document, description) = try open("").apply("append", "first")
        XCTAssertEqual(description, "appended line 1")
        (document, description) = try document.apply("append", "third")
        (document, description) = try document.apply("insert", "2", "second")
        XCTAssertEqual(description, "inserted line 2")
        (document, description) = try document.apply("replace", "i", "I")
        XCTAssertEqual(description, "replaced 2 occurrences of 'i' with 'I'")
        (document, description) = try document.apply("delete-line", "1")
        XCTAssertEqual(description, "deleted line 1 ('fIrst')")
        XCTAssertEqual(try document.text, "second\nthIrd\n")
        XCTAssertEqual(try document.render(width: 20, height: 5, selection: ViewSelection(cursor: 2)), ["   1  second", ">  2  thIrd"])
    }

    func testGivenAFileWithoutAFinalNewlineWhenEditedThenItStaysWithout() throws {
        let (document, _) = try open("a\nb").apply("append", "c")
        XCTAssertEqual(try document.text, "a\nb\nc")
    }

    func testGivenBadArgumentsWhenAppliedThenThePluginRefusesThem() throws {
        let document = try open("one\n")
        for (command, arguments) in [("insert", ["3", "x"]), ("insert", ["0", "x"]), ("delete-line", ["2"]), ("delete-line", ["x"]),
                                     ("replace", ["missing", "x"]), ("replace", ["", "x"]), ("append", [])] {
            XCTAssertThrowsError(try document.applying(command, arguments: arguments), "\(command) \(arguments)") { error in
                XCTAssertEqual((error as? EditorOperationError)?.kind, .invalidArgument, "\(error)")
            }
        }
    }

    func testGivenBytesThatAreNotUTF8WhenOpenedThenTheyAreRefused() throws {
        XCTAssertThrowsError(try HostedPlugins.editor("plain-text").open(Data([0x61, 0xFF, 0xFE]))) { error in
            XCTAssertEqual((error as? EditorOperationError)?.kind, .invalidDocument)
        }
    }
}
