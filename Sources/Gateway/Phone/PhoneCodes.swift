import AuthCore
import Crypto
import ProviderKit
import Storage
import WireFormats

/// Phone codes and the `sessionInfo` each belongs to: single use, expiring, attempt-limited, and stored so that a
/// copy of the database reveals no usable code. The session is stored under SHA-256(`sessionInfo`), and the code
/// only as HMAC-SHA256(key: `sessionInfo`, code): without the `sessionInfo`, which only the client holds, the few
/// million possible codes cannot be tried against a dump. Codes are compared in constant time.
///
/// In emulator mode the code and `sessionInfo` are kept in clear as well, for the emulator's listing
/// (`/emulator/v1/projects/{p}/verificationCodes`); emulator mode never runs on production data.
struct PhoneCodes: Sendable {
    static let kind = StoredKinds.phoneSession

    let store: any UserStore
    let time: any TimeSource
    let emulator: Bool

    /// What a session was issued for.
    struct Session: Sendable {
        var phoneNumber: String
        var codeMac: [UInt8]
        /// Emulator mode only.
        var listed: (code: String, sessionInfo: String)?

        var text: String {
            var o: JSONObject = ["phoneNumber": .string(phoneNumber), "codeMac": .string(Hex.encode(codeMac))]
            if let listed {
                o["code"] = .string(listed.code)
                o["sessionInfo"] = .string(listed.sessionInfo)
            }
            return JSONSerializer.string(.object(o))
        }

        init(phoneNumber: String, codeMac: [UInt8], listed: (code: String, sessionInfo: String)? = nil) {
            self.phoneNumber = phoneNumber
            self.codeMac = codeMac
            self.listed = listed
        }

        init?(text: String) {
            guard let o = (try? JSONParser.parse(text))?.objectValue, let phone = o["phoneNumber"]?.stringValue,
                  let mac = o["codeMac"]?.stringValue.flatMap(Hex.decode) else { return nil }
            var listed: (String, String)?
            if let code = o["code"]?.stringValue, let info = o["sessionInfo"]?.stringValue { listed = (code, info) }
            self.init(phoneNumber: phone, codeMac: mac, listed: listed)
        }
    }

    /// A new code of `length` digits, uniformly drawn.
    static func newCode(length: Int) -> String {
        var digits = ""
        while digits.count < length {
            // 250 is the largest multiple of 10 below 256: dropping bytes above it keeps the digits uniform.
            for byte in SecureRandom.bytes(count: length) where byte < 250 && digits.count < length {
                digits.append(Character(String(byte % 10)))
            }
        }
        return digits
    }

    /// Stores a session for `code` sent to `phoneNumber`; returns the `sessionInfo` (43 characters of base64url,
    /// 256 bits) and when it expires (milliseconds).
    func issue(code: String, to phoneNumber: String, lifetimeSeconds: Int64) async throws -> (sessionInfo: String, expiresAt: Int64) {
        let sessionInfo = SecureRandom.token(byteCount: 32)
        let now = time.nowMilliseconds
        let expiresAt = now + lifetimeSeconds * 1000
        let session = Session(phoneNumber: phoneNumber, codeMac: Self.mac(code, sessionInfo: sessionInfo),
                              listed: emulator ? (code, sessionInfo) : nil)
        let record = OneTimeTokenRecord(kind: Self.kind, tokenHash: Self.hash(sessionInfo), payload: session.text,
                                        createdAt: now, expiresAt: expiresAt)
        try await store.write { tx in try tx.insertOneTimeToken(record) }
        return (sessionInfo, expiresAt)
    }

