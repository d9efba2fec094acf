import Synchronization
import AuthCore
import Foundation
import ProviderKit
import WireFormats

/// Builds action links (`<actionUrl>?mode=&oobCode=&apiKey=&lang=&continueUrl=`, the shape the Firebase SDKs
/// parse) and checks the `continueUrl` a client asks to return to.
struct ActionLinks: Sendable {
    /// The action page URL, e.g. `https://auth.example.com/__/auth/action`.
    let actionUrl: String
    /// Hosts (and their subdomains) a continue URL may point to: the project's `authorizedDomains` plus the
    /// gateway's own public and action hosts.
    let authorizedDomains: Set<String>
    /// Emulator mode accepts any continue URL (as the Firebase emulator does).
    let checkDomains: Bool

    static let path = "/__/auth/action"

    /// - Parameter actionUrl: the email plugin's `actionUrl` setting, if any.
    init(actionUrl configured: String?, configuration: GatewayConfiguration) {
        actionUrl = configured ?? configuration.publicBaseURL + Self.path
        var domains = Set(configuration.authorizedDomains.map { $0.lowercased() })
        for url in [configuration.publicURL, configured].compactMap({ $0 }) {
            if let host = URLComponents(string: url)?.host?.lowercased() { domains.insert(host) }
        }
        authorizedDomains = domains
        checkDomains = !configuration.emulator
    }

    func link(_ type: OobRequestType, code: String, apiKey: String, continueUrl: String?, lang: String?) -> String {
        var query: [(String, String)] = [("mode", type.mode), ("oobCode", code), ("apiKey", apiKey)]
        if let continueUrl { query.append(("continueUrl", continueUrl)) }
        query.append(("lang", lang ?? "en"))
        return actionUrl + "?" + FormURLEncoding.encode(query)
    }

    /// `INVALID_CONTINUE_URI` unless absolute http(s) with a host; `UNAUTHORIZED_DOMAIN` unless the host is
    /// authorized (an open redirect through our own mail would be a gift to phishers).
    func checkContinueUrl(_ text: String?) throws -> String? {
        guard let text else { return nil }
        guard let url = URLComponents(string: text), let scheme = url.scheme?.lowercased(),
              scheme == "http" || scheme == "https", let host = url.host, !host.isEmpty else {
            throw AuthError(.invalidContinueUri)
        }
        let lowered = host.lowercased()
        if checkDomains && !authorizedDomains.contains(where: { lowered == $0 || lowered.hasSuffix("." + $0) }) {
            throw AuthError(.unauthorizedDomain, "Domain not allowlisted by project")
        }
        return text
    }
}

/// Emulator mode only: every code issued, in the shape of the emulator's `GET /emulator/v1/projects/{p}/oobCodes`.
final class EmulatorOobLog: Sendable {
    /// One code as the emulator lists it: under the address of the account it is about (a change of address
    /// under the old one, with `newEmail`).
    struct Entry: Sendable {
        let email: String
        var newEmail: String? = nil
        let requestType: String
        let oobCode: String
        let oobLink: String
    }

    /// The most entries kept: a test suite that issues codes without ever listing them must not grow the
    /// process without bound, and no suite reads more than the latest few thousand codes.
    static let capacity = 10_000

    private let entries = Mutex<[Entry]>([])
    let capacity: Int

    init(capacity: Int = EmulatorOobLog.capacity) { self.capacity = capacity }

    /// Records a code; past `capacity`, the oldest entries are forgotten.
    func record(_ entry: Entry) {
        entries.withLock { entries in
            entries.append(entry)
            if entries.count > capacity { entries.removeFirst(entries.count - capacity) }
        }
    }
    var all: [Entry] { entries.withLock { $0 } }
    func clear() { entries.withLock { $0.removeAll() } }
    /// Forgets the entries whose codes are used up or expired (the emulator lists only codes still usable).
    func forget(_ codes: Set<String>) { entries.withLock { $0.removeAll { codes.contains($0.oobCode) } } }
}
