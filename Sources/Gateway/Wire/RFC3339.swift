import WireFormats

/// UTC timestamps in RFC 3339 with milliseconds (`2026-11-28T12:00:00.123Z`), as Firebase writes `lastRefreshAt`
/// and as every log line starts.
///
/// Written as bytes with the civil-from-days arithmetic (no `gmtime_r`, no intermediate Strings): `accounts:lookup`
/// renders one per user and every request logs one, and the String-building version cost more than a percent of a
/// lookup. Total over `Int64`: instants before 1970 count back (floor division), years outside 0...9999 get more
/// digits or a sign rather than a crash.
enum RFC3339 {
    static func string(milliseconds: Int64) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(24)
        append(milliseconds: milliseconds, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    static func append(milliseconds: Int64, to out: inout [UInt8]) {
        let (seconds, millis) = floorDivision(milliseconds, 1000)
        let (days, secondOfDay) = floorDivision(seconds, 86_400)
        let (year, month, day) = civilDate(daysSinceEpoch: days)
        if year < 0 { out.append(UInt8(ascii: "-")) }
        appendDigits(Int64(year.magnitude), width: 4, to: &out)
        out.append(UInt8(ascii: "-"))
        appendDigits(month, width: 2, to: &out)
        out.append(UInt8(ascii: "-"))
        appendDigits(day, width: 2, to: &out)
        out.append(UInt8(ascii: "T"))
        appendDigits(secondOfDay / 3600, width: 2, to: &out)
        out.append(UInt8(ascii: ":"))
        appendDigits(secondOfDay / 60 % 60, width: 2, to: &out)
        out.append(UInt8(ascii: ":"))
        appendDigits(secondOfDay % 60, width: 2, to: &out)
        out.append(UInt8(ascii: "."))
        appendDigits(millis, width: 3, to: &out)
        out.append(UInt8(ascii: "Z"))
    }

    /// Quotient rounded toward minus infinity, and the remainder in `0..<divisor`.
    private static func floorDivision(_ value: Int64, _ divisor: Int64) -> (Int64, Int64) {
        let quotient = value / divisor, remainder = value % divisor
        return remainder < 0 ? (quotient - 1, remainder + divisor) : (quotient, remainder)
    }

    /// The proleptic Gregorian (year, month, day) of a day counted from 1970-01-01 (Howard Hinnant's algorithm:
    /// 400-year eras of 146,097 days, years starting on 1 March so the leap day comes last).
    private static func civilDate(daysSinceEpoch days: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    /// `value` (not negative) in decimal, left-padded with zeros to at least `width` digits.
    private static func appendDigits(_ value: Int64, width: Int, to out: inout [UInt8]) {
        var digits = 1
        var rest = value
        while rest >= 10 {
            rest /= 10
            digits += 1
        }
        for _ in digits..<max(digits, width) { out.append(UInt8(ascii: "0")) }
        JSONSerializer.appendInteger(value, to: &out)
    }
}
