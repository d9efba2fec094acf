import AuthCore
import Crypto
import Testing
@testable import Gateway
import WireFormats

@Suite("Phone codes: Telegram Gateway, the SMS webhook, fallback and delivery reports")
struct PhoneDeliveryTests {
    let number = "+15550001111"

    @Test("Telegram Gateway gets the code, its ttl, the outbox id as payload and the callback URL, after checkSendAbility")
    func telegramFields() async throws {
        let phone = FakePhoneServices()
        let gw = try await TestGateway.withPhone(phone)
        _ = await gw.sendCode(number)
        #expect(await gw.app.services.outbox.deliverDue() == 1)
        let sent = try #require(phone.sent.first)
        #expect(sent.via == "telegram")
        #expect(phone.calls.first?.hasSuffix("/checkSendAbility") == true)
        #expect(sent.fields["request_id"]?.stringValue == "req-1")
        #expect(sent.fields["ttl"]?.intValue == 300)
        #expect(sent.fields["payload"]?.stringValue?.hasPrefix("phone-") == true)
        #expect(sent.fields["callback_url"]?.stringValue == "https://auth.example/gatehouse/v1/providers/gateway.telegram.org/events")
    }

    @Test("the webhook request is signed: HMAC-SHA256(secret, timestamp + newline + body)")
    func webhookSignature() async throws {
        let phone = FakePhoneServices()
        let gw = try await TestGateway.withPhone(phone, telegram: false)
        _ = await gw.sendCode(number)
        #expect(await gw.app.services.outbox.deliverDue() == 1)
        let sent = try #require(phone.sent.first)
        #expect(sent.via == "webhook")
        let header = { (name: String) in sent.headers.first { $0.0 == name }?.1 ?? "" }
        let timestamp = header("X-Gatehouse-Timestamp")
        #expect(Int64(timestamp) == gw.time.nowSeconds)
        let expected = HMACSHA256.authenticate(key: Array(FakePhoneServices.webhookSecret.utf8),
                                               message: Array((timestamp + "\n").utf8) + sent.body)
        #expect(header("X-Gatehouse-Signature") == Hex.encode(expected))
        #expect(sent.fields["text"]?.stringValue == "\(sent.code) is your verification code.")
        #expect(sent.fields["ttlSeconds"]?.intValue == 300)
    }

    @Test("Telegram Gateway down: the webhook delivers the same code")
    func fallbackWhenDown() async throws {
        let phone = FakePhoneServices()
        phone.setTelegram(.down)
        let gw = try await TestGateway.withPhone(phone)
        let session = await gw.sendCode(number)["sessionInfo"]?.stringValue ?? ""
        #expect(await gw.app.services.outbox.deliverDue() == 1)
        #expect(phone.sent.map(\.via) == ["webhook"])
        #expect(await gw.signInWithPhone(["sessionInfo": .string(session), "code": .string(phone.lastCode(to: number) ?? "")]).status == 200)
    }

    @Test("a number not on Telegram goes to the webhook")
    func fallbackNotOnTelegram() async throws {
        let phone = FakePhoneServices()
        phone.setTelegram(.numberNotOnTelegram)
        let gw = try await TestGateway.withPhone(phone)
        _ = await gw.sendCode(number)
        #expect(await gw.app.services.outbox.deliverDue() == 1)
        #expect(phone.sent.map(\.via) == ["webhook"])
    }

