import AuthCore
import Outbound
import ProviderKit
import WireFormats

/// Why a Graph API call produced no usable answer.
enum GraphFailure: Error, Equatable {
    /// No HTTP answer: connection refused, DNS, TLS, or the timeout (the reason is a fixed word for the log).
    case unreachable(reason: String)
    /// Facebook answered, but cannot serve now: HTTP 5xx or 429, or a Graph error that means "later" (rate
    /// limits, temporary errors). Nothing is wrong with the credential.
    case unavailable(status: Int, code: Int64?)
    /// Facebook refused the call: HTTP 4xx with a Graph error (190 for an invalid or expired token).
    case refused(status: Int, code: Int64?, subcode: Int64?)
    /// HTTP 200 whose body is not a JSON object.
    case unreadable
}

/// Reads a Graph answer. Pure: the status and body decide.
enum GraphAnswer {
    /// Graph error codes that mean "try again later" rather than "this request is wrong": 1 and 2 (unknown or
    /// temporary error), 4, 17, 32 and 613 (app, user, page and custom rate limits), 341 (application limit),
    /// 80001-80014 (business use case rate limits).
    static func isTransient(_ code: Int64) -> Bool {
        [1, 2, 4, 17, 32, 341, 613].contains(code) || (80_001...80_014).contains(code)
    }

    static func read(status: Int, body: [UInt8]) -> Result<JSONObject, GraphFailure> {
        let object = (try? JSONParser.parse(body))?.objectValue
        let error = object?["error"]?.objectValue
        let code = error?["code"]?.intValue
        if status >= 500 || status == 429 || code.map(isTransient) == true {
            return .failure(.unavailable(status: status, code: code))
        }
        guard status == 200 else {
            return .failure(.refused(status: status, code: code, subcode: error?["error_subcode"]?.intValue))
        }
        guard let object, error == nil else { return .failure(.unreadable) }
        return .success(object)
    }
}

/// The Graph API calls Facebook Login needs, each bounded by the configured timeout. Failures to reach Facebook
/// are warnings in the operator's log (which call, why; never the URL, which carries tokens and the app
/// access token); what Facebook says about a credential is for the caller to judge.
struct GraphClient: Sendable {
    /// Which call, for the log.
    enum Call: String, Sendable {
        case debugToken = "debug_token"
        case profile = "me"
        case codeExchange = "oauth/access_token"
    }

    let configuration: FacebookConfiguration
    let fetcher: any HTTPFetching
    let log: any ProviderLog

    /// `GET <graph>/<version><path>?<query>`, read with `GraphAnswer`.
    func get(_ call: Call, _ path: String, _ query: [(String, String)]) async throws(GraphFailure) -> JSONObject {
        let request = OutboundRequest(method: "GET", url: FacebookEndpoints.graph(configuration, path) + "?" + FormURLEncoding.encode(query),
                                      headers: [("Accept", "application/json")],
                                      timeout: .seconds(configuration.requestTimeoutSeconds))
        let response: OutboundResponse
        do { response = try await fetcher.send(request) } catch {
            let reason = Self.reason(error)
            log.warning("facebook graph unreachable", [("call", .string(call.rawValue)), ("reason", .string(reason))])
            throw .unreachable(reason: reason)
        }
        switch GraphAnswer.read(status: response.status, body: response.body) {
        case .success(let object):
            return object
        case .failure(let failure):
            if case .unavailable(let status, let code) = failure {
                var details: [(String, ProviderLogValue)] = [("call", .string(call.rawValue)), ("http.status", .int(Int64(status)))]
                if let code { details.append(("graph.code", .int(code))) }
                log.warning("facebook graph unavailable", details)
            }
            if case .refused(let status, let code, _) = failure, call == .debugToken {
                // debug_token answers 200 for any token it can judge; a refusal is of the app's own access token.
                log.warning("facebook graph refused the app access token; check facebook.appId and the app secret",
                            [("http.status", .int(Int64(status))), ("graph.code", .int(code ?? 0))])
            }
            throw failure
        }
    }

    /// A fixed word per transport failure: libcurl's own text may name hosts and is not needed to act on it.
    static func reason(_ error: any Error) -> String {
        switch error as? OutboundError {
        case .timedOut?: "timeout"
        case .connectionFailed?: "connection_failed"
        case .tooLarge?: "response_too_large"
        case .invalidURL?, .invalidRequest?: "invalid_request"
        case .transport?, nil: "transport"
        }
    }
}
