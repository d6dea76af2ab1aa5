import FoundationEssentials
import Glibc
import FolioCore
import FolioLaunch
import FolioPlugins
import FolioSync
import FolioTemplates

/// The command line's own hints for typed library errors. Library errors carry the facts (which file, which variable,
/// which remote); only here do they become the `folio` command or option that helps, appended to the error's line.
enum CommandHints {
    /// The text to append to `error`'s one line (starting with "; " or " ("), nil when there is no hint.
    static func hint(for error: any Error) -> String? {
        switch error {
        case let error as TemplateError: return hint(for: error.kind)
        case let error as SyncError: return hint(for: error)
        case let error as LaunchError: return hint(for: error)
        case let error as FolioError: return hint(for: error)
        case let error as RefError: return hint(for: error)
        case let error as PluginError: return hint(for: error)
        case let error as PluginInstallError: return hint(for: error)
        case let error as ItemError: return hint(for: error)
        case let error as SettleError: return hint(for: error)
        case let error as PluginHostFailure: return hint(for: error)
        case is PluginPermissionsNotGranted: return "; to grant it, answer yes on a terminal or run again with --grant"
        default: return nil
        }
    }

    /// Where to read what a plugin wrote before it crashed or hung (its own log).
    static func hint(for error: PluginHostFailure) -> String? {
        switch error.cause {
        case .crashed, .timedOut: return "; what the plugin wrote: 'folio plugins log \(error.editor)'"
        case .cancelled, .spawnFailed: return nil
        }
    }

    static func hint(for kind: TemplateError.Kind) -> String? {
        switch kind {
        case let .missingAnswer(variable): return "; give --set \(variable)=VALUE"
        case .refOnPlainFolder: return "; drop --ref"
        case .noOfflineCopy: return " (run 'folio templates update' while online)"
        case .invalidFile, .notFound, .unreadable, .writeFailed, .sourceUnavailable, .untrustedSource, .tooLarge, .notUTF8,
             .refusedPath, .unknownVariable, .invalidAnswer, .needsNewerFolio, .notAFolderOnDisk, .unsupported:
            return nil
        }
    }

    static func hint(for error: SyncError) -> String? {
        switch error {
        case let .noRemote(path): return "; add one with 'folio remote \(path) add NAME URL'"
        case let .unknownRemote(path, _): return " (see 'folio remote \(path) list')"
        case let .unrecordedChanges(path, _): return "; record them first with 'folio commit \(path)'"
        case let .remoteAhead(path, remote, _): return ": run 'folio pull \(path) \(remote)' first"
        case let .remoteBusy(path, _, _): return "; run 'folio sync \(path)' again"
        case let .heldByConflict(path, conflicts): return heldBackAdvice(path: path, conflicts: conflicts)
        case let .unknownConflict(path, _): return " (see 'folio conflicts \(path)')"
        case .refusedIncoming: return "; ask whoever pushed it to take that out"
        case let .invalidSyncInterval(path, _): return "; set it with 'folio sync \(path) --continuous on --interval SECONDS'"
        case .syncBusy: return " (try again in a moment)"
        case .invalidRemoteName, .invalidRemoteURL, .remoteExists, .pushRejected, .notADocumentSource, .cloneFailed, .syncCancelled: return nil
        }
    }

    static func hint(for error: SettleError) -> String? {
        switch error {
        case let .missingChoices(path, ref, _):
            return "; choose each with --mine, --theirs or --both, or the rest with --all mine|theirs (see 'folio conflicts \(path) show \(shortConflict(ref))')"
        case let .unknownKeys(path, ref, _, _): return " (see 'folio conflicts \(path) show \(shortConflict(ref))')"
        case .bothForWholeFile: return "; give it --mine or --theirs"
        case let .editorCouldNotSettle(path, _, _, _): return "; choose otherwise, or settle whole files with 'folio conflicts \(path) --keep local|remote REF'"
        }
    }

