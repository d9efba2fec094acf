import CCurl

/// One reusable libcurl easy handle, confined to the worker thread that owns it.
///
/// Reusing the handle across requests keeps its connection cache, DNS cache and TLS session cache, so repeated
/// calls to the same provider skip the TCP and TLS handshakes. `curl_easy_reset` between requests clears the
/// options but keeps those caches.
final class EasyHandle {
    private let handle: UnsafeMutableRawPointer
    private let settings: TransferSettings
    private let errorBuffer = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE) + 1)

    init?(settings: TransferSettings) {
        guard let handle = curl_easy_init() else { return nil }
        self.handle = handle
        self.settings = settings
    }

    deinit {
        curl_easy_cleanup(handle)
        errorBuffer.deallocate()
    }

    /// Runs one exchange to completion on the calling (dedicated) thread.
    func perform(_ request: OutboundRequest, cancellation: CancellationFlag) -> Result<OutboundResponse, any Error> {
        if cancellation.isRaised { return .failure(CancellationError()) }
        curl_easy_reset(handle)
        errorBuffer[0] = 0
        let sink = TransferSink(limit: settings.maxResponseBytes, cancellation: cancellation)
        let headerList = makeHeaderList(request.headers)
        defer { curl_slist_free_all(headerList) }

        let code: CURLcode = withExtendedLifetime(sink) {
            request.body.withUnsafeBufferPointer { body in
                let context = Unmanaged.passUnretained(sink).toOpaque()
                guard configure(request, body: body, headers: headerList, context: context) else {
                    return CURLE_FAILED_INIT
                }
                return curl_easy_perform(handle)
            }
        }
        guard code == CURLE_OK else { return .failure(translate(code, sink: sink, cancellation: cancellation)) }
        var status = 0
        _ = shim_getinfo_long(handle, CURLINFO_RESPONSE_CODE, &status)
        return .success(OutboundResponse(status: status, headers: sink.headers, body: sink.body))
    }

    /// Applies every option for one request; false if libcurl refused any of them.
    private func configure(_ request: OutboundRequest, body: UnsafeBufferPointer<UInt8>,
                           headers: UnsafeMutablePointer<curl_slist>?, context: UnsafeMutableRawPointer) -> Bool {
        let timeout = RequestValidation.milliseconds(request.timeout)
        var results: [CURLcode] = [
            // Signals (SIGALRM for DNS timeouts) are process-wide and unsafe with many threads.
            shim_setopt_long(handle, CURLOPT_NOSIGNAL, 1),
            shim_setopt_str(handle, CURLOPT_PROTOCOLS_STR, "http,https"),
            shim_setopt_str(handle, CURLOPT_REDIR_PROTOCOLS_STR, "http,https"),
            shim_setopt_long(handle, CURLOPT_FOLLOWLOCATION, 0),
            shim_setopt_str(handle, CURLOPT_URL, request.url),
            shim_setopt_long(handle, CURLOPT_CONNECTTIMEOUT_MS, timeout),
            shim_setopt_long(handle, CURLOPT_TIMEOUT_MS, timeout),
            shim_setopt_long(handle, CURLOPT_MAXFILESIZE, settings.maxResponseBytes),
            shim_setopt_ptr(handle, CURLOPT_ERRORBUFFER, errorBuffer),
            shim_setopt_writefn(handle, CURLOPT_WRITEFUNCTION, outboundReceiveBody),
            shim_setopt_ptr(handle, CURLOPT_WRITEDATA, context),
            shim_setopt_writefn(handle, CURLOPT_HEADERFUNCTION, outboundReceiveHeader),
            shim_setopt_ptr(handle, CURLOPT_HEADERDATA, context),
            shim_setopt_xferinfofn(handle, CURLOPT_XFERINFOFUNCTION, outboundProgress),
            shim_setopt_ptr(handle, CURLOPT_XFERINFODATA, context),
            shim_setopt_long(handle, CURLOPT_NOPROGRESS, 0),
            shim_setopt_slist(handle, CURLOPT_HTTPHEADER, headers),
        ]
        if let caBundlePath = settings.caBundlePath {
            results.append(shim_setopt_str(handle, CURLOPT_CAINFO, caBundlePath))
        }
        results += configureMethod(request.method, body: body)
        return results.allSatisfy { $0 == CURLE_OK }
    }

    /// GET and HEAD map to libcurl's own modes; every request with a body (or a POST) sends it as POST
    /// fields, byte-exact and with an explicit length so NUL bytes survive; other methods use CUSTOMREQUEST.
    private func configureMethod(_ method: String, body: UnsafeBufferPointer<UInt8>) -> [CURLcode] {
        let upper = method.uppercased()
        if body.isEmpty && upper == "GET" { return [shim_setopt_long(handle, CURLOPT_HTTPGET, 1)] }
        if body.isEmpty && upper == "HEAD" { return [shim_setopt_long(handle, CURLOPT_NOBODY, 1)] }
        if body.isEmpty && upper != "POST" { return [shim_setopt_str(handle, CURLOPT_CUSTOMREQUEST, method)] }
        // An empty POST still needs a valid pointer, or libcurl would read the body from stdin.
        let fields = UnsafeMutableRawPointer(mutating: body.baseAddress) ?? UnsafeMutableRawPointer(errorBuffer)
        var results = [
            shim_setopt_long(handle, CURLOPT_POSTFIELDSIZE, body.count),
            shim_setopt_ptr(handle, CURLOPT_POSTFIELDS, fields),
        ]
        if upper != "POST" { results.append(shim_setopt_str(handle, CURLOPT_CUSTOMREQUEST, method)) }
        return results
    }

    /// The caller's headers, plus an empty `Expect:` so libcurl never waits for `100 Continue` on larger
    /// bodies (many servers never send it, which would cost a full second per request).
    private func makeHeaderList(_ headers: [(String, String)]) -> UnsafeMutablePointer<curl_slist>? {
        var list: UnsafeMutablePointer<curl_slist>?
        for (name, value) in headers {
            // libcurl treats "Name;" as "send this header with an empty value"; "Name:" would remove it.
            let line = value.isEmpty ? "\(name);" : "\(name): \(value)"
            list = curl_slist_append(list, line)
        }
        if !headers.contains(where: { $0.0.lowercased() == "expect" }) { list = curl_slist_append(list, "Expect:") }
        return list
    }

    private func translate(_ code: CURLcode, sink: TransferSink, cancellation: CancellationFlag) -> any Error {
        let detail = errorBuffer[0] != 0
            ? String(cString: errorBuffer) : String(cString: curl_easy_strerror(code))
        if sink.exceededLimit { return OutboundError.tooLarge }
        switch code {
        case CURLE_ABORTED_BY_CALLBACK where cancellation.isRaised:
            return CancellationError()
        case CURLE_OPERATION_TIMEDOUT:
            return OutboundError.timedOut
        case CURLE_FILESIZE_EXCEEDED:
            return OutboundError.tooLarge
        case CURLE_UNSUPPORTED_PROTOCOL, CURLE_URL_MALFORMAT:
            return OutboundError.invalidURL
        case CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY, CURLE_COULDNT_CONNECT,
             CURLE_SSL_CONNECT_ERROR, CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CACERT_BADFILE,
             CURLE_SSL_CERTPROBLEM, CURLE_SSL_CIPHER:
            return OutboundError.connectionFailed(detail)
        default:
            return OutboundError.transport(detail)
        }
    }
}

/// Client-wide options every transfer needs.
struct TransferSettings: Sendable {
    let maxResponseBytes: Int
    let caBundlePath: String?
}
