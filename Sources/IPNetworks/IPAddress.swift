import Glibc

/// An IPv4 or IPv6 address as its network-order bytes (4 or 16 of them).
///
/// Parsing is `inet_pton`'s: numeric text only, no host names, no zone ids.
public struct IPAddress: Sendable, Hashable, CustomStringConvertible {
    public let bytes: [UInt8]

    /// Parses numeric IPv4 ("192.0.2.7") or IPv6 ("2001:db8::1") text; nil for anything else.
    public init?(_ text: String) {
        var v4 = in_addr()
        if inet_pton(AF_INET, text, &v4) == 1 {
            bytes = withUnsafeBytes(of: &v4) { Array($0) }
            return
        }
        var v6 = in6_addr()
        if inet_pton(AF_INET6, text, &v6) == 1 {
            bytes = withUnsafeBytes(of: &v6) { Array($0) }
            return
        }
        return nil
    }

    /// Wraps 4 (IPv4) or 16 (IPv6) network-order bytes, e.g. straight from a `sockaddr`.
    public init?(bytes: [UInt8]) {
        guard bytes.count == 4 || bytes.count == 16 else { return nil }
        self.bytes = bytes
    }

    public var isIPv4: Bool { bytes.count == 4 }

    /// The IPv4 address inside an IPv4-mapped IPv6 address (`::ffff:a.b.c.d`), which is what a dual-stack
    /// listener reports for IPv4 peers; any other address is returned unchanged.
    public var unmapped: IPAddress {
        guard bytes.count == 16, bytes[0..<10].allSatisfy({ $0 == 0 }), bytes[10] == 0xFF, bytes[11] == 0xFF else {
            return self
        }
        return IPAddress(uncheckedBytes: Array(bytes[12..<16]))
    }

    /// Numeric text as `inet_ntop` writes it ("127.0.0.1", "::1").
    public var description: String {
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN) + 1)
        var copy = bytes
        _ = inet_ntop(isIPv4 ? AF_INET : AF_INET6, &copy, &text, socklen_t(text.count))
        return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    private init(uncheckedBytes: [UInt8]) {
        bytes = uncheckedBytes
    }
}
