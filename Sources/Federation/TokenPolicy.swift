import AuthCore

/// What one provider accepts in a signed token: who may issue it, for whom, signed how, how old, bound to
/// which nonce. A value, fixed when the provider is built from its configuration, so the checks themselves
/// stay pure functions of (policy, token, clock).
public struct TokenPolicy: Sendable, Equatable {
    /// The provider refusals are reported for (the log's `provider`).
    public var provider: ProviderID
    /// How messages name the provider to the client ("issuer is not Apple", "a key Apple does not publish").
    public var providerName: String
    /// How messages name the token ("id_token has expired", "notification has expired").
    public var tokenName: String
    /// Accepted `iss` values, compared exactly. Several where the provider signs under more than one
    /// (Apple since June 2025).
    public var issuers: Set<String>
    /// The configured client IDs; `aud` must name one of them (see `ClaimChecks.audience` for arrays and `azp`).
    public var audiences: Set<String>
    /// How the audience refusal describes the configured IDs ("a configured bundle ID or Services ID").
    public var audienceDescription: String
    /// The algorithms this provider signs with. Pinned here, never taken from the token header.
    public var algorithms: Set<SignatureAlgorithm>
    /// Tolerance for clock differences on `exp`, `iat` and `nbf`.
    public var clockSkewSeconds: Int64
    /// The oldest `iat` accepted, or nil for no limit (server-to-server notifications may arrive late; `exp`
    /// still bounds them).
    public var maxAgeSeconds: Int64?
    /// Whether the token must carry a non-empty `sub` (identity tokens do; Apple's notifications carry theirs
    /// inside `events`).
    public var requiresSubject: Bool
    /// How the token is bound to the client's request, or nil when it is not (notifications).
    public var nonce: NonceRule?

    public init(provider: ProviderID, providerName: String, tokenName: String = "id_token", issuers: Set<String>,
                audiences: Set<String>, audienceDescription: String = "a configured client ID",
                algorithms: Set<SignatureAlgorithm>, clockSkewSeconds: Int64 = 60, maxAgeSeconds: Int64? = nil,
                requiresSubject: Bool = true, nonce: NonceRule? = NonceRule()) {
        self.provider = provider
        self.providerName = providerName
        self.tokenName = tokenName
        self.issuers = issuers
        self.audiences = audiences
        self.audienceDescription = audienceDescription
        self.algorithms = algorithms
        self.clockSkewSeconds = clockSkewSeconds
        self.maxAgeSeconds = maxAgeSeconds
        self.requiresSubject = requiresSubject
        self.nonce = nonce
    }
}

/// How a token's `nonce` claim binds it to the raw nonce the client sends with it (Firebase's convention: the
/// client gives the provider the SHA-256 hex of a random value and the gateway the value itself, so a token
/// intercepted on its way is useless without the value it never carried).
public struct NonceRule: Sendable, Equatable {
    public enum Presence: Sendable, Equatable {
        /// Every request must carry a raw nonce and every token a matching claim (Apple, Facebook Limited Login).
        case required
        /// Both or neither: a request without a raw nonce is accepted only for a token without a `nonce` claim,
        /// because a nonce-bound token presented without its nonce is exactly what the binding exists to stop.
        /// Such tokens are not single-use (there is nothing to record); `exp` alone bounds them.
        case optional
        /// The claim is checked only when the request carries a raw nonce; without one a token is accepted whether
        /// it has a claim or not (and, as under `optional`, is not single-use). For Google, whose sign-in SDKs put
        /// a nonce in tokens that apps cannot read, and whose Firebase credentials carry no raw nonce.
        case checkedWhenSent
    }

    public var presence: Presence
    /// Also accept a claim equal to the raw nonce itself. For providers whose SDKs pass the app's value through
    /// unhashed (a Facebook Limited Login setting). Weaker: whoever sees the token then knows the nonce, so only
    /// single use still protects it. The SHA-256 hex form is always accepted.
    public var acceptsRawClaim: Bool
    /// The raw nonce's accepted length in characters: long enough to be unguessable, short enough to bound work.
    public var rawLength: ClosedRange<Int>

    public init(presence: Presence = .required, acceptsRawClaim: Bool = false, rawLength: ClosedRange<Int> = 16...256) {
        self.presence = presence
        self.acceptsRawClaim = acceptsRawClaim
        self.rawLength = rawLength
    }
}
