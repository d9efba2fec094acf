import Foundation
import Outbound
import Testing
@testable import Gateway
import ProviderEmail

@Suite("the email section of the configuration")
struct EmailConfigurationTests {
    func load(_ json: String) throws -> GatewayConfiguration {
        let path = NSTemporaryDirectory() + "gh-email-config-\(UUID().uuidString).json"
        try json.write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        return try ConfigurationLoader.load(flags: ["config": path], environment: [:])
    }

    @Test("every key is read into the settings")
    func reads() throws {
        let config = try load(#"""
        {"email": {"enabled": false, "emailLinkEnabled": false, "improvedEmailPrivacy": true, "recentSignInSeconds": 60,
                   "scrypt": {"n": 1024, "r": 4, "p": 2}, "kdfWorkers": 3, "kdfMaxQueued": 9,
                   "actionUrl": "https://auth.example.com/__/auth/action", "appName": "Demo", "templatesDir": "/tmp/t",
                   "passwordPolicy": {"minLength": 8, "maxLength": 64, "requireDigit": true},
                   "limits": {"signUpsPerIPPerHour": 1, "sendsPerIPPerHour": 2, "sendsPerEmailPerHour": 3,
                              "failedPasswordsPerAccount": 4, "failedPasswordWindowSeconds": 5},
                   "smtp": {"url": "smtps://mail.example.com:465", "username": "u", "password": "p",
                            "from": "noreply@example.com", "fromName": "Demo", "security": "opportunistic",
                            "timeoutSeconds": 7, "initialBackoffSeconds": 2, "maxBackoffSeconds": 20, "pollSeconds": 0.5}}}
        """#).emailSettings()
        #expect(!config.provider.enabled && !config.provider.emailLinkEnabled && config.improvedEmailPrivacy)
        #expect(config.recentSignInSeconds == 60)
        #expect(config.scrypt.n == 1024 && config.scrypt.r == 4 && config.scrypt.p == 2)
        #expect(config.kdfWorkers == 3 && config.kdfMaxQueued == 9)
        #expect(config.appName == "Demo")
        #expect(config.provider.policy.minLength == 8 && config.provider.policy.requireDigit)
        #expect(config.provider.sendsPerEmailPerHour == 3 && config.provider.failedPasswordWindowSeconds == 5)
        #expect(config.smtp?.server == SMTPSettings(url: "smtps://mail.example.com:465", username: "u", password: "p",
                                                     security: .opportunistic, timeoutSeconds: 7))
        #expect(config.smtp?.fromName == "Demo" && config.smtp?.maxBackoffSeconds == 20)
    }

    @Test("mistakes are refused with the key's name", arguments: [
        (#"{"email":{"smpt":{}}}"#, "email.smpt"),
        (#"{"email":{"smtp":{"url":"http://x","from":"a@b.c"}}}"#, "email.smtp.url"),
        (#"{"email":{"smtp":{"url":"smtp://x","from":"nobody"}}}"#, "email.smtp.from"),
        (#"{"email":{"smtp":{"url":"smtp://x","from":"a@b.c","security":"maybe"}}}"#, "email.smtp.security"),
        (#"{"email":{"smtp":{"url":"smtp://x","from":"a@b.c","pasword":"x"}}}"#, "email.smtp.pasword"),
        (#"{"email":{"scrypt":{"n":1000}}}"#, "email.scrypt"),
        (#"{"email":{"passwordPolicy":{"minLength":0}}}"#, "email.passwordPolicy"),
        (#"{"email":{"recentSignInSeconds":"soon"}}"#, "email.recentSignInSeconds"),
        (#"{"email":{"recentSignInSeconds":-1}}"#, "email.recentSignInSeconds"),
        (#"{"email":{"kdfWorkers":-2}}"#, "email.kdfWorkers"),
        (#"{"email":{"smtp":{"url":"smtp://x","from":"a@b.c","timeoutSeconds":0}}}"#, "email.smtp.timeoutSeconds"),
        (#"{"email":{"limits":{"sendsPerIPPerHuor":1}}}"#, "email.limits.sendsPerIPPerHuor"),
    ])
    func refuses(_ json: String, _ named: String) throws {
        do {
            _ = try load(json)
            Issue.record("accepted \(json)")
        } catch {
            #expect("\(error)".contains(named), "\(error)")
        }
    }
}
