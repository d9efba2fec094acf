import AuthCore
import Crypto
import Outbound
import ProviderKit
import ProviderTelegram
import Synchronization
import WireFormats

/// A `NonceLedger` in memory that remembers expiries (the gateway's durable one is tested in GatewayTests).
final class MemoryLedger: NonceLedger {
    private let seen = Mutex<[[UInt8]: Int64]>([:])
    func consume(_ hash: [UInt8], expiresAt: Int64) async throws -> Bool {
        seen.withLock { $0.updateValue(expiresAt, forKey: hash) == nil }
    }
    var expiries: [Int64] { seen.withLock { Array($0.values) } }
}

/// Published and self-made test vectors (the reference's Appendix A).
enum Vectors {
    /// Telegram-Mini-Apps/init-data-golang#11: real initData with a `+` (and `\/`) in the user's first name and a
    /// Bot API 7.10 `signature`, and the bot token it was signed with.
    static let miniAppToken = "7342037359:AAHI25ES9xCOMPokpYoz-p8XVrZUdygo2J4"
    static let miniAppBotId = "7342037359"
    static let miniAppInitData = "user=%7B%22id%22%3A279058397%2C%22first_name%22%3A%22Vladislav%20%2B%20-%20%3F%20%5C%2F%22%2C"
        + "%22last_name%22%3A%22Kibenko%22%2C%22username%22%3A%22vdkfrost%22%2C%22language_code%22%3A%22ru%22%2C%22is_premium%22"
        + "%3Atrue%2C%22allows_write_to_pm%22%3Atrue%2C%22photo_url%22%3A%22https%3A%5C%2F%5C%2Ft.me%5C%2Fi%5C%2Fuserpic%5C%2F320"
        + "%5C%2F4FPEE4tmP3ATHa57u6MqTDih13LTOiMoKoLDRG4PnSA.svg%22%7D&chat_instance=8134722200314281151&chat_type=private"
        + "&auth_date=1733509682&signature=TYJxVcisqbWjtodPepiJ6ghziUL94-KNpG8Pau-X7oNNLNBM72APCpi_RKiUlBvcqo5L-LAxIc3dnTzcZX_PDg"
        + "&hash=a433d8f9847bd6addcc563bff7cc82c89e97ea0d90c11fe5729cae6796a36d73"
    static let miniAppAuthDate: Int64 = 1_733_509_682
    static let miniAppUserId = "279058397"

    /// Self-made widget vector: token, fields, data-check-string, and the hash under each key derivation.
    static let widgetToken = "123456789:TEST-TOKEN-not-real"
    static let widgetBotId = "123456789"
    static let widgetFields = [("id", "42"), ("first_name", "Ada"), ("username", "ada"), ("auth_date", "1700000000")]
    static let widgetDataCheckString = "auth_date=1700000000\nfirst_name=Ada\nid=42\nusername=ada"
    static let widgetHash = "b7358f17c04a58d923df7b88e9ecd5dd97cff46fef643280991051a774183e5b"
    static let widgetHashUnderMiniAppKey = "227568318658f066367e0057755f6e0d09f3d67196affddde5e037c55c2a1447"
    static let widgetAuthDate: Int64 = 1_700_000_000
}

/// Builds signed data the way Telegram does, for fresh payloads in tests.
enum Signer {
    /// Widget data for `token`: the data-check-string of `fields`, `hash` appended, form-encoded.
    static func widget(_ fields: [(String, String)], token: String = Vectors.widgetToken) -> String {
        let hash = hmacHex(fields, key: SHA256.hash(token))
        return FormURLEncoding.encode(fields + [("hash", hash)])
    }

    /// Mini App initData for `token` (values percent-encoded as Telegram's clients do: `+` as `%2B`, space `%20`).
    static func miniApp(_ fields: [(String, String)], token: String) -> String {
        let key = HMACSHA256.authenticate(key: Array("WebAppData".utf8), message: Array(token.utf8))
        return (fields + [("hash", hmacHex(fields, key: key))]).map { "\($0.0)=\(percent($0.1))" }.joined(separator: "&")
    }

