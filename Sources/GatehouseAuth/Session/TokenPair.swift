import Foundation

/// A session's tokens: the ID token (short-lived, sent to your backend) and the refresh token that renews it.
///
/// The expiry is kept on the device's clock, from the gateway's `expiresIn` counted from when the answer
/// arrived, so a device whose clock is off still refreshes on time.
struct TokenPair: Sendable, Codable, Equatable {
    var idToken: String
    var refreshToken: String
    var expirationDate: Date
    /// How long the ID token lives (`expiresIn`); nil in sessions stored before it was kept.
    var lifetime: TimeInterval?

    init(idToken: String, refreshToken: String, expirationDate: Date, lifetime: TimeInterval? = nil) {
        self.idToken = idToken
        self.refreshToken = refreshToken
        self.expirationDate = expirationDate
        self.lifetime = lifetime
    }

    /// From a sign-in answer (`idToken`, `refreshToken`, `expiresIn`); nil when it carries no session.
    init?(signIn response: GatewayResponse, receivedAt now: Date) {
        guard let idToken = response.string("idToken"), let refreshToken = response.string("refreshToken") else { return nil }
        self.init(idToken: idToken, refreshToken: refreshToken, expiresIn: response.int64("expiresIn"), receivedAt: now)
    }

    /// From the token endpoint's answer (`id_token`, `refresh_token`, `expires_in`).
    init?(refresh response: GatewayResponse, receivedAt now: Date) {
        guard let idToken = response.string("id_token"), let refreshToken = response.string("refresh_token") else { return nil }
        self.init(idToken: idToken, refreshToken: refreshToken, expiresIn: response.int64("expires_in"), receivedAt: now)
    }

    private init(idToken: String, refreshToken: String, expiresIn: Int64?, receivedAt now: Date) {
        let lifetime: TimeInterval
        if let expiresIn {
            lifetime = TimeInterval(expiresIn)
        } else if let claims = JWTClaims.decode(idToken), let exp = JWTClaims.date(claims, "exp"), let iat = JWTClaims.date(claims, "iat") {
            lifetime = exp.timeIntervalSince(iat)
        } else {
            lifetime = 0
        }
        self.init(idToken: idToken, refreshToken: refreshToken, expirationDate: now.addingTimeInterval(lifetime), lifetime: lifetime)
    }

    /// Whether the ID token is still good for `margin` more seconds, or for half its lifetime when that is less: a
    /// gateway with short-lived tokens (`idTokenLifetimeSeconds` of 5 minutes or less, to bound revocation) would
    /// otherwise have every use refresh.
    func isFresh(at now: Date, margin: TimeInterval) -> Bool {
        let margin = lifetime.map { min(margin, $0 / 2) } ?? margin
        return expirationDate.timeIntervalSince(now) > margin
    }
}
