import Crypto
import Outbound
import Synchronization
import WireFormats

/// GitHub's three endpoints in memory: "check a token" (answers only for tokens of the app that asks, as GitHub
/// does), the user's addresses, and the code exchange (which checks the PKCE verifier).
final class FakeGitHub: HTTPFetching, Sendable {
    static let api = "https://api.github.test"
    static let web = "https://github.test"
    static let clientId = "Ov23liEXAMPLE"
    static let clientSecret = "gh-secret"

    private struct State {
        /// access token → (the app it was issued to, its user)
        var tokens: [String: (app: String, user: JSONObject)] = [:]
        var emails: [String: JSONValue] = [:]
        var codes: [String: (token: String, challenge: String)] = [:]
        var reachable = true
        /// Misbehave: answer "check a token" for tokens of other apps too (naming that app).
        var answersForeignTokens = false
        var requests: [OutboundRequest] = []
    }

    private let state = Mutex(State())

    func issue(_ token: String, app: String = clientId, user: JSONObject, emails: JSONValue? = nil) {
        state.withLock { $0.tokens[token] = (app, user); $0.emails[token] = emails }
    }
    func issueCode(_ code: String, for token: String, challenge: String) { state.withLock { $0.codes[code] = (token, challenge) } }
    func setReachable(_ reachable: Bool) { state.withLock { $0.reachable = reachable } }
    func answerForeignTokens() { state.withLock { $0.answersForeignTokens = true } }
    var requests: [OutboundRequest] { state.withLock { $0.requests } }

    func send(_ request: OutboundRequest) async throws -> OutboundResponse {
        guard state.withLock({ s in s.requests.append(request); return s.reachable }) else {
            throw OutboundError.connectionFailed("github is down")
        }
        let header = { (name: String) in request.headers.first { $0.0.lowercased() == name }?.1 }
        guard header("user-agent") != nil else { return OutboundResponse(status: 403) }
        switch request.url {
        case "\(Self.api)/applications/\(Self.clientId)/token":
            guard header("authorization") == "Basic " + Base64.encode(Array("\(Self.clientId):\(Self.clientSecret)".utf8)) else {
                return OutboundResponse(status: 401)
            }
            let token = (try? JSONParser.parse(request.body))?["access_token"]?.stringValue ?? ""
            let (found, lax) = state.withLock { ($0.tokens[token], $0.answersForeignTokens) }
            guard let issued = found, issued.app == Self.clientId || lax else { return OutboundResponse(status: 404) }
            return json(["app": ["client_id": .string(issued.app)], "user": .object(issued.user), "scopes": ["user:email"]])
        case "\(Self.api)/user/emails":
            let token = String((header("authorization") ?? "").dropFirst("Bearer ".count))
            return state.withLock { $0.emails[token] }.map { OutboundResponse(status: 200, body: JSONSerializer.bytes($0)) }
                ?? OutboundResponse(status: 404)
        case "\(Self.web)/login/oauth/access_token":
            let form = Dictionary(FormURLEncoding.decode(String(decoding: request.body, as: UTF8.self)), uniquingKeysWith: { $1 })
            guard form["client_id"] == Self.clientId, form["client_secret"] == Self.clientSecret,
                  let code = form["code"], let issued = state.withLock({ $0.codes.removeValue(forKey: code) }),
                  Base64URL.encode(SHA256.hash(form["code_verifier"] ?? "")) == issued.challenge
            else { return json(["error": "bad_verification_code"]) }
            return json(["access_token": .string(issued.token), "token_type": "bearer", "scope": "read:user,user:email"])
        default:
            return OutboundResponse(status: 404)
        }
    }

    private func json(_ object: JSONObject) -> OutboundResponse {
        OutboundResponse(status: 200, headers: [("Content-Type", "application/json")], body: JSONSerializer.bytes(.object(object)))
    }
}
