import FolioPluginABI
import FolioPluginWire
#if canImport(Glibc)
import Glibc
#endif

extension HostValidate {
    /// The selections every command's values are asked for: none (NULL), the cursor on the first item, a range over
    /// the first two, and a cursor far past any item (Folio never sends one; a plugin must still not crash on it).
    private static let valueSelections: [(label: String, selection: folio_selection?, pastTheEnd: Bool)] = {
        func selection(cursor: Int64, anchor: Int64) -> folio_selection {
            folio_selection(struct_size: UInt32(MemoryLayout<folio_selection>.size), reserved: 0, cursor: cursor, anchor: anchor, scroll: 0,
                            pan_x: 0, pan_y: 0)
        }
        return [("no selection", nil, false), ("item 1", selection(cursor: 1, anchor: 0), false),
                ("items 1-2", selection(cursor: 2, anchor: 1), false), ("item 1000000", selection(cursor: 1_000_000, anchor: 0), true)]
    }()

    /// How many bytes of answers the test passes on to Folio at the most: enough for every command of a real editor,
    /// while a plugin answering a mebibyte to each of 1,024 commands fills neither the disk nor Folio's memory.
    private static let answersBudget = 8 * HostWire.argumentValuesByteLimit

    /// `folio.argument-values/1` (when the editor has it), on the sample: an unknown command answers UNKNOWN_COMMAND,
    /// and every command's values for each selection OK or UNSUPPORTED (the selection past the end may also be refused
    /// as an INVALID_ARGUMENT), each with owned buffers and a text error. The answers are written to `output`, a line a
    /// call (command number, selection, the answer's bytes in hex), for Folio to check as it checks a real answer: up
    /// to `answersBudget` bytes in all, and none after the first over the limit (which Folio refuses whatever follows).
    static func argumentValues(_ editor: RawEditor, _ host: HostEditor, _ sample: [UInt8], output: String?) throws {
        guard let values = host.argumentValuesTable?.pointee.values else { return }
        step("open the sample")
        let handle = try editor.openAccepted(sample, what: "the sample")
        defer { editor.release(handle) }
        step("argument values of an unknown command")
        let unknown = call(values, editor, handle, "folio-validate-no-such-command", RawEditor.selection)
        try expectStatus(unknown.status, [FOLIO_STATUS_UNKNOWN_COMMAND], "argument values of an unknown command", error: unknown.error)
        try expectOwned(unknown.answer, "argument values of an unknown command: the answer")
        var answers: [UInt8] = [], total = 0
        asking: for (number, command) in host.commands.enumerated() {
            for asked in valueSelections {
                guard let answer = try askValues(values, editor, handle, command.id, asked) else { continue }
                // Past the limit one more byte tells Folio's check all it needs.
                let kept = answer.prefix(HostWire.argumentValuesByteLimit + 1)
                answers += Array("\(number)\t\(asked.label)\t".utf8) + hexBytes(Array(kept)) + [0x0A]
                total += kept.count
                if kept.count > HostWire.argumentValuesByteLimit || total > answersBudget { break asking }
            }
        }
        if let output { try writeFile(output, answers) }
    }

    /// One call's answer when the plugin gave one (OK), nil when it has none (UNSUPPORTED, or a refusal allowed for
    /// the selection past the end); anything else fails the test.
    private static func askValues(_ values: ArgumentValuesCall, _ editor: RawEditor, _ handle: OpaquePointer, _ command: String,
                                  _ asked: (label: String, selection: folio_selection?, pastTheEnd: Bool)) throws -> [UInt8]? {
        let what = "argument values of '\(command)' for \(asked.label)"
        step(what)
        let (status, answer, error) = call(values, editor, handle, command, asked.selection)
        let allowed = asked.pastTheEnd ? [FOLIO_STATUS_OK, FOLIO_STATUS_UNSUPPORTED, FOLIO_STATUS_INVALID_ARGUMENT]
            : [FOLIO_STATUS_OK, FOLIO_STATUS_UNSUPPORTED]
        try expectStatus(status, allowed, what, error: error)
        try expectOwned(answer, "\(what): the answer")
        return status == FOLIO_STATUS_OK ? answer.bytes ?? [] : nil
    }

    typealias ArgumentValuesCall = @convention(c) (UnsafePointer<folio_editor>?, OpaquePointer?, UnsafePointer<CChar>?, UnsafePointer<folio_selection>?,
                                                   UnsafeMutablePointer<folio_buffer>?, UnsafeMutablePointer<folio_buffer>?) -> folio_status

    private static func call(_ values: ArgumentValuesCall, _ editor: RawEditor, _ handle: OpaquePointer, _ command: String,
                             _ selection: folio_selection?) -> (status: folio_status, answer: ReturnedBuffer, error: ReturnedBuffer) {
        var out = folio_buffer(), error = folio_buffer()
        let status: folio_status
        if var selection {
            status = withUnsafePointer(to: &selection) { values(editor.table, handle, command, $0, &out, &error) }
        } else {
            status = values(editor.table, handle, command, nil, &out, &error)
        }
        return (status, RawEditor.take(&out), RawEditor.take(&error))
    }

    /// `bytes` as lowercase hex digits.
    private static func hexBytes(_ bytes: [UInt8]) -> [UInt8] {
        let digits = Array("0123456789abcdef".utf8)
        var hex: [UInt8] = []
        hex.reserveCapacity(bytes.count * 2)
        for byte in bytes { hex.append(digits[Int(byte >> 4)]); hex.append(digits[Int(byte & 0x0F)]) }
        return hex
    }
}