    /// Telegram down and the webhook failing as `failWebhook` makes it: the code is not delivered, then `whileFailing`
    /// runs; Telegram comes back, the next attempt (two seconds on) delivers the code through it, and the code signs in.
    func waitsForTelegram(failWebhook: (FakePhoneServices) -> Void, whileFailing: (TestGateway) -> Void = { _ in },
                          sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let phone = FakePhoneServices()
        phone.setTelegram(.down)
        failWebhook(phone)
        let gw = try await TestGateway.withPhone(phone)
        let session = await gw.sendCode(number)["sessionInfo"]?.stringValue ?? ""
        #expect(await gw.app.services.outbox.deliverDue() == 0, sourceLocation: sourceLocation)
        whileFailing(gw)
        phone.setTelegram(.working)
        gw.time.advance(seconds: 2)
        #expect(await gw.app.services.outbox.deliverDue() == 1, sourceLocation: sourceLocation)
        #expect(phone.sent.map(\.via) == ["telegram"], sourceLocation: sourceLocation)
        #expect(await gw.signInWithPhone(["sessionInfo": .string(session), "code": .string(phone.lastCode(to: number) ?? "")]).status == 200,
                sourceLocation: sourceLocation)
    }

    @Test("every sender down: the code is retried and delivered when Telegram is back, within its lifetime")
    func retriedUntilBack() async throws {
        try await waitsForTelegram(failWebhook: { $0.setWebhookUp(false) })
    }

    @Test("Telegram down and the webhook refusing for good: the code waits for Telegram instead of being dropped")
    func fallbackRefusedForGood() async throws {
        try await waitsForTelegram(failWebhook: { $0.setWebhookRefuses(true) }, whileFailing: { gw in
            #expect(gw.app.services.outbox.abandoned.load(ordering: .relaxed) == 0)
        })
    }

    /// Telegram's checks pass but its sends fail, and the webhook is down: a code is sent and its first attempt fails.
    func firstSendFails(sourceLocation: SourceLocation = #_sourceLocation) async throws -> (FakePhoneServices, TestGateway) {
        let phone = FakePhoneServices()
        phone.setTelegram(.sendFailing)
        phone.setWebhookUp(false)
        let gw = try await TestGateway.withPhone(phone)
        _ = await gw.sendCode(number)
        #expect(await gw.app.services.outbox.deliverDue() == 0, sourceLocation: sourceLocation)
        return (phone, gw)
    }

    @Test("a send that fails after a paid checkSendAbility is retried with its request_id, not with another check")
    func checkPaidOnce() async throws {
        let (phone, gw) = try await firstSendFails()
        gw.time.advance(seconds: 2)
        #expect(await gw.app.services.outbox.deliverDue() == 0)
        phone.setTelegram(.working)
        gw.time.advance(seconds: 4)
        #expect(await gw.app.services.outbox.deliverDue() == 1)
        #expect(phone.calls(to: "checkSendAbility") == 1, "three attempts, one paid check")
        #expect(phone.calls(to: "sendVerificationMessage") == 3)
        #expect(phone.sent.map { $0.fields["request_id"]?.stringValue } == ["req-1"])
    }

    @Test("a kept request_id Telegram no longer knows costs one fresh check, and the code still goes out")
    func keptRequestIdRefused() async throws {
        let (phone, gw) = try await firstSendFails()
        phone.setTelegram(.working)
        phone.forgetRequestIds()
        gw.time.advance(seconds: 2)
        #expect(await gw.app.services.outbox.deliverDue() == 1)
        #expect(phone.calls(to: "checkSendAbility") == 2)
        #expect(phone.sent.map { $0.fields["request_id"]?.stringValue } == ["req-2"])
    }

    @Test("phone.senders sets the order; an unknown name stops the start")
    func senderOrder() async throws {
        let phone = FakePhoneServices()
        let gw = try await TestGateway.withPhone(phone) { $0.setPluginValue("phone.senders", ["sms-webhook", "telegram-gateway"]) }
        _ = await gw.sendCode(number)
        #expect(await gw.app.services.outbox.deliverDue() == 1)
        #expect(phone.sent.map(\.via) == ["webhook"])
        await #expect(throws: ConfigurationLoader.Failure.self) {
            _ = try await TestGateway.withPhone(phone) { $0.setPluginValue("phone.senders", ["carrier-pigeon"]) }
        }
    }

    @Test("a delivery report with a good signature is recorded; a bad or stale one is refused")
    func deliveryReports() async throws {
        let gw = try await TestGateway.withPhone()
        let path = "/gatehouse/v1/providers/gateway.telegram.org/events"
        let body = #"{"request_id":"req-1","phone_number":"15550001111","request_cost":0.01,"payload":"phone-abc","delivery_status":{"status":"delivered","updated_at":1800000000}}"#
        func signed(_ timestamp: Int64, token: String = FakePhoneServices.telegramToken) -> [(String, String)] {
            let key = SHA256.hash(Array(token.utf8))
            let mac = HMACSHA256.authenticate(key: key, message: Array("\(timestamp)\n".utf8) + Array(body.utf8))
            return [("X-Request-Timestamp", String(timestamp)), ("X-Request-Signature", Hex.encode(mac))]
        }
        let now = gw.time.nowSeconds
        #expect(await gw.send("POST", path, body: body, headers: signed(now, token: "another-token")).status == 400)
        #expect(await gw.send("POST", path, body: body, headers: signed(now - 3600)).status == 400)
        #expect(await gw.send("POST", path, body: body, headers: []).status == 400)
        #expect(await gw.send("POST", path, body: body, headers: signed(now)).status == 200)
        let records = try await gw.store.read { tx in try tx.oneTimeTokens(after: nil, limit: 100) }
        #expect(records.contains { $0.kind == StoredKinds.providerRecord(.init("gateway.telegram.org")) && $0.payload.contains("delivered") })
        #expect(gw.logs.contents.contains { $0.contains("telegram gateway delivery report") })
    }
}