    static func hmacHex(_ fields: [(String, String)], key: [UInt8]) -> String {
        let lines = fields.sorted { $0.0.utf8.lexicographicallyPrecedes($1.0.utf8) }.map { "\($0.0)=\($0.1)" }
        return Hex.encode(HMACSHA256.authenticate(key: key, message: Array(lines.joined(separator: "\n").utf8)))
    }

    /// encodeURIComponent: everything but letters, digits and `-_.!~*'()` as `%XX`.
    static func percent(_ text: String) -> String {
        var out = ""
        for byte in text.utf8 {
            let c = Character(UnicodeScalar(byte))
            if byte < 0x80, c.isLetter || c.isNumber || "-_.!~*'()".contains(c) {
                out.append(c)
            } else {
                out += "%" + (byte < 0x10 ? "0" : "") + String(byte, radix: 16, uppercase: true)
            }
        }
        return out
    }
}

/// An in-memory stand-in for oauth.telegram.org: a JWKS and a token endpoint that checks HTTP Basic client
/// authentication, the redirect URI and PKCE (S256) before handing out the ID token registered for a code.
final class FakeTelegram: HTTPFetching, Sendable {
    static let baseURL = "https://telegram.test"
    static let issuer = "https://oauth.telegram.org"
    static let signingKey = try! RSAPrivateKey.generate()
    static let otherKey = try! RSAPrivateKey.generate()

    struct Grant: Sendable {
        let idToken: String
        let redirectUri: String
        let codeChallenge: String
    }

    private struct State {
        var requests: [OutboundRequest] = []
        var grants: [String: Grant] = [:]
        var clientSecrets: [String: String] = [:]
        var reachable = true
        /// The token endpoint answers this status (a 5xx or 429 outage) instead of exchanging codes.
        var tokenStatus: Int?
    }

    private let state = Mutex(State())

    func allowClient(_ id: String, secret: String) { state.withLock { $0.clientSecrets[id] = secret } }
    func grant(code: String, _ grant: Grant) { state.withLock { $0.grants[code] = grant } }
    func setReachable(_ reachable: Bool) { state.withLock { $0.reachable = reachable } }
    func setTokenStatus(_ status: Int?) { state.withLock { $0.tokenStatus = status } }
    var requests: [OutboundRequest] { state.withLock { $0.requests } }

    static func sign(_ claims: JSONObject, key: RSAPrivateKey = signingKey, kid: String = "tg-1") -> String {
        try! JWS.signRS256(payload: JSONSerializer.bytes(.object(claims)), key: key, kid: kid)
    }

    /// Claims of a fresh Telegram ID token for user `id`, issued to `bot`, bound to `rawNonce`.
    static func claims(id: Int64 = 279_058_397, bot: String, nonce rawNonce: String?, now: Int64) -> JSONObject {
        var claims: JSONObject = ["iss": .string(issuer), "aud": .string(bot), "sub": "1234123412341234123", "id": .int(id),
                                  "iat": .int(now), "exp": .int(now + 3600), "name": "Ada Lovelace",
                                  "preferred_username": "ada", "picture": "https://t.me/i/userpic/320/ada.jpg"]
        if let rawNonce { claims["nonce"] = .string(SHA256.hexDigest(rawNonce)) }
        return claims
    }

