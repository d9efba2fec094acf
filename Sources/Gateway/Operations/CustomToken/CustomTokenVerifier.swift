import AuthCore
import Crypto
import WireFormats

/// Decides whether a custom token is acceptable and returns its claims.
///
/// Outside emulator mode the token must be RS256, signed by a registered service account (`iss` and `sub` its
/// email), for Firebase's custom-token audience, and live at most an hour: an unknown issuer is
/// `CREDENTIAL_MISMATCH` (the token belongs to another project), anything else wrong `INVALID_CUSTOM_TOKEN`.
/// In emulator mode, as the Firebase Auth Emulator, any JWT (unsigned `alg: none` ones too) or plain JSON
/// claims are accepted without signature, issuer or time checks; only the audience of a JWT is checked.
struct CustomTokenVerifier: Sendable {
    let registry: ServiceAccountRegistry
    let emulator: Bool
    let clockSkewSeconds: Int64

    func verify(_ token: String, now: Int64) async throws -> JSONObject {
        if emulator { return try Self.emulatorClaims(token) }
        let unverified: ServiceAccountJWT.Unverified
        do { unverified = try ServiceAccountJWT.parse(token) } catch {
            throw AuthError(.invalidCustomToken, Self.describe(error))
        }
        guard let issuer = unverified.issuer, let account = try await registry.account(issuer) else {
            throw AuthError(.credentialMismatch, "The custom token was not signed by a service account of this project.")
        }
        let policy = ServiceAccountJWT.Policy(audiences: [CustomTokenClaims.audience], clockSkewSeconds: clockSkewSeconds,
                                              subjectRequired: true)
        do {
            return try ServiceAccountJWT.verify(unverified, account: account, policy: policy, now: now)
        } catch {
            throw AuthError(.invalidCustomToken, Self.describe(error))
        }
    }

    static func describe(_ failure: ServiceAccountJWT.Failure) -> String {
        switch failure {
        case .malformed: "Invalid assertion format"
        case .algorithm(let alg): "The custom token must be signed with RS256, not \(String(alg.prefix(20)))."
        case .unknownKey: "The custom token's key id is not one of the service account's keys."
        case .badSignature: "Invalid signature."
        case .audience: "Invalid aud (audience)."
        case .subject: "sub must be the service account that signed the token."
        case .missingTimes: "The custom token must carry iat and exp."
        case .expired: "The custom token has expired."
        case .issuedInFuture: "The custom token was issued in the future."
        case .lifetimeTooLong: "The custom token may be valid for at most one hour."
        }
    }

    /// The emulator's reading: strict JSON claims, or the payload of any JWT whose `aud` is the custom-token audience.
    static func emulatorClaims(_ token: String) throws(AuthError) -> JSONObject {
        if token.hasPrefix("{") {
            guard case .object(let claims)? = try? JSONParser.parse(token) else {
                throw AuthError(.invalidCustomToken, "Gatehouse in emulator mode accepts strict JSON or JWTs as fake custom tokens.")
            }
            return claims
        }
        let segments = token.split(separator: ".", omittingEmptySubsequences: false)
        guard segments.count == 3, let payload = Base64URL.decode(String(segments[1])),
              case .object(let claims)? = try? JSONParser.parse(payload)
        else { throw AuthError(.invalidCustomToken, "Invalid assertion format") }
        guard claims["aud"]?.stringValue == CustomTokenClaims.audience else {
            throw AuthError(.invalidCustomToken, "Invalid aud (audience).")
        }
        return claims
    }
}
