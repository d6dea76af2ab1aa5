/// Text order with runs of digits compared by their value ("2" before "10", "1.2" before "1.10"), in place of
/// Foundation's `compare(_:options: .numeric)` (which lives in the ICU-linked layer). Other characters compare by
/// Unicode scalar value after canonical decomposition ("é" as "e" and its accent); runs of equal value ("01", "1")
/// compare equal.
public enum NumericOrder {
    /// Whether `a` sorts before `b`.
    public static func ascending(_ a: String, _ b: String) -> Bool {
        var left = Array(TextFolding.decomposed(a).unicodeScalars)[...], right = Array(TextFolding.decomposed(b).unicodeScalars)[...]
        while let x = left.first, let y = right.first {
            if isDigit(x), isDigit(y) {
                let leftRun = left.prefix(while: isDigit), rightRun = right.prefix(while: isDigit)
                let leftValue = leftRun.drop { $0 == "0" }, rightValue = rightRun.drop { $0 == "0" }
                if leftValue.count != rightValue.count { return leftValue.count < rightValue.count }
                if let (p, q) = zip(leftValue, rightValue).first(where: { $0 != $1 }) { return p.value < q.value }
                left = left.dropFirst(leftRun.count); right = right.dropFirst(rightRun.count)
            } else {
                if x != y { return x.value < y.value }
                left = left.dropFirst(); right = right.dropFirst()
            }
        }
        return left.isEmpty && !right.isEmpty
    }

    private static func isDigit(_ scalar: Unicode.Scalar) -> Bool { ("0"..."9").contains(scalar) }
}
