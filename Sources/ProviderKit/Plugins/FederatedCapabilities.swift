import AuthCore
import Crypto
import WireFormats

/// Remembers single-use values (ID token nonces, notification ids) durably, so a value is accepted once across
/// restarts and across gateway instances sharing one database. Providers depend on this protocol, never on the
/// store; the gateway implements it.
public protocol NonceLedger: Sendable {
    /// Records `hash` and returns true the first time it is seen; false if it was already recorded and has not
    /// expired. `expiresAt` (milliseconds) is when the record may be forgotten: after that the original
    /// credential is rejected for age anyway.
    func consume(_ hash: [UInt8], expiresAt: Int64) async throws -> Bool
}

/// The kinds of provider token `accounts:revokeToken` accepts (Identity Platform's `tokenType`).
public enum ProviderTokenType: String, Sendable, CaseIterable {
    case refreshToken = "REFRESH_TOKEN"
    case accessToken = "ACCESS_TOKEN"
    /// An authorization code: exchanged first, then the resulting refresh token is revoked.
    case code = "CODE"

    /// Parses the enum name, or its ordinal as a string (the iOS SDK sends `"3"` for CODE; 0 is unspecified).
    public init?(wireValue: String) {
        switch wireValue {
        case "REFRESH_TOKEN", "1": self = .refreshToken
        case "ACCESS_TOKEN", "2": self = .accessToken
        case "CODE", "3": self = .code
        default: return nil
        }
    }
}

/// Capability: the provider can revoke the tokens it issued, so deleting an account also ends the user's
/// authorization at the provider (Apple requires this for App Store apps).
public protocol TokenRevoker: CredentialProvider {
    /// Revokes what an identity's sealed secrets hold (as put there by `verify`). Returns normally when there
    /// is nothing to revoke; throws when the provider could not be reached so the caller retries later.
    func revokeStoredTokens(_ secrets: [String: String]) async throws
    /// Revokes a token a client hands over (`accounts:revokeToken`). Throws an `AuthError` for bad input.
    func revoke(token: String, type: ProviderTokenType, redirectUri: String?) async throws
}

/// What the gateway fixed when it started a redirect sign-in, handed to the provider when it ends.
public struct RedirectBinding: Sendable, Equatable {
    /// The gateway's own handler URL the provider posts back to (the `redirect_uri` of the code exchange).
    public var redirectUri: String
    /// The raw nonce; the provider saw only its SHA-256 hex.
    public var rawNonce: String
    /// The PKCE `code_verifier` (RFC 7636) whose S256 challenge went to the provider; send it with the code
    /// exchange. Kept by the gateway in the single-use session, never shown to the client.
    public var codeVerifier: String

    public init(redirectUri: String, rawNonce: String, codeVerifier: String = "") {
        self.redirectUri = redirectUri
        self.rawNonce = rawNonce
        self.codeVerifier = codeVerifier
    }
}

/// What the gateway fixed when it starts a redirect sign-in, for the provider's authorization URL.
public struct AuthorizationRequest: Sendable, Equatable {
    /// The gateway's handler URL the provider must send the user back to.
    public var redirectUri: String
    /// Binds the provider's answer to this session (checked in constant time when it comes back).
    public var state: String
    /// The raw nonce; hashing it (or not) is the provider's convention.
    public var rawNonce: String
    /// The PKCE verifier; send `codeChallenge` with `code_challenge_method=S256` where the provider supports PKCE.
    public var codeVerifier: String
    public var scopes: [String]
    public var customParameters: [String: String]

    public init(redirectUri: String, state: String, rawNonce: String, codeVerifier: String, scopes: [String] = [],
                customParameters: [String: String] = [:]) {
        self.redirectUri = redirectUri
        self.state = state
        self.rawNonce = rawNonce
        self.codeVerifier = codeVerifier
        self.scopes = scopes
        self.customParameters = customParameters
    }

    /// RFC 7636 S256: base64url(SHA-256(verifier)), unpadded.
    public var codeChallenge: String { Base64URL.encode(SHA256.hash(codeVerifier)) }
}

/// Capability: the provider supports the web/Android redirect flow (`createAuthUri` → provider's page →
/// `/__/auth/handler` → `signInWithIdp` with `sessionId`). The gateway runs the flow; the provider only builds
/// its authorization URL and turns the returned parameters into an identity.
public protocol RedirectSignIn: AssertionVerifier {
    /// The provider's authorization URL for one session. Async so a provider may look its authorization
    /// endpoint up first (generic OpenID Connect reads it from the issuer's discovery document); a provider that
    /// builds it from configuration alone implements it synchronously.
    func authorizationURL(_ request: AuthorizationRequest) async throws -> String
    /// Verifies the parameters the provider posted back (code, ID token, first-time profile), bound to the
    /// session's nonce and redirect URI.
    func completeRedirect(_ assertion: ProviderAssertion, binding: RedirectBinding,
                          context: RequestContext) async throws -> VerifiedIdentity
}
