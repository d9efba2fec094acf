import AuthCore
import Crypto
import Storage
import Testing
@testable import Gateway
import WireFormats

@Suite("Phone sign-in: codes, sessions and limits")
struct PhoneSignInTests {
    let number = "+15550001111"

    @Test("a code signs up, then signs in the same account; the token says phone")
    func signIn() async throws {
        let phone = FakePhoneServices()
        let gw = try await TestGateway.withPhone(phone)
        let first = await gw.phoneSignIn(number, services: phone)
        #expect(first.status == 200)
        #expect(first["isNewUser"] == true)
        #expect(first["phoneNumber"]?.stringValue == number)
        #expect(first["expiresIn"]?.stringValue == "3600")
        let claims = TestGateway.claims(first["idToken"]?.stringValue ?? "")
        #expect(claims["phone_number"]?.stringValue == number)
        #expect(claims["firebase"]?["sign_in_provider"]?.stringValue == "phone")
        #expect(phone.lastCode(to: number)?.count == 6)
        let again = await gw.phoneSignIn(number, services: phone)
        #expect(again["isNewUser"] == false)
        #expect(again["localId"] == first["localId"])
        let user = await gw.lookup(first["idToken"]?.stringValue ?? "")
        let info = user["users"]?.arrayValue?.first?["providerUserInfo"]?.arrayValue ?? []
        #expect(info.contains { $0["providerId"]?.stringValue == "phone" && $0["rawId"]?.stringValue == number })
    }

    @Test("the legacy v3 paths are the same operations")
    func legacyPaths() async throws {
        let phone = FakePhoneServices()
        let gw = try await TestGateway.withPhone(phone)
        let legacy = "/www.googleapis.com/identitytoolkit/v3/relyingparty"
        let session = await gw.post("\(legacy)/sendVerificationCode", ["phoneNumber": .string(number)])["sessionInfo"]?.stringValue
        await gw.app.services.outbox.deliverDue()
        let reply = await gw.post("\(legacy)/verifyPhoneNumber",
                                  .object(["sessionInfo": .string(session ?? ""), "code": .string(phone.lastCode(to: number) ?? "")]))
        #expect(reply.status == 200)
        #expect(reply["phoneNumber"]?.stringValue == number)
    }

    @Test("a wrong code is INVALID_CODE and leaves the session usable")
    func wrongCode() async throws {
        let phone = FakePhoneServices()
        let gw = try await TestGateway.withPhone(phone)
        let session = await gw.sendCode(number)["sessionInfo"]?.stringValue ?? ""
        await gw.app.services.outbox.deliverDue()
        let code = try #require(phone.lastCode(to: number))
        let wrong = code == "000000" ? "000001" : "000000"
        #expect(await gw.signInWithPhone(["sessionInfo": .string(session), "code": .string(wrong)]).error == "INVALID_CODE")
        #expect(await gw.signInWithPhone(["sessionInfo": .string(session), "code": .string(code)]).status == 200)
    }

    @Test("after attemptsPerCode wrong codes even the right one is refused")
    func tooManyAttempts() async throws {
        let phone = FakePhoneServices()
        let gw = try await TestGateway.withPhone(phone) { $0.setPluginValue("phone.attemptsPerCode", 3) }
        let session = await gw.sendCode(number)["sessionInfo"]?.stringValue ?? ""
        await gw.app.services.outbox.deliverDue()
        let code = try #require(phone.lastCode(to: number))
        for guess in ["1", "22", "333"] {
            #expect(await gw.signInWithPhone(["sessionInfo": .string(session), "code": .string(guess)]).error == "INVALID_CODE")
        }
        #expect(await gw.signInWithPhone(["sessionInfo": .string(session), "code": .string(code)]).error == "TOO_MANY_ATTEMPTS_TRY_LATER")
    }

    @Test("an expired session is SESSION_EXPIRED; an unknown one INVALID_SESSION_INFO; a used one cannot be reused")
    func sessionLifetime() async throws {
        let phone = FakePhoneServices()
        let gw = try await TestGateway.withPhone(phone)
        let session = await gw.sendCode(number)["sessionInfo"]?.stringValue ?? ""
        await gw.app.services.outbox.deliverDue()
        let code = try #require(phone.lastCode(to: number))
        gw.time.advance(seconds: 301)
        #expect(await gw.signInWithPhone(["sessionInfo": .string(session), "code": .string(code)]).error == "SESSION_EXPIRED")
        #expect(await gw.signInWithPhone(["sessionInfo": "nope", "code": "123456"]).error == "INVALID_SESSION_INFO")
        let used = await gw.phoneSignIn(number, services: phone)
        #expect(used.status == 200)
        let second = await gw.sendCode(number)["sessionInfo"]?.stringValue ?? ""
        await gw.app.services.outbox.deliverDue()
        let secondCode = try #require(phone.lastCode(to: number))
        #expect(await gw.signInWithPhone(["sessionInfo": .string(second), "code": .string(secondCode)]).status == 200)
        #expect(await gw.signInWithPhone(["sessionInfo": .string(second), "code": .string(secondCode)]).error == "INVALID_SESSION_INFO")
    }

