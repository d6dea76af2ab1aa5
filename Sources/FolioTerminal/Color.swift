/// A terminal color: the terminal's default, one of the 16 named colors, a 256-palette index, or 24-bit RGB.
public enum TerminalColor: Hashable, Sendable {
    case `default`
    case named(NamedColor)
    case indexed(UInt8)
    case rgb(UInt8, UInt8, UInt8)

    /// The 16 standard terminal colors.
    public enum NamedColor: Int, CaseIterable, Hashable, Sendable {
        case black, red, green, yellow, blue, magenta, cyan, white
        case brightBlack, brightRed, brightGreen, brightYellow, brightBlue, brightMagenta, brightCyan, brightWhite

        /// The name used in configuration files (`bright-blue`, `gray`…).
        public var name: String {
            switch self {
            case .black: "black"; case .red: "red"; case .green: "green"; case .yellow: "yellow"
            case .blue: "blue"; case .magenta: "magenta"; case .cyan: "cyan"; case .white: "white"
            case .brightBlack: "gray"; case .brightRed: "bright-red"; case .brightGreen: "bright-green"
            case .brightYellow: "bright-yellow"; case .brightBlue: "bright-blue"; case .brightMagenta: "bright-magenta"
            case .brightCyan: "bright-cyan"; case .brightWhite: "bright-white"
            }
        }

        /// The conventional (xterm) RGB value, used when downgrading.
        public var rgb: (UInt8, UInt8, UInt8) {
            let table: [(UInt8, UInt8, UInt8)] = [
                (0, 0, 0), (205, 0, 0), (0, 205, 0), (205, 205, 0), (0, 0, 238), (205, 0, 205), (0, 205, 205), (229, 229, 229),
                (127, 127, 127), (255, 0, 0), (0, 255, 0), (255, 255, 0), (92, 92, 255), (255, 0, 255), (0, 255, 255), (255, 255, 255),
            ]
            return table[rawValue]
        }
    }

