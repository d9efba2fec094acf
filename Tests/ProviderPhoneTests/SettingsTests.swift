import AuthCore
import ProviderKit
import Testing
import WireFormats
@testable import ProviderPhone

@Suite("Phone settings")
struct PhoneSettingsTests {
    func parse(_ object: JSONObject, environment: [String: String] = [:]) throws -> PhoneSettings {
        try PhoneProviderFactory().settings(from: ConfigSection(object, path: "phone"), environment: environment)
    }

    @Test("defaults are usable and Firebase-like: 6 digits, five minutes, five attempts")
    func defaults() throws {
        let settings = try parse([:])
        #expect(settings.problem == nil)
        #expect(settings.codeLength == 6)
        #expect(settings.codeLifetimeSeconds == 300)
        #expect(settings.attemptsPerCode == 5)
        #expect(settings.enabled == nil)
    }

    @Test("in emulator mode the per-number and per-client send limits are off unless written in the file")
    func emulatorLimits() throws {
        let unset = try parse([:]).forEmulator()
        #expect(unset.sendsPerPhonePerHour == 0 && unset.sendsPerIPPerHour == 0)
        #expect(unset.attemptsPerCode == 5, "a code's wrong-guess limit is not a per-client limit")
        let written = try parse(["sendsPerPhonePerHour": 2, "sendsPerHour": 7]).forEmulator()
        #expect(written.sendsPerPhonePerHour == 2 && written.sendsPerIPPerHour == 0 && written.sendsPerHour == 7)
        let production = try parse([:])
        #expect(production.sendsPerPhonePerHour == 5 && production.sendsPerIPPerHour == 20)
    }

    @Test("every bad value names its key")
    func problems() {
        let bad: [(JSONObject, String)] = [
            (["codeLength": 3], "phone.codeLength"), (["codeLifetimeSeconds": 10], "phone.codeLifetimeSeconds"),
            (["attemptsPerCode": 0], "phone.attemptsPerCode"), (["sendsPerHour": -1], "phone.sendsPerPhonePerHour"),
            (["messageTemplate": "hello"], "phone.messageTemplate"), (["testNumbers": ["555": "123456"]], "phone.testNumbers"),
            (["testNumbers": ["+15555550100": "12ab56"]], "phone.testNumbers"), (["colour": "red"], "phone.colour"),
            (["webhook": ["secretFile": "/nonexistent"]], "phone.webhook.url"),
        ]
        for (object, key) in bad {
            #expect(throws: ConfigurationError.self) { _ = try parse(object) }
            #expect((try? parse(object)) == nil)
            do { _ = try parse(object) } catch { #expect("\(error)".contains(key), "\(error)") }
        }
    }

    @Test("the webhook secret comes from the environment, is at least 16 characters and never printed")
    func webhookSecret() throws {
        #expect(throws: ConfigurationError.self) { _ = try parse(["webhook": ["url": "https://sms.example/hook"]]) }
        #expect(throws: ConfigurationError.self) {
            _ = try parse(["webhook": ["url": "https://sms.example/hook"]], environment: [WebhookSettings.secretVariable: "short"])
        }
        let settings = try parse(["webhook": ["url": "https://sms.example/hook"]],
                                 environment: [WebhookSettings.secretVariable: "a-long-enough-secret"])
        #expect(settings.webhook?.secret.value == "a-long-enough-secret")
        #expect(!"\(settings)".contains("a-long-enough-secret"))
    }

    @Test("the message template carries the code")
    func message() {
        let provider = PhoneProvider(settings: PhoneSettings(messageTemplate: "Code {code} for Gatehouse"), enabled: true,
                                     counters: LocalAbuseCounters(time: ManualTime(milliseconds: 0)))
        #expect(provider.composeCodeMessage(code: "123456", phoneNumber: "+1555", locale: nil) == "Code 123456 for Gatehouse")
    }
}
