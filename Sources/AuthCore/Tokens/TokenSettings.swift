/// Token-related settings from the configuration.
public struct TokenSettings: Sendable, Equatable {
    /// The project id: the `aud` claim of every ID token.
    public var projectId: String
    /// The `iss` claim; Firebase's is `https://securetoken.google.com/<projectId>`.
    public var issuer: String
    /// ID-token lifetime in seconds (Firebase: 3600).
    public var idTokenLifetime: Int64
    /// `Cache-Control: max-age` of the published keys, in seconds; with the key-reload interval, the delay
    /// between publishing a rotated-in key and signing with it (`SigningKeys.activationDelay`).
    public var keyCacheMaxAge: Int64
    /// Accepted clock skew when checking `iat`/`exp` of presented ID tokens, in seconds.
    public var clockSkew: Int64

    public init(projectId: String, issuer: String? = nil, idTokenLifetime: Int64 = 3600,
                keyCacheMaxAge: Int64 = 3600, clockSkew: Int64 = 60) {
        self.projectId = projectId
        self.issuer = issuer ?? Self.firebaseIssuer(projectId: projectId)
        self.idTokenLifetime = idTokenLifetime
        self.keyCacheMaxAge = keyCacheMaxAge
        self.clockSkew = clockSkew
    }

    public static func firebaseIssuer(projectId: String) -> String { "https://securetoken.google.com/\(projectId)" }
}
