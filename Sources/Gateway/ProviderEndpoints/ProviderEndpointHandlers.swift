import AuthCore
import HTTP
import ProviderKit
import WireFormats

/// A provider's own endpoints: `POST /gatehouse/v1/providers/{providerId}/events` (server-to-server callbacks;
/// Apple's older `/gatehouse/v1/apple/notifications` is an alias) and `GET /gatehouse/v1/providers/{providerId}/{page}`.
/// The provider gets the raw request and verifies it; the gateway applies the events it returns, in one place.
enum ProviderEndpointHandlers {
    static func events(_ services: GatewayServices, _ context: OperationContext) async throws -> Reply {
        let providerId = ProviderID(context.parameters["providerId"] ?? ProviderID.apple.rawValue)
        guard let receiver = services.providers.provider(providerId, as: (any ProviderEventReceiver).self) else {
            throw WireError.notFound
        }
        try receiver.requireEnabled()
        let delivery = try await receiver.receiveEvents(providerRequest(context), context: context.requestContext)
        let outcomes = try await AccountEventApplier.apply(delivery, from: providerId, services)
        services.logger.info("provider event", [("request.id", .string(context.requestId)),
                                                ("provider", .string(providerId.rawValue)),
                                                ("event", .string(delivery.label)),
                                                ("outcome", .string(outcomes.map(\.rawValue).joined(separator: ",")))])
        return reply(try await delivery.reply(outcomes))
    }

    static func page(_ services: GatewayServices, _ context: OperationContext) async throws -> Reply {
        let providerId = ProviderID(context.parameters["providerId"] ?? "")
        guard let pages = services.providers.provider(providerId, as: (any ProviderPages).self) else {
            throw WireError.notFound
        }
        do {
            return reply(try await pages.page(providerRequest(context), context: context.requestContext))
        } catch ProviderPageError.notFound {
            throw WireError.notFound
        }
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
