import Crypto
import WireFormats

/// Refresh tokens: opaque to clients, sealed by the gateway, stored only as their SHA-256 (a leaked database
/// does not leak usable sessions).
///
/// `gh2.` + base64url(AES-GCM seal of 32 random bytes ‖ localId) with the project id in the associated data,
/// so a token opens only for the project that issued it: a gateway started on the same database with
/// another project id refuses it (`INVALID_REFRESH_TOKEN`) before reading anything. The sealed localId
/// tells why a token without a stored row is refused: its user was deleted (`USER_NOT_FOUND`) or its
/// session revoked (`TOKEN_EXPIRED`); a forged token cannot be opened at all.
///
/// `gh1.` tokens were issued before tokens named their project. They still open, as `.unbound`, and the
/// caller decides which project they belong to.
public enum RefreshTokens {
    public static let prefix = "gh2."
    static let unboundPrefix = "gh1."
    static let unboundPurpose = "gatehouse.refresh-token.v1"

    /// What a token we issued says about itself.
    public enum Opened: Sendable, Equatable {
        /// Issued for the project it was opened for.
        case bound(localId: String)
        /// Issued before tokens named their project.
        case unbound(localId: String)
    }

    /// A new token for `localId`, usable only by `projectId`.
    public static func seal(localId: String, projectId: String, sealer: Sealer) throws -> String {
        let plaintext = SecureRandom.bytes(count: 32) + Array(localId.utf8)
        return prefix + Base64URL.encode(try sealer.seal(plaintext, purpose: purpose(projectId)))
    }

    /// Opens a token for `projectId`; nil for anything we did not issue, or issued for another project.
    public static func open(_ token: String, projectId: String, sealer: Sealer) -> Opened? {
        if let localId = localId(in: token, prefix: prefix, purpose: purpose(projectId), sealer: sealer) {
            return .bound(localId: localId)
        }
        if let localId = localId(in: token, prefix: unboundPrefix, purpose: unboundPurpose, sealer: sealer) {
            return .unbound(localId: localId)
        }
        return nil
    }

    public static func hash(_ token: String) -> [UInt8] { SHA256.hash(token) }

    static func purpose(_ projectId: String) -> String { "gatehouse.refresh-token.v2 project=" + projectId }

    private static func localId(in token: String, prefix: String, purpose: String, sealer: Sealer) -> String? {
        guard token.hasPrefix(prefix), let sealed = Base64URL.decode(String(token.dropFirst(prefix.count))),
              let plaintext = try? sealer.open(sealed, purpose: purpose), plaintext.count > 32
        else { return nil }
        return String(validating: plaintext[32...], as: UTF8.self)
    }
}
