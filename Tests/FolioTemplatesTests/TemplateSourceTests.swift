import Foundation
import XCTest
import FolioCore
import FolioGit
import FolioTemplates
import FolioTestSupport

final class TemplateSourceTests: XCTestCase {
    func makeRepo(_ temp: TemporaryDirectory, _ name: String = "repo") throws -> TemplateRepoBuilder {
        let builder = TemplateRepoBuilder(root: temp.path(name), environment: temp.environment())
        try FileManager.default.createDirectory(at: builder.root, withIntermediateDirectories: true)
        try builder.initRepository()
        return builder
    }

    func testALocalGitRepositoryResolvesAtTheNewestSemverTagByDefaultAndAtABranchOrTagOnRequest() throws {
        // Given a repository with v1.0.0, v1.2.0 and a newer untagged commit on main
        let temp = TemporaryDirectory()
        let repo = try makeRepo(temp)
        try repo.template("greet", id: "t/greet", version: "1.0.0", body: "one {{who}}\n")
        try repo.commitAll("one", tag: "v1.0.0")
        try repo.template("greet", id: "t/greet", version: "1.2.0", body: "two {{who}}\n")
        try repo.commitAll("two", tag: "v1.2.0")
        try repo.template("greet", id: "t/greet", version: "2.0.0-dev", body: "three {{who}}\n")
        try repo.commitAll("three")
        let resolver = TemplateResolver(environment: temp.environment())
        // When resolved without a ref, then the newest semver tag wins
        let byDefault = try await_ { try await resolver.resolve(TemplateSource(name: "r", location: repo.root.path)) }
        XCTAssertEqual(byDefault.ref, "v1.2.0")
        XCTAssertEqual(byDefault.templates.map(\.version), ["1.2.0"])
        // When resolved at a tag and at a branch, then those commits are read
        let atTag = try await_ { try await resolver.resolve(TemplateSource(name: "r", location: repo.root.path, ref: "v1.0.0")) }
        let template = try await_ { try await resolver.template("t/greet", in: atTag) }
        XCTAssertEqual(try template.render(answers: ["who": .string("x")]).first?.data, Data("one x\n".utf8))
        let atBranch = try await_ { try await resolver.resolve(TemplateSource(name: "r", location: repo.root.path, ref: "main")) }
        XCTAssertEqual(atBranch.templates.first?.version, "2.0.0-dev")
        // And an unknown ref is a one-line error
        assertThrows(try await_ { try await resolver.resolve(TemplateSource(name: "r", location: repo.root.path, ref: "nope")) },
                     containing: ["r:", "unknown ref 'nope'"])
    }

