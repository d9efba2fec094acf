/// An IPv4 or IPv6 address range in CIDR notation ("127.0.0.0/8", "::1/128"; a bare address is a /32 or /128).
public struct NetworkRange: Sendable, Equatable {
    public let network: [UInt8]
    public let prefixLength: Int

    public init?(_ text: String) {
        let parts = text.split(separator: "/", maxSplits: 1).map(String.init)
        guard let first = parts.first, let address = IPAddress(first) else { return nil }
        let maxBits = address.bytes.count * 8
        if parts.count == 2 {
            guard let bits = Int(parts[1]), (0...maxBits).contains(bits) else { return nil }
            prefixLength = bits
        } else {
            prefixLength = maxBits
        }
        network = address.bytes
    }

    public func contains(_ addressText: String) -> Bool {
        guard let address = IPAddress(addressText) else { return false }
        return contains(address)
    }

    /// An IPv4-mapped IPv6 peer (`::ffff:a.b.c.d`) matches IPv4 ranges.
    public func contains(_ address: IPAddress) -> Bool {
        var bytes = address.bytes
        if bytes.count == 16, network.count == 4 { bytes = address.unmapped.bytes }
        guard bytes.count == network.count else { return false }
        var remaining = prefixLength
        for index in 0..<bytes.count where remaining > 0 {
            let bits = min(8, remaining)
            let mask = UInt8(truncatingIfNeeded: 0xFF << (8 - bits))
            if bytes[index] & mask != network[index] & mask { return false }
            remaining -= bits
        }
        return true
    }

    /// The per-client limit key of an address as text (see `ClientGroup`); text that is not an address is
    /// its own key.
    public static func limitKey(for address: String) -> String {
        IPAddress(address).map { ClientGroup($0).description } ?? address
    }

    /// The bytes of numeric IPv4 or IPv6 text, or nil.
    public static func parseAddress(_ text: String) -> [UInt8]? {
        IPAddress(text)?.bytes
    }
}
