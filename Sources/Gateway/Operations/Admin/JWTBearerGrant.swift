import AuthCore
import HTTP
import WireFormats

/// `POST /oauth2.googleapis.com/token` with the JWT-bearer grant (RFC 7523 §2.1): a service account proves
/// itself with a JWT signed by its private key and receives a short-lived access token for the admin API.
/// This is the `token_uri` of the key files `gateway service-accounts create` writes, so google-auth (inside
/// firebase-admin) and the other Google client libraries obtain admin credentials from the gateway unchanged.
///
/// The assertion's `iss` names a registered service account, its signature must verify with one of that
/// account's keys, it may live at most an hour, and its `aud` must be this token endpoint: the gateway's own
/// URL, or Google's (`https://oauth2.googleapis.com/token`), which google-auth for Python writes whatever the
/// key file's `token_uri` says.
enum JWTBearerGrant {
    static let grantType = "urn:ietf:params:oauth:grant-type:jwt-bearer"
    static let path = "/oauth2.googleapis.com/token"
    static let googleAudience = "https://oauth2.googleapis.com/token"

    struct Request: Sendable {
        let assertion: String

        init(_ body: RequestBody) throws {
            guard let grant = try body.string("grantType"), !grant.isEmpty else {
                throw OAuthError(.invalidRequest, "Missing required parameter: grant_type")
            }
            guard grant == JWTBearerGrant.grantType else {
                throw OAuthError(.unsupportedGrantType, "Invalid grant_type: \(String(grant.prefix(100)))")
            }
            guard let assertion = try body.string("assertion"), !assertion.isEmpty else {
                throw OAuthError(.invalidRequest, "Missing required parameter: assertion")
            }
            self.assertion = assertion
        }
    }

    static func handle(_ services: GatewayServices, _ context: OperationContext) async throws -> Reply {
        let request = try Request(context.body)
        let token: ServiceAccountJWT.Unverified
        do { token = try ServiceAccountJWT.parse(request.assertion) } catch {
            throw OAuthError(.invalidGrant, describe(error))
        }
        guard let email = token.issuer, let account = try await services.serviceAccounts.account(email) else {
            throw OAuthError(.invalidGrant, "Invalid JWT: the issuer is not a registered service account.")
        }
        let policy = ServiceAccountJWT.Policy(
            audiences: audiences(services.configuration, context.request),
            clockSkewSeconds: services.configuration.clockSkewSeconds, subjectRequired: false)
        let now = services.time.nowSeconds
        do {
            _ = try ServiceAccountJWT.verify(token, account: account, policy: policy, now: now)
        } catch {
            throw OAuthError(.invalidGrant, describe(error))
        }
        let accessToken = try services.accessTokens.issue(clientEmail: account.clientEmail, now: now)
        return .json(["access_token": .string(accessToken), "expires_in": .int(AdminAccessTokens.lifetimeSeconds),
                      "token_type": "Bearer"],
                     headers: [("Cache-Control", "no-store"), ("Pragma", "no-cache")])
    }

    /// The token endpoint's URLs an assertion may name: Google's, and the gateway's own (from `publicUrl`, or
    /// else from the request's `Host`, which is safe here: whatever host a caller names, the path is the
    /// gateway's, so an assertion made for another service never matches).
    static func audiences(_ configuration: GatewayConfiguration, _ request: HTTPRequest) -> Set<String> {
        var accepted: Set<String> = [googleAudience]
        if configuration.publicURL != nil {
            accepted.insert(configuration.publicBaseURL + path)
        } else if let host = request.headers["host"] {
            accepted.formUnion(["http://\(host)\(path)", "https://\(host)\(path)"])
        }
        return accepted
    }

    static func describe(_ failure: ServiceAccountJWT.Failure) -> String {
        switch failure {
        case .malformed: "Invalid JWT: the assertion is not a signed JWT."
        case .algorithm(let alg): "Invalid JWT: algorithm \(String(alg.prefix(20))) is not RS256."
        case .unknownKey: "Invalid JWT: the key id is not one of the service account's keys."
        case .badSignature: "Invalid JWT Signature."
        case .audience: "Invalid JWT: aud must be this token endpoint."
        case .subject: "Invalid JWT: sub must be the service account (domain-wide delegation is not supported)."
        case .missingTimes, .expired, .issuedInFuture, .lifetimeTooLong:
            "Invalid JWT: Token must be a short-lived token (60 minutes) and in a reasonable timeframe. Check your iat and exp values in the JWT claim."
        }
    }
}
