import Foundation
import XCTest
@testable import FolioPlugins
import FolioTemplates
import FolioCLITestSupport

/// Where a `folio` executable looks for its bundled plugins and templates: beside itself in the install layout, in
/// the source tree only when it runs from that tree's `.build` folder, and nowhere above it otherwise.
final class InstalledLayoutTests: XCTestCase {
    var temp: TemporaryDirectory!

    override func setUp() { temp = TemporaryDirectory("folio-layout") }
    override func tearDown() { temp = nil }

    /// A fake source tree (Package.swift, Plugins/, Templates/catalog.json) at `relative`.
    func makeSourceTree(_ relative: String) throws -> URL {
        try temp.write("\(relative)/Package.swift", "// swift-tools-version:6.0\n")
        try temp.write("\(relative)/Templates/catalog.json", "{}\n")
        try temp.write("\(relative)/Plugins/X/plugin.json", "{}\n")
        return temp.path(relative)
    }

    func testGivenAnInstallLayoutWhenLookingForBundledThingsThenTheyComeFromLibAndShareBesideBin() throws {
        try temp.write("prefix/share/folio/templates/catalog.json", "{}\n")
        try FileManager.default.createDirectory(at: temp.path("prefix/lib/folio/plugins"), withIntermediateDirectories: true)
        let bin = temp.path("prefix/bin")
        XCTAssertEqual(PluginSearchPath.bundledFolder(beside: bin).path, temp.path("prefix/lib/folio/plugins").path)
        XCTAssertEqual(TemplateSource.bundledFolder(forExecutable: bin.appendingPathComponent("folio"))?.path,
                       temp.path("prefix/share/folio/templates").path)
    }

    func testGivenAnExecutableInsideASourceTreeButNotItsBuildFolderWhenLookingThenNothingAboveItIsUsed() throws {
        let root = try makeSourceTree("checkout")
        let copied = root.appendingPathComponent("bin/folio")
        XCTAssertNil(TemplateSource.bundledFolder(forExecutable: copied), "a copied folio must not read the source tree above it")
        XCTAssertEqual(PluginSearchPath.bundledFolder(beside: copied.deletingLastPathComponent()).path, root.appendingPathComponent("bin").path)
    }

    func testGivenTheBuildTreeWhenLookingThenTheTreeHoldingDotBuildIsUsed() throws {
        let root = try makeSourceTree("checkout")
        let debug = root.appendingPathComponent(".build/x86_64-unknown-linux-gnu/debug")
        XCTAssertEqual(TemplateSource.bundledFolder(forExecutable: debug.appendingPathComponent("folio"))?.path,
                       root.appendingPathComponent("Templates").path)
        XCTAssertEqual(PluginSearchPath.bundledFolder(beside: debug).path, debug.path, "SwiftPM puts the plugins beside folio")
    }
}
