/// What a provider may tell the operator's log, without knowing the gateway's logger.
///
/// Providers must not import the gateway, yet some events are theirs alone to see (a JWKS fetch that failed
/// while a cached key was still usable). The gateway passes an implementation in; tests pass `SilentProviderLog`
/// or a recorder. Messages are constants; details must never hold tokens, codes, nonces or keys.
public protocol ProviderLog: Sendable {
    func record(_ level: ProviderLogLevel, _ message: StaticString, _ details: [(String, ProviderLogValue)])
}

public enum ProviderLogLevel: Sendable {
    /// Normal operation an operator may want to follow.
    case info
    /// Something outside the gateway failed (a fetch from the identity provider); sign-ins may suffer.
    case warning
}

/// A detail value: text, a flag or a number (kept typed so the JSON log stays searchable).
public enum ProviderLogValue: Sendable, Equatable, ExpressibleByStringLiteral {
    case string(String)
    case bool(Bool)
    case int(Int64)

    public init(stringLiteral value: String) { self = .string(value) }
}

extension ProviderLog {
    public func info(_ message: StaticString, _ details: [(String, ProviderLogValue)] = []) {
        record(.info, message, details)
    }

    public func warning(_ message: StaticString, _ details: [(String, ProviderLogValue)] = []) {
        record(.warning, message, details)
    }
}

/// Drops everything (the default where no log is wired, e.g. in provider unit tests).
public struct SilentProviderLog: ProviderLog {
    public init() {}
    public func record(_ level: ProviderLogLevel, _ message: StaticString, _ details: [(String, ProviderLogValue)]) {}
}
