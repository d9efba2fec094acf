import AuthCore
import Testing
@testable import Gateway

@Suite("anonymous sign-up, lookup, refresh, delete")
struct SignUpAndSessionTests {
    @Test("anonymous sign-up returns Firebase's response with a verifiable anonymous ID token")
    func signUp() async throws {
        let gw = try await TestGateway.make()
        let reply = await gw.signUpAnonymously()
        #expect(reply.status == 200)
        #expect(reply["kind"] == "identitytoolkit#SignupNewUserResponse")
        #expect(reply["expiresIn"] == "3600")
        let localId = try #require(reply["localId"]?.stringValue)
        #expect(localId.count == 28)
        let idToken = try #require(reply["idToken"]?.stringValue)
        let claims = TestGateway.claims(idToken)
        #expect(claims["sub"] == .string(localId) && claims["user_id"] == .string(localId))
        #expect(claims["provider_id"] == "anonymous")
        #expect(claims["firebase"] == ["identities": [:], "sign_in_provider": "anonymous"])
        #expect(claims["iss"] == "https://securetoken.google.com/test-project" && claims["aud"] == "test-project")
        let verified = try gw.app.services.sessions.signer.verify(idToken)
        #expect(verified.localId == localId)
    }

    @Test("lookup returns the user record with Firebase's units")
    func lookup() async throws {
        let gw = try await TestGateway.make()
        let idToken = try #require(await gw.signUpAnonymously()["idToken"]?.stringValue)
        let reply = await gw.lookup(idToken)
        #expect(reply["kind"] == "identitytoolkit#GetAccountInfoResponse")
        let user = try #require(reply["users"]?.arrayValue?.first)
        #expect(user["createdAt"] == "1800000000000")
        #expect(user["validSince"] == "1800000000")
        #expect(user["providerUserInfo"] == [])
        #expect(user["emailVerified"] == false)
    }

    @Test("refresh keeps the refresh token, mints a new ID token and keeps auth_time")
    func refresh() async throws {
        let gw = try await TestGateway.make()
        let signUp = await gw.signUpAnonymously()
        let refreshToken = try #require(signUp["refreshToken"]?.stringValue)
        gw.time.advance(seconds: 120)
        let reply = await gw.refresh(refreshToken)
        #expect(reply.status == 200)
        #expect(reply["refresh_token"] == .string(refreshToken))
        #expect(reply["access_token"] == reply["id_token"])
        #expect(reply["expires_in"] == "3600" && reply["token_type"] == "Bearer")
        #expect(reply["user_id"] == signUp["localId"])
        let claims = TestGateway.claims(try #require(reply["id_token"]?.stringValue))
        #expect(claims["iat"] == .int(1_800_000_120))
        #expect(claims["auth_time"] == .int(1_800_000_000))
        #expect(claims["firebase"]?["sign_in_provider"] == "anonymous")
        // The refresh is recorded on the account (and only the refresh time moves).
        let newIdToken = try #require(reply["id_token"]?.stringValue)
        let user = try #require(await gw.lookup(newIdToken)["users"]?.arrayValue?.first)
        #expect(user["lastRefreshAt"] == "2027-01-15T08:02:00.000Z")
        #expect(user["lastLoginAt"] == "1800000000000" && user["createdAt"] == "1800000000000")
    }

    @Test("refresh accepts form bodies and reports each missing field", arguments: [
        ("grant_type=refresh_token", "MISSING_REFRESH_TOKEN"),
        ("refresh_token=x", "MISSING_GRANT_TYPE"),
        ("grant_type=password&refresh_token=x", "INVALID_GRANT_TYPE"),
        ("grant_type=refresh_token&refresh_token=garbage", "INVALID_REFRESH_TOKEN"),
    ])
    func refreshErrors(_ body: String, _ code: String) async throws {
        let gw = try await TestGateway.make()
        let reply = await gw.send("POST", "/securetoken.googleapis.com/v1/token?key=k", body: body,
                                  headers: [("Content-Type", "application/x-www-form-urlencoded")])
        #expect(reply.status == 400)
        #expect(reply.error == code)
    }

    @Test("deleted users: ID token and refresh token answer USER_NOT_FOUND")
    func deletedUser() async throws {
        let gw = try await TestGateway.make()
        let signUp = await gw.signUpAnonymously()
        let idToken = try #require(signUp["idToken"]?.stringValue)
        let deleted = await gw.post("\(TestGateway.v1)/accounts:delete", ["idToken": .string(idToken)])
        #expect(deleted["kind"] == "identitytoolkit#DeleteAccountResponse")
        #expect(await gw.lookup(idToken).error == "USER_NOT_FOUND")
        #expect(await gw.refresh(try #require(signUp["refreshToken"]?.stringValue)).error == "USER_NOT_FOUND")
    }

    @Test("disabled users and revoked sessions are refused")
    func disabledAndRevoked() async throws {
        let gw = try await TestGateway.make()
        let signUp = await gw.signUpAnonymously()
        let localId = try #require(signUp["localId"]?.stringValue)
        let idToken = try #require(signUp["idToken"]?.stringValue)
        let refreshToken = try #require(signUp["refreshToken"]?.stringValue)
        gw.time.advance(seconds: 10)
        #expect(await gw.admin("update", ["localId": .string(localId), "validSince": .int(gw.time.nowSeconds)]).status == 200)
        #expect(await gw.lookup(idToken).error == "TOKEN_EXPIRED")
        #expect(await gw.refresh(refreshToken).error == "TOKEN_EXPIRED")
        #expect(await gw.admin("update", ["localId": .string(localId), "disableUser": true]).status == 200)
        let fresh = try #require(await gw.signUpAnonymously()["idToken"]?.stringValue)
        #expect(await gw.lookup(fresh).status == 200)
        #expect(await gw.refresh(refreshToken).error == "USER_DISABLED")
    }

    @Test("an expired ID token is TOKEN_EXPIRED, a tampered one INVALID_ID_TOKEN")
    func tokenTime() async throws {
        let gw = try await TestGateway.make()
        let idToken = try #require(await gw.signUpAnonymously()["idToken"]?.stringValue)
        #expect(await gw.lookup(idToken + "x").error == "INVALID_ID_TOKEN")
        #expect(await gw.lookup("").error == "MISSING_ID_TOKEN")
        gw.time.advance(seconds: 3600 + 61)
        #expect(await gw.lookup(idToken).error == "TOKEN_EXPIRED")
    }
}
