/// The production `HTTPFetching`: libcurl on a bounded pool of dedicated threads.
///
/// Built on libcurl rather than URLSession so the gateway can pin a CA bundle, restrict protocols to
/// http/https, cap response sizes and keep Foundation out of the binary. Each worker thread keeps one easy
/// handle, so connections to a provider are reused across requests.
public final class CurlHTTPClient: HTTPFetching, Sendable {
    private let workers: TransferWorkers

    /// - Parameters:
    ///   - maxConcurrent: the most transfers in flight at once (and worker threads); further requests queue.
    ///   - maxResponseBytes: the most header plus body bytes accepted before the transfer is aborted with
    ///     `OutboundError.tooLarge`, so a hostile or broken endpoint cannot exhaust memory.
    ///   - caBundlePath: a PEM file of trusted CAs to use instead of the system bundle (CURLOPT_CAINFO).
    public init(maxConcurrent: Int = 8, maxResponseBytes: Int = 4 << 20, caBundlePath: String? = nil) {
        Curl.globalInit()
        workers = TransferWorkers(
            limit: maxConcurrent,
            settings: TransferSettings(maxResponseBytes: max(0, maxResponseBytes), caBundlePath: caBundlePath))
    }

    deinit {
        workers.shutDown()
    }

    /// Sends one request and returns the response, whatever its status code.
    ///
    /// Throws `OutboundError` for transport failures (refused URLs and malformed requests fail before anything
    /// is queued), or `CancellationError` when the calling task is cancelled (an in-flight transfer is aborted
    /// within about a second).
    public func send(_ request: OutboundRequest) async throws -> OutboundResponse {
        try RequestValidation.checkURL(request.url)
        try RequestValidation.checkMessage(request)
        let cancellation = CancellationFlag()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                workers.submit(TransferJob(request: request, cancellation: cancellation, continuation: continuation))
            }
        } onCancel: {
            cancellation.raise()
        }
    }
}
