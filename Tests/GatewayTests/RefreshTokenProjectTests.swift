import AuthCore
import Crypto
import Storage
import Testing
@testable import Gateway
import WireFormats

/// Gateways with different project ids on one database: each refuses the other's refresh tokens.
@Suite("Refresh tokens are bound to their project")
struct RefreshTokenProjectTests {
    /// A store that already holds the shared signing key, so each gateway on it starts without making one.
    func sharedStore() async throws -> InMemoryUserStore {
        let store = InMemoryUserStore()
        try await store.write { tx in try tx.insertSigningKey(SharedSigningKey.record) }
        return store
    }

    func gateway(_ projectId: String, on store: InMemoryUserStore) async throws -> TestGateway {
        try await TestGateway.make(store: store, masterKey: SharedSigningKey.masterKey) { $0.projectId = projectId }
    }

    @Test("another project on the same database refuses a token with INVALID_REFRESH_TOKEN, in every state")
    func otherProjectRefuses() async throws {
        let store = try await sharedStore()
        let alpha = try await gateway("alpha", on: store)
        let beta = try await gateway("beta", on: store)
        let live = await alpha.signUpAnonymously()
        let revoked = await alpha.signUpAnonymously()
        let deleted = await alpha.signUpAnonymously()
        _ = await alpha.update(["idToken": revoked["idToken"] ?? .null, "validSince": "1"])
        _ = await alpha.post("\(TestGateway.v1)/accounts:delete", ["idToken": deleted["idToken"] ?? .null])

        let tokens = [live, revoked, deleted].compactMap { $0["refreshToken"]?.stringValue }
        #expect(tokens.count == 3)
        for token in tokens {
            #expect(await beta.refresh(token).error == "INVALID_REFRESH_TOKEN")
        }
        #expect(await alpha.refresh(tokens[0]).status == 200)
        #expect(await alpha.refresh(tokens[1]).error == "TOKEN_EXPIRED")
        #expect(await alpha.refresh(tokens[2]).error == "USER_NOT_FOUND")
        // Beta's own sessions work for beta only.
        let betaToken = try #require(await beta.signUpAnonymously()["refreshToken"]?.stringValue)
        #expect(await beta.refresh(betaToken).status == 200)
        #expect(await alpha.refresh(betaToken).error == "INVALID_REFRESH_TOKEN")
    }

    /// A refresh token as issued before tokens named their project: `gh1.` + the seal of 32 random bytes and
    /// the localId under the old purpose, with its row. Spelled out here because such tokens are in the wild.
    func unboundToken(for localId: String, in store: InMemoryUserStore) async throws -> String {
        let sealer = Sealer(masterKey: SharedSigningKey.masterKey)
        let sealed = try sealer.seal(SecureRandom.bytes(count: 32) + Array(localId.utf8), purpose: "gatehouse.refresh-token.v1")
        let token = "gh1." + Base64URL.encode(sealed)
        try await store.write { tx in
            if try tx.user(localId: localId) == nil {
                try tx.insertUser(UserRecord(localId: localId, validSince: 0, createdAt: 0))
            }
            try tx.insertRefreshToken(RefreshTokenRecord(tokenHash: RefreshTokens.hash(token), localId: localId,
                                                         signInProvider: "anonymous", issuedAt: 1))
        }
        return token
    }

    @Test("tokens from before project binding belong to the first project started on the database after it")
    func unboundTokensBelongToTheFirstProject() async throws {
        let store = try await sharedStore()
        let oldToken = try await unboundToken(for: "old-user", in: store)
        let alpha = try await gateway("alpha", on: store)
        let beta = try await gateway("beta", on: store)
        #expect(await alpha.refresh(oldToken).status == 200)
        #expect(await beta.refresh(oldToken).error == "INVALID_REFRESH_TOKEN")
        // Restarts do not move the claim.
        let betaAgain = try await gateway("beta", on: store)
        let alphaAgain = try await gateway("alpha", on: store)
        #expect(await betaAgain.refresh(oldToken).error == "INVALID_REFRESH_TOKEN")
        #expect(await alphaAgain.refresh(oldToken).status == 200)
        #expect(try await store.read { try $0.setting(UnboundRefreshTokens.ownerKey) } == "alpha")
    }
}
