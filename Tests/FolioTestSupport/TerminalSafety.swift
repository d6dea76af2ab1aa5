import XCTest

/// The characters that must never reach a terminal in human-readable output, spelled out here independently of the
/// product's own `TerminalText`: C0 controls other than newline and tab (ESC, BEL, CR…), DEL, C1 controls (U+009B
/// is an 8-bit CSI) and the bidi controls and separators that reorder or break a line.
public func isTerminalControl(_ scalar: Unicode.Scalar) -> Bool {
    let value = scalar.value
    if value < 0x20 { return value != 0x0A && value != 0x09 }
    return (0x7F...0x9F).contains(value) || [0x061C, 0x200E, 0x200F, 0x2028, 0x2029].contains(value)
        || (0x202A...0x202E).contains(value) || (0x2066...0x2069).contains(value)
}

/// Asserts that `output` holds no terminal control character (`isTerminalControl`) and shows each of `visible`.
public func assertShownAsText(_ output: String, _ visible: [String], _ what: String = "", file: StaticString = #filePath, line: UInt = #line) {
    let raw = output.unicodeScalars.filter(isTerminalControl).map { "U+" + String($0.value, radix: 16, uppercase: true) }
    XCTAssertEqual(raw, [], "\(what): control characters reached the terminal: \(output.debugDescription)", file: file, line: line)
    for text in visible {
        XCTAssertTrue(output.contains(text), "\(what): \(text.debugDescription) not shown in \(output.debugDescription)", file: file, line: line)
    }
}
