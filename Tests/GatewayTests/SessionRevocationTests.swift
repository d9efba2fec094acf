import AuthCore
import Storage
import Testing
@testable import Gateway

/// Every path that revokes ends the refresh tokens issued before it at that instant. The manual clock never
/// moves in these tests, so every token is issued in the same second as the revocation: the case that whole-
/// second `validSince` comparisons alone let through.
@Suite("Revocation ends earlier refresh tokens in the same second")
struct SessionRevocationTests {
    let v1 = TestGateway.v1

    func refreshToken(_ reply: TestGateway.Reply) throws -> String { try #require(reply["refreshToken"]?.stringValue) }
    func idToken(_ reply: TestGateway.Reply) throws -> String { try #require(reply["idToken"]?.stringValue) }

    /// The tokens in `ended` no longer refresh (`TOKEN_EXPIRED`), the ones in `kept` still do.
    func expect(_ gw: TestGateway, ended: [String], kept: [String],
                sourceLocation: SourceLocation = #_sourceLocation) async {
        for token in ended {
            #expect(await gw.refresh(token).error == "TOKEN_EXPIRED", sourceLocation: sourceLocation)
        }
        for token in kept {
            #expect(await gw.refresh(token).status == 200, sourceLocation: sourceLocation)
        }
    }

    @Test("a password change ends every earlier session; the one that made it gets a fresh one that works")
    func passwordChange() async throws {
        let gw = try await TestGateway.withEmail()
        let first = await gw.signUp("ada@example.com", "secret1")
        let second = await gw.signIn("ada@example.com", "secret1")
        let changed = await gw.update(["idToken": .string(try idToken(first)), "password": "secret2"])
        #expect(changed.status == 200)
        await expect(gw, ended: [try refreshToken(first), try refreshToken(second)], kept: [try refreshToken(changed)])
        #expect(await gw.lookup(try idToken(changed)).status == 200)
        // ID tokens keep Firebase's one-second granularity: one minted in the revocation's second lives on.
        #expect(await gw.lookup(try idToken(second)).status == 200)
        gw.time.advance(seconds: 30)
        #expect(await gw.lookup(try idToken(second)).status == 200)
    }

    @Test("an email change ends earlier sessions")
    func emailChange() async throws {
        let gw = try await TestGateway.withEmail()
        let first = await gw.signUp("ada@example.com", "secret1")
        let changed = await gw.update(["idToken": .string(try idToken(first)), "email": "ada2@example.com"])
        await expect(gw, ended: [try refreshToken(first)], kept: [try refreshToken(changed)])
    }

    @Test("a user's own validSince ends their earlier sessions and hands them a fresh one")
    func usersOwnValidSince() async throws {
        let gw = try await TestGateway.make()
        let account = await gw.signUpAnonymously()
        let changed = await gw.update(["idToken": .string(try idToken(account)), "validSince": "1"])
        await expect(gw, ended: [try refreshToken(account)], kept: [try refreshToken(changed)])
    }

    @Test("an admin password change ends every session of the user")
    func adminPasswordChange() async throws {
        let gw = try await TestGateway.withEmail()
        let account = await gw.signUp("ada@example.com", "secret1")
        #expect(await gw.admin("update", ["localId": account["localId"] ?? .null, "password": "secret2"]).status == 200)
        let after = await gw.signIn("ada@example.com", "secret2")
        await expect(gw, ended: [try refreshToken(account)], kept: [try refreshToken(after)])
    }

    @Test("an admin validSince of the current second ends every earlier refresh token, not later ones")
    func adminRevokeNow() async throws {
        let gw = try await TestGateway.withEmail()
        let account = await gw.signUp("ada@example.com", "secret1")
        let other = await gw.signUpAnonymously()
        #expect(await gw.admin("update", ["localId": account["localId"] ?? .null,
                                          "validSince": .string(String(gw.time.nowSeconds))]).status == 200)
        let after = await gw.signIn("ada@example.com", "secret1")
        await expect(gw, ended: [try refreshToken(account)], kept: [try refreshToken(after), try refreshToken(other)])
        #expect(await gw.lookup(try idToken(after)).status == 200)
    }

    @Test("an admin validSince in the past ends tokens issued in or before that second; one in the future ends all")
    func adminRevokePastAndFuture() async throws {
        let gw = try await TestGateway.withEmail()
        let early = await gw.signUp("ada@example.com", "secret1")
        let earlySecond = gw.time.nowSeconds
        gw.time.advance(seconds: 5)
        let later = await gw.signIn("ada@example.com", "secret1")
        gw.time.advance(seconds: 5)
        let localId = early["localId"] ?? .null
        #expect(await gw.admin("update", ["localId": localId, "validSince": .int(earlySecond)]).status == 200)
        await expect(gw, ended: [try refreshToken(early)], kept: [try refreshToken(later)])

        #expect(await gw.admin("update", ["localId": localId, "validSince": .int(gw.time.nowSeconds + 60)]).status == 200)
        let tooEarly = await gw.signIn("ada@example.com", "secret1")
        await expect(gw, ended: [try refreshToken(later), try refreshToken(tooEarly)], kept: [])
    }

    @Test("disabling an account ends its refresh tokens: they stay dead after it is enabled again")
    func disable() async throws {
        let gw = try await TestGateway.withEmail()
        let account = await gw.signUp("ada@example.com", "secret1")
        let localId = account["localId"] ?? .null
        #expect(await gw.admin("update", ["localId": localId, "disableUser": true]).status == 200)
        #expect(await gw.refresh(try refreshToken(account)).error == "USER_DISABLED")
        #expect(await gw.admin("update", ["localId": localId, "disableUser": false]).status == 200)
        let after = await gw.signIn("ada@example.com", "secret1")
        await expect(gw, ended: [try refreshToken(account)], kept: [try refreshToken(after)])
        // Enabling an enabled account (or any other admin edit) ends nothing.
        #expect(await gw.admin("update", ["localId": localId, "disableUser": false, "displayName": "Ada"]).status == 200)
        await expect(gw, ended: [], kept: [try refreshToken(after)])
    }

    @Test("a password reset by code ends every earlier session")
    func passwordReset() async throws {
        let gw = try await TestGateway.withEmail()
        let account = await gw.signUp("ada@example.com", "secret1")
        let code = await gw.admin("sendOobCode", ["requestType": "PASSWORD_RESET", "email": "ada@example.com",
                                                  "returnOobLink": true])["oobCode"]?.stringValue ?? ""
        #expect(await gw.post("\(v1)/accounts:resetPassword", ["oobCode": .string(code), "newPassword": "brand-new"]).status == 200)
        let after = await gw.signIn("ada@example.com", "brand-new")
        await expect(gw, ended: [try refreshToken(account)], kept: [try refreshToken(after)])
    }

    @Test("verifying and changing the email by code ends every earlier session")
    func verifyAndChangeEmail() async throws {
        let gw = try await TestGateway.withEmail()
        let account = await gw.signUp("ada@example.com", "secret1")
        let code = await gw.admin("sendOobCode", ["requestType": "VERIFY_AND_CHANGE_EMAIL", "email": "ada@example.com",
                                                  "newEmail": "new@example.com", "returnOobLink": true])["oobCode"]?.stringValue ?? ""
        #expect(await gw.update(["oobCode": .string(code)])["email"]?.stringValue == "new@example.com")
        let after = await gw.signIn("new@example.com", "secret1")
        await expect(gw, ended: [try refreshToken(account)], kept: [try refreshToken(after)])
    }

    @Test("an email link that takes over an unverified password account ends the password's sessions")
    func emailLinkTakeover() async throws {
        let gw = try await TestGateway.withEmail()
        let squatter = await gw.signUp("victim@example.com", "squatted")
        let code = await gw.admin("sendOobCode", ["requestType": "EMAIL_SIGNIN", "email": "victim@example.com",
                                                  "returnOobLink": true])["oobCode"]?.stringValue ?? ""
        let owner = await gw.post("\(v1)/accounts:signInWithEmailLink", ["email": "victim@example.com", "oobCode": .string(code)])
        #expect(owner["localId"] == squatter["localId"])
        await expect(gw, ended: [try refreshToken(squatter)], kept: [try refreshToken(owner)])
    }

    @Test("a provider vouching for an unverified email takes the account over and ends its sessions")
    func identityProviderTakeover() async throws {
        let gw = try await TestGateway.make(providers: [TestIdentityProvider(), TestIdentityProvider(id: "trusted.example")])
        let squatter = await gw.signInWithIdp(sub: "squat", email: "victim@example.com", trusted: false)
        let owner = await gw.signInWithIdp(sub: "real", email: "victim@example.com", trusted: true, provider: "trusted.example")
        #expect(owner["localId"] == squatter["localId"])
        await expect(gw, ended: [try refreshToken(squatter)], kept: [try refreshToken(owner)])
    }

    @Test("linking a password with another email ends the earlier sessions; the linking one gets a fresh one")
    func passwordLinkWithNewEmail() async throws {
        let gw = try await TestGateway.withEmail()
        let federated = await gw.signInWithIdp(sub: "fed-1", email: "fed@example.com", trusted: true)
        let linked = await gw.signUp("new@example.com", "secret1", idToken: try idToken(federated))
        #expect(linked.status == 200)
        await expect(gw, ended: [try refreshToken(federated)], kept: [try refreshToken(linked)])
    }

    @Test("a profile change ends nothing")
    func profileChange() async throws {
        let gw = try await TestGateway.make()
        let account = await gw.signUpAnonymously()
        #expect(await gw.update(["idToken": .string(try idToken(account)), "displayName": "Ada"]).status == 200)
        await expect(gw, ended: [], kept: [try refreshToken(account)])
    }
}
