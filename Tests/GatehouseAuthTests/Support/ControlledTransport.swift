import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
@testable import GatehouseAuth

/// The library's default transport with the test in control: it counts the requests and refusals per route, can
/// fail a route as a dead network would, change a route's answers, and hold one request of a route (before it is
/// sent, or with its answer) until the test releases it, to put concurrent calls in a chosen order.
final class ControlledTransport: AuthHTTPTransport, @unchecked Sendable {
    enum Route: String, Sendable {
        case lookup = "/identitytoolkit.googleapis.com/v1/accounts:lookup"
        case update = "/identitytoolkit.googleapis.com/v1/accounts:update"
        case token = "/securetoken.googleapis.com/v1/token"
    }

    enum Moment: Sendable { case beforeSending, withAnswer }

    /// One held request: `reached()` waits until it is held, `release()` lets it go on.
    final class Hold: Sendable {
        fileprivate let route: Route
        fileprivate let moment: Moment
        private let state = Locked<(reached: Bool, released: Bool)>((false, false))

        fileprivate init(_ route: Route, _ moment: Moment) {
            self.route = route
            self.moment = moment
        }

        func reached() async throws {
            try await eventually("the held \(route.rawValue) request to arrive") { state.current.reached }
        }

        func release() { state.withLock { $0.released = true } }

        fileprivate func pass() async throws {
            state.withLock { $0.reached = true }
            try await eventually("the test to release \(route.rawValue)") { state.current.released }
        }
    }

    private let inner = URLSessionTransport()
    private let holds = Locked<[Hold]>([])
    private let failing = Locked<Set<Route>>([])
    private let rewrites = Locked<[Route: @Sendable (Data) -> Data]>([:])
    private let counts = Locked<[String: (sent: Int, refused: Int)]>([:])

    /// Holds the next request of `route`.
    func hold(_ route: Route, _ moment: Moment) -> Hold {
        let hold = Hold(route, moment)
        holds.withLock { $0.append(hold) }
        return hold
    }

    /// While set, requests of `route` fail as they do when the network is down.
    func setFailing(_ route: Route, _ fails: Bool) {
        failing.withLock { if fails { $0.insert(route) } else { $0.remove(route) } }
    }

    /// From now on the answers of `route` reach the library as `rewrite` makes them.
    func rewriteAnswers(of route: Route, _ rewrite: @escaping @Sendable (Data) -> Data) {
        rewrites.withLock { $0[route] = rewrite }
    }

    func sent(_ route: Route) -> Int { counts.current[route.rawValue]?.sent ?? 0 }
    /// Answers of `route` with a status other than 2xx.
    func refused(_ route: Route) -> Int { counts.current[route.rawValue]?.refused ?? 0 }

    func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        let path = request.url?.path ?? ""
        let hold = holds.withLock { holds -> Hold? in
            guard let index = holds.firstIndex(where: { $0.route.rawValue == path }) else { return nil }
            return holds.remove(at: index)
        }
        if let hold, hold.moment == .beforeSending { try await hold.pass() }
        if let route = Route(rawValue: path), failing.current.contains(route) { throw URLError(.notConnectedToInternet) }
        var (data, response) = try await inner.send(request)
        if let route = Route(rawValue: path), let rewrite = rewrites.current[route] { data = rewrite(data) }
        counts.withLock { counts in
            counts[path, default: (0, 0)].sent += 1
            if !(200..<300).contains(response.statusCode) { counts[path, default: (0, 0)].refused += 1 }
        }
        if let hold, hold.moment == .withAnswer { try await hold.pass() }
        return (data, response)
    }
}
