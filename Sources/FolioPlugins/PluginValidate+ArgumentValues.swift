import FolioCore
import FoundationEssentials

extension PluginValidator {
    /// `argument-values/EDITOR`: the host asks the editor for every command's current argument values on the sample
    /// (`folio.argument-values/1`, when it has it) and writes each answer to a file; Folio then checks each one as it
    /// checks a real answer (`ArgumentValues.parse`), so the test fails on what users would see ignored.
    func argumentValuesTest(_ editor: String, commands: [(id: String, usage: String)], sample: [String]) -> PlannedTest {
        let answers = reproducers.appendingPathComponent(Self.fileName("argument-values/\(editor)") + ".answers")
        var test = PlannedTest(name: "argument-values/\(editor)", kind: "argument-values", editor: editor,
                               options: sample + ["--output", answers.path])
        test.answers = (answers, commands.map { ($0.id, EditorCommand(id: $0.id, title: $0.id, usage: $0.usage).argumentNames.count) })
        return test
    }

    /// `result` with every answer the host wrote checked: the first one Folio would refuse fails it, naming the
    /// command, the selection and why (and the answers file is kept with the reproducers).
    func checkingArgumentValues(_ result: PluginValidationTest, _ test: PlannedTest) -> PluginValidationTest {
        guard result.passed, let (file, commands) = test.answers, let data = FileManager.default.contents(atPath: file.path) else { return result }
        func failing(_ details: String) -> PluginValidationTest {
            var failed = result
            failed.status = "fail"
            failed.details = details
            failed.inputs.append(file.path)
            return failed
        }
        for line in data.split(separator: 0x0A) {
            let fields = line.split(separator: 0x09, maxSplits: 2, omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
            guard fields.count == 3, let number = Int(fields[0]), commands.indices.contains(number), let answer = Self.bytes(hex: fields[2]) else {
                return failing("the host wrote an answer Folio cannot read: '\(PluginText.description(String(fields.first?.prefix(40) ?? "")))'")
            }
            let (command, count) = commands[number]
            do {
                _ = try ArgumentValues.parse(answer, count: count, editor: test.editor ?? "", command: command)
            } catch {
                let why = (error as? EditorOperationError)?.message ?? "\(error)"
                return failing("argument values of '\(PluginText.description(command))' for \(fields[1]): \(why) (Folio ignores such an answer)")
            }
        }
        return result
    }

    /// The bytes hex digits stand for; nil when `hex` is not pairs of hex digits.
    static func bytes(hex: String) -> Data? {
        let digits = Array(hex.utf8)
        guard digits.count % 2 == 0 else { return nil }
        func value(_ digit: UInt8) -> UInt8? {
            switch digit {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
            default: nil
            }
        }
        var bytes = Data(capacity: digits.count / 2)
        for index in stride(from: 0, to: digits.count, by: 2) {
            guard let high = value(digits[index]), let low = value(digits[index + 1]) else { return nil }
            bytes.append(high << 4 | low)
        }
        return bytes
    }
}
