/// Capability: accounts created with this provider that nobody came back to may be deleted after a while
/// (anonymous users who never upgraded). The gateway's background job asks the provider for its policy.
public protocol AbandonedAccountCleanup: CredentialProvider {
    /// nil keeps every account; otherwise accounts older than `maxAgeDays` are deleted, checked every
    /// `intervalSeconds`.
    var abandonedAccountPolicy: AbandonedAccountPolicy? { get }
}

public struct AbandonedAccountPolicy: Sendable, Equatable {
    public var maxAgeDays: Int64
    public var intervalSeconds: Int64

    public init(maxAgeDays: Int64, intervalSeconds: Int64) {
        self.maxAgeDays = maxAgeDays
        self.intervalSeconds = intervalSeconds
    }
}
