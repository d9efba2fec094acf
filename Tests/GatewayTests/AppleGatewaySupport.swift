import AppleTestSupport
import AuthCore
import Crypto
import Outbound
import ProviderApple
import Storage
@testable import Gateway
import WireFormats

/// An `HTTPFetching` for gateways that must not reach any network.
struct OfflineFetcher: HTTPFetching {
    func send(_ request: OutboundRequest) async throws -> OutboundResponse {
        throw OutboundError.connectionFailed("tests have no network")
    }
}

/// Verbs for Sign in with Apple against an in-process gateway wired to the `FakeApple` stand-in.
extension TestGateway {
    static func withApple(_ apple: FakeApple, withKey: Bool = true, store: (any UserStore)? = nil,
                          masterKey: SymmetricKey = .generate(), _ configure: (inout GatewayConfiguration) -> Void = { _ in }) async throws -> TestGateway {
        try await make(store: store, fetcher: apple, masterKey: masterKey) { config in
            let ids = FakeApple.configuration(withKey: withKey)
            // Through the `apple` section and the key's environment variable, as an operator configures it.
            config.setPluginValue("apple.enabled", true)
            config.setPluginValue("apple.bundleIds", .array(ids.bundleIds.map(JSONValue.string)))
            config.setPluginValue("apple.servicesIds", .array(ids.servicesIds.map(JSONValue.string)))
            config.setPluginValue("apple.baseUrl", .string(FakeApple.baseURL))
            if let teamId = ids.teamId, let keyId = ids.keyId, let pem = ids.pem {
                config.setPluginValue("apple.teamId", .string(teamId))
                config.setPluginValue("apple.keyId", .string(keyId))
                config.environment["GATEHOUSE_APPLE_PRIVATE_KEY"] = pem
            }
            configure(&config)
        }
    }

    /// A fresh Apple token for `sub` bound to `nonce`, as the native sheet would return it now.
    func appleToken(sub: String = "apple-sub-1", nonce: String, email: String? = nil, emailVerified: JSONValue = "true",
                    isPrivate: JSONValue? = nil) -> String {
        FakeApple.sign(FakeApple.claims(sub: sub, nonce: nonce, now: time.nowSeconds, email: email,
                                        emailVerified: emailVerified, isPrivate: isPrivate))
    }

    func signInWithApple(token: String, nonce: String?, code: String? = nil, user: String? = nil, idToken: String? = nil,
                         returnIdpCredential: Bool = false) async -> Reply {
        var pairs = [("providerId", "apple.com"), ("id_token", token)]
        if let nonce { pairs.append(("nonce", nonce)) }
        if let code { pairs.append(("code", code)) }
        if let user { pairs.append(("user", user)) }
        var body: JSONObject = ["requestUri": "http://localhost", "postBody": .string(FormURLEncoding.encode(pairs)),
                                "returnSecureToken": true]
        body.set("idToken", idToken)
        if returnIdpCredential { body["returnIdpCredential"] = true }
        return await post("\(Self.v1)/accounts:signInWithIdp", .object(body))
    }

    /// Signs in with a new token and nonce each call (what a well-behaved app does).
    func signInWithApple(sub: String = "apple-sub-1", email: String? = nil, isPrivate: JSONValue? = nil,
                         code: String? = nil, user: String? = nil, idToken: String? = nil,
                         returnIdpCredential: Bool = false) async -> Reply {
        let nonce = "nonce-" + SecureRandom.alphanumeric(length: 24)
        return await signInWithApple(token: appleToken(sub: sub, nonce: nonce, email: email, isPrivate: isPrivate),
                                     nonce: nonce, code: code, user: user, idToken: idToken,
                                     returnIdpCredential: returnIdpCredential)
    }
}
