extension EditorOperationError.Kind {
    /// The ABI status code of the kind.
    var status: Int64 {
        switch self {
        case .invalidArgument: return 1
        case .unknownCommand: return 2
        case .invalidDocument: return 3
        case .conflict: return 4
        case .unsupported: return 5
        case .outOfMemory: return 6
        case .internal: return 7
        }
    }

    /// The kind of an ABI status code (anything unknown is internal).
    init(status: Int64) {
        switch status {
        case 1: self = .invalidArgument
        case 2: self = .unknownCommand
        case 3: self = .invalidDocument
        case 4: self = .conflict
        case 5: self = .unsupported
        case 6: self = .outOfMemory
        default: self = .internal
        }
    }
}
