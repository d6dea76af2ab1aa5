import FoundationEssentials
import Glibc

extension SharingState {
    /// Where the sync loop keeps a document's last state: `.git/folio/sync-state.json`.
    public static func savedFile(documentPath: String) -> URL {
        URL(fileURLWithPath: documentPath).appendingPathComponent(".git/folio/sync-state.json")
    }

    /// The state the sync loop last saved for the document at `documentPath` (cheap: one small file, no git), nil when
    /// none was saved or the file is damaged (then the state is unknown; the next round writes it again).
    public static func saved(documentPath: String) -> SharingState? {
        guard let data = try? ConfigFile.read(savedFile(documentPath: documentPath), maxBytes: 64 * 1024) else { return nil }
        return decodeSaved(data)
    }

    /// A saved state's bytes read back strictly (`StrictJSON`: duplicate keys, bad UTF-8 and the like make the
    /// whole file unknown), nil when damaged.
    public static func decodeSaved(_ data: Data) -> SharingState? {
        guard let state = try? StrictJSON.decode(SharingState.self, from: data, strictAt: [], dates: .secondsSince1970), state.ahead >= 0, state.behind >= 0 else { return nil }
        return state
    }

    /// Saves the state for the document at `documentPath` atomically (a crash leaves the old or the new file).
    public func save(documentPath: String) throws {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .secondsSince1970
        encoder.outputFormatting = [.sortedKeys]
        try AtomicFile.write(try encoder.encode(self), to: Self.savedFile(documentPath: documentPath), sync: false)
    }
}
