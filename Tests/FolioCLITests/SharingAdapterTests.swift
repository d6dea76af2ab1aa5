@testable import FolioCLI
import FolioCore
import FolioCLITestSupport
import FolioLaunch
import FolioSync
import Foundation
import XCTest

/// The editor host's `DocumentSharing` over the sync loop: state and remotes from memory, actions on the caller's thread.
final class SharingAdapterTests: XCTestCase {
    func testGivenAnUnsharedDocumentWhenSharedThroughTheAdapterThenItIsPushedAndTheStateFollows() throws {
        // Given a new document, a bare repository and an adapter over the document
        let dir = TemporaryDirectory("folio-adapter")
        let env = dir.environment()
        let store = DocumentStore(settings: Settings(sync: .none), environment: env)
        let document = try store.create(at: dir.path("Doc"), contentType: .plainText, title: "Doc")
        let server = dir.path("doc.git")
        XCTAssertEqual(try git(["init", "--bare", "-q", "-b", "main", server.path], in: dir.url, environment: env).status, 0)
        let adapter = SharingAdapter(document: document.url, store: store, environment: env)
        XCTAssertTrue(eventually { adapter.state().phase == .notShared }, "\(adapter.state())")
        // When the user shares it, then changes the interval, writes a version and syncs now
        let shared = try adapter.perform(.share(remote: "origin", url: server.path), progress: { _ in }, isCancelled: { false })
        _ = try adapter.perform(.interval(seconds: 5), progress: { _ in }, isCancelled: { false })
        try document.write(Data("new\n".utf8), to: "document.txt", message: "New")
        let synced = try adapter.perform(.syncNow, progress: { _ in }, isCancelled: { false })
        // Then the remote has every version, the state says synced with continuous sync on, and the remote is listed
        XCTAssertTrue(shared.contains("continuous sync on"), shared)
        // (the loop's own round, started by the interval change, may have pushed it first)
        XCTAssertTrue(["pushed 1 version", "up to date"].contains(synced), synced)
        let tip = try git(["rev-parse", "main"], in: server, environment: env).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        XCTAssertEqual(tip, try document.head().id.hex)
        XCTAssertEqual(adapter.state().phase, .synced)
        XCTAssertTrue(adapter.state().continuous)
        XCTAssertEqual(try document.syncInterval(), 5)
        XCTAssertTrue(eventually { adapter.remotes() == [SharingRemote(name: "origin", url: server.path)] })
        // And there is nothing to settle
        XCTAssertEqual(try adapter.conflicts(), [])
    }

    func testGivenARemoteAddedFromTheWindowThenContinuousSyncIsOn() throws {
        let dir = TemporaryDirectory("folio-adapter")
        let env = dir.environment()
        let store = DocumentStore(settings: Settings(sync: .none), environment: env)
        let document = try store.create(at: dir.path("Doc"), contentType: .plainText, title: "Doc")
        let adapter = SharingAdapter(document: document.url, store: store, environment: env)
        XCTAssertFalse(document.continuousSync)
        let added = try adapter.perform(.addRemote(name: "origin", url: dir.path("doc.git").path), progress: { _ in }, isCancelled: { false })
        XCTAssertEqual(added, "added remote origin; continuous sync on")
        XCTAssertTrue(try store.open(at: document.url).continuousSync)
    }

    func testGivenAKeptConflictInAPlainTextDocumentWhenSettledWholeThroughTheAdapterThenTheirsIsOneMergeCommit() throws {
        // Given two copies of a plain-text document through a bare repository, each changing the same line
        let dir = TemporaryDirectory("folio-adapter")
        let env = dir.environment()
        let store = DocumentStore(settings: Settings(sync: .none), environment: env)
        let mine = try store.create(at: dir.path("Mine"), contentType: .plainText, title: "Doc")
        try mine.write(Data("one\n".utf8), to: "document.txt", message: "One")
        let server = dir.path("doc.git")
        XCTAssertEqual(try git(["init", "--bare", "-q", "-b", "main", server.path], in: dir.url, environment: env).status, 0)
        try mine.addRemote("origin", url: server.path)
        try mine.push()
        let theirs = try store.clone(from: server.path, to: dir.path("Theirs"))
        try theirs.write(Data("theirs\n".utf8), to: "document.txt", message: "Theirs")
        try theirs.push()
        try mine.write(Data("mine\n".utf8), to: "document.txt", message: "Mine")
        guard case .conflict = try mine.pull() else { return XCTFail("a kept conflict") }
        let adapter = SharingAdapter(document: mine.url, store: store, environment: env)
        // When the window lists it: one conflict, the file to choose whole
        let conflicts = try adapter.conflicts()
        XCTAssertEqual(conflicts.count, 1)
        XCTAssertEqual(conflicts.first?.items.map(\.key), ["document.txt"])
        let ref = try XCTUnwrap(conflicts.first?.ref)
        // The preview before any choice shows mine, and with theirs chosen shows theirs
        XCTAssertEqual(try adapter.preview(ref: ref, choices: [:], width: 40).first, "mine")
        XCTAssertEqual(try adapter.preview(ref: ref, choices: [SharingConflict.wholeFile: .theirs], width: 40).first, "theirs")
        // Then settling theirs makes one merge commit of both versions, and nothing is left to settle
        let summary = try adapter.settle(ref: ref, choices: [SharingConflict.wholeFile: .theirs])
        XCTAssertTrue(summary.contains("Settle conflict"), summary)
        let settled = try store.open(at: mine.url)
        XCTAssertEqual(try settled.read(path: "document.txt"), Data("theirs\n".utf8))
        XCTAssertEqual(try git(["rev-list", "--parents", "-n", "1", "HEAD"], in: mine.url, environment: env).stdout.split(separator: " ").count, 3)
        XCTAssertEqual(try adapter.conflicts(), [])
    }
}
