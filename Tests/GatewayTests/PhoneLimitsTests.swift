import AuthCore
import Testing
@testable import Gateway
import WireFormats

@Suite("Phone sign-in: send limits, test numbers, emulator mode")
struct PhoneLimitsTests {
    @Test("codes per number per hour are limited, and the limit ends with the hour")
    func perNumber() async throws {
        let gw = try await TestGateway.withPhone { $0.setPluginValue("phone.sendsPerPhonePerHour", 2) }
        #expect(await gw.sendCode("+15550002222").status == 200)
        #expect(await gw.sendCode("+15550002222").status == 200)
        #expect(await gw.sendCode("+15550002222").error == "TOO_MANY_ATTEMPTS_TRY_LATER")
        #expect(await gw.sendCode("+15550003333").status == 200)
        gw.time.advance(seconds: 3600)
        #expect(await gw.sendCode("+15550002222").status == 200)
    }

    @Test("codes per client network per hour are limited")
    func perClient() async throws {
        let gw = try await TestGateway.withPhone { $0.setPluginValue("phone.sendsPerIPPerHour", 2) }
        #expect(await gw.sendCode("+15550000001", from: "10.0.0.1").status == 200)
        #expect(await gw.sendCode("+15550000002", from: "10.0.0.1").status == 200)
        #expect(await gw.sendCode("+15550000003", from: "10.0.0.1").error == "TOO_MANY_ATTEMPTS_TRY_LATER")
        #expect(await gw.sendCode("+15550000003", from: "10.0.0.2").status == 200)
    }

    @Test("the project-wide cap bounds every sender's bill")
    func perProject() async throws {
        let gw = try await TestGateway.withPhone { $0.setPluginValue("phone.sendsPerHour", 1) }
        #expect(await gw.sendCode("+15550000001", from: "10.0.0.1").status == 200)
        #expect(await gw.sendCode("+15550000002", from: "10.0.0.2").error == "TOO_MANY_ATTEMPTS_TRY_LATER")
    }

    @Test("a test number takes its fixed code and sends nothing; its sessions count per client network, not per number")
    func testNumbers() async throws {
        let phone = FakePhoneServices()
        let gw = try await TestGateway.withPhone(phone) { config in
            config.setPluginValue("phone.testNumbers", ["+15555550100": "654321"])
            config.setPluginValue("phone.sendsPerPhonePerHour", 1)
            config.setPluginValue("phone.sendsPerIPPerHour", 3)
            config.setPluginValue("phone.sendsPerHour", 1)
        }
        var session = ""
        for _ in 0..<3 {
            let reply = await gw.sendCode("+15555550100", from: "10.0.0.1")
            #expect(reply.status == 200)
            session = reply["sessionInfo"]?.stringValue ?? ""
        }
        // Each session allows attemptsPerCode guesses at a code that never changes: without a limit one client
        // could open sessions until it had guessed it.
        #expect(await gw.sendCode("+15555550100", from: "10.0.0.1").error == "TOO_MANY_ATTEMPTS_TRY_LATER")
        #expect(await gw.sendCode("+15555550100", from: "10.0.0.2").status == 200)
        #expect(await gw.sendCode("+15550009999", from: "10.0.0.1").error == "TOO_MANY_ATTEMPTS_TRY_LATER",
                "test sessions and real codes share the network's budget")
        await gw.app.services.outbox.deliverDue()
        #expect(phone.calls.isEmpty)
        #expect(await gw.signInWithPhone(["sessionInfo": .string(session), "code": "111111"]).error == "INVALID_CODE")
        let reply = await gw.signInWithPhone(["sessionInfo": .string(session), "code": "654321"])
        #expect(reply.status == 200)
        #expect(reply["phoneNumber"]?.stringValue == "+15555550100")
        #expect(await gw.sendCode("+15550009999", from: "10.0.0.3").status == 200,
                "nothing was sent for the test number, so the project-wide cap is untouched")
    }

    @Test("emulator mode sends nothing and lists codes at /emulator/v1/projects/{p}/verificationCodes")
    func emulatorListing() async throws {
        let phone = FakePhoneServices()
        let gw = try await TestGateway.make(fetcher: phone) { $0.emulator = true }
        let session = await gw.sendCode("+15550004444")["sessionInfo"]?.stringValue ?? ""
        let listing = await gw.send("GET", "/emulator/v1/projects/test-project/verificationCodes")
        let entry = try #require(listing["verificationCodes"]?.arrayValue?.first)
        #expect(entry["phoneNumber"]?.stringValue == "+15550004444")
        #expect(entry["sessionInfo"]?.stringValue == session)
        #expect(phone.calls.isEmpty)
        let reply = await gw.signInWithPhone(["sessionInfo": .string(session), "code": entry["code"] ?? .null])
        #expect(reply.status == 200)
        let after = await gw.send("GET", "/emulator/v1/projects/test-project/verificationCodes")
        #expect(after["verificationCodes"]?.arrayValue?.isEmpty == true)
    }

    @Test("without a phone sender a real number is refused clearly")
    func noSender() async throws {
        let gw = try await TestGateway.withPhone(telegram: false, webhook: false)
        #expect(await gw.sendCode("+15550004444").error == "OPERATION_NOT_ALLOWED : No code sender is configured for phone numbers")
    }

    @Test("recaptchaParams and recaptchaConfig say app verification is not enforced")
    func recaptcha() async throws {
        let gw = try await TestGateway.withPhone()
        let params = await gw.send("GET", "\(TestGateway.v1)/recaptchaParams?key=k")
        #expect(params["kind"]?.stringValue == "identitytoolkit#GetRecaptchaParamResponse")
        let config = await gw.send("GET", "/identitytoolkit.googleapis.com/v2/recaptchaConfig?key=k&clientType=CLIENT_TYPE_WEB")
        let states = config["recaptchaEnforcementState"]?.arrayValue ?? []
        #expect(states.contains { $0["provider"]?.stringValue == "PHONE_PROVIDER" && $0["enforcementState"]?.stringValue == "OFF" })
    }
}
