/// Who counts as one client for per-client limits (rate limits, connection caps): an IPv4 address, or the
/// /64 an IPv6 address belongs to. One IPv6 subscriber usually holds a whole /64, so per-address limits would
/// not limit anyone. An IPv4-mapped IPv6 address (`::ffff:a.b.c.d`) is its IPv4 address.
///
/// This is the one place that grouping is defined; the HTTP server's connection cap and the gateway's
/// rate limits both use it.
public enum ClientGroup: Sendable, Hashable, CustomStringConvertible {
    case ipv4(UInt32)
    /// The first 64 bits of an IPv6 address.
    case ipv6Prefix(UInt64)

    public init(_ address: IPAddress) {
        let bytes = address.unmapped.bytes
        if bytes.count == 4 {
            self = .ipv4(bytes.reduce(0) { $0 << 8 | UInt32($1) })
        } else {
            self = .ipv6Prefix(bytes[0..<8].reduce(0) { $0 << 8 | UInt64($1) })
        }
    }

    /// "192.0.2.7" or "2001:db8:1:2::/64" (the prefix's four groups in lowercase hex, no leading zeros).
    public var description: String {
        switch self {
        case .ipv4(let value):
            return stride(from: 24, through: 0, by: -8).map { String((value >> UInt32($0)) & 0xFF) }
                .joined(separator: ".")
        case .ipv6Prefix(let value):
            let groups = stride(from: 48, through: 0, by: -16).map { String((value >> UInt64($0)) & 0xFFFF, radix: 16) }
            return groups.joined(separator: ":") + "::/64"
        }
    }
}
