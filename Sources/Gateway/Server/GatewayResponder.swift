import AuthCore
import Crypto
import HTTP
import Storage
import WireFormats
import ProviderKit

/// Turns an HTTP request into an HTTP response: CORS, routing, caller authentication, body decoding, the
/// operation's handler, error rendering and the access log. The only place where errors become wire bytes.
struct GatewayResponder: Sendable {
    let services: GatewayServices
    let routes: RouteTable
    let callers: CallerAuthenticator
    let addresses: ClientAddressResolver

    func respond(to request: HTTPRequest) async -> HTTPResponse {
        let started = ContinuousClock.now
        let requestId = RequestIDs.next()
        // Every X-Forwarded-For line counts: a proxy may add its own line instead of appending to the client's.
        let forwardedFor = request.headers.values("x-forwarded-for")
        let clientAddress = addresses.resolve(peer: request.remoteAddress,
                                              forwardedFor: forwardedFor.isEmpty ? nil : forwardedFor.joined(separator: ","))
        var operation: APIOperation?
        var errorCode: String?
        var response: HTTPResponse
        if request.method == "OPTIONS" {
            response = CORS.preflight(request)
        } else {
            do {
                guard case .matched(let match) = routes.lookup(method: request.method, path: request.path) else {
                    throw WireError.notFound
                }
                operation = match.operation
                let caller = try await authorize(request, access: match.access, parameters: match.parameters)
                let body = try decodeBody(request, operation: match.operation)
                // Naming a project in the body is an administrator's privilege on every operation, as Google's
                // front end enforces it before any handler runs.
                if !caller.isAdmin && body.has("targetProjectId") { throw AuthError.targetProjectNeedsAdmin }
                let context = OperationContext(
                    request: request, body: body, caller: caller, parameters: match.parameters,
                    clientAddress: clientAddress, requestId: requestId, receivedAt: services.time.nowMilliseconds)
                let reply = try await OperationTable.handler(for: match.operation)(services, context)
                if case .json(let object, 200, _) = reply,
                   let outcome = SessionOutcome.of(match.operation, request: body, reply: object) {
                    services.metrics.sessionStarted(outcome)
                }
                response = render(reply)
            } catch {
                let (status, body, code) = renderError(error, requestId: requestId)
                errorCode = code
                response = json(body, status: status)
            }
            CORS.decorate(&response, for: request)
        }
        response.headers.set("X-Request-Id", requestId)
        let elapsed = ContinuousClock.now - started
        let milliseconds = Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
        var metadata: Logger.Metadata = [
            ("request.id", .string(requestId)), ("http.method", .string(request.method)),
            ("http.path", .string(Self.loggedPath(request.path))), ("http.status", .int(Int64(response.status))),
            ("client.ip", .string(clientAddress)),
            ("duration_ms", .double(milliseconds)),
        ]
        if let operation { metadata.append(("operation", .string(operation.rawValue))) }
        if let errorCode { metadata.append(("error.code", .string(errorCode))) }
        services.logger.info("request", metadata)
        services.metrics.requestAnswered(operation: operation?.rawValue ?? "unmatched", status: response.status,
                                         seconds: milliseconds / 1000, errorCode: errorCode)
        return response
    }

    /// The path as logged: at most 200 characters, without copying one that is shorter (nearly all are).
    private static func loggedPath(_ path: String) -> String {
        path.utf8.count <= 200 ? path : String(path.prefix(200))
    }

    private func authorize(_ request: HTTPRequest, access: Access, parameters: [String: String]) async throws -> Caller {
        if access == .open { return .anonymous }
        if access == .metrics, callers.isDirectlyFromMetricsNetwork(request) { return .anonymous }
        let caller: Caller
        switch try callers.authenticate(request, peer: request.remoteAddress, now: services.time.nowSeconds) {
        case .caller(let settled):
            caller = settled
        case .serviceAccount(let clientEmail):
            // The token is genuine and unexpired; the account must still be registered (removal is immediate).
            guard try await services.serviceAccounts.account(clientEmail) != nil else { throw WireError.invalidCredentials }
            caller = .admin
        }
        switch (access, caller) {
        case (.apiKey, .anonymous): throw WireError.missingAPIKey
        case (.admin, .anonymous), (.metrics, .anonymous): throw WireError.missingCredentials
        case (.metrics, .apiKey): throw WireError.invalidCredentials
        case (.admin, .apiKey):
            throw AuthError.targetProjectNeedsAdmin
        default: break
        }
        // One gateway serves one project: another project's admin path does not exist here.
        if let project = parameters["projectId"], project != services.configuration.projectId {
            throw WireError.notFound
        }
        return caller
    }

