import Crypto
import Synchronization
import WireFormats

/// Request ids (`X-Request-Id`, the `request.id` of log lines): 16 hex digits that tie a response to its log lines.
///
/// Drawing 8 bytes from OpenSSL's generator for each one cost 3% of an `accounts:lookup`. An id is now a keyed
/// SipHash (Swift's `Hasher`) of a per-process counter and 64 random bits drawn once at start-up: as unpredictable
/// to clients and as unlikely to repeat as 64 random bits, without a call into the generator per request.
enum RequestIDs {
    private static let key: UInt64 = SecureRandom.bytes(count: 8).reduce(0) { $0 << 8 | UInt64($1) }
    private static let counter = Atomic<UInt64>(0)
    private static let hexDigits = Array("0123456789abcdef".utf8)

    static func next() -> String {
        var hasher = Hasher()
        hasher.combine(key)
        hasher.combine(counter.add(1, ordering: .relaxed).newValue)
        let value = UInt64(bitPattern: Int64(hasher.finalize()))
        // 16 hex digits fit in a small String: no allocation at all.
        return String(unsafeUninitializedCapacity: 16) { digits in
            for index in 0..<16 {
                digits[index] = hexDigits[Int((value >> UInt64(60 - 4 * index)) & 0x0F)]
            }
            return 16
        }
    }
}
