import AuthCore
import WireFormats

/// `POST /v1/projects/{p}:createSessionCookie` (firebase-admin's `create_session_cookie`): exchanges a valid ID
/// token for a session cookie, a JWT with the ID token's claims, Firebase's session issuer
/// `https://session.firebase.google.com/<project>`, and the requested lifetime (5 minutes to 14 days; two weeks
/// when not given). The ID token is checked as every admin-facing use checks it: signature, expiry, user
/// present, enabled and not revoked.
///
/// Cookies are signed with the ID-token keys, published a second time where firebase-admin fetches
/// session-cookie keys (`/www.googleapis.com/identitytoolkit/v3/relyingparty/publicKeys`), so
/// `verify_session_cookie` checks signatures against the gateway. A cookie cannot pass as an ID token or the
/// reverse: the issuers differ, and every verifier checks the issuer.
enum SessionCookies {
    static let minDuration: Int64 = 300
    static let maxDuration: Int64 = 14 * 86_400

    static func issuer(projectId: String) -> String { "https://session.firebase.google.com/\(projectId)" }

    struct Request: Sendable {
        let idToken: String
        let validDuration: Int64

        init(_ body: RequestBody) throws {
            guard let idToken = try body.string("idToken"), !idToken.isEmpty else { throw AuthError.missingIdToken }
            let duration: Int64?
            do { duration = try body.int64("validDuration") } catch { throw AuthError(.invalidDuration) }
            let validDuration = duration ?? SessionCookies.maxDuration
            guard (SessionCookies.minDuration...SessionCookies.maxDuration).contains(validDuration) else {
                throw AuthError(.invalidDuration)
            }
            self.idToken = idToken
            self.validDuration = validDuration
        }
    }

    static func handle(_ services: GatewayServices, _ context: OperationContext) async throws -> Reply {
        let request = try Request(context.body)
        let session = try await services.sessions.authenticate(idToken: request.idToken)
        let now = services.time.nowSeconds
        var claims = session.token.claims
        claims["iss"] = .string(issuer(projectId: services.configuration.projectId))
        claims["iat"] = .int(now)
        claims["exp"] = .int(now + request.validDuration)
        return .json(["sessionCookie": .string(try services.sessions.signer.sign(claims))])
    }
}