    /// Parses `default`, a color name (`red`, `bright-blue`, `gray`/`grey`) or `#rrggbb`; nil when not a color.
    public init?(parsing text: String) {
        let lowered = text.lowercased()
        if lowered == "default" { self = .default; return }
        if lowered.hasPrefix("#") {
            let hex = Array(lowered.utf8.dropFirst())
            guard hex.count == 6, let value = UInt32(String(decoding: hex, as: UTF8.self), radix: 16) else { return nil }
            self = .rgb(UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF))
            return
        }
        let aliases = ["grey": NamedColor.brightBlack, "bright-black": .brightBlack]
        if let named = aliases[lowered] ?? NamedColor.allCases.first(where: { $0.name == lowered }) {
            self = .named(named)
            return
        }
        return nil
    }

    /// The color as RGB, for interpolation; nil for the default color.
    public var rgbComponents: (UInt8, UInt8, UInt8)? {
        switch self {
        case .default: return nil
        case let .named(named): return named.rgb
        case let .indexed(index): return Self.paletteRGB(index)
        case let .rgb(r, g, b): return (r, g, b)
        }
    }

    /// This color as well as `capability` can show it: truecolor → 256 → 16 → none.
    public func downgraded(to capability: ColorCapability) -> TerminalColor {
        switch (self, capability) {
        case (.default, _): return .default
        case (_, .none), (_, .monochrome): return .default
        case (_, .truecolor): return self
        case let (.rgb(r, g, b), .ansi256): return .indexed(Self.nearest256(r, g, b))
        case (.named, .ansi256), (.indexed, .ansi256): return self
        case (.named, .ansi16): return self
        case let (.indexed(index), .ansi16):
            if index < 16, let named = NamedColor(rawValue: Int(index)) { return .named(named) }
            let (r, g, b) = Self.paletteRGB(index)
            return .named(Self.nearest16(r, g, b))
        case let (.rgb(r, g, b), .ansi16): return .named(Self.nearest16(r, g, b))
        }
    }

    /// The nearest color in the 6×6×6 cube or the gray ramp of the 256-color palette.
    static func nearest256(_ r: UInt8, _ g: UInt8, _ b: UInt8) -> UInt8 {
        let levels = [0, 95, 135, 175, 215, 255]
        func cubeIndex(_ v: UInt8) -> Int {
            var best = 0
            for (i, level) in levels.enumerated() where abs(level - Int(v)) < abs(levels[best] - Int(v)) { best = i }
            return best
        }
        let (ri, gi, bi) = (cubeIndex(r), cubeIndex(g), cubeIndex(b))
        let cube = (levels[ri], levels[gi], levels[bi])
        let average = (Int(r) + Int(g) + Int(b)) / 3
        let grayIndex = min(23, max(0, (average - 8 + 5) / 10))
        let grayLevel = 8 + grayIndex * 10
        let cubeDistance = distance((r, g, b), (UInt8(cube.0), UInt8(cube.1), UInt8(cube.2)))
        let grayDistance = distance((r, g, b), (UInt8(grayLevel), UInt8(grayLevel), UInt8(grayLevel)))
        return grayDistance < cubeDistance ? UInt8(232 + grayIndex) : UInt8(16 + 36 * ri + 6 * gi + bi)
    }

    /// The nearest of the 16 named colors.
    static func nearest16(_ r: UInt8, _ g: UInt8, _ b: UInt8) -> NamedColor {
        var best = NamedColor.black
        var bestDistance = Int.max
        for named in NamedColor.allCases {
            let d = distance((r, g, b), named.rgb)
            if d < bestDistance { best = named; bestDistance = d }
        }
        return best
    }

    static func paletteRGB(_ index: UInt8) -> (UInt8, UInt8, UInt8) {
        if index < 16, let named = NamedColor(rawValue: Int(index)) { return named.rgb }
        if index >= 232 { let v = UInt8(8 + (Int(index) - 232) * 10); return (v, v, v) }
        let levels: [UInt8] = [0, 95, 135, 175, 215, 255]
        let i = Int(index) - 16
        return (levels[i / 36], levels[i / 6 % 6], levels[i % 6])
    }

    static func distance(_ a: (UInt8, UInt8, UInt8), _ b: (UInt8, UInt8, UInt8)) -> Int {
        let dr = Int(a.0) - Int(b.0), dg = Int(a.1) - Int(b.1), db = Int(a.2) - Int(b.2)
        return 2 * dr * dr + 4 * dg * dg + 3 * db * db
    }

    /// Linear interpolation between two colors at `t` in 0…1 (RGB); the start color when either has no RGB value.
    public static func mix(_ from: TerminalColor, _ to: TerminalColor, _ t: Double) -> TerminalColor {
        guard let a = from.rgbComponents, let b = to.rgbComponents else { return from }
        let t = min(1, max(0, t))
        func lerp(_ x: UInt8, _ y: UInt8) -> UInt8 { UInt8((Double(x) + (Double(y) - Double(x)) * t).rounded()) }
        return .rgb(lerp(a.0, b.0), lerp(a.1, b.1), lerp(a.2, b.2))
    }
}

/// What the terminal can show, from the environment.
public enum ColorCapability: Int, Comparable, Sendable {
    /// `TERM=dumb`: no escape sequences for styling at all.
    case none
    /// `NO_COLOR`: bold, dim and reverse, but no colors.
    case monochrome
    case ansi16
    case ansi256
    case truecolor

    /// Detects the capability: `TERM=dumb` → none, `NO_COLOR` → monochrome, `COLORTERM=truecolor|24bit` → truecolor,
    /// a `TERM` containing `256color` → 256 colors, otherwise 16.
    public static func detect(environment: [String: String]) -> ColorCapability {
        let term = environment["TERM"] ?? ""
        if term == "dumb" { return .none }
        if let noColor = environment["NO_COLOR"], !noColor.isEmpty { return .monochrome }
        let colorTerm = (environment["COLORTERM"] ?? "").lowercased()
        if colorTerm == "truecolor" || colorTerm == "24bit" { return .truecolor }
        if term.contains("256color") { return .ansi256 }
        return .ansi16
    }

    public static func < (lhs: ColorCapability, rhs: ColorCapability) -> Bool { lhs.rawValue < rhs.rawValue }
}

extension TerminalColor: ExpressibleByStringLiteral {
    /// A color from a literal name or `#rrggbb`; an unknown literal is the default color.
    public init(stringLiteral value: String) { self = TerminalColor(parsing: value) ?? .default }
}
