import AuthCore
import Crypto
import Foundation
import HTTP
import IPNetworks
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

/// What the request's credentials say before anything is looked up: a settled caller, or a service account's
/// access token whose account must still be registered (checked by the responder against the store).
enum PresentedCredential: Sendable, Equatable {
    case caller(Caller)
    case serviceAccount(clientEmail: String)
}

/// Decides the caller from the request's `Authorization` header and API key. The admin credentials, in order:
///
/// - `Bearer owner`, what firebase-admin sends to an emulator: admin in `--emulator` mode only, or outside it
///   when it comes *directly* from one of `trustedAdminNetworks` (empty by default). Anywhere else it would be
///   a password everyone knows: any local process, or a server-side request forgery on the host, would be admin.
/// - a configured admin token (`adminTokens`), compared in constant time;
/// - a service account's access token from the JWT-bearer grant (`AdminAccessTokens`).
///
/// Any other bearer value is 401 in Google's shape, never a fallback to the API key.
struct CallerAuthenticator: Sendable {
    let apiKeys: [String]
    let adminTokens: [[UInt8]]
    let ownerNetworks: [NetworkRange]
    let metricsNetworks: [NetworkRange]
    let proxies: [NetworkRange]
    let emulator: Bool
    let accessTokens: AdminAccessTokens

    init(configuration: GatewayConfiguration, accessTokens: AdminAccessTokens) {
        apiKeys = configuration.apiKeys
        // Compared as SHA-256 digests: equal lengths, so the comparison reveals neither content nor length.
        adminTokens = configuration.adminTokens.map { SHA256.hash($0) }
        ownerNetworks = configuration.trustedAdminNetworks.compactMap(NetworkRange.init)
        metricsNetworks = configuration.metricsNetworks.compactMap(NetworkRange.init)
        proxies = configuration.trustedProxies.compactMap(NetworkRange.init)
        emulator = configuration.emulator
        self.accessTokens = accessTokens
    }

    /// - Parameter peer: the socket peer (never a forwarded address: a proxy must not make callers admin).
    func authenticate(_ request: HTTPRequest, peer: String, now: Int64) throws(WireError) -> PresentedCredential {
        if let authorization = request.headers["authorization"] {
            let parts = authorization.split(separator: " ", maxSplits: 1).map(String.init)
            if parts.count == 2, parts[0].lowercased() == "bearer" {
                return try bearer(parts[1].trimmingCharacters(in: .whitespaces), forwarded: isForwarded(request.headers),
                                  peer: peer, now: now)
            }
            // Non-bearer schemes (e.g. Basic) are ignored, as Google does.
        }
        guard let key = apiKey(of: request), !key.isEmpty else { return .caller(.anonymous) }
        guard apiKeys.isEmpty || apiKeys.contains(key) else { throw .invalidAPIKey }
        return .caller(.apiKey(key))
    }

    /// Whether a request head presents an admin credential, as `authenticate` will decide it (a service account's
    /// token counts while it is valid; whether the account is still registered is checked with the request). The
    /// HTTP server asks this before reading a body larger than the default limit (admin imports), so only an
    /// admin can make it hold one. Cheap enough for an event loop: a digest, a seal check, no I/O.
    func presentsAdminCredential(_ headers: HTTPHeaders, peer: String, now: Int64) -> Bool {
        guard let authorization = headers["authorization"] else { return false }
        let parts = authorization.split(separator: " ", maxSplits: 1).map(String.init)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { return false }
        let token = parts[1].trimmingCharacters(in: .whitespaces)
        return (try? bearer(token, forwarded: isForwarded(headers), peer: peer, now: now)) != nil
    }

    private func bearer(_ token: String, forwarded: Bool, peer: String, now: Int64) throws(WireError) -> PresentedCredential {
        if token.lowercased() == "owner" {
            guard OwnerCredentialRule.accepts(emulator: emulator, peer: peer, ownerNetworks: ownerNetworks,
                                              proxies: proxies, forwarded: forwarded)
            else { throw .invalidCredentials }
            return .caller(.admin)
        }
        let presented = SHA256.hash(token)
        // Check every configured token so timing does not reveal which one nearly matched.
        if adminTokens.reduce(false, { $0 || constantTimeEquals($1, presented) }) { return .caller(.admin) }
        if let clientEmail = accessTokens.clientEmail(of: token, now: now) { return .serviceAccount(clientEmail: clientEmail) }
        throw .invalidCredentials
    }

    /// `GET /metrics` needs no credential from `metricsNetworks` when sent *directly* (the rule of `Bearer owner`
    /// without emulator mode: never from a trusted proxy, never with a forwarding header), so that a scraper on
    /// the host or a private network reads it while nobody reaches it through nginx.
    func isDirectlyFromMetricsNetwork(_ request: HTTPRequest) -> Bool {
        OwnerCredentialRule.accepts(emulator: false, peer: request.remoteAddress, ownerNetworks: metricsNetworks,
                                    proxies: proxies, forwarded: isForwarded(request.headers))
    }

    private func isForwarded(_ headers: HTTPHeaders) -> Bool {
        headers["x-forwarded-for"] != nil || headers["forwarded"] != nil
    }

    private func apiKey(of request: HTTPRequest) -> String? {
        if let header = request.headers["x-goog-api-key"] { return header }
        return FormURLEncoding.value(named: "key", in: request.query)
    }
}

/// When `Bearer owner` is admin: a pure decision, so its cases are tested one by one.
enum OwnerCredentialRule {
    /// In emulator mode, from anywhere (it is the Firebase Auth Emulator's credential). Otherwise only from a
    /// listed network *directly*: behind a reverse proxy on loopback every request's peer is the proxy, so a
    /// proxied request (a proxy peer, or any forwarding header) never is; and with no networks listed (the
    /// default) never.
    static func accepts(emulator: Bool, peer: String, ownerNetworks: [NetworkRange], proxies: [NetworkRange],
                        forwarded: Bool) -> Bool {
        if emulator { return true }
        let proxied = forwarded || proxies.contains { $0.contains(peer) }
        return !proxied && ownerNetworks.contains { $0.contains(peer) }
    }
}
