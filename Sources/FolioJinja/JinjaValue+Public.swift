extension JinjaValue {
    /// Python's `str()` of the value (`True`, `None`, `1.0`, `['a', 'b']`), as a template printing it would show it.
    public var pythonString: String { plainString }

    /// Python's `repr()` of the value (`'a'`, `[1, 'b']`).
    public var pythonRepr: String { repr }
}

extension JinjaValue {
    /// Python's `a == b` (`1 == 1.0`, lists and dicts by their items).
    public static func pythonEquals(_ a: JinjaValue, _ b: JinjaValue) -> Bool { pyEqual(a, b) }
}
