import Glibc

// jinja2-time's `{% now TIMEZONE[ + OFFSET|- OFFSET][, FORMAT] %}` (cookiecutter's TimeExtension is the same): the
// time in `utc` or `local`, shifted by `'days=1, hours=-2'`, formatted with strftime (default `%Y-%m-%d`). The clock
// is `JinjaOptions.now` when set, so that tests and fixtures are reproducible.

extension JinjaParser {
    /// After `now`: the time zone expression (with `+`/`-` an offset), then an optional `, FORMAT`.
    mutating func parseNow() throws -> JinjaStatement.Kind {
        let line = current.line
        let zone = try parseExpression()
        var format = JinjaExpr.constant(.none)
        if current.kind == .op, current.text == "," {
            next()
            format = try parseExpression()
        }
        try endBlock()
        var arguments: [JinjaExpr]
        switch zone {
        case let .binary(op, timezone, offset, _) where op == "+" || op == "-":
            arguments = [timezone, .constant(.string(op)), offset, format]
        default:
            arguments = [zone, .constant(.string("+")), .constant(.string("")), format]
        }
        let function = JinjaFunction(name: "now") { args, r in .string(try r.now(args.positional)) }
        return .output(.call(.constant(.function(function)), JinjaCallArgs(positional: arguments), line: line))
    }
}

extension JinjaRenderer {
    /// The `now` tag's text for [timezone, operator, offset, format].
    func now(_ values: [JinjaValue]) throws -> String {
        guard values.count == 4 else { throw error(.type, "now takes a time zone, an offset and a format") }
        let zone = try str(values[0]).lowercased()
        guard zone == "utc" || zone == "local" else {
            throw error(.value, "now: the time zone '\(try str(values[0]))' is not available in Folio (utc or local)")
        }
        var seconds = options.now ?? Self.clockSeconds()
        let offset = try str(values[2])
        if !Substring(offset).trimmingSpaces.isEmpty { seconds = try shifted(seconds, by: offset, negative: try str(values[1]) == "-", utc: zone == "utc") }
        let format = values[3].isNone ? "%Y-%m-%d" : try str(values[3])
        return try strftime(format, seconds: seconds, utc: zone == "utc")
    }

    static func clockSeconds() -> Double {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
    }

    /// `seconds` shifted by `offset` (`'days=1, hours=-2.5'`), as arrow's `shift` does: years and months first
    /// (a day past the month's end becomes its last), then weeks, days, hours, minutes, seconds and microseconds.
    func shifted(_ seconds: Double, by offset: String, negative: Bool, utc: Bool) throws -> Double {
        var months = 0, delta = 0.0
        for part in offset.split(separator: ",") {
            let pieces = part.split(separator: "=", omittingEmptySubsequences: false)
            guard pieces.count == 2, let amount = Double(pieces[1].trimmingSpaces) else {
                throw error(.value, "now: the offset '\(offset)' is not NAME=NUMBER, …")
            }
            let value = negative ? -amount : amount
            switch pieces[0].trimmingSpaces {
            case "years", "months", "quarters":
                guard let whole = Int(exactly: value) else { throw error(.value, "Non-integer years and months are ambiguous and not currently supported.") }
                months += whole * (pieces[0].trimmingSpaces == "years" ? 12 : pieces[0].trimmingSpaces == "quarters" ? 3 : 1)
            case "weeks": delta += value * 604_800
            case "days": delta += value * 86_400
            case "hours": delta += value * 3_600
            case "minutes": delta += value * 60
            case "seconds": delta += value
            case "microseconds": delta += value / 1_000_000
            default: throw error(.value, "now: '\(pieces[0].trimmingSpaces)' is not a unit to shift by")
            }
        }
        guard delta.isFinite, abs(delta) < 1e13, abs(months) < 120_000 else { throw error(.value, "now: the offset is out of range") }
        guard let moved = Self.addingMonths(months, to: seconds, utc: utc) else { throw error(.value, "now: the time is out of range") }
        return moved + delta
    }

    /// Whole seconds of `seconds` as the C library's time, nil when not finite or out of its range.
    static func cTime(_ seconds: Double) -> time_t? { seconds.isFinite ? time_t(exactly: seconds.rounded(.down)) : nil }

    /// `seconds` moved by `months` calendar months in its zone, the day kept or clamped to the month's last.
    static func addingMonths(_ months: Int, to seconds: Double, utc: Bool) -> Double? {
        guard months != 0 else { return seconds }
        guard var time = cTime(seconds) else { return nil }
        let fraction = seconds - seconds.rounded(.down)
        var parts = tm()
        if utc { gmtime_r(&time, &parts) } else { localtime_r(&time, &parts) }
        let total = Int(parts.tm_year) * 12 + Int(parts.tm_mon) + months
        let year = total >= 0 ? total / 12 : (total - 11) / 12
        let month = total - year * 12
        parts.tm_year = Int32(clamping: year)
        parts.tm_mon = Int32(month)
        parts.tm_mday = min(parts.tm_mday, Int32(daysIn(month: month, year: year + 1900)))
        parts.tm_isdst = -1
        let moved = utc ? timegm(&parts) : mktime(&parts)
        return Double(moved) + fraction
    }

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 1: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 3, 5, 8, 10: return 30
        default: return 31
        }
    }

    /// Python's `datetime.strftime`: `%f`, `%z` and `%Z` from the time itself, the rest by the C library.
    func strftime(_ format: String, seconds: Double, utc: Bool) throws -> String {
        guard format.utf8.count <= 1024 else { throw error(.value, "now: the format is longer than 1024 bytes") }
        guard var time = Self.cTime(seconds) else { throw error(.value, "now: the time is out of range") }
        var parts = tm()
        if utc { gmtime_r(&time, &parts) } else { localtime_r(&time, &parts) }
        let micro = Int(((seconds - seconds.rounded(.down)) * 1_000_000).rounded(.down))
        let offset = utc ? 0 : Int(parts.tm_gmtoff)
        let sign = offset < 0 ? "-" : "+"
        let zoneOffset = sign + Self.twoDigits(abs(offset) / 3600) + Self.twoDigits(abs(offset) % 3600 / 60)
        let zoneName = utc ? "UTC" : parts.tm_zone.map { String(cString: $0) } ?? ""
        var expanded = "", percent = false
        for c in format {
            if percent {
                percent = false
                switch c {
                case "f": expanded += String(repeating: "0", count: 6 - String(micro).count) + String(micro)
                case "z": expanded += zoneOffset
                case "Z": expanded += zoneName.replacing("%", with: "%%")
                default: expanded += "%" + String(c)
                }
            } else if c == "%" {
                percent = true
            } else {
                expanded.append(c)
            }
        }
        if percent { expanded += "%" }
        var buffer = [CChar](repeating: 0, count: 4096)
        let count = Glibc.strftime(&buffer, buffer.count, expanded, &parts)
        guard count > 0 || expanded.isEmpty else { return "" }
        return String(decoding: buffer.prefix(count).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    static func twoDigits(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
}
