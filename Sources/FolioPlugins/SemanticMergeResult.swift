import FoundationEssentials

/// The outcome of a three-way semantic merge.
public enum SemanticMergeResult: Sendable, Equatable {
    case merged(Data)
    case conflicts([String])
}
