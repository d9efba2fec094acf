import AuthCore
import HTTP
import ProviderKit
import WireFormats

/// A provider's own endpoints: `POST /gatehouse/v1/providers/{providerId}/events` (server-to-server callbacks;
/// Apple's older `/gatehouse/v1/apple/notifications` is an alias) and `GET /gatehouse/v1/providers/{providerId}/{page}`.
/// The provider gets the raw request and verifies it; the gateway applies the events it returns, in one place.
enum ProviderEndpointHandlers {
    static func events(_ services: GatewayServices, _ context: OperationContext) async throws -> Reply {
        let providerId = ProviderID(context.parameters["providerId"] ?? "")
        guard let receiver = services.providers.provider(providerId, as: (any ProviderEventReceiver).self) else {
            throw WireError.notFound
        }
        try receiver.requireEnabled()
        try rejectMalformedJSON(context.request)
        let delivery: ProviderEventDelivery
        do {
            delivery = try await receiver.receiveEvents(providerRequest(context), context: context.requestContext)
        } catch let error as ProviderRequestError {
            throw WireError.invalidPayload(error.detail, reason: "invalid")
        }
        let outcomes = try await AccountEventApplier.apply(delivery, from: providerId, services)
        services.logger.info("provider event", [("request.id", .string(context.requestId)),
                                                ("provider", .string(providerId.rawValue)),
                                                ("event", .string(delivery.label)),
                                                ("outcome", .string(outcomes.isEmpty ? "none" : outcomes.map(\.rawValue).joined(separator: ",")))])
        return reply(try await delivery.reply(outcomes))
    }

    static func page(_ services: GatewayServices, _ context: OperationContext) async throws -> Reply {
        let providerId = ProviderID(context.parameters["providerId"] ?? "")
        guard let pages = services.providers.provider(providerId, as: (any ProviderPages).self) else {
            throw WireError.notFound
        }
        try pages.requireEnabled()
        do {
            return reply(try await pages.page(providerRequest(context), context: context.requestContext))
        } catch ProviderPageError.notFound {
            throw WireError.notFound
        }
    }

    /// A body that is not a form must be JSON, as on every other route: a provider never sees one that does not
    /// parse, and the client gets Google's `Invalid JSON payload` answer.
    static func rejectMalformedJSON(_ request: HTTPRequest) throws {
        let contentType = request.headers["content-type"]?.lowercased() ?? ""
        guard !contentType.hasPrefix("application/x-www-form-urlencoded") else { return }
        _ = try RequestBody.json(request.body)
    }

    static func providerRequest(_ context: OperationContext) -> ProviderHTTPRequest {
        let request = context.request
        return ProviderHTTPRequest(method: request.method, page: context.parameters["page"] ?? "",
                                   query: FormURLEncoding.decode(request.query ?? ""),
                                   headers: request.headers.map { ($0.name, $0.value) }, body: request.body)
    }

    static func reply(_ reply: ProviderHTTPReply) -> Reply {
        var headers = HTTPHeaders()
        headers.add("Content-Type", reply.contentType)
        headers.add("Cache-Control", "no-store")
        return .response(HTTPResponse(status: reply.status, headers: headers, body: reply.body))
    }
}
