/// The longest strictly increasing subsequence (patience sorting, O(n log n)): the one implementation the item
/// matcher (`ItemLinks`), the compare view's row alignment and its item marks use, and so do Swift plugins
/// (`ItemMatcher.longestIncreasingSubsequence` in FolioPluginKit). Ties keep the earliest run.
public enum IncreasingRun {
    /// The positions in `values` of one longest strictly increasing run, in order.
    public static func positions(_ values: [Int]) -> [Int] {
        var tails: [Int] = []  // positions ending the best run of each length
        var previous = [Int](repeating: -1, count: values.count)
        for (index, value) in values.enumerated() {
            var low = 0, high = tails.count
            while low < high {
                let mid = (low + high) / 2
                if values[tails[mid]] < value { low = mid + 1 } else { high = mid }
            }
            if low > 0 { previous[index] = tails[low - 1] }
            if low == tails.count { tails.append(index) } else { tails[low] = index }
        }
        var run: [Int] = []
        var cursor = tails.last ?? -1
        while cursor >= 0 { run.append(cursor); cursor = previous[cursor] }
        return run.reversed()
    }
}
