import AuthCore
import Testing
@testable import Gateway
import WireFormats

@Suite("Phone sign-in: linking, conflicts and reauthentication")
struct PhoneLinkingTests {
    @Test("with an idToken the number joins the signed-in user")
    func link() async throws {
        let phone = FakePhoneServices()
        let gw = try await TestGateway.withPhone(phone)
        let federated = await gw.signInWithIdp(sub: "tg-1")
        let token = federated["idToken"]?.stringValue ?? ""
        let linked = await gw.phoneSignIn("+15550005555", services: phone, idToken: token)
        #expect(linked.status == 200)
        #expect(linked["localId"] == federated["localId"])
        #expect(linked["isNewUser"] == false)
        let claims = TestGateway.claims(linked["idToken"]?.stringValue ?? "")
        #expect(claims["firebase"]?["identities"]?["phone"]?.arrayValue?.first?.stringValue == "+15550005555")
        // Signing in by phone now reaches the same account.
        #expect(await gw.phoneSignIn("+15550005555", services: phone)["localId"] == federated["localId"])
    }

    @Test("a number another account holds: first a temporaryProof, then PHONE_NUMBER_EXISTS; the proof signs in the owner once")
    func conflict() async throws {
        let phone = FakePhoneServices()
        let gw = try await TestGateway.withPhone(phone)
        let owner = await gw.phoneSignIn("+15550006666", services: phone)
        let other = await gw.signInWithIdp(sub: "someone-else")
        let token = other["idToken"]?.stringValue ?? ""
        let first = await gw.phoneSignIn("+15550006666", services: phone, idToken: token)
        #expect(first.status == 200)
        #expect(first["idToken"] == nil)
        #expect(first["temporaryProofExpiresIn"]?.stringValue == "3600")
        let proof = try #require(first["temporaryProof"]?.stringValue)
        let withToken = await gw.signInWithPhone(["temporaryProof": .string(proof), "phoneNumber": "+15550006666",
                                                  "idToken": .string(token)])
        #expect(withToken.error == "PHONE_NUMBER_EXISTS")
        #expect(await gw.signInWithPhone(["temporaryProof": .string(proof), "phoneNumber": "+15550007777"]).error
            == "INVALID_TEMPORARY_PROOF")
        let signIn = await gw.signInWithPhone(["temporaryProof": .string(proof), "phoneNumber": "+15550006666"])
        #expect(signIn.status == 200)
        #expect(signIn["localId"] == owner["localId"])
        #expect(await gw.signInWithPhone(["temporaryProof": .string(proof), "phoneNumber": "+15550006666"]).error
            == "INVALID_TEMPORARY_PROOF")
    }

    @Test("an expired temporary proof is refused")
    func proofExpiry() async throws {
        let phone = FakePhoneServices()
        let gw = try await TestGateway.withPhone(phone)
        _ = await gw.phoneSignIn("+15550006666", services: phone)
        let token = await gw.signInWithIdp(sub: "x")["idToken"]?.stringValue
        let proof = await gw.phoneSignIn("+15550006666", services: phone, idToken: token)["temporaryProof"]?.stringValue ?? ""
        gw.time.advance(seconds: 3601)
        #expect(await gw.signInWithPhone(["temporaryProof": .string(proof), "phoneNumber": "+15550006666"]).error
            == "INVALID_TEMPORARY_PROOF")
    }

    @Test("REAUTH signs in the number's account and never creates one")
    func reauthentication() async throws {
        let phone = FakePhoneServices()
        let gw = try await TestGateway.withPhone(phone)
        let session = await gw.sendCode("+15550008888")["sessionInfo"]?.stringValue ?? ""
        await gw.app.services.outbox.deliverDue()
        let code = phone.lastCode(to: "+15550008888") ?? ""
        let unknown = await gw.signInWithPhone(["sessionInfo": .string(session), "code": .string(code), "operation": "REAUTH"])
        #expect(unknown.error == "USER_NOT_FOUND")
        let byNumber = await gw.signInWithPhone(["sessionInfo": .string(session), "code": .string(code), "operation": 2])
        #expect(byNumber.error == "USER_NOT_FOUND")
        #expect(try await gw.store.read { tx in try tx.user(phoneNumber: "+15550008888") } == nil)
        let owner = await gw.phoneSignIn("+15550008888", services: phone)
        let again = await gw.sendCode("+15550008888")["sessionInfo"]?.stringValue ?? ""
        await gw.app.services.outbox.deliverDue()
        let reauth = await gw.signInWithPhone(["sessionInfo": .string(again), "code": .string(phone.lastCode(to: "+15550008888") ?? ""),
                                               "operation": "REAUTH"])
        #expect(reauth.status == 200)
        #expect(reauth["localId"] == owner["localId"])
    }

    @Test("a bad idToken is refused before the code is spent")
    func staleTokenKeepsCode() async throws {
        let phone = FakePhoneServices()
        let gw = try await TestGateway.withPhone(phone)
        let session = await gw.sendCode("+15550009999")["sessionInfo"]?.stringValue ?? ""
        await gw.app.services.outbox.deliverDue()
        let code = phone.lastCode(to: "+15550009999") ?? ""
        #expect(await gw.signInWithPhone(["sessionInfo": .string(session), "code": .string(code), "idToken": "bogus"]).error
            == "INVALID_ID_TOKEN")
        #expect(await gw.signInWithPhone(["sessionInfo": .string(session), "code": .string(code)]).status == 200)
    }

    @Test("a disabled account cannot sign in by phone")
    func disabledUser() async throws {
        let phone = FakePhoneServices()
        let gw = try await TestGateway.withPhone(phone)
        let owner = await gw.phoneSignIn("+15550001212", services: phone)
        _ = await gw.admin("update", ["localId": owner["localId"] ?? .null, "disableUser": true])
        #expect(await gw.phoneSignIn("+15550001212", services: phone).error == "USER_DISABLED")
    }
}
