import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Sends requests to the gateway and turns its answers into `GatewayResponse` or `AuthError`. The only type
/// that builds URLs and reads HTTP statuses.
struct GatewayBackend: Sendable {
    let baseURL: URL
    let apiKey: String
    let transport: any AuthHTTPTransport
    let timeout: TimeInterval
    let languageCode: @Sendable () -> String?

    /// A JSON `POST` to an Identity Toolkit route.
    func post(_ endpoint: GatewayEndpoint, _ body: [String: any Sendable]) async throws -> GatewayResponse {
        let data: Data
        do {
            data = try JSONSerialization.data(withJSONObject: body)
        } catch {
            throw AuthError(.internalError, "The request body could not be encoded as JSON: \(error)")
        }
        return try await send(endpoint, body: data, contentType: "application/json")
    }

    /// The Secure Token exchange: a refresh token for a new ID token and refresh token.
    func refresh(_ refreshToken: String) async throws -> GatewayResponse {
        let form = FormEncoding.encode([("grant_type", "refresh_token"), ("refresh_token", refreshToken)])
        return try await send(.token, body: Data(form.utf8), contentType: "application/x-www-form-urlencoded")
    }

    private func send(_ endpoint: GatewayEndpoint, body: Data, contentType: String) async throws -> GatewayResponse {
        var base = baseURL.absoluteString
        while base.hasSuffix("/") { base.removeLast() }
        guard let url = URL(string: base + "/" + endpoint.rawValue) else {
            throw AuthError(.invalidConfiguration, "The gateway URL \(baseURL) cannot be extended with a path.")
        }
        var request = URLRequest(url: url, timeoutInterval: timeout)
        request.httpMethod = "POST"
        request.httpBody = body
        request.setValue(contentType, forHTTPHeaderField: "Content-Type")
        // The key travels in a header rather than in the query, so it stays out of access logs.
        request.setValue(apiKey, forHTTPHeaderField: "X-Goog-Api-Key")
        request.setValue("Swift/GatehouseAuth/\(GatehouseAuthVersion.current)", forHTTPHeaderField: "X-Client-Version")
        if let language = languageCode() { request.setValue(language, forHTTPHeaderField: "X-Firebase-Locale") }
        let (data, response): (Data, HTTPURLResponse)
        do {
            (data, response) = try await transport.send(request)
        } catch let error as AuthError {
            throw error
        } catch {
            throw AuthError(.networkError, "The gateway could not be reached: \(error.localizedDescription)", underlyingError: error)
        }
        if let problem = Self.redirectProblem(request: url, response: response) { throw problem }
        let parsed = GatewayResponse(json: data)
        guard (200..<300).contains(response.statusCode) else {
            throw GatewayErrorDecoder.error(status: response.statusCode, body: parsed)
        }
        guard let parsed else {
            throw AuthError(.internalError, "The gateway answered HTTP \(response.statusCode) with a body that is not a JSON object.",
                            httpStatus: response.statusCode)
        }
        return parsed
    }

    /// The gateway API never redirects: a 3xx, or an answer from another URL (a transport that followed a
    /// redirect), means something else answers at the gateway URL, and the answer is not the gateway's.
    private static func redirectProblem(request url: URL, response: HTTPURLResponse) -> AuthError? {
        if (300..<400).contains(response.statusCode) {
            let location = response.value(forHTTPHeaderField: "Location").map { " to \($0)" } ?? ""
            return AuthError(.invalidConfiguration, "The gateway URL answered with a redirect (HTTP \(response.statusCode)\(location)); "
                + "the gateway never redirects and the library never follows one: set gatewayURL to where the gateway answers.",
                httpStatus: response.statusCode)
        }
        if let answered = response.url, origin(of: answered) != origin(of: url) {
            return AuthError(.invalidConfiguration, "The answer came from \(answered), not from \(url): the transport followed a "
                + "redirect, which the gateway never sends. Give its URLSession a delegate that refuses redirects.",
                httpStatus: response.statusCode)
        }
        return nil
    }

    private static func origin(of url: URL) -> String {
        "\(url.scheme?.lowercased() ?? "")://\(url.host?.lowercased() ?? ""):\(url.port.map(String.init) ?? "")"
    }
}

/// The library's version, sent as `X-Client-Version`.
public enum GatehouseAuthVersion {
    public static let current = "0.1.0"
}
