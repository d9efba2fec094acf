import Foundation
import WireFormats

/// A request to a provider's own endpoint (`POST /gatehouse/v1/providers/{providerId}/events`,
/// `GET /gatehouse/v1/providers/{providerId}/{page}`), raw as it arrived: providers verify signatures over the
/// exact bytes (Facebook's `signed_request`, Telegram's `X-Request-Signature`), so nothing is parsed for them.
public struct ProviderHTTPRequest: Sendable {
    public var method: String
    /// The page name for pages (`"deletion"`); empty for events.
    public var page: String
    /// Query parameters, percent-decoded, in order.
    public var query: [(String, String)]
    /// Header fields with lower-cased names, in order.
    public var headers: [(String, String)]
    public var body: [UInt8]

    public init(method: String, page: String = "", query: [(String, String)] = [], headers: [(String, String)] = [],
                body: [UInt8] = []) {
        self.method = method
        self.page = page
        self.query = query
        self.headers = headers.map { ($0.0.lowercased(), $0.1) }
        self.body = body
    }

    /// The first header named `name` (any case).
    public func header(_ name: String) -> String? {
        let lowered = name.lowercased()
        return headers.first { $0.0 == lowered }?.1
    }

    /// The first query parameter named `name`.
    public func queryValue(_ name: String) -> String? { query.first { $0.0 == name }?.1 }

    /// The media type of the body, lower-cased, without parameters.
    public var contentType: String {
        header("content-type")?.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() } ?? ""
    }

    /// The body's fields when it is a form (`application/x-www-form-urlencoded`), else nil.
    public var formFields: [(String, String)]? {
        guard contentType == "application/x-www-form-urlencoded" else { return nil }
        return FormURLEncoding.decode(String(decoding: body, as: UTF8.self))
    }

    /// The body as a JSON object, else nil.
    public var jsonObject: JSONObject? { (try? JSONParser.parse(body))?.objectValue }
}

/// What a provider answers on its endpoint. The gateway adds its usual headers (request id, no-store caching).
public struct ProviderHTTPReply: Sendable, Equatable {
    public var status: Int
    public var contentType: String
    public var body: [UInt8]

    public init(status: Int, contentType: String, body: [UInt8]) {
        self.status = status
        self.contentType = contentType
        self.body = body
    }

    public static func json(_ object: JSONObject, status: Int = 200) -> ProviderHTTPReply {
        ProviderHTTPReply(status: status, contentType: "application/json; charset=UTF-8",
                          body: JSONSerializer.bytes(.object(object)))
    }

    public static func html(_ page: String, status: Int = 200) -> ProviderHTTPReply {
        ProviderHTTPReply(status: status, contentType: "text/html; charset=utf-8", body: Array(page.utf8))
    }

    public static func text(_ text: String, status: Int = 200) -> ProviderHTTPReply {
        ProviderHTTPReply(status: status, contentType: "text/plain; charset=utf-8", body: Array(text.utf8))
    }
}
