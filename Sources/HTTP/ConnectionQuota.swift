import IPNetworks
import Synchronization

/// Decides which new connections the server takes, for every event loop at once: at most `maxConnections`
/// in all, and at most `maxPerClient` from one client (an IPv4 address or an IPv6 /64, see `ClientGroup`),
/// so one client cannot take the whole pool. Peers in `exemptions` (trusted proxies, which carry many
/// people's connections and enforce their own limits) count toward the global cap only.
final class ConnectionQuota: Sendable {
    /// What an admitted connection holds; handed back to `release` exactly once when it closes.
    struct Ticket: Sendable {
        let group: ClientGroup?
    }

    let maxConnections: Int
    let maxPerClient: Int
    let exemptions: [NetworkRange]
    /// From this many open connections on, loops close idle keep-alive connections (see `isNearCap`).
    let sheddingThreshold: Int
    let openConnections = Atomic<Int>(0)
    private let perClient = Mutex<[ClientGroup: Int]>([:])

    init(maxConnections: Int, maxPerClient: Int, exemptions: [NetworkRange]) {
        self.maxConnections = maxConnections
        self.maxPerClient = maxPerClient
        self.exemptions = exemptions
        sheddingThreshold = max(1, maxConnections - maxConnections / 10)
    }

    /// Takes a slot for a connection from `peer` (nil when the peer address is unknown, which counts toward
    /// the global cap only); nil when a cap is reached.
    func admit(_ peer: IPAddress?) -> Ticket? {
        if openConnections.add(1, ordering: .relaxed).newValue > maxConnections {
            openConnections.subtract(1, ordering: .relaxed)
            return nil
        }
        guard let peer, !exemptions.contains(where: { $0.contains(peer) }) else { return Ticket(group: nil) }
        let group = ClientGroup(peer)
        let admitted = perClient.withLock { counts in
            let count = counts[group, default: 0]
            guard count < maxPerClient else { return false }
            counts[group] = count + 1
            return true
        }
        guard admitted else {
            openConnections.subtract(1, ordering: .relaxed)
            return nil
        }
        return Ticket(group: group)
    }

    func release(_ ticket: Ticket) {
        openConnections.subtract(1, ordering: .relaxed)
        guard let group = ticket.group else { return }
        perClient.withLock { counts in
            let remaining = counts[group, default: 1] - 1
            counts[group] = remaining > 0 ? remaining : nil
        }
    }

    /// Whether open connections are within a tenth of the cap. Idle keep-alive connections are then closed
    /// first: their clients reconnect when they need to, while new clients would otherwise be refused.
    var isNearCap: Bool {
        openConnections.load(ordering: .relaxed) >= sheddingThreshold
    }

    /// Connections currently counted for `group` (for tests and diagnostics).
    func count(for group: ClientGroup) -> Int {
        perClient.withLock { $0[group, default: 0] }
    }
}
