import Foundation

/// An IPv4 or IPv6 address range in CIDR notation ("127.0.0.0/8", "::1/128"; a bare address is a /32 or /128).
struct NetworkRange: Sendable, Equatable {
    let network: [UInt8]
    let prefixLength: Int

    init?(_ text: String) {
        let parts = text.split(separator: "/", maxSplits: 1).map(String.init)
        guard let address = NetworkRange.parseAddress(parts[0]) else { return nil }
        let maxBits = address.count * 8
        if parts.count == 2 {
            guard let bits = Int(parts[1]), (0...maxBits).contains(bits) else { return nil }
            prefixLength = bits
        } else {
            prefixLength = maxBits
        }
        network = address
    }

    func contains(_ addressText: String) -> Bool {
        guard var address = NetworkRange.parseAddress(addressText) else { return false }
        // An IPv4-mapped IPv6 peer (::ffff:a.b.c.d) matches IPv4 ranges.
        if address.count == 16, network.count == 4, address[0..<10].allSatisfy({ $0 == 0 }),
           address[10] == 0xFF, address[11] == 0xFF {
            address = Array(address[12..<16])
        }
        guard address.count == network.count else { return false }
        var remaining = prefixLength
        for index in 0..<address.count where remaining > 0 {
            let bits = min(8, remaining)
            let mask = UInt8(truncatingIfNeeded: 0xFF << (8 - bits))
            if address[index] & mask != network[index] & mask { return false }
            remaining -= bits
        }
        return true
    }

    /// The rate-limit key of an address: IPv4 as is, IPv6 by its /64 (IPv4-mapped IPv6 as the IPv4 address).
    static func limitKey(for address: String) -> String {
        guard let bytes = parseAddress(address), bytes.count == 16 else { return address }
        if bytes[0..<10].allSatisfy({ $0 == 0 }) && bytes[10] == 0xFF && bytes[11] == 0xFF {
            return bytes[12..<16].map(String.init).joined(separator: ".")
        }
        let groups = stride(from: 0, to: 8, by: 2).map { String(UInt16(bytes[$0]) << 8 | UInt16(bytes[$0 + 1]), radix: 16) }
        return groups.joined(separator: ":") + "::/64"
    }

    static func parseAddress(_ text: String) -> [UInt8]? {
        var v4 = in_addr()
        if inet_pton(AF_INET, text, &v4) == 1 {
            return withUnsafeBytes(of: &v4) { Array($0) }
        }
        var v6 = in6_addr()
        if inet_pton(AF_INET6, text, &v6) == 1 {
            return withUnsafeBytes(of: &v6) { Array($0) }
        }
        return nil
    }
}

/// Finds the client address for rate limits and logs: the socket peer, unless the peer is a trusted proxy,
/// in which case the right-most `X-Forwarded-For` entry that is not itself a trusted proxy.
struct ClientAddressResolver: Sendable {
    let trustedProxies: [NetworkRange]

    func resolve(peer: String, forwardedFor: String?) -> String {
        guard isTrusted(peer), let forwardedFor else { return peer }
        let hops = forwardedFor.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        for hop in hops.reversed() where !hop.isEmpty {
            guard NetworkRange.parseAddress(hop) != nil else { return peer }
            if !isTrusted(hop) { return hop }
        }
        return hops.first(where: { NetworkRange.parseAddress($0) != nil }) ?? peer
    }

    private func isTrusted(_ address: String) -> Bool { trustedProxies.contains { $0.contains(address) } }
}