    private func decodeBody(_ request: HTTPRequest, operation: APIOperation) throws -> RequestBody {
        // A provider answering with `response_mode=query` sends the user back with a GET: its fields are the query.
        if operation == .authHandlerQuery { return try RequestBody.form(Array((request.query ?? "").utf8)) }
        guard request.method == "POST" || request.method == "PATCH" else { return .empty }
        // Providers verify their callbacks over the exact bytes (OperationContext.request.body); nothing is parsed.
        if operation == .providerEvents || operation == .appleNotifications { return .empty }
        if operation == .token || operation == .oauthToken || operation == .authHandler || operation == .actionPageSubmit,
           (request.headers["content-type"]?.lowercased() ?? "").hasPrefix("application/x-www-form-urlencoded") {
            return try RequestBody.form(request.body)
        }
        return try RequestBody.json(request.body)
    }

    private func render(_ reply: Reply) -> HTTPResponse {
        switch reply {
        case .response(let response): return response
        case .json(let object, let status, let headers):
            var response = json(object, status: status)
            for (name, value) in headers { response.headers.set(name, value) }
            return response
        }
    }

    private func json(_ object: JSONObject, status: Int) -> HTTPResponse {
        var headers = HTTPHeaders()
        headers.add("Content-Type", "application/json; charset=UTF-8")
        return HTTPResponse(status: status, headers: headers, body: JSONSerializer.bytes(.object(object), pretty: true))
    }

    /// Maps any thrown error to (status, envelope, code for the log). Only `AuthError`, `WireError` and a
    /// provider's `CredentialRefusal` (logged with its failed check, rendered as its `AuthError`) are expected;
    /// anything else is our fault and becomes a 500 without details (and is logged).
    private func renderError(_ error: any Error, requestId: String) -> (Int, JSONObject, String) {
        switch error {
        case let refusal as CredentialRefusal:
            ProviderLogLines.logRefusal(refusal, requestId: requestId, to: services.logger)
            services.metrics.credentialRefused(provider: refusal.provider.rawValue, check: refusal.check.rawValue)
            let (status, body) = ErrorEnvelope.render(refusal.error)
            return (status, body, refusal.error.code.rawValue)
        case let error as AuthError:
            let (status, body) = ErrorEnvelope.render(error)
            return (status, body, error.code.rawValue)
        case let error as OAuthError:
            let (status, body) = ErrorEnvelope.render(error)
            return (status, body, error.code.rawValue)
        case let error as WireError:
            let (status, body) = ErrorEnvelope.render(error)
            return (status, body, error.logCode)
        case StoreError.unavailable(let reason):
            services.logger.warning("store unavailable", [("request.id", .string(requestId)), ("reason", .string(String(reason.prefix(300))))])
            return (503, ErrorEnvelope.render(httpStatus: 503, message: "The service is currently unavailable."), "UNAVAILABLE")
        case StoreError.invalidValue(let reason):
            services.logger.info("value refused by the store", [("request.id", .string(requestId)), ("reason", .string(String(reason.prefix(300))))])
            let (status, body) = ErrorEnvelope.render(WireError.invalidPayload("A value is too long or is not valid text.", reason: "invalid"))
            return (status, body, "INVALID_ARGUMENT")
        case let error as StoreError:
            services.logger.error("store error", [("request.id", .string(requestId)), ("error", .string(String(String(describing: error).prefix(300))))])
            return (500, ErrorEnvelope.render(httpStatus: 500, message: "An internal error occurred."), "INTERNAL")
        default:
            services.logger.error("unexpected error", [("request.id", .string(requestId)), ("error", .string(String(describing: type(of: error))))])
            return (500, ErrorEnvelope.render(httpStatus: 500, message: "An internal error occurred."), "INTERNAL")
        }
    }
}

extension AuthError {
    /// An API-key caller naming a project (`targetProjectId`, or an admin path), as Google answers it.
    static var targetProjectNeedsAdmin: AuthError {
        AuthError(.insufficientPermission, "Only authenticated requests can specify target_project_id.")
    }
}
