import FoundationEssentials
import Glibc
import FolioCore
import FolioGit
import FolioMustache

/// The limits that keep template work bounded: how much a render may produce and do, and how large a plain
/// template folder may be before it is snapshotted into the cache. Set in `settings.json` (`"mustache"` and
/// `"templateFolders"`); see the README's template section.
public struct TemplateLimits: Sendable, Equatable {
    /// 10,000 files: hundreds of times Folio's bundled templates (26 files), far below a system folder.
    public static let defaultMaxFolderFiles = 10_000
    /// 256 MiB: every file of a template is held in memory while it is rendered.
    public static let defaultMaxFolderBytes = 256 << 20

    /// Bounds on each Mustache render.
    public var render: MustacheLimits
    /// The most files a plain template folder may hold.
    public var maxFolderFiles: Int
    /// The most bytes, all files together, a plain template folder may hold.
    public var maxFolderBytes: Int
    /// How long fetching a remote source may go without progress before it gives up (`networkTimeout`).
    public var networkTimeout: Duration = TransferOptions.defaultTimeout

    /// Creates limits; the defaults are Folio's.
    public init(render: MustacheLimits = MustacheLimits(), maxFolderFiles: Int = defaultMaxFolderFiles,
                maxFolderBytes: Int = defaultMaxFolderBytes) {
        self.render = render
        self.maxFolderFiles = maxFolderFiles
        self.maxFolderBytes = maxFolderBytes
    }

    /// The limits in `settings`, with defaults for what it leaves out.
    public init(settings: Settings) {
        let m = settings.mustache
        self.init(render: MustacheLimits(maxOutputBytes: m?.maxOutputBytes ?? MustacheLimits.defaultMaxOutputBytes,
                                         maxDepth: m?.maxDepth ?? MustacheLimits.defaultMaxDepth,
                                         maxSteps: m?.maxSteps ?? MustacheLimits.defaultMaxSteps),
                  maxFolderFiles: settings.templateFolders?.maxFiles ?? Self.defaultMaxFolderFiles,
                  maxFolderBytes: settings.templateFolders?.maxBytes ?? Self.defaultMaxFolderBytes)
        networkTimeout = settings.networkTimeoutDuration
    }
}
