import FolioCore

/// One bundled editor's documents as the replica model drives them: the document a Folio before ids wrote, how a
/// version reads as model lists, the random commands a replica applies, and the rules a merged version must also
/// keep beyond the lists' (`ModelList.expect`).
package protocol ReplicaFormat: Sendable {
    /// "checklist", "story", "shapes": the editor's id, and the name printed.
    var name: String { get }
    var contentType: ContentType { get }
    /// The first version, as a Folio before item ids wrote it (no ids: each clone derives them).
    var oldDocument: String { get }
    /// The version in `bytes` as model lists; nil when it holds no ids (then the plugin's derived ids are read).
    func model(_ bytes: [UInt8]) -> ModelDocument?
    /// A random command (and its arguments) that is valid on `document`; `name` is a fresh text to write.
    func command(on document: ModelDocument, name: String, random: inout SeededRandom) -> [String]
    /// Items a merge must not combine beyond what the lists say (a story's scene whose act the other side deleted).
    func conflicts(in expected: [String: ModelList.Expectation]) -> Set<String>
    /// What is wrong with a merged or settled version as a whole (a story's act labels out of sequence); nil if nothing.
    func problem(in document: ModelDocument, bytes: [UInt8]) -> String?
    /// Whether its editor settles every kept conflict item by item (beyond those against a base written before ids);
    /// when not, a conflict it cannot settle so is settled whole and counted, not failed.
    var settlesEveryConflictItemByItem: Bool { get }
}

extension ReplicaFormat {
    package func conflicts(in expected: [String: ModelList.Expectation]) -> Set<String> { [] }
    package func problem(in document: ModelDocument, bytes: [UInt8]) -> String? { nil }
    package var settlesEveryConflictItemByItem: Bool { true }
}

/// The formats the model test runs, by name.
package enum ReplicaFormats {
    package static let all: [any ReplicaFormat] = [ChecklistReplicaFormat(), StoryReplicaFormat(), ShapesReplicaFormat()]

    package static func named(_ name: String) -> (any ReplicaFormat)? { all.first { $0.name == name } }
}
