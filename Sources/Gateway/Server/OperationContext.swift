import AuthCore
import HTTP
import IPNetworks
import ProviderKit
import Storage
import Synchronization
import WireFormats

/// One request, decoded: the body, the caller, path parameters and the client address.
struct OperationContext: Sendable {
    let request: HTTPRequest
    let body: RequestBody
    let caller: Caller
    let parameters: [String: String]
    let clientAddress: String
    let requestId: String
    let receivedAt: Int64

    var requestContext: RequestContext {
        RequestContext(clientAddress: clientAddress, receivedAt: receivedAt, projectId: "",
                       clientNetwork: NetworkRange.limitKey(for: clientAddress))
    }
}

/// A handler's answer: a JSON body (status 200 unless stated) or a fully formed HTTP response.
enum Reply: Sendable {
    case json(JSONObject, status: Int = 200, headers: [(String, String)] = [])
    case response(HTTPResponse)
}

typealias OperationHandler = @Sendable (GatewayServices, OperationContext) async throws -> Reply

/// Whether the gateway accepts traffic (`/readyz`): false until start-up finished and again while draining.
final class Readiness: Sendable {
    private let state = Mutex(false)
    init() {}
    var isReady: Bool { state.withLock { $0 } }
    func set(_ ready: Bool) { state.withLock { $0 = ready } }
}
