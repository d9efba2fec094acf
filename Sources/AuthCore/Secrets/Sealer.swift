import Crypto

/// Seals secrets at rest (signing keys, provider secrets) with AES-256-GCM under the master key.
///
/// Every sealed value is bound to a purpose label through the associated data, so a sealed signing key
/// cannot be replayed into a provider-secret column (or the reverse).
public struct Sealer: Sendable {
    private let key: SymmetricKey

    public init(masterKey: SymmetricKey) { self.key = masterKey }

    public func seal(_ plaintext: [UInt8], purpose: String) throws -> [UInt8] {
        try AESGCM.seal(plaintext, key: key, associatedData: Array(purpose.utf8))
    }

    /// Throws `CryptoError.authenticationFailed` when the value was sealed under another master key or purpose.
    public func open(_ sealed: [UInt8], purpose: String) throws -> [UInt8] {
        try AESGCM.open(sealed, key: key, associatedData: Array(purpose.utf8))
    }
}
