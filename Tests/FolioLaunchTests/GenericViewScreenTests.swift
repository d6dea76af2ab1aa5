import Foundation
import XCTest
import FolioCore
@testable import FolioLaunch
@testable import FolioTerminal

/// Golden frames of the generic document view at 60×16 and 160×45 (inspected by eye when written).
final class GenericViewScreenTests: XCTestCase {
    static let packageSwift = """
    // swift-tools-version:6.0
    import PackageDescription

    let package = Package(
        name: "Pkg",
        products: [
            .library(name: "Pkg", targets: ["Pkg"]),
            .executable(name: "pkg", targets: ["PkgTool"]),
        ],
        targets: [
            .target(name: "Pkg", resources: [.copy("Resources")]),
            .executableTarget(name: "PkgTool", dependencies: ["Pkg"]),
            .testTarget(name: "PkgTests", dependencies: ["Pkg"]),
        ]
    )
    """

    func view(selecting path: String) -> GenericViewState {
        var view = GenericViewStateTests.view()
        view.selection = view.rows.firstIndex { $0.path == path } ?? 0
        view.file = GenericFileView(path: "Package.swift", data: Data(Self.packageSwift.utf8))
        return view
    }

    func testGivenA60x16TerminalThenTheTreeFillsTheScreenWithSizesAndTheStatusSaysWhyNoEditorOpenedIt() {
        // The run loop gives the view height - 4 rows; End selects the last file and scrolls the first row out.
        var view = view(selecting: "Package.swift")
        view.viewRows = 16 - 4
        var state = AppState()
        state.screen = .generic(view)
        state = state.handling(.end, scene: .defaultScene).0
        guard case let .generic(scrolled) = state.screen else { return XCTFail("not the generic view") }
        XCTAssertEqual(scrolled.scroll, 1)
        assertGolden(Screens.generic(scrolled, width: 60, height: 16).plainText(), "generic-60x16")
    }

    func testGivenA60x16TerminalWhenAFileIsOpenThenItIsShownFullScreenScrolledSideways() {
        var view = view(selecting: "Package.swift")
        view.focus = .file
        view.file?.scroll = 3 // the last page: 15 lines in 12 rows
        view.file?.column = 8
        assertGolden(Screens.generic(view, width: 60, height: 16).plainText(), "generic-file-60x16")
    }

    func testGivenA160x45TerminalThenTheSelectedFileIsShownBesideTheTree() {
        var view = view(selecting: "Package.swift")
        view.reason = .editorQuarantined("tally")
        view.message = .success("recorded “Edit Package.swift” (40139e1)")
        assertGolden(Screens.generic(view, width: 160, height: 45).plainText(), "generic-160x45")
    }

    func testGivenA160x45TerminalWhileFilteringABinaryFileThenTheFilterLineAndAHexDumpShow() {
        var view = GenericViewStateTests.view(GenericViewStateTests.entries + [GenericFileEntry(path: "Sources/Pkg/Resources/logo.png", size: 70)])
        view.filtering = true
        view.filter = "pkg"
        view.selection = view.rows.firstIndex { $0.path.hasSuffix("logo.png") } ?? 0
        view.file = GenericFileView(path: "Sources/Pkg/Resources/logo.png", data: Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + Array(repeating: 0, count: 62)))
        assertGolden(Screens.generic(view, width: 160, height: 45).plainText(), "generic-filter-160x45")
    }
}
