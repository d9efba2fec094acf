import AuthCore
import Crypto
import ProviderKit
import Storage
import WireFormats

/// Out-of-band codes: random, single use, expiring, and stored only as their SHA-256 (one-time tokens of
/// kind `oob`), so a database dump reveals no usable link.
struct OobCodes: Sendable {
    static let kind = StoredKinds.oobCode

    let store: any UserStore
    let time: any TimeSource

    /// What a code was issued for.
    struct Payload: Sendable, Equatable {
        var type: OobRequestType
        var email: String
        var newEmail: String?
        var localId: String?
        var continueUrl: String?
        /// For `PASSWORD_RESET`: the account's `passwordStamp` when the code was issued. A later password
        /// change, reset or removal moves the stamp and so voids the code.
        var passwordStamp: Int64?

        /// Identifies the password an account has now: when it was set, or -1 for none.
        static func passwordStamp(of user: UserRecord) -> Int64 {
            user.password == nil ? -1 : user.passwordUpdatedAt ?? 0
        }

        var text: String {
            var o: JSONObject = ["requestType": .string(type.rawValue), "email": .string(email)]
            o.set("newEmail", newEmail)
            o.set("localId", localId)
            o.set("continueUrl", continueUrl)
            if let passwordStamp { o["passwordStamp"] = .int(passwordStamp) }
            return JSONSerializer.string(.object(o))
        }

        init(type: OobRequestType, email: String, newEmail: String? = nil, localId: String? = nil, continueUrl: String? = nil) {
            self.type = type
            self.email = email
            self.newEmail = newEmail
            self.localId = localId
            self.continueUrl = continueUrl
        }

        init?(text: String) {
            guard let o = (try? JSONParser.parse(text))?.objectValue,
                  let type = o["requestType"]?.stringValue.flatMap(OobRequestType.init(rawValue:)),
                  let email = o["email"]?.stringValue else { return nil }
            self.init(type: type, email: email, newEmail: o["newEmail"]?.stringValue,
                      localId: o["localId"]?.stringValue, continueUrl: o["continueUrl"]?.stringValue)
            passwordStamp = o["passwordStamp"]?.intValue
        }
    }

    /// A new code (43 characters of base64url, 256 bits) and its expiry in milliseconds.
    func issue(_ payload: Payload) async throws -> (code: String, expiresAt: Int64) {
        let code = SecureRandom.token(byteCount: 32)
        let now = time.nowMilliseconds
        let expiresAt = now + payload.type.lifetimeSeconds * 1000
        let record = OneTimeTokenRecord(kind: Self.kind, tokenHash: SHA256.hash(Array(code.utf8)), payload: payload.text,
                                        createdAt: now, expiresAt: expiresAt)
        try await store.write { tx in try tx.insertOneTimeToken(record) }
        return (code, expiresAt)
    }

    /// The code's purpose without consuming it (`resetPassword` without `newPassword`, the action page).
    func peek(_ code: String?) async throws -> Payload {
        let hash = try Self.hash(code)
        let record = try await store.read { tx in try tx.oneTimeToken(kind: Self.kind, hash: hash) }
        return try check(record)
    }

    /// Consumes the code inside the caller's write transaction, if it is of one of `types`; a code of another
    /// type stays unused (`INVALID_OOB_CODE`).
    func take(_ code: String?, types: Set<OobRequestType>, in tx: any StoreTransaction) throws -> Payload {
        let hash = try Self.hash(code)
        let payload = try check(try tx.oneTimeToken(kind: Self.kind, hash: hash))
        guard types.contains(payload.type) else { throw AuthError(.invalidOobCode) }
        _ = try tx.takeOneTimeToken(kind: Self.kind, hash: hash)
        return payload
    }

    private func check(_ record: OneTimeTokenRecord?) throws -> Payload {
        guard let record, let payload = Payload(text: record.payload) else { throw AuthError(.invalidOobCode) }
        guard record.expiresAt > time.nowMilliseconds else { throw AuthError(.expiredOobCode) }
        return payload
    }

    private static func hash(_ code: String?) throws -> [UInt8] {
        guard let code, !code.isEmpty else { throw AuthError(.missingOobCode) }
        return SHA256.hash(Array(code.utf8))
    }
}
