import AuthCore

/// Turns passwords into stored credentials and checks them. Every call is CPU- and memory-heavy by design,
/// so the gateway runs them on its dedicated KDF pool, never on an event loop.
///
/// A protocol (rather than the scrypt type directly) so tests can count how often the KDF runs, which is
/// how "an unknown email costs the same work as a known one" is checked without timing anything.
public protocol PasswordHashing: Sendable {
    /// A new credential for `password` with the current parameters and a fresh random salt.
    func hash(_ password: String) throws -> PasswordCredential
    /// Whether `password` matches `credential`. Unknown algorithms and broken parameters are `false`.
    func verify(_ password: String, against credential: PasswordCredential) -> Bool
    /// Whether `credential` was made with other parameters than the current ones (rehash after sign-in).
    func needsRehash(_ credential: PasswordCredential) -> Bool
    /// A credential no password matches that costs as much to check as a real one (for unknown accounts).
    func decoyCredential() -> PasswordCredential
}
