import AuthCore
import Crypto
import Foundation
import Storage
import WireFormats

/// Creates, rotates and loads token-signing keys. Keys live in the store (private halves sealed under the
/// master key), so every instance sharing a database signs with the same key and publishes the same set.
struct SigningKeyService: Sendable {
    let store: any UserStore
    let sealer: Sealer
    let settings: TokenSettings
    let time: any TimeSource

    /// Makes sure at least one key exists (first start), then loads all keys into `ring`.
    func prepare(_ ring: KeyRing) async throws {
        let existing = try await store.read { try $0.signingKeys() }
        if existing.isEmpty {
            let key = try makeKey(activatesAt: time.nowSeconds)
            try await store.write { tx in
                // Another instance may have created one meanwhile: keep theirs.
                if try tx.signingKeys().isEmpty { try tx.insertSigningKey(key) }
            }
        }
        try await reload(ring)
    }

    func reload(_ ring: KeyRing) async throws {
        let records = try await store.read { try $0.signingKeys() }
        try ring.load(records, sealer: sealer)
    }

    /// Adds a key that is published now and signs one `SigningKeys.activationDelay` from now.
    func rotate() async throws -> SigningKeyRecord {
        let now = time.nowSeconds
        let fresh = try makeKey(activatesAt: now)
        return try await store.write { [settings] tx in
            let (updated, inserted) = SigningKeys.rotate(
                try tx.signingKeys(), adding: fresh, now: now, keyCacheMaxAge: settings.keyCacheMaxAge,
                tokenLifetime: settings.idTokenLifetime)
            for record in updated { try tx.updateSigningKey(record) }
            try tx.insertSigningKey(inserted)
            return inserted
        }
    }

    /// Generates an RSA-2048 key with a self-signed certificate (firebase-admin reads certificates).
    func makeKey(activatesAt: Int64) throws -> SigningKeyRecord {
        let key = try RSAPrivateKey.generate(bits: 2048)
        let kid = Hex.encode(Array(SHA256.hash(Array(try key.publicKey.spkiPEM().utf8)).prefix(20)))
        let now = time.nowSeconds
        let certificate = try X509.selfSignedCertificatePEM(
            for: key, commonName: "securetoken.system.gserviceaccount.com",
            notBefore: Date(timeIntervalSince1970: TimeInterval(now - 300)),
            notAfter: Date(timeIntervalSince1970: TimeInterval(now + 10 * 365 * 86400)),
            serialNumber: UInt64.random(in: 1...UInt64(Int64.max)))
        return SigningKeyRecord(
            kid: kid, algorithm: "RS256",
            sealedPrivateKey: try sealer.seal(Array(try key.pkcs8PEM().utf8), purpose: SigningKeys.sealingPurpose),
            publicKeyPEM: try key.publicKey.spkiPEM(), certificatePEM: certificate, createdAt: now,
            activatesAt: activatesAt)
    }
}
