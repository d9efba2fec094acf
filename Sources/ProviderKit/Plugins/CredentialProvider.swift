import AuthCore

/// A sign-in method plugin. Each provider module's factory (`ProviderFactory`) builds one or more of these from
/// its own config section; the factory is listed once in the gateway's registration table.
///
/// The base protocol is deliberately tiny: what a provider can *do* is expressed by the capability
/// protocols below, which the gateway finds by casting. A provider never sees HTTP or storage types.
public protocol CredentialProvider: Sendable {
    /// The Firebase provider id this plugin answers for.
    var id: ProviderID { get }
    /// Whether the project has this sign-in method switched on. A disabled provider is refused with
    /// `disabledError` before any work is done.
    var isEnabled: Bool { get }
    /// What a client gets when it uses the method while it is disabled (Firebase differs per method:
    /// `ADMIN_ONLY_OPERATION` for anonymous, `OPERATION_NOT_ALLOWED` for the others).
    var disabledError: AuthError { get }
    /// What the provider accepts, for the one line the gateway logs at start per enabled provider (client
    /// IDs and switches only, never secrets).
    var startupSummary: [(String, ProviderLogValue)] { get }
    /// Releases threads and other resources when the gateway stops (a KDF pool).
    func shutdown()
}

extension CredentialProvider {
    public var disabledError: AuthError { AuthError(.operationNotAllowed) }
    public var startupSummary: [(String, ProviderLogValue)] { [] }
    public func shutdown() {}

    /// Throws `disabledError` unless the method is enabled.
    public func requireEnabled() throws(AuthError) {
        guard isEnabled else { throw disabledError }
    }
}

/// Facts about the request a provider may base its decision on.
public struct RequestContext: Sendable {
    /// The client's IP address (from the socket, or from `X-Forwarded-For` of a trusted proxy).
    public var clientAddress: String
    /// Milliseconds since the epoch when the request arrived.
    public var receivedAt: Int64
    public var projectId: String
    /// The key for per-client limits: the IPv4 address, or the /64 an IPv6 address belongs to (one IPv6
    /// subscriber usually holds a whole /64, so per-address limits would not limit anyone).
    public var clientNetwork: String

    public init(clientAddress: String, receivedAt: Int64, projectId: String, clientNetwork: String? = nil) {
        self.clientAddress = clientAddress
        self.receivedAt = receivedAt
        self.projectId = projectId
        self.clientNetwork = clientNetwork ?? clientAddress
    }
}

/// Capability: the provider creates accounts with no credential at all (anonymous sign-up).
public protocol CredentialFreeSignUp: CredentialProvider {
    /// Decides whether this client may create one more account now; throws an `AuthError` if not.
    func admitSignUp(_ context: RequestContext) throws(AuthError)
}

/// Capability: the provider verifies an assertion a client got from an identity provider
/// (`signInWithIdp`'s `postBody` parameters) and returns who it proves the user is.
public protocol AssertionVerifier: CredentialProvider {
    /// Returns the verified identity, or throws a `CredentialRefusal` naming the failed check (or an `AuthError`
    /// for a request the provider cannot serve at all, e.g. while it is disabled).
    func verify(_ assertion: ProviderAssertion, context: RequestContext) async throws -> VerifiedIdentity
}

/// The credential parameters of a `signInWithIdp` request, merged from the request URI's query,
/// `postBody` and fragment (later sources override earlier ones).
public struct ProviderAssertion: Sendable, Equatable {
    public var parameters: [String: String]
    public var requestUri: String

    public init(parameters: [String: String], requestUri: String) {
        self.parameters = parameters
        self.requestUri = requestUri
    }

    public subscript(name: String) -> String? { parameters[name] }
}