    /// What to do while kept conflicts hold the document back: the commands that list and settle them.
    static func heldBackAdvice(path: String, conflicts: [String]) -> String {
        let ref = conflicts.count == 1 ? shortConflict(conflicts[0]) : "REF"
        return "; see what conflicts with 'folio conflicts \(path) show \(ref)', settle it item by item with "
            + "'folio conflicts \(path) settle \(ref) --all mine|theirs' (or --mine/--theirs/--both KEYS), "
            + "or whole files with 'folio conflicts \(path) --keep local|remote \(ref)'; then sync again"
    }

    /// The one line after a pull that found the remote rewound: what happened, and what the next sync does.
    static func rewindAdvice(_ rewind: RemoteRewind, documentPath path: String) -> String {
        rewind.summary + "; compare with 'folio diff \(path) HEAD \(rewind.tip.hex)'"
    }

    /// How to accept a remote version held for changing the content type.
    static func acceptTypeAdvice(path: String) -> String {
        "; to accept it, run 'folio sync \(path) --accept-type' (or 'folio pull \(path) --accept-type')"
    }

    /// A kept conflict's ref as the user types it (`20250102T030405Z`).
    static func shortConflict(_ ref: String) -> String {
        ref.hasPrefix("refs/folio/conflicts/") ? String(ref.dropFirst("refs/folio/conflicts/".count)) : ref
    }

    static func hint(for error: LaunchError) -> String? {
        switch error {
        case .invalidSceneName: return " (--scene)"
        case .invalidFrameSize: return " (--width, --height)"
        }
    }

    static func hint(for error: ItemError) -> String? {
        switch error {
        case .unsupported: return "; 'folio restore PATH REV' brings back a whole version, 'folio log PATH' lists them all"
        case .noSuchItem: return " (items are numbered as 'folio view' shows them)"
        case .takeChangedOthers: return nil
        }
    }

    static func hint(for error: PluginInstallError) -> String? {
        switch error {
        case .clash: return "; remove or disable it first (folio plugins remove ID, folio plugins disable ID)"
        case .notInstalled(_, nil): return " (see folio plugins list)"
        case let .notInstalled(id, _?): return "; to stop using it: folio plugins disable \(id)"
        case .damagedLock: return "; to set it aside and rebuild it from the installed plugins: folio plugins repair"
        case .noLibrary, .refused, .unusableID, .notAccepted, .fileSystem, .badPackage: return nil
        }
    }

    static func hint(for error: PluginError) -> String? {
        switch error {
        case .unknownPlugin, .unknownEditor, .unknownPluginOrEditor: return " (see folio plugins list)"
        case .noEditor: return " (see folio plugins list, or use --editor ID)"
        case .invalidManifest, .hostExecutableMissing, .noStateFolder: return nil
        }
    }

    static func hint(for error: RefError) -> String? {
        switch error {
        case let .damaged(path, problem):
            switch problem {
            case .headUnreadable, .headDetached, .headOutsideBranches:
                return "; run 'folio status \(path) --repair' to make HEAD name the branch again"
            case .branchMissing, .branchIsFolder, .branchEmpty, .branchGarbled, .branchDangling, .branchNotAVersion:
                return "; run 'folio status \(path) --repair' to restore it from the newest version the repository holds"
            }
        case .unrepairable: return nil
        }
    }

    static func hint(for error: FolioError) -> String? {
        switch error {
        case .unknownTemplateSource: return " (see folio templates list; add one with folio templates add)"
        default: return nil
        }
    }

    /// The one line after a pull that kept a conflict: what happened, and the commands to compare and choose.
    static func conflictAdvice(_ conflict: SyncConflict, documentPath path: String) -> String {
        conflict.summary + "; compare with 'folio diff \(path) HEAD \(conflict.ref)', "
            + "take theirs with 'folio restore \(path) \(conflict.ref)', list and settle item by item with 'folio conflicts \(path)'"
    }
}
