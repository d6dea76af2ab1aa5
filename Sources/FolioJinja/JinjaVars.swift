/// The variables of one scope: a few names searched in order (a loop body, a macro call, a `with` holds two to five,
/// and a new scope is made per iteration), with a hash index added once a scope holds many (a template's context).
/// Cheaper than a `[String: JinjaValue]` for small scopes: no hashing per lookup and no growing of a hash table as
/// the first names are bound.
struct JinjaVars: Sequence {
    private(set) var names: [String] = []
    private(set) var values: [JinjaValue] = []
    /// Positions by name, kept only beyond `indexedFrom` names.
    private var index: [String: Int]?
    static let indexedFrom = 12

    init() {}

    init(_ dictionary: [String: JinjaValue]) {
        for (k, v) in dictionary { self[k] = v }
    }

    var count: Int { names.count }

    func position(_ name: String) -> Int? {
        if let index { return index[name] }
        let length = name.utf8.count
        for i in names.indices where names[i].utf8.count == length && names[i] == name { return i }
        return nil
    }

    subscript(name: String) -> JinjaValue? {
        get { position(name).map { values[$0] } }
        set {
            if let i = position(name) {
                if let newValue { values[i] = newValue } else { remove(at: i) }
                return
            }
            guard let newValue else { return }
            if names.isEmpty {
                // A scope binds a few names: room for them at once, not a regrowth per name.
                names.reserveCapacity(4)
                values.reserveCapacity(4)
            }
            names.append(name)
            values.append(newValue)
            if index != nil {
                index?[name] = names.count - 1
            } else if names.count > Self.indexedFrom {
                index = Dictionary(uniqueKeysWithValues: names.enumerated().map { ($1, $0) })
            }
        }
    }

    private mutating func remove(at i: Int) {
        names.remove(at: i)
        values.remove(at: i)
        if index != nil { index = Dictionary(uniqueKeysWithValues: names.enumerated().map { ($1, $0) }) }
    }

    func makeIterator() -> Zip2Sequence<[String], [JinjaValue]>.Iterator { zip(names, values).makeIterator() }
}
