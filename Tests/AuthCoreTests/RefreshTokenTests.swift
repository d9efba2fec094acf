@testable import AuthCore
import Crypto
import Testing
import WireFormats

@Suite("Refresh tokens: sealed to a project, judged against the store")
struct RefreshTokenTests {
    let sealer = Sealer(masterKey: .generate())

    /// A token in the format issued before tokens named their project.
    func unboundToken(localId: String) throws -> String {
        let sealed = try sealer.seal(SecureRandom.bytes(count: 32) + Array(localId.utf8),
                                     purpose: RefreshTokens.unboundPurpose)
        return RefreshTokens.unboundPrefix + Base64URL.encode(sealed)
    }

    @Test("a token opens for the project that issued it and for no other")
    func boundToProject() throws {
        let token = try RefreshTokens.seal(localId: "u1", projectId: "alpha", sealer: sealer)
        #expect(token.hasPrefix("gh2."))
        #expect(RefreshTokens.open(token, projectId: "alpha", sealer: sealer) == .bound(localId: "u1"))
        #expect(RefreshTokens.open(token, projectId: "beta", sealer: sealer) == nil)
        #expect(RefreshTokens.open(token, projectId: "alpha", sealer: Sealer(masterKey: .generate())) == nil)
    }

    @Test("a token from before project binding opens as unbound, for any project")
    func unbound() throws {
        let token = try unboundToken(localId: "old-user")
        #expect(RefreshTokens.open(token, projectId: "alpha", sealer: sealer) == .unbound(localId: "old-user"))
        #expect(RefreshTokens.open(token, projectId: "beta", sealer: sealer) == .unbound(localId: "old-user"))
        // The prefix names the format: an unbound seal under the new prefix is nobody's.
        let relabelled = RefreshTokens.prefix + token.dropFirst(RefreshTokens.unboundPrefix.count)
        #expect(RefreshTokens.open(relabelled, projectId: "alpha", sealer: sealer) == nil)
    }

    @Test("tampered, truncated and foreign tokens open for nobody", arguments: ["", "gh2.", "gh2.AAAA", "gh1.x", "garbage"])
    func garbage(_ token: String) {
        #expect(RefreshTokens.open(token, projectId: "alpha", sealer: sealer) == nil)
    }

    @Test("a flipped character makes a token unopenable")
    func tampered() throws {
        let token = try RefreshTokens.seal(localId: "u1", projectId: "alpha", sealer: sealer)
        var bytes = Array(token.utf8)
        bytes[bytes.count / 2] = bytes[bytes.count / 2] == UInt8(ascii: "A") ? UInt8(ascii: "B") : UInt8(ascii: "A")
        #expect(RefreshTokens.open(String(decoding: bytes, as: UTF8.self), projectId: "alpha", sealer: sealer) == nil)
    }

    let user = UserRecord(localId: "u1", validSince: 1_000, createdAt: 0)

    func record(issuedAt: Int64, localId: String = "u1") -> RefreshTokenRecord {
        RefreshTokenRecord(tokenHash: [1], localId: localId, signInProvider: "password", issuedAt: issuedAt)
    }

    @Test("the stored row and the user decide: deleted, disabled, revoked, issued before validSince, or fine")
    func decision() throws {
        var disabled = user
        disabled.disabled = true
        #expect(throws: AuthError.userNotFound) { try RefreshDecision.check(record: nil, user: nil) }
        #expect(throws: AuthError.userDisabled) { try RefreshDecision.check(record: record(issuedAt: 1_000), user: disabled) }
        #expect(throws: AuthError.userDisabled) { try RefreshDecision.check(record: nil, user: disabled) }
        #expect(throws: AuthError.tokenExpired) { try RefreshDecision.check(record: nil, user: user) }
        #expect(throws: AuthError.tokenExpired) { try RefreshDecision.check(record: record(issuedAt: 999), user: user) }
        #expect(throws: AuthError.tokenExpired) {
            try RefreshDecision.check(record: record(issuedAt: 1_000, localId: "someone-else"), user: user)
        }
        let (approved, approvedUser) = try RefreshDecision.check(record: record(issuedAt: 1_000), user: user)
        #expect(approved == record(issuedAt: 1_000))
        #expect(approvedUser == user)
    }
}
