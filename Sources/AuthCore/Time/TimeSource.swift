import Foundation
import Synchronization

/// Where "now" comes from. Injected everywhere a decision depends on time (token expiry, rate limits, key
/// activation) so tests can move time instead of sleeping.
public protocol TimeSource: Sendable {
    /// Milliseconds since the Unix epoch.
    var nowMilliseconds: Int64 { get }
}

extension TimeSource {
    /// Whole seconds since the Unix epoch (what JWT `iat`/`exp` use).
    public var nowSeconds: Int64 { nowMilliseconds / 1000 }
}

/// The real clock.
public struct SystemTime: TimeSource {
    public init() {}
    public var nowMilliseconds: Int64 { Int64((Date().timeIntervalSince1970 * 1000).rounded(.down)) }
}

/// A clock tests move by hand.
public final class ManualTime: TimeSource {
    private let value: Mutex<Int64>
    public init(milliseconds: Int64) { value = Mutex(milliseconds) }
    public var nowMilliseconds: Int64 { value.withLock { $0 } }
    public func advance(milliseconds: Int64) { value.withLock { $0 += milliseconds } }
    public func advance(seconds: Int64) { advance(milliseconds: seconds * 1000) }
}
