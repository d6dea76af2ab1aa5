import FolioGit

extension Document {
    /// What a fetch into this document accepts (`DocumentTreeGate.incomingRules`), with the largest incoming file
    /// the user's settings allow (`maxIncomingFileMiB`, default 1 GiB).
    package var incomingRules: IncomingRules {
        DocumentTreeGate.incomingRules(largestFile: store.settings.largestIncomingFile)
    }
}
