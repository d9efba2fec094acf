import AuthCore
import ProviderKit

/// The gateway's logger as providers see it: each line names the provider it came from.
struct GatewayProviderLog: ProviderLog {
    let logger: Logger
    let provider: ProviderID

    func record(_ level: ProviderLogLevel, _ message: StaticString, _ details: [(String, ProviderLogValue)]) {
        let metadata = [("provider", JSONLogValue.string(provider.rawValue))] + details.map { ($0.0, $0.1.logValue) }
        switch level {
        case .info: logger.info(message, metadata)
        case .warning: logger.warning(message, metadata)
        }
    }
}

extension ProviderLogValue {
    var logValue: JSONLogValue {
        switch self {
        case .string(let text): .string(text)
        case .bool(let flag): .bool(flag)
        case .int(let number): .int(number)
        }
    }
}

/// The lines about providers that the gateway itself writes.
enum ProviderLogLines {
    /// One line per enabled provider at start, saying what it accepts, so an operator can check the
    /// configuration took effect (e.g. which Apple audiences are accepted, whether revocation can run).
    static func logEnabled(_ providers: ProviderRegistry, to logger: Logger) {
        for id in providers.ids {
            guard let provider = providers[id], provider.isEnabled else { continue }
            logger.info("provider enabled", [("provider", .string(id.rawValue))]
                        + provider.startupSummary.map { ($0.0, $0.1.logValue) })
        }
    }

    /// A refused credential at info level: which provider and which check. The client gets only the
    /// Firebase error; the log gets no token contents.
    static func logRefusal(_ refusal: CredentialRefusal, requestId: String, to logger: Logger) {
        logger.info("credential refused", [("request.id", .string(requestId)),
                                           ("provider", .string(refusal.provider.rawValue)),
                                           ("check", .string(refusal.check.rawValue)),
                                           ("error.code", .string(refusal.error.code.rawValue))])
    }
}
