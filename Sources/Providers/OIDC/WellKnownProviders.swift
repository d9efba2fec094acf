import AuthCore
import ProviderKit

extension ProviderID {
    /// Google sign-in (Firebase's `google.com`).
    public static let google: ProviderID = "google.com"
    /// Microsoft Entra ID (Firebase's `microsoft.com`).
    public static let microsoft: ProviderID = "microsoft.com"
}

/// Identity providers with a Firebase provider id of their own, run as OpenID Connect providers with settings
/// built in: each owns a config section (`google`, `microsoft`) where the operator gives only what is theirs
/// (client ids, secret, tenant) and may override any tunable key of `oidc.providers` entries (endpoints for a
/// local stand-in, email rules).
public struct WellKnownProviderFactory: ProviderFactory {
    public struct Preset: Sendable {
        public let providerId: ProviderID
        public let section: String
        /// Keys of the section besides the shared tunable ones.
        let ownKeys: Set<String>
        let secretVariable: String
        /// Settings from the section's own keys (before the tunables are applied).
        let make: @Sendable (ConfigSection) throws -> OIDCProviderSettings
    }

    public let preset: Preset

    public init(_ preset: Preset) { self.preset = preset }

    public var section: String { preset.section }

    public func settings(from section: ConfigSection, environment: [String: String]) throws -> OIDCProviderSettings? {
        try section.requireKnownKeys(OIDCSettingsReader.tunableKeys.union(preset.ownKeys)
            .union(["enabled", "clientIds", "clientSecretFile", "responseType"]))
        guard try section.bool("enabled") ?? false else { return nil }
        var settings = try preset.make(section)
        settings.clientIds = try section.strings("clientIds") ?? []
        settings.clientSecret = try section.secret(fileKey: "clientSecretFile", environmentVariable: preset.secretVariable,
                                                   environment: environment)
        settings.responseType = try OIDCSettingsReader.responseType(section) ?? (settings.clientSecret == nil ? .idToken : .code)
        try OIDCSettingsReader.applyTunables(section, to: &settings)
        if let problem = settings.problem(at: section.path) { throw ConfigurationError(problem) }
        return settings
    }

    /// Switched off, the provider id still answers `OPERATION_NOT_ALLOWED` (as Firebase does for a disabled
    /// method) rather than being unknown.
    public func plugins(_ settings: OIDCProviderSettings?, context: ProviderContext) throws -> PluginSet {
        guard let settings else { return PluginSet(providers: [SwitchedOffProvider(id: preset.providerId)]) }
        return PluginSet(providers: [OIDCProviderFactory.provider(settings, context: context)])
    }
}

/// A built-in sign-in method the operator has not switched on: it can do nothing but say so.
struct SwitchedOffProvider: CredentialProvider {
    let id: ProviderID
    var isEnabled: Bool { false }
}

extension WellKnownProviderFactory.Preset {
    /// Google: ID tokens from Google's JWKS under either of its issuer spellings, for the app's web, iOS and
    /// Android client ids; access tokens checked at Google's token-info endpoint (audience included). A verified
    /// address links accounts where Google is the mail host, as Firebase trusts it: `@gmail.com` (and
    /// `@googlemail.com`), and Google Workspace accounts whose `hd` claim is the address's domain. Other verified
    /// addresses on a Google account are reported verified but never link. A `nonce` claim is checked only when
    /// the client sends a raw nonce, as Firebase does: Google Sign-In for iOS puts its own nonce in tokens (the app
    /// never sees the raw value) and Firebase's Google credentials on Android and the web have no field for one.
    public static let google = Self(providerId: .google, section: "google", ownKeys: [],
                                    secretVariable: "GATEHOUSE_GOOGLE_CLIENT_SECRET") { _ in
        OIDCProviderSettings(
            providerId: ProviderID.google.rawValue, displayName: "Google", issuer: "https://accounts.google.com",
            issuerAliases: ["accounts.google.com"], clientIds: [], nonceClaimNeedsRawNonce: false,
            emailLinking: EmailLinking(verifiedEmails: true, domains: ["gmail.com", "googlemail.com"], hostedDomainClaim: "hd"),
            endpoints: .init(jwks: "https://www.googleapis.com/oauth2/v3/certs",
                             authorization: "https://accounts.google.com/o/oauth2/v2/auth",
                             token: "https://oauth2.googleapis.com/token",
                             userInfo: "https://openidconnect.googleapis.com/v1/userinfo",
                             tokenInfo: "https://oauth2.googleapis.com/tokeninfo"))
    }

    /// Microsoft Entra ID for one tenant (`microsoft.tenant`: the directory (tenant) id, or `consumers` for personal
    /// accounts): the tenant's issuer and discovery document. The stable id is `oid` (the Microsoft
    /// Graph object id), not the per-app `sub`. Entra does not verify the `email` claim, so it never links.
    /// Multi-tenant apps (`common`, `organizations`) sign with an issuer per tenant and are not supported.
    public static let microsoft = Self(providerId: .microsoft, section: "microsoft", ownKeys: ["tenant", "authority"],
                                       secretVariable: "GATEHOUSE_MICROSOFT_CLIENT_SECRET") { section in
        guard let tenant = try section.string("tenant"), !tenant.isEmpty, !tenant.contains("/") else {
            throw ConfigurationError("microsoft.tenant is required: the directory (tenant) id, or \"consumers\"")
        }
        guard !["common", "organizations"].contains(tenant.lowercased()) else {
            throw ConfigurationError("microsoft.tenant \"\(tenant)\" is multi-tenant, which is not supported; give one tenant id")
        }
        let authority = try section.string("authority") ?? "https://login.microsoftonline.com"
        // Personal accounts are issued by this fixed tenant, whatever alias the app uses.
        let issuerTenant = tenant.lowercased() == "consumers" ? "9188040d-6c67-4c5b-b112-36a304b66dad" : tenant
        let base = authority.hasSuffix("/") ? String(authority.dropLast()) : authority
        return OIDCProviderSettings(providerId: ProviderID.microsoft.rawValue, displayName: "Microsoft",
                                    issuer: "\(base)/\(issuerTenant)/v2.0", clientIds: [],
                                    claims: ClaimNames(subject: "oid", email: "email"))
    }
}
