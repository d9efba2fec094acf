import AuthCore
import Crypto
import HTTP
import WireFormats

/// Who is calling: an app with an API key, or an administrator.
enum Caller: Sendable, Equatable {
    case anonymous
    case apiKey(String)
    case admin

    var isAdmin: Bool { self == .admin }

    /// Firebase's rule for operations both users and admins call (`signUp`, `update`, `lookup`, `delete`): an
    /// admin credential acts as the admin unless the body names a user by `idToken`, in which case the request
    /// is that user's.
    func actsAsAdmin(_ body: RequestBody) -> Bool { isAdmin && !body.has("idToken") }
}

/// Decides the caller from the request's `Authorization` header and API key.
///
/// `Bearer owner` is what firebase-admin sends to an emulator; we honour it only from trusted networks
/// (loopback by default) or in emulator mode, because anywhere else it would be a password everyone knows.
/// Configured admin tokens are compared in constant time.
struct CallerAuthenticator: Sendable {
    let apiKeys: [String]
    let adminTokens: [[UInt8]]
    let ownerNetworks: [NetworkRange]
    let proxies: [NetworkRange]
    let emulator: Bool

    init(configuration: GatewayConfiguration) {
        apiKeys = configuration.apiKeys
        // Compared as SHA-256 digests: equal lengths, so the comparison reveals neither content nor length.
        adminTokens = configuration.adminTokens.map { SHA256.hash($0) }
        ownerNetworks = configuration.trustedAdminNetworks.compactMap(NetworkRange.init)
        proxies = configuration.trustedProxies.compactMap(NetworkRange.init)
        emulator = configuration.emulator
    }

    /// - Parameter peer: the socket peer (never a forwarded address: a proxy must not make callers admin).
    func authenticate(_ request: HTTPRequest, peer: String) throws(WireError) -> Caller {
        if let authorization = request.headers["authorization"] {
            let parts = authorization.split(separator: " ", maxSplits: 1).map(String.init)
            if parts.count == 2, parts[0].lowercased() == "bearer" {
                let token = parts[1].trimmingCharacters(in: .whitespaces)
                if token.lowercased() == "owner" {
                    guard emulator || isDirectlyFromOwnerNetwork(request, peer: peer) else { throw .invalidCredentials }
                    return .admin
                }
                let presented = SHA256.hash(token)
                // Check every configured token so timing does not reveal which one nearly matched.
                let matches = adminTokens.reduce(false) { $0 || constantTimeEquals($1, presented) }
                guard matches else { throw .invalidCredentials }
                return .admin
            }
            // Non-bearer schemes (e.g. Basic) are ignored, as Google does.
        }
        guard let key = apiKey(of: request), !key.isEmpty else { return .anonymous }
        guard apiKeys.isEmpty || apiKeys.contains(key) else { throw .invalidAPIKey }
        return .apiKey(key)
    }

    /// `Bearer owner` counts only from a trusted network *directly*: behind a reverse proxy on loopback every
    /// request's peer is the proxy, so a proxied request (a proxy peer, or any forwarding header) never is.
    private func isDirectlyFromOwnerNetwork(_ request: HTTPRequest, peer: String) -> Bool {
        let proxied = proxies.contains { $0.contains(peer) }
            || request.headers["x-forwarded-for"] != nil || request.headers["forwarded"] != nil
        return !proxied && ownerNetworks.contains { $0.contains(peer) }
    }

    private func apiKey(of request: HTTPRequest) -> String? {
        if let header = request.headers["x-goog-api-key"] { return header }
        return FormURLEncoding.value(named: "key", in: request.query)
    }
}
