import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The `URLSession` of the default transport. Its configuration is its own and ephemeral, so nothing is shared
/// with the app's other requests (no cookies kept or sent, no cache), and it never follows a redirect.
///
/// The gateway API never redirects: a redirect comes from something else answering at the gateway URL (a front
/// that sends plain http to https, a proxy, another host). Following a 307 or 308 would send the request on
/// wherever it points, `http://` included, past the https rule of `AuthConfiguration`: its headers (the API key)
/// and, on Apple platforms, its body (passwords, refresh tokens). The 3xx is the answer instead, and
/// `GatewayBackend` refuses it.
enum GatewaySession {
    static let shared: URLSession = {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpCookieAcceptPolicy = .never
        configuration.httpShouldSetCookies = false
        configuration.httpCookieStorage = nil
        configuration.urlCache = nil
        return URLSession(configuration: configuration, delegate: RedirectRefusal(), delegateQueue: nil)
    }()
}

/// Answers every redirect with "do not follow".
final class RedirectRefusal: NSObject, URLSessionTaskDelegate, @unchecked Sendable {
    func urlSession(_ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
                    newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void) {
        completionHandler(nil)
    }
}
