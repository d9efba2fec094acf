// Drives GatehouseAuth against a gateway over HTTPS in a process of its own, so the HTTPS test can give this
// process, and no other, a trust store that holds the test's throwaway CA (FoundationNetworking on Linux reads
// only the system's CA file; see Tests/GatehouseAuthTests/HTTPSTests.swift). Prints one JSON object.
//
//   GatehouseAuthTLSProbe session     <gateway URL> <API key> <project id> <email>
//   GatehouseAuthTLSProbe unavailable <gateway URL> <API key> <project id>
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import GatehouseAuth

/// The library's transport, counting the token endpoint's 200 answers: whether a forced refresh crossed the
/// connection (an ID token minted in the same second as the one before it can be the same bytes).
final class RefreshCounter: AuthHTTPTransport, @unchecked Sendable {
    private let inner = URLSessionTransport()
    private let lock = NSLock()
    private var answered = 0

    func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        let (data, response) = try await inner.send(request)
        if request.url?.path == "/securetoken.googleapis.com/v1/token" && response.statusCode == 200 { countRefresh() }
        return (data, response)
    }

    private func countRefresh() {
        lock.lock()
        answered += 1
        lock.unlock()
    }

    var refreshes: Int {
        lock.lock()
        defer { lock.unlock() }
        return answered
    }
}

func report(_ object: [String: Any]) -> Never {
    let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data("{}".utf8)
    FileHandle.standardOutput.write(data + Data("\n".utf8))
    exit(0)
}

func describe(_ error: any Error) -> [String: Any] {
    guard let error = error as? AuthError else { return ["error": "\(error)"] }
    return ["error": "\(error.code)", "gatewayCode": error.gatewayCode ?? NSNull(), "httpStatus": error.httpStatus ?? NSNull(),
            "message": error.message]
}

let arguments = CommandLine.arguments
// `session` also needs the email (arguments[5]).
guard arguments.count >= 5, let url = URL(string: arguments[2]), arguments[1] != "session" || arguments.count >= 6 else {
    FileHandle.standardError.write(Data("usage: GatehouseAuthTLSProbe session|unavailable URL KEY PROJECT [EMAIL]\n".utf8))
    exit(2)
}
var configuration = AuthConfiguration(gatewayURL: url, apiKey: arguments[3], projectID: arguments[4])
configuration.sessionStore = InMemorySessionStore()
let counter = RefreshCounter()
configuration.transport = counter

do {
    let auth = try Auth(configuration: configuration)
    switch arguments[1] {
    case "session":
        // Anonymous sign-in, a password added (so a password crosses the connection), a forced refresh, a
        // lookup, a sign-in with the password, and a sign-out.
        let anonymous = try await auth.signInAnonymously().user
        try await anonymous.link(with: EmailAuthProvider.credential(withEmail: arguments[5], password: "tls-pass-1"))
        let refreshesBefore = counter.refreshes
        _ = try await anonymous.getIDToken(forcingRefresh: true)
        try await anonymous.reload()
        try auth.signOut()
        let again = try await auth.signIn(withEmail: arguments[5], password: "tls-pass-1").user
        report(["uid": anonymous.uid, "email": anonymous.email ?? NSNull(), "refreshed": counter.refreshes == refreshesBefore + 1,
                "signedInAgain": again.uid == anonymous.uid,
                "providers": anonymous.providerData.map(\.providerID)])
    case "unavailable":
        _ = try await auth.signInAnonymously()
        report(["error": "none"])
    default:
        report(["error": "unknown scenario \(arguments[1])"])
    }
} catch {
    report(describe(error))
}
