import Foundation
import FolioCore
import FolioTemplates

func testTemplates(_ args: Arguments, _ io: CommandIO) throws -> Int32 {
    throw UsageError("not yet")
}
