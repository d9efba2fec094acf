import Glibc
import Synchronization

/// IMF-fixdate (`Sun, 06 Nov 1994 08:49:37 GMT`) for the `Date` header, formatted at most once per second
/// per event loop.
struct HTTPDateCache {
    private var cachedSecond: time_t = -1
    private var cachedText = ""

    mutating func current() -> String {
        let now = time(nil)
        if now != cachedSecond {
            cachedSecond = now
            cachedText = Self.format(now)
        }
        return cachedText
    }

    static func format(_ seconds: time_t) -> String {
        var moment = seconds
        var parts = tm()
        gmtime_r(&moment, &parts)
        let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(days[Int(parts.tm_wday)]), \(two(parts.tm_mday)) \(months[Int(parts.tm_mon)]) "
            + "\(parts.tm_year + 1900) \(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)) GMT"
    }
}

/// The `Date` header text for threads other than the loops' (handlers answering directly), formatted at most
/// once per second for all of them.
final class SharedHTTPDate: Sendable {
    private let cache = Mutex(HTTPDateCache())

    func current() -> String {
        cache.withLock { $0.current() }
    }
}
