import AuthCore
import Crypto
import Storage
import WireFormats

/// The *updated credential* of Firebase's credential-already-in-use flow: a single-use token that stands for
/// an identity the gateway has already verified, so the client can sign in with it later without the
/// provider's original (single-use, nonce-bound) credential.
///
/// Stored only as a SHA-256 hash, bound to the project, expiring after `lifetime`, deleted when used.
struct PendingCredentials: Sendable {
    static let kind = StoredKinds.pendingCredential
    static let prefix = "ghp."
    static let sealingPurpose = SealingPurposes.pendingCredential

    let store: any UserStore
    let sealer: Sealer
    let time: any TimeSource
    let projectId: String
    /// Where a secret that could not be sealed is reported (the identity is kept without it).
    var logger: Logger?
    /// Milliseconds.
    let lifetime: Int64 = 10 * 60 * 1000

    func issue(for identity: VerifiedIdentity) async throws -> String {
        let token = Self.prefix + SecureRandom.token(byteCount: 32)
        let now = time.nowMilliseconds
        var payload = IdentityCoding.encode(identity, sealer: sealer) { error in
            // Without its sealed secrets the identity still signs in; only what needs them (Apple's revocation
            // on account deletion) is lost, and an operator must hear of it.
            logger?.error("provider secrets could not be sealed; the identity is kept without them",
                          [("provider", .string(identity.providerId.rawValue)), ("error", .string(String(describing: error)))])
        }
        payload["projectId"] = .string(projectId)
        // The payload holds the provider's credential (e.g. Apple's ID token) and profile: sealed at rest.
        let sealed = try sealer.seal(JSONSerializer.bytes(.object(payload)), purpose: Self.sealingPurpose)
        let record = OneTimeTokenRecord(kind: Self.kind, tokenHash: SHA256.hash(token),
                                        payload: Base64URL.encode(sealed), createdAt: now, expiresAt: now + lifetime)
        try await store.write { tx in
            _ = try tx.deleteExpiredOneTimeTokens(before: now)
            try tx.insertOneTimeToken(record)
        }
        return token
    }

    /// Consumes the token and returns its identity; `INVALID_PENDING_TOKEN` if it is unknown, used, expired,
    /// belongs to another project, or stands for another provider than `expectedProvider` (such a request
    /// leaves the token unused, so the client can retry correctly).
    func take(_ token: String, expectedProvider: String? = nil) async throws -> VerifiedIdentity {
        guard token.hasPrefix(Self.prefix), token.utf8.count < 200 else { throw AuthError(.invalidPendingToken) }
        let hash = SHA256.hash(token)
        let now = time.nowMilliseconds
        let identity: VerifiedIdentity? = try await store.write { [projectId, sealer] tx in
            guard let record = try tx.oneTimeToken(kind: Self.kind, hash: hash), record.expiresAt > now,
                  let sealed = Base64URL.decode(record.payload),
                  let plain = try? sealer.open(sealed, purpose: Self.sealingPurpose),
                  case .object(let payload)? = try? JSONParser.parse(plain),
                  payload["projectId"]?.stringValue == projectId,
                  let identity = IdentityCoding.decode(payload, sealer: sealer)
            else { return nil }
            if let expectedProvider, expectedProvider != identity.providerId.rawValue { return nil }
            guard try tx.takeOneTimeToken(kind: Self.kind, hash: hash) != nil else { return nil }
            return identity
        }
        guard let identity else { throw AuthError(.invalidPendingToken) }
        return identity
    }
}

/// Serialises a verified identity for short-term storage; provider secrets stay sealed.
enum IdentityCoding {
    static let secretsPurpose = SealingPurposes.providerSecrets

    /// - Parameter sealingFailed: told when the secrets cannot be sealed; they are then left out.
    static func encode(_ identity: VerifiedIdentity, sealer: Sealer,
                       sealingFailed: (any Error) -> Void) -> JSONObject {
        var o: JSONObject = ["providerId": .string(identity.providerId.rawValue), "subject": .string(identity.subject)]
        if let email = identity.email {
            o["email"] = .string(email.address)
            o["emailTrust"] = .string(email.isTrusted ? "trusted" : email.isVerified ? "verified" : "untrusted")
        }
        o.set("displayName", identity.displayName)
        o.set("photoUrl", identity.photoUrl)
        o.set("screenName", identity.screenName)
        o.set("phoneNumber", identity.phoneNumber)
        o.set("rawUserInfo", identity.rawUserInfo)
        o["echoed"] = .object(JSONObject(identity.echoedCredential.sorted { $0.key < $1.key }.map { ($0.key, .string($0.value)) }))
        if !identity.secrets.isEmpty {
            do {
                o["secrets"] = .string(Base64URL.encode(try sealer.seal(secretsBytes(identity.secrets), purpose: secretsPurpose)))
            } catch {
                sealingFailed(error)
            }
        }
        return o
    }

    static func decode(_ o: JSONObject, sealer: Sealer) -> VerifiedIdentity? {
        guard let provider = o["providerId"]?.stringValue, let subject = o["subject"]?.stringValue else { return nil }
        var email: VerifiedIdentity.Email?
        if let address = o["email"]?.stringValue {
            switch o["emailTrust"]?.stringValue {
            case "trusted": email = .trusted(address)
            case "verified": email = .verifiedNotForLinking(address)
            default: email = .untrusted(address)
            }
        }
        var echoed: [String: String] = [:]
        for (key, value) in o["echoed"]?.objectValue ?? JSONObject() { echoed[key] = value.stringValue }
        let secrets = o["secrets"]?.stringValue.flatMap(Base64URL.decode).flatMap { openSecrets($0, sealer: sealer) } ?? [:]
        return VerifiedIdentity(providerId: ProviderID(provider), subject: subject, email: email,
                                displayName: o["displayName"]?.stringValue, photoUrl: o["photoUrl"]?.stringValue,
                                screenName: o["screenName"]?.stringValue, phoneNumber: o["phoneNumber"]?.stringValue,
                                rawUserInfo: o["rawUserInfo"]?.stringValue,
                                echoedCredential: echoed, secrets: secrets)
    }

    /// Opens secrets sealed by `encode` or stored with an identity; nil when they cannot be opened.
    static func openSecrets(_ sealed: [UInt8], sealer: Sealer) -> [String: String]? {
        guard let plain = try? sealer.open(sealed, purpose: secretsPurpose),
              case .object(let map)? = try? JSONParser.parse(plain) else { return nil }
        var secrets: [String: String] = [:]
        for (key, value) in map { secrets[key] = value.stringValue }
        return secrets
    }

    static func secretsBytes(_ secrets: [String: String]) -> [UInt8] {
        JSONSerializer.bytes(.object(JSONObject(secrets.sorted { $0.key < $1.key }.map { ($0.key, .string($0.value)) })))
    }
}
