import XCTest
@testable import FolioTerminal

final class ColorTests: XCTestCase {
    func testParsing() {
        XCTAssertEqual(TerminalColor(parsing: "green"), .named(.green))
        XCTAssertEqual(TerminalColor(parsing: "Bright-Blue"), .named(.brightBlue))
        XCTAssertEqual(TerminalColor(parsing: "grey"), .named(.brightBlack))
        XCTAssertEqual(TerminalColor(parsing: "#1e1e2e"), .rgb(0x1E, 0x1E, 0x2E))
        XCTAssertNil(TerminalColor(parsing: "#12345"))
        XCTAssertNil(TerminalColor(parsing: "#gggggg"))
        XCTAssertNil(TerminalColor(parsing: "chartreuse"))
    }

    func testCapabilityDetection() {
        XCTAssertEqual(ColorCapability.detect(environment: ["TERM": "dumb", "COLORTERM": "truecolor"]), ColorCapability.none)
        XCTAssertEqual(ColorCapability.detect(environment: ["TERM": "xterm-256color", "NO_COLOR": "1"]), .monochrome)
        XCTAssertEqual(ColorCapability.detect(environment: ["TERM": "xterm", "COLORTERM": "truecolor"]), .truecolor)
        XCTAssertEqual(ColorCapability.detect(environment: ["TERM": "xterm", "COLORTERM": "24bit"]), .truecolor)
        XCTAssertEqual(ColorCapability.detect(environment: ["TERM": "xterm-256color"]), .ansi256)
        XCTAssertEqual(ColorCapability.detect(environment: ["TERM": "xterm"]), .ansi16)
        XCTAssertEqual(ColorCapability.detect(environment: ["TERM": "xterm", "NO_COLOR": ""]), .ansi16, "an empty NO_COLOR is ignored")
    }

    func testDowngrade() {
        let color = TerminalColor.rgb(0x1E, 0x1E, 0x2E)
        XCTAssertEqual(color.downgraded(to: .truecolor), color)
        XCTAssertEqual(TerminalColor.rgb(255, 0, 0).downgraded(to: .ansi256), .indexed(196))
        XCTAssertEqual(TerminalColor.rgb(128, 128, 128).downgraded(to: .ansi256), .indexed(244))
        XCTAssertEqual(TerminalColor.rgb(250, 10, 10).downgraded(to: .ansi16), .named(.brightRed))
        XCTAssertEqual(TerminalColor.rgb(0x1E, 0x1E, 0x2E).downgraded(to: .ansi16), .named(.black))
        XCTAssertEqual(TerminalColor.indexed(196).downgraded(to: .ansi16), .named(.brightRed))
        XCTAssertEqual(TerminalColor.named(.red).downgraded(to: .monochrome), .default)
    }

    func testSGRPerCapability() {
        let style = CellStyle(foreground: .rgb(255, 0, 0), background: .named(.blue), reverse: true)
        XCTAssertEqual(style.sgr(for: .truecolor), "\u{1B}[0;7;38;2;255;0;0;44m")
        XCTAssertEqual(style.sgr(for: .ansi256), "\u{1B}[0;7;38;5;196;44m")
        XCTAssertEqual(style.sgr(for: .ansi16), "\u{1B}[0;7;91;44m")
        XCTAssertEqual(style.sgr(for: .monochrome), "\u{1B}[0;7m")
        XCTAssertEqual(style.sgr(for: .none), "")
    }

    func testMix() {
        XCTAssertEqual(TerminalColor.mix(.rgb(0, 0, 0), .rgb(200, 100, 50), 0.5), .rgb(100, 50, 25))
    }
}
