import FolioGit
import XCTest

/// Links from outside must stay inside the tree that holds them, whatever the other links in it say.
final class LinkTargetRuleTests: XCTestCase {
    private func problem(_ target: String, depth: Int) -> LinkTargetProblem? {
        GitObjectRules.linkProblem(target: Array(target.utf8), depth: depth)
    }

    func testGivenAbsoluteTargetsWhenJudgedThenRefusedAsAbsolute() {
        XCTAssertEqual(problem("/home/user/.ssh", depth: 0), .absolute)
        XCTAssertEqual(problem("/", depth: 3), .absolute)
        XCTAssertEqual(problem("//etc/passwd", depth: 1), .absolute)
    }

    func testGivenTargetsClimbingPastTheRootWhenJudgedThenRefusedAsLeaving() {
        XCTAssertEqual(problem("..", depth: 0), .leavesTree)
        XCTAssertEqual(problem("../.ssh/id_rsa", depth: 0), .leavesTree)
        XCTAssertEqual(problem("../../x", depth: 1), .leavesTree)
        XCTAssertEqual(problem("./../x", depth: 0), .leavesTree)
    }

    func testGivenAParentAfterANameWhenJudgedThenRefusedBecauseAnotherLinkCouldLeadOut() {
        // `b -> .` and `a -> b/..`: each looks harmless alone; together `a` is the tree's parent
        XCTAssertEqual(problem("b/..", depth: 0), .parentAfterName)
        XCTAssertEqual(problem("../a/../b", depth: 2), .parentAfterName)
    }

    func testGivenMalformedTargetsWhenJudgedThenRefused() {
        XCTAssertEqual(problem("", depth: 0), .malformed)
        XCTAssertEqual(GitObjectRules.linkProblem(target: [0x61, 0, 0x62], depth: 0), .malformed)
        XCTAssertEqual(GitObjectRules.linkProblem(target: [0xFF, 0xFE], depth: 0), .malformed)
        XCTAssertEqual(problem(String(repeating: "a", count: 4096), depth: 0), .malformed)
    }

    func testGivenTargetsInsideTheTreeWhenJudgedThenAccepted() {
        XCTAssertNil(problem("document.txt", depth: 0))
        XCTAssertNil(problem("notes/today.md", depth: 0))
        XCTAssertNil(problem("../document.txt", depth: 1))
        XCTAssertNil(problem("../../a/b", depth: 2))
        XCTAssertNil(problem(".", depth: 0))
        XCTAssertNil(problem("./x//y/", depth: 0))
    }

    func testGivenARefusedLinkWhenDescribedThenTheTargetAndTheReasonAreNamed() {
        let text = GitObjectProblem.linkLeavesTree(target: "/home/user/.ssh", .absolute).description
        XCTAssertEqual(text, "a symbolic link to '/home/user/.ssh', which is absolute")
    }
}
