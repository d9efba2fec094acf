import AuthCore
import HTTP
import WireFormats

/// `POST /__/auth/handler`: the return URL registered at the provider. The provider posts its answer here
/// (`response_mode=form_post`: `code`, `id_token`, `state`, first-time `user`, or `error`), or sends the browser
/// here with it in the query (`GET`, the code flow's default response mode and the only one some providers
/// offer); the gateway hands it to the client's `continueUri` in the URL fragment (which browsers never send to
/// servers or in `Referer`), where the client finishes with `signInWithIdp` and its `sessionId`. Nothing is
/// verified here: that happens once, in `signInWithIdp`, bound to the session.
enum AuthHandlerEndpoint {
    static let forwarded = ["code", "id_token", "state", "user", "error"]

    static func handle(_ services: GatewayServices, _ context: OperationContext) async throws -> Reply {
        let answer = context.request.method == "POST" ? context.body
                                                     : try RequestBody.form(Array((context.request.query ?? "").utf8))
        let state = try answer.string("state") ?? ""
        let sessions = RedirectSessions(store: services.store, time: services.time, projectId: services.configuration.projectId)
        guard let continueUri = try await sessions.continueUri(forState: state) else {
            return page(status: 400, "This sign-in link is unknown or has expired. Go back to the app and start again.")
        }
        var pairs: [(String, String)] = []
        for name in forwarded {
            if let value = try answer.string(name), !value.isEmpty { pairs.append((name, value)) }
        }
        let base = continueUri.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? continueUri
        var headers = HTTPHeaders()
        headers.add("Location", base + "#" + FormURLEncoding.encode(pairs))
        headers.add("Cache-Control", "no-store")
        headers.add("Referrer-Policy", "no-referrer")
        return .response(HTTPResponse(status: 303, headers: headers))
    }

    static func page(status: Int, _ message: String) -> Reply {
        var headers = HTTPHeaders()
        headers.add("Content-Type", "text/plain; charset=utf-8")
        headers.add("Cache-Control", "no-store")
        return .response(HTTPResponse(status: status, headers: headers, body: Array(message.utf8)))
    }
}
