import CCurl
import Synchronization

/// Collects one response as libcurl delivers it, enforcing the size cap as bytes arrive.
///
/// Lives on the worker thread for the duration of one `curl_easy_perform`; the C callbacks below reach it
/// through an unretained `Unmanaged` pointer passed as CURLOPT_WRITEDATA / HEADERDATA / XFERINFODATA.
final class TransferSink {
    let limit: Int
    let cancellation: CancellationFlag
    var body: [UInt8] = []
    var headers: [(String, String)] = []
    var receivedBytes = 0
    var exceededLimit = false

    init(limit: Int, cancellation: CancellationFlag) {
        self.limit = limit
        self.cancellation = cancellation
    }

    /// Counts bytes (headers and body together) against the cap; false means "abort the transfer".
    func admit(_ count: Int) -> Bool {
        receivedBytes += count
        if receivedBytes > limit { exceededLimit = true }
        return !exceededLimit
    }

    /// One raw header line, CRLF included. A status line starts a new header block, so the headers of
    /// interim responses (`100 Continue`) and of proxies are dropped and only the final response's remain.
    func takeHeaderLine(_ bytes: UnsafeBufferPointer<UInt8>) {
        var line = Substring(String(decoding: bytes, as: UTF8.self))
        while let last = line.last, last == "\r" || last == "\n" || last == "\r\n" { line = line.dropLast() }
        if line.hasPrefix("HTTP/") {
            headers.removeAll()
            return
        }
        guard let colon = line.firstIndex(of: ":") else { return }
        let name = line[..<colon].trimmingSpaces()
        let value = line[line.index(after: colon)...].trimmingSpaces()
        headers.append((String(name), String(value)))
    }
}

/// Set from the Swift task's cancellation handler, read on the worker thread.
final class CancellationFlag: Sendable {
    private let raised = Atomic<Bool>(false)
    func raise() { raised.store(true, ordering: .relaxed) }
    var isRaised: Bool { raised.load(ordering: .relaxed) }
}

extension Substring {
    fileprivate func trimmingSpaces() -> Substring {
        var result = self
        while let first = result.first, first == " " || first == "\t" { result = result.dropFirst() }
        while let last = result.last, last == " " || last == "\t" { result = result.dropLast() }
        return result
    }
}

// The C callbacks are top-level functions: nonisolated and capture-free, as C function pointers must be
// (a closure in main.swift would be inferred @MainActor and trap on libcurl's thread).

/// CURLOPT_WRITEFUNCTION: appends body bytes; returning less than offered makes libcurl fail with
/// CURLE_WRITE_ERROR, which is how an oversized body is cut off mid-stream.
func outboundReceiveBody(_ data: UnsafeMutablePointer<CChar>?, _ size: Int, _ count: Int,
                         _ context: UnsafeMutableRawPointer?) -> Int {
    guard let context else { return 0 }
    let sink = Unmanaged<TransferSink>.fromOpaque(context).takeUnretainedValue()
    let length = size * count
    guard length > 0, let data else { return length }
    guard sink.admit(length) else { return 0 }
    data.withMemoryRebound(to: UInt8.self, capacity: length) {
        sink.body.append(contentsOf: UnsafeBufferPointer(start: $0, count: length))
    }
    return length
}

/// CURLOPT_HEADERFUNCTION: libcurl calls this once per complete header line.
func outboundReceiveHeader(_ data: UnsafeMutablePointer<CChar>?, _ size: Int, _ count: Int,
                           _ context: UnsafeMutableRawPointer?) -> Int {
    guard let context else { return 0 }
    let sink = Unmanaged<TransferSink>.fromOpaque(context).takeUnretainedValue()
    let length = size * count
    guard length > 0, let data else { return length }
    guard sink.admit(length) else { return 0 }
    data.withMemoryRebound(to: UInt8.self, capacity: length) {
        sink.takeHeaderLine(UnsafeBufferPointer(start: $0, count: length))
    }
    return length
}

/// CURLOPT_XFERINFOFUNCTION: libcurl calls this at least once a second; non-zero aborts the transfer
/// (CURLE_ABORTED_BY_CALLBACK), which is how task cancellation reaches a blocked transfer.
func outboundProgress(_ context: UnsafeMutableRawPointer?, _ downloadTotal: curl_off_t, _ downloadNow: curl_off_t,
                      _ uploadTotal: curl_off_t, _ uploadNow: curl_off_t) -> Int32 {
    guard let context else { return 0 }
    let sink = Unmanaged<TransferSink>.fromOpaque(context).takeUnretainedValue()
    return sink.cancellation.isRaised ? 1 : 0
}
