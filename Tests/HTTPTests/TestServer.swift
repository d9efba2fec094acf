@testable import HTTP

/// Starts a server on an ephemeral port for one test and shuts it down afterwards.
func withTestServer(
    _ configure: (inout HTTPServerConfiguration) -> Void = { _ in },
    handler: @escaping HTTPHandler = echoHandler,
    _ body: (HTTPServer, Int) async throws -> Void
) async throws {
    var configuration = HTTPServerConfiguration()
    configuration.port = 0
    configuration.eventLoopCount = 2
    // Generous by default: handlers and test bodies share the test process's cooperative pool with CPU-heavy
    // tests (scrypt, RSA key generation), which can stall it for seconds on two cores. Tests of deadlines and
    // timeouts set their own short values.
    configuration.requestDeadline = .seconds(120)
    configuration.idleTimeout = .seconds(120)
    configure(&configuration)
    let server = HTTPServer(configuration: configuration, handler: handler)
    let port = try server.start()
    do {
        try await body(server, port)
    } catch {
        await server.shutdown(gracePeriod: .milliseconds(200))
        throw error
    }
    await server.shutdown(gracePeriod: .milliseconds(200))
}

/// Answers with a summary of the request, so tests can see what the parser produced.
let echoHandler: HTTPHandler = { request in
    var headers = HTTPHeaders()
    headers.add("Content-Type", "text/plain")
    let text = "\(request.method) \(request.path) \(request.query ?? "-") \(request.body.count) "
        + String(decoding: request.body, as: UTF8.self)
    return HTTPResponse(status: 200, headers: headers, body: Array(text.utf8))
}