    func send(_ request: OutboundRequest) async throws -> OutboundResponse {
        let reachable = state.withLock { s in
            s.requests.append(request)
            return s.reachable
        }
        guard reachable else { throw OutboundError.connectionFailed("stand-in is down") }
        switch (request.method, String(request.url.dropFirst(Self.baseURL.count))) {
        case ("GET", "/.well-known/jwks.json"):
            let jwk = JWK(rsa: Self.signingKey.publicKey, kid: "tg-1")
            let key: JSONValue = ["kty": "RSA", "kid": "tg-1", "alg": "RS256", "use": "sig", "n": .string(jwk.n!), "e": .string(jwk.e!)]
            return OutboundResponse(status: 200, body: JSONSerializer.bytes(["keys": [key]]))
        case ("POST", "/token"):
            if let status = state.withLock({ $0.tokenStatus }) {
                return OutboundResponse(status: status, body: Array(#"{"error":"temporarily_unavailable"}"#.utf8))
            }
            return token(request)
        default:
            return OutboundResponse(status: 404)
        }
    }

    private func token(_ request: OutboundRequest) -> OutboundResponse {
        var form: [String: String] = [:]
        for (name, value) in FormURLEncoding.decode(String(decoding: request.body, as: UTF8.self)) { form[name] = value }
        let authorization = request.headers.first { $0.0.lowercased() == "authorization" }?.1 ?? ""
        let credentials = Base64.decode(String(authorization.dropFirst("Basic ".count))).map { String(decoding: $0, as: UTF8.self) }
        let (secrets, grant) = state.withLock { s in (s.clientSecrets, s.grants.removeValue(forKey: form["code"] ?? "")) }
        guard authorization.hasPrefix("Basic "), let credentials, let clientId = form["client_id"],
              credentials == "\(clientId):\(secrets[clientId] ?? "-")" else {
            return OutboundResponse(status: 401, body: JSONSerializer.bytes(["error": "invalid_client"]))
        }
        guard form["grant_type"] == "authorization_code", let grant, grant.redirectUri == form["redirect_uri"],
              Base64URL.encode(SHA256.hash(form["code_verifier"] ?? "")) == grant.codeChallenge else {
            return OutboundResponse(status: 400, body: JSONSerializer.bytes(["error": "invalid_grant"]))
        }
        return OutboundResponse(status: 200, body: JSONSerializer.bytes([
            "access_token": "at", "token_type": "Bearer", "expires_in": 3600, "id_token": .string(grant.idToken)]))
    }
}

/// A provider wired to the stand-in and a manual clock.
struct TelegramFixture {
    let telegram = FakeTelegram()
    let time: ManualTime
    let payloads = MemoryLedger()
    let nonces = MemoryLedger()
    let provider: TelegramProvider
    var now: Int64 { time.nowSeconds }

    /// Bots: the widget vector's bot and the Mini App vector's bot (tokens held), both OIDC clients; the
    /// Mini App bot also has a client secret for the code flow.
    static func standardConfiguration() -> TelegramConfiguration {
        TelegramConfiguration(enabled: true, bots: [
            TelegramBot(id: Vectors.widgetBotId, token: TelegramSecret(Vectors.widgetToken)),
            TelegramBot(id: Vectors.miniAppBotId, token: TelegramSecret(Vectors.miniAppToken), clientSecret: TelegramSecret("web-login-secret")),
        ], baseURL: FakeTelegram.baseURL)
    }

    init(now: Int64 = Vectors.miniAppAuthDate + 60, _ configure: (inout TelegramConfiguration) -> Void = { _ in }) throws {
        time = ManualTime(milliseconds: now * 1000)
        var configuration = Self.standardConfiguration()
        configure(&configuration)
        provider = try TelegramProvider(configuration: configuration, fetcher: telegram, payloads: payloads, nonces: nonces, time: time)
        telegram.allowClient(Vectors.miniAppBotId, secret: "web-login-secret")
    }

    static let context = RequestContext(clientAddress: "127.0.0.1", receivedAt: 0, projectId: "p")

    func signIn(_ parameters: [String: String]) async throws -> VerifiedIdentity {
        try await provider.verify(ProviderAssertion(parameters: ["providerId": "telegram.org"].merging(parameters) { $1 },
                                                    requestUri: "http://localhost"), context: Self.context)
    }

    func signIn(accessToken: String) async throws -> VerifiedIdentity { try await signIn(["access_token": accessToken]) }

    /// What the client is told when sign-in fails, and the check the log names; nil when it succeeds.
    func refusal(_ parameters: [String: String]) async -> (message: String, check: CredentialCheck?)? {
        do {
            _ = try await signIn(parameters)
            return nil
        } catch let refusal as CredentialRefusal {
            return (refusal.error.message, refusal.check)
        } catch let error as AuthError {
            return (error.message, nil)
        } catch {
            return ("unexpected \(error)", nil)
        }
    }

    func refusal(accessToken: String) async -> (message: String, check: CredentialCheck?)? {
        await refusal(["access_token": accessToken])
    }
}
