import AuthCore
import Crypto
import OIDCTestSupport
import Outbound
@testable import Gateway
import WireFormats

/// Several stand-in issuers behind one fetcher, each answering under its own base URL.
struct IssuerRouter: HTTPFetching {
    let issuers: [FakeOIDCIssuer]

    func send(_ request: OutboundRequest) async throws -> OutboundResponse {
        guard let issuer = issuers.first(where: { request.url.hasPrefix($0.base) }) else {
            throw OutboundError.connectionFailed("no stand-in at \(request.url)")
        }
        return try await issuer.send(request)
    }
}

/// Verbs for OpenID Connect providers against an in-process gateway.
extension TestGateway {
    /// An `oidc.providers` entry for a stand-in issuer (the shape an operator writes in the config file).
    static func oidcEntry(_ id: String, _ issuer: FakeOIDCIssuer, _ extra: JSONObject = [:]) -> JSONValue {
        var entry: JSONObject = ["providerId": .string(id), "issuer": .string(issuer.base), "clientIds": [.string(issuer.clientId)]]
        for (key, value) in extra { entry[key] = value }
        return .object(entry)
    }

    /// Google's section pointed at a stand-in (Google's issuer is fixed; its endpoints are not).
    static func googleSection(_ stand: FakeOIDCIssuer, _ extra: JSONObject = [:]) -> JSONObject {
        var section: JSONObject = [
            "enabled": true, "clientIds": [.string(stand.clientId)],
            "endpoints": ["jwks": .string(stand.base + "/jwks"), "userInfo": .string(stand.base + "/userinfo"),
                          "tokenInfo": .string(stand.base + "/tokeninfo"), "authorization": .string(stand.base + "/authorize"),
                          "token": .string(stand.base + "/token")],
        ]
        for (key, value) in extra { section[key] = value }
        return section
    }

    func signInWithIdp(_ pairs: [(String, String)], idToken: String? = nil, returnIdpCredential: Bool = false) async -> Reply {
        var body: JSONObject = ["requestUri": "http://localhost", "postBody": .string(FormURLEncoding.encode(pairs)),
                                "returnSecureToken": true]
        body.set("idToken", idToken)
        if returnIdpCredential { body["returnIdpCredential"] = true }
        return await post("\(Self.v1)/accounts:signInWithIdp", .object(body))
    }

    func signInWithOIDC(_ providerId: String, token: String, nonce: String? = nil) async -> Reply {
        var pairs = [("providerId", providerId), ("id_token", token)]
        if let nonce { pairs.append(("nonce", nonce)) }
        return await signInWithIdp(pairs)
    }

    // MARK: oauthIdpConfigs

    var idpConfigsPath: String { "/identitytoolkit.googleapis.com/v2/projects/\(app.services.configuration.projectId)/oauthIdpConfigs" }

    func adminV2(_ method: String, _ path: String, _ body: JSONValue? = nil) async -> Reply {
        await send(method, path, body: body.map { JSONSerializer.string($0) } ?? "", headers: TestGateway.adminHeaders)
    }

    func createIdpConfig(_ id: String, _ resource: JSONValue) async -> Reply {
        await adminV2("POST", "\(idpConfigsPath)?oauthIdpConfigId=\(id)", resource)
    }
}
