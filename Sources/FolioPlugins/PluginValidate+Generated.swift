import FoundationEssentials
import Glibc

extension PluginValidator {
    /// Where the `calls` test from the empty document leaves the document its first walk made: a generated sample,
    /// typically with non-ASCII and wide text from the generated arguments.
    func generatedSample(_ editor: String) -> URL {
        reproducers.appendingPathComponent(Self.fileName("generated/\(editor)") + ".sample")
    }

    /// The round trip and renders (1x1, 7x3, 500x200) of each editor's generated sample, when its calls made one.
    func generatedSampleTests(_ editors: [String]) -> [PlannedTest] {
        editors.flatMap { editor -> [PlannedTest] in
            let file = generatedSample(editor)
            guard let bytes = FileManager.default.contents(atPath: file.path), !bytes.isEmpty else { return [] }
            try? FileManager.default.removeItem(at: file)
            // Each test its own copy (a test that passes removes its inputs while the others run).
            func test(_ name: String, _ kind: String, _ options: [String] = []) -> PlannedTest {
                let copy = reproducers.appendingPathComponent(Self.fileName(name) + ".sample")
                return PlannedTest(name: name, kind: kind, editor: editor, inputs: [(copy, bytes)], options: ["--document", copy.path] + options)
            }
            return [test("generated/\(editor)/round-trip", "round-trip")] + Self.generatedRenderSizes.map { width, height in
                test("generated/\(editor)/render/\(width)x\(height)", "render", ["--width", "\(width)", "--height", "\(height)"])
            }
        }
    }

    /// The sizes a generated sample is rendered at.
    static let generatedRenderSizes = [(1, 1), (7, 3), (500, 200)]

    /// The names of an editor's generated tests.
    static func generatedTestNames(_ editor: String) -> [String] {
        ["generated/\(editor)/round-trip"] + generatedRenderSizes.map { "generated/\(editor)/render/\($0)x\($1)" }
    }
}
