import AuthCore
import Crypto
import Storage
import WireFormats

/// The server side of a redirect sign-in (web `signInWithRedirect`, Android `FederatedOAuthProvider`):
/// `createAuthUri` opens a session holding the state and raw nonce it sent to the provider; the provider's form
/// post to `/__/auth/handler` finds the client's `continueUri` by the state; `signInWithIdp` with the
/// `sessionId` closes the session, checking the state and nonce it was opened with.
///
/// Both records are one-time tokens stored by hash: a session can be completed once, and a leaked database
/// row does not reveal a usable session id or state.
struct RedirectSessions: Sendable {
    static let sessionKind = StoredKinds.redirectSession
    static let stateKind = StoredKinds.redirectState
    /// Apple's codes live 5 minutes; the user may also dawdle on the provider's page.
    static let lifetime: Int64 = 15 * 60 * 1000

    struct Session: Sendable, Equatable {
        var providerId: String
        var state: String
        var rawNonce: String
        var redirectUri: String
        var continueUri: String
        /// The PKCE verifier whose challenge went to the provider (empty in sessions opened before PKCE).
        var codeVerifier: String = ""
    }

    let store: any UserStore
    let time: any TimeSource
    let projectId: String

    /// Stores the session; returns its id (what the client keeps and sends back with `signInWithIdp`).
    func open(_ session: Session) async throws -> String {
        let sessionId = SecureRandom.token(byteCount: 24)
        let now = time.nowMilliseconds
        let payload: JSONObject = ["providerId": .string(session.providerId), "state": .string(session.state),
                                   "nonce": .string(session.rawNonce), "redirectUri": .string(session.redirectUri),
                                   "continueUri": .string(session.continueUri), "projectId": .string(projectId),
                                   "codeVerifier": .string(session.codeVerifier)]
        let records = [
            OneTimeTokenRecord(kind: Self.sessionKind, tokenHash: SHA256.hash(sessionId),
                               payload: JSONSerializer.string(.object(payload)), createdAt: now, expiresAt: now + Self.lifetime),
            OneTimeTokenRecord(kind: Self.stateKind, tokenHash: SHA256.hash(session.state),
                               payload: JSONSerializer.string(["continueUri": .string(session.continueUri)]),
                               createdAt: now, expiresAt: now + Self.lifetime),
        ]
        try await store.write { tx in
            _ = try tx.deleteExpiredOneTimeTokens(before: now)
            for record in records { try tx.insertOneTimeToken(record) }
        }
        return sessionId
    }

    /// Where to hand the provider's answer for `state`; single use. nil when unknown, used or expired.
    func continueUri(forState state: String) async throws -> String? {
        guard !state.isEmpty, state.utf8.count < 200 else { return nil }
        let record = try await store.write { tx in try tx.takeOneTimeToken(kind: Self.stateKind, hash: SHA256.hash(state)) }
        guard let record, record.expiresAt > time.nowMilliseconds else { return nil }
        return (try? JSONParser.parse(record.payload))?["continueUri"]?.stringValue
    }

    /// Closes the session (whatever happens next, it cannot be used again). nil when unknown, used or expired.
    func take(_ sessionId: String) async throws -> Session? {
        guard !sessionId.isEmpty, sessionId.utf8.count < 200 else { return nil }
        let record = try await store.write { tx in
            try tx.takeOneTimeToken(kind: Self.sessionKind, hash: SHA256.hash(sessionId))
        }
        guard let record, record.expiresAt > time.nowMilliseconds,
              case .object(let o)? = try? JSONParser.parse(record.payload), o["projectId"]?.stringValue == projectId,
              let providerId = o["providerId"]?.stringValue, let state = o["state"]?.stringValue,
              let nonce = o["nonce"]?.stringValue, let redirectUri = o["redirectUri"]?.stringValue,
              let continueUri = o["continueUri"]?.stringValue
        else { return nil }
        return Session(providerId: providerId, state: state, rawNonce: nonce, redirectUri: redirectUri,
                       continueUri: continueUri, codeVerifier: o["codeVerifier"]?.stringValue ?? "")
    }
}
