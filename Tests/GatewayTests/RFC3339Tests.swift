import Testing
@testable import Gateway

@Suite("RFC 3339 timestamps with milliseconds")
struct RFC3339Tests {
    @Test("known instants, leap days, and instants before 1970", arguments: [
        (Int64(0), "1970-01-01T00:00:00.000Z"),
        (1_800_000_000_123, "2027-01-15T08:00:00.123Z"),
        (1_709_164_800_123, "2024-02-29T00:00:00.123Z"),
        (951_782_400_000, "2000-02-29T00:00:00.000Z"),
        (4_107_542_399_999, "2100-02-28T23:59:59.999Z"),
        (-1, "1969-12-31T23:59:59.999Z"),
        (-62_135_596_800_000, "0001-01-01T00:00:00.000Z"),
        (253_402_300_799_999, "9999-12-31T23:59:59.999Z"),
    ])
    func known(milliseconds: Int64, text: String) {
        #expect(RFC3339.string(milliseconds: milliseconds) == text)
    }

    @Test("every day of four centuries matches the calendar rules (leap years every 4, not 100, again 400)")
    func everyDay() {
        var year = 1970, month = 1, day = 1
        for days in Int64(0)..<146_097 {
            let expected = "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))T00:00:00.000Z"
            #expect(RFC3339.string(milliseconds: days * 86_400_000) == expected)
            if expected != RFC3339.string(milliseconds: days * 86_400_000) { return }
            let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
            let length = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]
            day += 1
            if day > length { day = 1; month += 1 }
            if month > 12 { month = 1; year += 1 }
        }
    }

    @Test("the extremes of Int64 render without trapping")
    func extremes() {
        #expect(RFC3339.string(milliseconds: .max).hasSuffix(".807Z"))
        #expect(RFC3339.string(milliseconds: .min).hasPrefix("-"))
    }

    private func pad(_ value: Int, _ width: Int) -> String {
        String(repeating: "0", count: max(0, width - String(value).count)) + String(value)
    }
}