    @Test("missing and malformed fields answer Firebase's codes")
    func malformed() async throws {
        let gw = try await TestGateway.withPhone()
        #expect(await gw.post("\(TestGateway.v1)/accounts:sendVerificationCode", [:]).error == "INVALID_PHONE_NUMBER : Invalid format.")
        #expect(await gw.sendCode("5550001111").error == "INVALID_PHONE_NUMBER : Invalid format.")
        #expect(await gw.sendCode("+1 (555) 000-1111").status == 200)
        #expect(await gw.signInWithPhone(["code": "123456"]).error == "MISSING_SESSION_INFO")
        #expect(await gw.signInWithPhone(["sessionInfo": "abc"]).error == "MISSING_CODE")
        #expect(await gw.signInWithPhone(["temporaryProof": "abc"]).error == "MISSING_PHONE_NUMBER")
        #expect(await gw.signInWithPhone(["temporaryProof": "abc", "phoneNumber": .string(number)]).error == "INVALID_TEMPORARY_PROOF")
    }

    @Test("phone sign-in switched off is OPERATION_NOT_ALLOWED")
    func disabled() async throws {
        let gw = try await TestGateway.make()
        #expect(await gw.sendCode(number).error == "OPERATION_NOT_ALLOWED")
        #expect(await gw.signInWithPhone(["sessionInfo": "a", "code": "1"]).error == "OPERATION_NOT_ALLOWED")
    }

    @Test("codes and sessions are stored as hashes only")
    func storedHashed() async throws {
        let phone = FakePhoneServices()
        let gw = try await TestGateway.withPhone(phone)
        let session = await gw.sendCode(number)["sessionInfo"]?.stringValue ?? ""
        await gw.app.services.outbox.deliverDue()
        let code = try #require(phone.lastCode(to: number))
        let records = try await gw.store.read { tx in try tx.oneTimeTokens(after: nil, limit: 100) }
        let stored = try #require(records.first { $0.kind == StoredKinds.phoneSession })
        #expect(!stored.payload.contains(code))
        #expect(!stored.payload.contains(session))
        #expect(stored.tokenHash == SHA256.hash(Array(session.utf8)))
    }

    @Test("parallel guesses cannot pass the attempt limit together; parallel right codes sign in once")
    func parallel() async throws {
        let phone = FakePhoneServices()
        let gw = try await TestGateway.withPhone(phone) { $0.setPluginValue("phone.attemptsPerCode", 3) }
        let session = await gw.sendCode(number)["sessionInfo"]?.stringValue ?? ""
        await gw.app.services.outbox.deliverDue()
        let code = try #require(phone.lastCode(to: number))
        let wrong = code == "000000" ? "000001" : "000000"
        let guesses = await withTaskGroup(of: String?.self) { group in
            for _ in 0..<12 { group.addTask { await gw.signInWithPhone(["sessionInfo": .string(session), "code": .string(wrong)]).error } }
            return await group.reduce(into: [String?]()) { $0.append($1) }
        }
        #expect(guesses.filter { $0 == "INVALID_CODE" }.count == 3)
        #expect(guesses.filter { $0 == "TOO_MANY_ATTEMPTS_TRY_LATER" }.count == 9)

        let fresh = await gw.sendCode("+15550002323")["sessionInfo"]?.stringValue ?? ""
        await gw.app.services.outbox.deliverDue()
        let right = try #require(phone.lastCode(to: "+15550002323"))
        let answers = await withTaskGroup(of: Int.self) { group in
            for _ in 0..<3 { group.addTask { await gw.signInWithPhone(["sessionInfo": .string(fresh), "code": .string(right)]).status } }
            return await group.reduce(into: [Int]()) { $0.append($1) }
        }
        #expect(answers.filter { $0 == 200 }.count == 1)
        #expect(try await gw.store.read { tx in try tx.userCount() } == 1)
    }
}
