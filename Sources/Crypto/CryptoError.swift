/// Every failure the Crypto module reports.
///
/// Callers mostly care about the category (bad key, bad input, tampered data); the associated strings carry
/// enough detail for a log line without leaking secrets.
public enum CryptoError: Error, Equatable, Sendable {
    /// The key material is malformed, of the wrong type or curve, or too weak to accept.
    case invalidKey(String)
    /// The text is not a PEM block this module understands.
    case invalidPEM
    /// The caller's input is malformed (bad length, bad encoding, bad parameters).
    case invalidInput(String)
    /// OpenSSL refused to produce a signature.
    case signingFailed
    /// Sealed data failed authentication: the ciphertext, nonce, tag or associated data was altered.
    case authenticationFailed
    /// A key-derivation function refused its parameters or failed.
    case kdfFailed(String)
    /// Any other OpenSSL failure, with the library's own error text.
    case openssl(String)
}
