import AuthCore
import Crypto
import Outbound
import WireFormats
import ProviderKit

/// Sign in with Apple: verifies Apple identity tokens for `signInWithIdp`, exchanges authorization codes for the
/// refresh token account deletion must revoke, revokes tokens, and runs Apple's web/Android redirect flow.
///
/// Apple is a trusted email provider, except for private relay addresses, which are kept but never link
/// accounts by email.
public struct AppleProvider: AssertionVerifier, TokenRevoker, RedirectSignIn {
    public let configuration: AppleConfiguration
    let verifier: AppleTokenVerifier
    let tokens: AppleTokenClient?
    /// Where failures outside the gateway go (Apple's keys or token endpoint unreachable, codes Apple refuses).
    let log: any ProviderLog

    /// Throws a readable error when the configured .p8 key cannot be read as a P-256 key.
    public init(configuration: AppleConfiguration, fetcher: any HTTPFetching, ledger: any NonceLedger,
                time: any TimeSource, log: any ProviderLog = SilentProviderLog()) throws {
        self.configuration = configuration
        self.verifier = AppleTokenVerifier(configuration: configuration, fetcher: fetcher, ledger: ledger, time: time, log: log)
        if configuration.canCallTokenEndpoint, let team = configuration.teamId, let kid = configuration.keyId,
           let pem = configuration.privateKeyPEM {
            let secret = try AppleClientSecret(teamId: team, keyId: kid, privateKeyPEM: pem, time: time)
            self.tokens = AppleTokenClient(baseURL: configuration.baseURL, secret: secret, fetcher: fetcher, log: log)
        } else {
            self.tokens = nil
        }
        self.log = log
    }

    public var id: ProviderID { .apple }
    public var isEnabled: Bool { configuration.enabled }

    public var startupSummary: [(String, ProviderLogValue)] {
        [("audiences", .string(configuration.audiences.joined(separator: ","))),
         ("code_exchange", .bool(tokens != nil)), ("revocation", .bool(tokens != nil)),
         ("redirect_flow", .bool(!configuration.servicesIds.isEmpty))]
    }

    public func verify(_ assertion: ProviderAssertion, context: RequestContext) async throws -> VerifiedIdentity {
        try requireEnabled()
        guard let idToken = assertion["id_token"], !idToken.isEmpty else {
            throw CredentialRefusal(.apple, .missing,
                                    AuthError(.invalidIdpResponse, "id_token is missing; Apple sign-in needs the identity token"))
        }
        let token = try await verifier.verify(idToken, rawNonce: assertion["nonce"])
        var secrets: [String: String] = [:]
        if let code = assertion["code"], !code.isEmpty {
            secrets = await refreshTokenSecrets(code: code, clientId: token.audience, redirectUri: nil, subject: token.subject)
        }
        return identity(token, idToken: idToken, userParameter: assertion["user"], secrets: secrets)
    }

    func identity(_ token: AppleIdentityToken, idToken: String, userParameter: String?,
                  secrets: [String: String]) -> VerifiedIdentity {
        VerifiedIdentity(providerId: .apple, subject: token.subject, email: AppleProfile.email(of: token),
                         displayName: AppleProfile.displayName(fromUserParameter: userParameter), photoUrl: nil,
                         rawUserInfo: JSONSerializer.string(.object(token.claims)),
                         echoedCredential: ["oauthIdToken": idToken], secrets: secrets)
    }

    /// Exchanges the code for Apple's refresh token. A failure never fails the sign-in (the identity token was
    /// already verified); it only means this account cannot be revoked at Apple, which is logged (an unreachable
    /// endpoint by the token client, a refusal here).
    func refreshTokenSecrets(code: String, clientId: String, redirectUri: String?, subject: String) async -> [String: String] {
        guard let tokens else { return [:] }
        do {
            let result = try await tokens.exchange(code: code, clientId: clientId, redirectUri: redirectUri)
            if let exchanged = result.idToken, let sub = Self.unverifiedSubject(exchanged), sub != subject {
                log.warning("apple code belongs to another user; refresh token discarded", [("client_id", .string(clientId))])
                return [:]
            }
            guard let refreshToken = result.refreshToken else { return [:] }
            return ["refreshToken": refreshToken, "clientId": clientId]
        } catch .rejected(let reason) {
            log.warning("apple code exchange refused", [("reason", .string(reason)), ("client_id", .string(clientId))])
            return [:]
        } catch {
            return [:]
        }
    }

    /// The `sub` of a token received straight from Apple over TLS (only compared, never trusted for sign-in).
    static func unverifiedSubject(_ compact: String) -> String? {
        guard let jws = try? CompactJWS(parsing: compact) else { return nil }
        return (try? JSONParser.parse(jws.payloadBytes))?["sub"]?.stringValue
    }
}
