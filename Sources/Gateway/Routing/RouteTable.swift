import WireFormats
/// Maps (method, path) to an operation. Paths are matched segment by segment; `{name}` captures a segment.
///
/// The table is data, not a growing `switch`: adding an endpoint is one line here, one handler, and one
/// entry in `openapi.yaml`.
struct RouteTable: Sendable {
    struct Route: Sendable {
        let method: String
        let segments: [Segment]
        let operation: APIOperation
        let access: Access
        /// Parameters the route always carries (an alias fixing what its general form takes from the path).
        let fixed: [String: String]
    }

    enum Segment: Sendable, Equatable {
        case literal(String)
        case parameter(String)
    }

    struct Match: Sendable {
        let operation: APIOperation
        let access: Access
        let parameters: [String: String]
    }

    enum Lookup: Sendable {
        case matched(Match)
        case wrongMethod
        case unknown
    }

    private(set) var routes: [Route] = []
    /// Routes without parameters, by method, then path: most requests are found with two hash lookups and
    /// no string built for the key.
    private var exact: [String: [String: Match]] = [:]

    mutating func add(_ method: String, _ path: String, _ operation: APIOperation, _ access: Access,
                      fixed: [String: String] = [:]) {
        let segments = RouteTable.split(path).map { segment -> Segment in
            if segment.hasPrefix("{") && segment.hasSuffix("}") { return .parameter(String(segment.dropFirst().dropLast())) }
            return .literal(segment)
        }
        routes.append(Route(method: method, segments: segments, operation: operation, access: access, fixed: fixed))
        if !segments.contains(where: { if case .parameter = $0 { return true } else { return false } }) {
            let key = "/" + RouteTable.split(path).joined(separator: "/")
            exact[method, default: [:]][key] = exact[method]?[key]
                ?? Match(operation: operation, access: access, parameters: fixed)
        }
    }

    func lookup(method: String, path: String) -> Lookup {
        if RouteTable.isPlain(path), path.utf8.last != UInt8(ascii: "/") || path == "/",
           let match = exact[method == "HEAD" ? "GET" : method]?[path] {
            return .matched(match)
        }
        let parts = RouteTable.split(path)
        var pathMatched = false
        for route in routes where route.segments.count == parts.count {
            var parameters = route.fixed
            var ok = true
            for (segment, part) in zip(route.segments, parts) {
                switch segment {
                case .literal(let text): ok = text == part
                case .parameter(let name): parameters[name] = part; ok = !part.isEmpty
                }
                if !ok { break }
            }
            guard ok else { continue }
            pathMatched = true
            // HEAD is served by GET routes (the HTTP layer drops the body).
            if route.method == method || (method == "HEAD" && route.method == "GET") {
                return .matched(Match(operation: route.operation, access: route.access, parameters: parameters))
            }
        }
        return pathMatched ? .wrongMethod : .unknown
    }

    /// No percent escape and no empty segment: the path can be matched as it is. A byte scan, because
    /// `String.contains` on a String goes through Foundation's locale-aware search on Linux.
    static func isPlain(_ path: String) -> Bool {
        var previous: UInt8 = 0
        for byte in path.utf8 {
            if byte == UInt8(ascii: "%") || (byte == UInt8(ascii: "/") && previous == byte) { return false }
            previous = byte
        }
        return true
    }

    static func split(_ path: String) -> [String] {
        path.split(separator: "/", omittingEmptySubsequences: true).map { segment in
            let text = String(segment)
            return text.removingPercentEncodingSafely()
        }
    }
}

extension String {
    /// Percent-decodes a path segment (`securetoken%40system...` is the same path as `securetoken@system...`);
    /// invalid escapes stay literal, and a segment that does not decode to UTF-8 is left unchanged, so such a
    /// path simply matches nothing.
    func removingPercentEncodingSafely() -> String {
        guard contains("%") else { return self }
        return String(validating: PercentEncoding.decode(utf8, plusIsSpace: false), as: UTF8.self) ?? self
    }
}
