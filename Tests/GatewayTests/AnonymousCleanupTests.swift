import AuthCore
import Testing
@testable import Gateway

@Suite("abandoned anonymous account clean-up")
struct AnonymousCleanupTests {
    @Test("deletes only anonymous accounts older than the limit that never upgraded")
    func cleanup() async throws {
        let gw = try await TestGateway.make()
        let old = try #require(await gw.signUpAnonymously()["localId"]?.stringValue)
        let upgraded = await gw.signUpAnonymously()
        _ = await gw.signInWithIdp(sub: "kept", idToken: upgraded["idToken"]?.stringValue)
        gw.time.advance(seconds: 31 * 86_400)
        let recent = try #require(await gw.signUpAnonymously()["localId"]?.stringValue)
        let deleted = try await BackgroundJobs.deleteAbandonedAnonymousUsers(gw.app.services, olderThanDays: 30)
        #expect(deleted == 1)
        let remaining = try await gw.store.read { tx in
            [old, try #require(upgraded["localId"]?.stringValue), recent].map { id in (try? tx.user(localId: id)) != nil }
        }
        #expect(remaining == [false, true, true])
    }
}
