import Foundation

/// An ID token with its claims read out (FirebaseAuth's `AuthTokenResult`).
///
/// `@unchecked Sendable`: `claims` comes from `JSONSerialization` and is never mutated.
public struct AuthTokenResult: @unchecked Sendable {
    public let token: String
    public let expirationDate: Date
    public let authDate: Date
    public let issuedAtDate: Date
    /// `firebase.sign_in_provider`: `anonymous`, `password`, `apple.com`, `phone`, `custom`, ...
    public let signInProvider: String
    public let signInSecondFactor: String?
    /// Every claim of the token, custom claims included, as JSON values (`String`, `NSNumber`/`Bool`, arrays,
    /// dictionaries).
    public let claims: [String: Any]

    init(token: String) throws {
        guard let claims = JWTClaims.decode(token), let exp = JWTClaims.date(claims, "exp"),
              let iat = JWTClaims.date(claims, "iat") else {
            throw AuthError(.internalError, "The gateway's ID token is not a JWT with exp and iat claims.")
        }
        let firebase = claims["firebase"] as? [String: Any]
        self.token = token
        self.claims = claims
        expirationDate = exp
        issuedAtDate = iat
        authDate = JWTClaims.date(claims, "auth_time") ?? iat
        signInProvider = firebase?["sign_in_provider"] as? String ?? ""
        signInSecondFactor = firebase?["sign_in_second_factor"] as? String
    }
}
