import AuthCore

/// Every kind of one-time token and outbox item the gateway itself stores, and every purpose label it seals
/// under, in one list: two features can never share a kind or a purpose by accident (a test checks they are
/// distinct), and an operator reading the tables can tell what each row is. Plugins name their own ledger kinds
/// after their provider id (`apple.nonce`).
enum StoredKinds {
    // One-time tokens (single use, expiring, stored by hash).
    static let oobCode = "oob"
    static let pendingCredential = "pending"
    static let redirectSession = "redirect.session"
    static let redirectState = "redirect.state"
    /// A phone code's session (`sessionInfo`), and a temporary proof of a phone number another account holds.
    static let phoneSession = "phone.session"
    static let phoneProof = "phone.proof"
    /// Deliveries of a provider's server-to-server events, applied once.
    static func providerEvent(_ provider: ProviderID) -> String { "event." + provider.rawValue }
    /// A provider's private records (`ProviderRecords`).
    static func providerRecord(_ provider: ProviderID) -> String { "record." + provider.rawValue }

    // Outbox items.
    static let outboxMessage = "mail"
    static let outboxRevocation = "provider.revoke"

    /// The fixed kinds above (the test of distinctness reads this).
    static let fixed = [oobCode, pendingCredential, redirectSession, redirectState, phoneSession, phoneProof, outboxMessage,
                        outboxRevocation]
}

/// The purpose labels of values sealed under the master key (AES-GCM associated data): a value sealed for one
/// purpose never opens as another.
enum SealingPurposes {
    static let pendingCredential = "gatehouse.pending-credential.v1"
    static let providerSecrets = "gatehouse.provider-secrets.v1"
    static let outboxMessage = "gatehouse.outbox.mail.v1"

    static let all = [pendingCredential, providerSecrets, outboxMessage, SigningKeys.sealingPurpose,
                      AdminAccessTokens.sealingPurpose]
}
