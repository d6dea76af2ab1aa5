/// The bytes one render produces: one buffer, grown by doubling, appended to with a plain copy.
///
/// Not an `[UInt8]`: a render appends once per text and per value, and `Array.append(contentsOf:)` went through its
/// generic sequence path at about ninety instructions a call. Noncopyable, so the buffer has one owner and is freed
/// exactly once, by `deinit` (also when the render throws).
struct MustacheOutput: ~Copyable {
    private var base: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    /// How many bytes have been written.
    private(set) var count = 0

    init(capacity: Int) {
        self.capacity = max(capacity, 64)
        base = .allocate(capacity: self.capacity)
    }

    deinit { base.deallocate() }

    /// The bytes written so far.
    var bytes: [UInt8] { Array(UnsafeBufferPointer(start: base, count: count)) }

    mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let source = bytes.baseAddress, !bytes.isEmpty else { return }
        reserve(bytes.count)
        (base + count).initialize(from: source, count: bytes.count)
        count += bytes.count
    }

    mutating func append(_ bytes: ArraySlice<UInt8>) {
        bytes.withUnsafeBufferPointer { append($0) }
    }

    mutating func append(_ bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { append($0) }
    }

    mutating func append(_ byte: UInt8) {
        reserve(1)
        (base + count).initialize(to: byte)
        count += 1
    }

    /// Makes room for `extra` more bytes.
    private mutating func reserve(_ extra: Int) {
        guard capacity - count < extra else { return }
        let doubled = capacity <= Int.max / 2 ? capacity * 2 : Int.max
        let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: max(doubled, count + extra))
        grown.initialize(from: base, count: count)
        base.deallocate()
        base = grown
        capacity = max(doubled, count + extra)
    }
}
