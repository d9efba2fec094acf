import AuthCore
import Crypto
import HTTP
import Outbound
import ProviderEmail
import Storage
@testable import Gateway
import WireFormats
import ProviderKit

/// An in-process gateway (in-memory store, manual clock, captured logs) and test verbs, so each behaviour
/// test reads like the Firebase call it exercises.
struct TestGateway {
    let app: GatewayApp
    let time: ManualTime
    let logs: MemoryLogSink
    let store: any UserStore

    static func make(store: (any UserStore)? = nil, providers: [any CredentialProvider] = [TestIdentityProvider()],
                     fetcher: any HTTPFetching = OfflineFetcher(), masterKey: SymmetricKey = .generate(),
                     factories: [any ProviderFactory] = ProviderRegistrations.factories,
                     _ configure: (inout GatewayConfiguration) -> Void = { _ in }) async throws -> TestGateway {
        var configuration = GatewayConfiguration()
        configuration.projectId = "test-project"
        configuration.adminTokens = [adminToken]
        configure(&configuration)
        let time = ManualTime(milliseconds: 1_800_000_000_000)
        let logs = MemoryLogSink()
        let store = store ?? InMemoryUserStore()
        let app = try await GatewayApp.assemble(
            configuration: configuration, store: store, sealer: Sealer(masterKey: masterKey),
            logger: Logger(minimumLevel: .debug, sink: logs), time: time, factories: factories, extraProviders: providers,
            fetcher: fetcher)
        app.services.readiness.set(true)
        return TestGateway(app: app, time: time, logs: logs, store: store)
    }

    /// The registration table with the email factory replaced (tests inject a counting hasher or a capturing mailer).
    static func factories(email: EmailProviderFactory) -> [any ProviderFactory] {
        ProviderRegistrations.factories.map { $0.section == "email" ? email : $0 }
    }

    struct Reply {
        let status: Int
        let headers: HTTPHeaders
        let json: JSONValue
        /// The body as text (HTML pages).
        var text = ""
        var error: String? { json["error"]?["message"]?.stringValue }
        subscript(key: String) -> JSONValue? { json[key] }
    }

    func send(_ method: String, _ target: String, body: String = "", headers: [(String, String)] = [],
              from address: String = "127.0.0.1") async -> Reply {
        var all = HTTPHeaders(headers)
        if !body.isEmpty && all["content-type"] == nil { all.add("Content-Type", "application/json") }
        let request = HTTPRequest(method: method, target: target, version: "HTTP/1.1", headers: all,
                                  body: Array(body.utf8), remoteAddress: address)
        let response = await app.responder.respond(to: request)
        let json = (try? JSONParser.parse(response.body)) ?? .null
        return Reply(status: response.status, headers: response.headers, json: json,
                     text: String(decoding: response.body, as: UTF8.self))
    }

    func post(_ path: String, _ body: JSONValue, key: String? = "test-key", headers: [(String, String)] = [],
              from address: String = "127.0.0.1") async -> Reply {
        let target = key.map { path + "?key=" + $0 } ?? path
        return await send("POST", target, body: JSONSerializer.string(body), headers: headers, from: address)
    }

    static let v1 = "/identitytoolkit.googleapis.com/v1"
    var adminPath: String { "\(Self.v1)/projects/\(app.services.configuration.projectId)" }

    func signUpAnonymously(from address: String = "127.0.0.1") async -> Reply {
        await post("\(Self.v1)/accounts:signUp", ["returnSecureToken": true], from: address)
    }

    func lookup(_ idToken: String) async -> Reply {
        await post("\(Self.v1)/accounts:lookup", ["idToken": .string(idToken)])
    }

    func refresh(_ refreshToken: String) async -> Reply {
        await post("/securetoken.googleapis.com/v1/token", ["grantType": "refresh_token", "refreshToken": .string(refreshToken)])
    }

    /// The admin token every test gateway accepts (`Bearer owner` is not admin outside emulator mode).
    static let adminToken = "test-admin-token-0123456789"
    static let adminHeaders = [("Authorization", "Bearer \(adminToken)")]

    func admin(_ operation: String, _ body: JSONValue) async -> Reply {
        await post("\(adminPath)/accounts:\(operation)", body, key: nil, headers: Self.adminHeaders)
    }

    /// `accounts:signInWithIdp` with the test provider's credential in `postBody`.
    func signInWithIdp(sub: String, email: String? = nil, trusted: Bool = false, provider: String = "test.example",
                       idToken: String? = nil, returnIdpCredential: Bool = false, autoCreate: Bool? = nil) async -> Reply {
        var postBody = "providerId=\(provider)&secret=open-sesame&sub=\(sub)"
        if let email { postBody += "&email=\(email)&trusted=\(trusted ? 1 : 0)" }
        var body: JSONObject = ["requestUri": "http://localhost", "postBody": .string(postBody), "returnSecureToken": true]
        body.set("idToken", idToken)
        if returnIdpCredential { body["returnIdpCredential"] = true }
        body.set("autoCreate", autoCreate)
        return await post("\(Self.v1)/accounts:signInWithIdp", .object(body))
    }

    /// Decodes an ID token's payload (no verification: tests check what we minted).
    static func claims(_ token: String) -> JSONObject {
        let parts = token.split(separator: ".")
        return (try? JSONParser.parse(Base64URL.decode(String(parts[1])) ?? []))?.objectValue ?? JSONObject()
    }
}
