import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// One line describing `error`, in place of Foundation's `localizedDescription` (whose messages come from the
/// ICU-linked layer). A file-system error reads "PATH: REASON" with the C library's reason ("No such file or
/// directory"); any other error as it describes itself.
public func errorText(_ error: any Error) -> String {
    if let cocoa = error as? CocoaError {
        let path = cocoa.filePath ?? cocoa.url?.path
        let reason: String
        if let posix = cocoa.underlying as? POSIXError {
            reason = String(cString: strerror(posix.code.rawValue))
        } else {
            reason = cocoaReason(cocoa.code)
        }
        return path.map { "\($0): \(reason)" } ?? reason
    }
    if let posix = error as? POSIXError { return String(cString: strerror(posix.code.rawValue)) }
    return String(describing: error)
}

private func cocoaReason(_ code: CocoaError.Code) -> String {
    switch code {
    case .fileNoSuchFile, .fileReadNoSuchFile: "No such file or directory"
    case .fileReadNoPermission, .fileWriteNoPermission: "Permission denied"
    case .fileWriteFileExists: "File exists"
    case .fileWriteOutOfSpace: "No space left on device"
    case .fileWriteVolumeReadOnly: "Read-only file system"
    case .fileReadCorruptFile: "the file is not in the expected format"
    case .fileReadInapplicableStringEncoding, .fileWriteInapplicableStringEncoding: "the text is not valid UTF-8"
    default: "file error \(code.rawValue)"
    }
}
