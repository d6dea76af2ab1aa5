import FoundationEssentials
import Glibc

/// A launcher request Folio refuses, with the value and why, on one line.
package enum LaunchError: Error, CustomStringConvertible, LocalizedError, Equatable {
    /// A scene name is not 1 to 64 letters, digits, `-`, `_` or `.` not starting with `.`: the name.
    case invalidSceneName(String)
    /// A frame to render is not 1 to 1000 cells wide and high.
    case invalidFrameSize(width: Int, height: Int)

    package var description: String {
        switch self {
        case let .invalidSceneName(name):
            return "scene name '\(name)': use 1 to 64 letters, digits, '-', '_' or '.', not starting with '.'"
        case let .invalidFrameSize(width, height):
            return "frame size \(width)×\(height): width and height must be from 1 to 1000"
        }
    }

    package var errorDescription: String? { description }
}