    /// Checks `code` against the session without spending it: `INVALID_SESSION_INFO` for an unknown session,
    /// `SESSION_EXPIRED`, `TOO_MANY_ATTEMPTS_TRY_LATER` once the session's attempts are used up (the right code
    /// included), `INVALID_CODE`. Returns the phone number the code proves.
    ///
    /// The attempt is reserved before the comparison, so parallel guesses cannot all be compared.
    func check(sessionInfo: String, code: String, accounts: any PhoneAccounts) async throws -> String {
        let hash = Self.hash(sessionInfo)
        let record = try await store.read { tx in try tx.oneTimeToken(kind: Self.kind, hash: hash) }
        let session = try open(record)
        guard try await accounts.beginCodeAttempt(session: Hex.encode(hash)) else {
            throw AuthError(.tooManyAttemptsTryLater)
        }
        guard constantTimeEquals(Self.mac(code, sessionInfo: sessionInfo), session.codeMac) else {
            throw AuthError(.invalidCode)
        }
        return session.phoneNumber
    }

    /// Spends the session inside the caller's write transaction (the one that applies the sign-in), so of two
    /// requests with the right code exactly one succeeds.
    func take(sessionInfo: String, in tx: any StoreTransaction) throws -> String {
        try open(try tx.takeOneTimeToken(kind: Self.kind, hash: Self.hash(sessionInfo))).phoneNumber
    }

    /// Unspent, unexpired sessions issued in emulator mode, for the emulator's listing (oldest hash first).
    func listed() async throws -> [(code: String, phoneNumber: String, sessionInfo: String)] {
        let now = time.nowMilliseconds
        return try await store.read { tx in
            var found: [(String, String, String)] = []
            var after: (kind: String, tokenHash: [UInt8]) = (Self.kind, [])
            while true {
                let page = try tx.oneTimeTokens(after: after, limit: 200)
                for record in page where record.kind == Self.kind && record.expiresAt > now {
                    if let session = Session(text: record.payload), let listed = session.listed {
                        found.append((listed.code, session.phoneNumber, listed.sessionInfo))
                    }
                }
                guard let last = page.last, last.kind == Self.kind, page.count == 200 else { return found }
                after = (last.kind, last.tokenHash)
            }
        }
    }

    private func open(_ record: OneTimeTokenRecord?) throws -> Session {
        guard let record, let session = Session(text: record.payload) else { throw AuthError(.invalidSessionInfo) }
        guard record.expiresAt > time.nowMilliseconds else { throw AuthError(.sessionExpired) }
        return session
    }

    static func hash(_ sessionInfo: String) -> [UInt8] { SHA256.hash(Array(sessionInfo.utf8)) }

    static func mac(_ code: String, sessionInfo: String) -> [UInt8] {
        HMACSHA256.authenticate(key: Array(sessionInfo.utf8), message: Array(code.utf8))
    }
}

/// Proofs that a phone number was verified but belongs to another account (Firebase's `temporaryProof`): the
/// client may sign in to that account with it (`signInWithPhoneNumber {temporaryProof, phoneNumber}`), once,
/// within an hour. Stored by hash only.
struct TemporaryProofs: Sendable {
    static let kind = StoredKinds.phoneProof
    static let lifetimeSeconds: Int64 = 3600

    let store: any UserStore
    let time: any TimeSource

    func issue(for phoneNumber: String) async throws -> String {
        let proof = SecureRandom.token(byteCount: 32)
        let now = time.nowMilliseconds
        let record = OneTimeTokenRecord(kind: Self.kind, tokenHash: SHA256.hash(Array(proof.utf8)),
                                        payload: JSONSerializer.string(.object(["phoneNumber": .string(phoneNumber)])),
                                        createdAt: now, expiresAt: now + Self.lifetimeSeconds * 1000)
        try await store.write { tx in try tx.insertOneTimeToken(record) }
        return proof
    }

    /// Spends the proof inside the caller's write transaction; `INVALID_TEMPORARY_PROOF` unless it is unspent,
    /// unexpired and for `phoneNumber`. (A refusal rolls the transaction back, so a proof is never spent by it.)
    func take(_ proof: String, phoneNumber: String, in tx: any StoreTransaction) throws {
        let record = try tx.takeOneTimeToken(kind: Self.kind, hash: SHA256.hash(Array(proof.utf8)))
        guard let record, record.expiresAt > time.nowMilliseconds,
              (try? JSONParser.parse(record.payload))?["phoneNumber"]?.stringValue == phoneNumber else {
            throw AuthError(.invalidTemporaryProof)
        }
    }
}
