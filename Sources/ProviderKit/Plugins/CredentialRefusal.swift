import AuthCore

/// The check of a provider that refused a credential.
///
/// Closed on purpose: an operator reading "refused: audience" knows to look at the configured client IDs,
/// "refused: replay" at a client that reuses nonces, "refused: jwks_fetch" at the network to the identity
/// provider. The raw value is what the log shows.
public enum CredentialCheck: String, Sendable, CaseIterable {
    /// The request carried no credential (e.g. no `id_token`).
    case missing
    /// The credential is not a well-formed token (not a compact JWS, payload not JSON, no subject, no event).
    case format
    /// Signed with an algorithm the provider does not accept.
    case algorithm
    /// Signed under a key id the provider does not publish.
    case unknownKey = "unknown_key"
    /// The provider's public keys could not be fetched.
    case keyFetch = "jwks_fetch"
    case signature
    case issuer
    case audience
    /// `exp` has passed.
    case expiry
    /// `iat` lies in the future.
    case issuedAt = "issued_at"
    /// `iat` is older than the provider accepts.
    case age
    /// The raw nonce is missing, malformed, or does not match the token's.
    case nonce
    /// The nonce was already used.
    case replay
    /// The provider refused the authorization code, or its token endpoint could not be reached.
    case codeExchange = "code_exchange"
    /// The provider's API (not its keys) could not be asked: unreachable, timed out, rate limited or answering
    /// 5xx (Facebook's Graph API). Nothing is wrong with the credential; the client may try again.
    case providerUnavailable = "provider_unavailable"
    /// The provider's API says the credential is not (or no longer) valid: invalid, expired or revoked (Graph
    /// `is_valid: false`, error 190), or refused the call made with it.
    case tokenRejected = "token_rejected"
    /// A credential of the wrong kind (a Facebook page or app token where a user token belongs).
    case tokenType = "token_type"
    /// Two answers from the provider name different users (Facebook's profile id is not the token's user id).
    case subjectMismatch = "subject_mismatch"
    /// The provider did not vouch for an access token: its token-info or UserInfo endpoint refused it or could
    /// not be reached (a token issued to another client is refused as `audience`).
    case accessToken = "access_token"
}

/// A provider's refusal of a credential: what the client is told (Firebase's error, unchanged) and which check
/// failed (for the gateway's log only). The gateway logs refusals in one place and renders `error`.
public struct CredentialRefusal: Error, Equatable, Sendable, CustomStringConvertible {
    public let provider: ProviderID
    public let check: CredentialCheck
    public let error: AuthError

    public init(_ provider: ProviderID, _ check: CredentialCheck, _ error: AuthError) {
        self.provider = provider
        self.check = check
        self.error = error
    }

    public var description: String { "\(provider.rawValue) refused (\(check.rawValue)): \(error.message)" }
}
