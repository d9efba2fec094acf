import Foundation
import IPNetworks

/// Address ranges and the per-client grouping live in `IPNetworks`, shared with the HTTP server's
/// connection caps; the alias keeps the gateway's files free of the extra import.
typealias NetworkRange = IPNetworks.NetworkRange

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