    func testTemplatesAreFoundAtAnyDepthOrderedByTheCatalogAndMalformedManifestsAreReportedWithLineAndColumn() throws {
        // Given templates at several depths, a catalog, a nested template.json inside files/, and a malformed one
        let temp = TemporaryDirectory()
        let repo = try makeRepo(temp)
        try repo.template("a", id: "a/one")
        try repo.template("deep/er/b", id: "b/two")
        try repo.write("deep/er/b/files/sub/template.json", "{}")
        try repo.write("bad/template.json", "{\n  \"id\": \"bad/x\",\n  \"name\": \"x\",\n  \"colour\": 1\n}")
        try repo.write("catalog.json", #"{"order": ["b/two", "a/one"], "featured": ["a/one"], "groups": [{"id": "g", "name": "G", "templates": ["b/two"]}]}"#)
        try repo.commitAll("init")
        // When resolved
        let resolved = try await_ { try await TemplateResolver(environment: temp.environment()).resolve(TemplateSource(name: "r", location: repo.root.path)) }
        // Then the templates are listed in catalog order with group and featured, and the bad one is a warning naming key, line, column
        XCTAssertEqual(resolved.templates.map(\.id), ["b/two", "a/one"])
        XCTAssertEqual(resolved.templates[0].group, "g")
        XCTAssertTrue(resolved.templates[1].featured)
        XCTAssertEqual(resolved.warnings.count, 1)
        XCTAssertTrue(resolved.warnings[0].contains("bad/template.json: line 4, column 3: unknown key 'colour'"), resolved.warnings[0])
    }

    func testAPlainFolderIsSnapshottedIntoTheCacheAndReplayedAtTheRecordedCommit() throws {
        // Given a plain folder of templates
        let temp = TemporaryDirectory()
        let folder = TemplateRepoBuilder(root: temp.path("plain"), environment: temp.environment())
        try folder.template("t", id: "p/t", body: "v1 {{who}}\n")
        let resolver = TemplateResolver(environment: temp.environment())
        let source = TemplateSource(name: "plain", location: folder.root.path)
        let first = try await_ { try await resolver.resolve(source) }
        // When it is resolved again unchanged, then the commit is the same; when it changes, a new commit
        XCTAssertEqual(try await_ { try await resolver.resolve(source) }.commit, first.commit)
        try folder.template("t", id: "p/t", body: "v2 {{who}}\n")
        let second = try await_ { try await resolver.resolve(source) }
        XCTAssertNotEqual(second.commit, first.commit)
        // And the old snapshot can still be read by its commit (replay)
        let origin = DocumentOrigin.Template(id: "p/t", version: "1.0.0", source: folder.root.path, ref: nil, commit: first.commit, answers: [:])
        let old = try await_ { try await resolver.recordedTemplate(origin, trusted: TrustedTemplateSource(location: folder.root.path)) }
        XCTAssertEqual(try old.render(answers: ["who": .string("a")]).first?.data, Data("v1 a\n".utf8))
        XCTAssertTrue(FileManager.default.fileExists(atPath: temp.path("home/.cache/folio/sources").path))
    }

    func testAFileURLSourceIsMirroredAndASecondResolutionTransfersNothing() throws {
        // Given a remote repository reached through file://
        let temp = TemporaryDirectory()
        let repo = try makeRepo(temp)
        try repo.template("t", id: "r/t")
        try repo.commitAll("init", tag: "v1.0.0")
        let resolver = TemplateResolver(environment: temp.environment())
        let source = TemplateSource(name: "remote", location: "file://" + repo.root.path)
        final class Counter: @unchecked Sendable { var received = 0; let lock = NSLock() }
        let first = Counter(), second = Counter()
        // When resolved twice
        let a = try await_ { try await resolver.resolve(source) { p in first.lock.lock(); first.received = max(first.received, p.receivedObjects); first.lock.unlock() } }
        let b = try await_ { try await resolver.resolve(source) { p in second.lock.lock(); second.received = max(second.received, p.receivedObjects); second.lock.unlock() } }
        // Then the first transfers objects into a bare mirror under the cache and the second transfers none
        XCTAssertEqual(a.ref, "v1.0.0")
        XCTAssertEqual(a.commit, b.commit)
        XCTAssertGreaterThan(first.received, 0)
        XCTAssertEqual(second.received, 0)
        let mirrors = try FileManager.default.contentsOfDirectory(atPath: temp.path("home/.cache/folio/sources").path).filter { !$0.hasPrefix(".") }
        XCTAssertEqual(mirrors.count, 1)
        XCTAssertEqual(try git(["fsck", "--strict"], in: temp.path("home/.cache/folio/sources/" + mirrors[0]), environment: temp.environment()).status, 0)
    }

    func testAGitDaemonSourceIsCachedUsableOfflineAndAFailedFetchFallsBackWithAWarning() throws {
        // Given a repository served by git daemon
        let temp = TemporaryDirectory()
        let repo = try makeRepo(temp, "served/templates.git")
        try repo.template("t", id: "d/t")
        try repo.commitAll("init")
        let resolver = TemplateResolver(environment: temp.environment())
        var daemon: GitDaemon? = try GitDaemon(basePath: temp.path("served"), environment: temp.environment())
        let url = daemon?.url("templates.git") ?? ""
        let source = TemplateSource(name: "daemon", location: url)
        let online = try await_ { try await resolver.resolve(source) }
        XCTAssertEqual(online.templates.map(\.id), ["d/t"])
        XCTAssertEqual(online.ref, "main")
        final class Counter: @unchecked Sendable { var received = 0 }
        let counter = Counter()
        _ = try await_ { try await resolver.resolve(source) { counter.received = max(counter.received, $0.receivedObjects) } }
        XCTAssertEqual(counter.received, 0, "the second fetch transferred objects")
        // When the daemon stops
        daemon = nil
        _ = daemon
        // Then --offline uses the cache and says how old it is
        let offline = try await_ { try await TemplateResolver(environment: temp.environment(), offline: true).resolve(source) }
        XCTAssertEqual(offline.commit, online.commit)
        XCTAssertTrue(offline.warnings.contains { $0.contains("offline") && $0.contains("ago") }, "\(offline.warnings)")
        // And an online resolution falls back to the cache with a warning
        let fallback = try await_ { try await resolver.resolve(source) }
        XCTAssertEqual(fallback.commit, online.commit)
        XCTAssertTrue(fallback.warnings.contains { $0.contains("failed") && $0.contains("cached") }, "\(fallback.warnings)")
    }

    func testOfflineWithoutACacheAndAMissingSourceAreOneLineErrors() throws {
        let temp = TemporaryDirectory()
        let resolver = TemplateResolver(environment: temp.environment(), offline: true)
        assertThrows(try await_ { try await resolver.resolve(TemplateSource(name: "far", location: "https://example.invalid/t.git")) },
                     containing: ["far:", "no cached copy"])
        assertThrows(try await_ { try await resolver.resolve(TemplateSource(name: "gone", location: temp.path("missing").path)) },
                     containing: ["gone:", "no such folder"])
    }

    func testACancelledFetchLeavesTheCacheUsable() throws {
        // Given a cached mirror and a source that has moved on with a lot of new content
        let temp = TemporaryDirectory()
        let repo = try makeRepo(temp)
        try repo.template("t", id: "c/t")
        try repo.commitAll("init")
        let resolver = TemplateResolver(environment: temp.environment())
        let source = TemplateSource(name: "c", location: "file://" + repo.root.path)
        let before = try await_ { try await resolver.resolve(source) }
        for index in 0..<200 { try repo.write("t/files/big\(index).txt", String(repeating: "\(index) random \(UUID())\n", count: 200)) }
        try repo.commitAll("big")
        // When a resolution is cancelled as soon as objects arrive (or immediately)
        let task = Task { try await resolver.resolve(source) { _ in } }
        task.cancel()
        _ = try? await_ { try await task.value }
        // Then the mirror is intact: fsck passes, and it still resolves (to the old or the new commit, never a broken one)
        let mirrors = try FileManager.default.contentsOfDirectory(atPath: temp.path("home/.cache/folio/sources").path).filter { !$0.hasPrefix(".") }
        XCTAssertEqual(try git(["fsck", "--strict"], in: temp.path("home/.cache/folio/sources/" + mirrors[0]), environment: temp.environment()).status, 0)
        let offline = try await_ { try await TemplateResolver(environment: temp.environment(), offline: true).resolve(source) }
        XCTAssertFalse(offline.templates.isEmpty)
        _ = before
    }

    func testResolveAllReportsEachSourceAndAFailingSourceDoesNotBlockTheOthers() throws {
        let temp = TemporaryDirectory()
        let repo = try makeRepo(temp)
        try repo.template("t", id: "ok/t")
        try repo.commitAll("init")
        let resolver = TemplateResolver(environment: temp.environment())
        let sources = [TemplateSource(name: "good", location: repo.root.path), TemplateSource(name: "bad", location: temp.path("nope").path)]
        let events = try await_ { () async -> [String] in
            var seen: [String] = []
            for await event in resolver.resolveAll(sources) {
                switch event {
                case let .resolved(r): seen.append("resolved \(r.source.name) \(r.templates.count)")
                case let .failed(s, message): seen.append("failed \(s.name) \(message.contains("no such folder"))")
                case .progress: break
                }
            }
            return seen.sorted()
        }
        XCTAssertEqual(events, ["failed bad true", "resolved good 1"])
    }
}
