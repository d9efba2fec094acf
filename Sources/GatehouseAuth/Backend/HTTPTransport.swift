import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Sends one HTTP request. The default is `URLSessionTransport`; an app supplies its own to use a configured
/// `URLSession` (a delegate that pins the gateway's certificate, a proxy, metrics).
public protocol AuthHTTPTransport: Sendable {
    func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse)
}

/// `URLSession` (FoundationNetworking on Linux, where TLS is libcurl's and trusts the system's CA store).
public struct URLSessionTransport: AuthHTTPTransport {
    public let session: URLSession

    /// The library's own session: ephemeral (no cookies, no cache, nothing shared with the app's other requests),
    /// and redirects are never followed.
    public init() {
        session = GatewaySession.shared
    }

    /// Your own session (a delegate that pins the gateway's certificate, a proxy, metrics). Give it a delegate that
    /// refuses redirects (`willPerformHTTPRedirection` answering nil), as the default does: a session that follows
    /// one sends the request body on to wherever it points, before the library refuses the answer.
    public init(session: URLSession) {
        self.session = session
    }

    public func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        // The cancellation handler can run before the data task exists (a task cancelled before it got here): it
        // leaves `cancelled` set, and the task is then cancelled as soon as it is made.
        let box = Locked<(task: URLSessionDataTask?, cancelled: Bool)>((nil, false))
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<(Data, HTTPURLResponse), any Error>) in
                let task = session.dataTask(with: request) { data, response, error in
                    if let error {
                        continuation.resume(throwing: error)
                    } else if let response = response as? HTTPURLResponse {
                        continuation.resume(returning: (data ?? Data(), response))
                    } else {
                        continuation.resume(throwing: URLError(.badServerResponse))
                    }
                }
                let cancelled = box.withLock { box -> Bool in
                    box.task = task
                    return box.cancelled
                }
                if cancelled { task.cancel() } else { task.resume() }
            }
        } onCancel: {
            box.withLock { box -> URLSessionDataTask? in
                box.cancelled = true
                return box.task
            }?.cancel()
        }
    }
}
