import AuthCore
import Testing
@testable import ProviderEmail
import ProviderKit

@Suite("Email addresses and password policy")
struct PolicyAndAddressTests {
    @Test("addresses are lower-cased and need one @ with text on both sides")
    func addresses() throws {
        #expect(EmailAddress.canonical("Ada@Example.COM") == "ada@example.com")
        for bad in ["", "ada", "@x", "ada@", "a@b@c", "a b@c", "a@b\n"] {
            #expect(EmailAddress.canonical(bad) == nil, "\(bad)")
        }
        #expect(throws: AuthError(.missingEmail)) { try EmailAddress.require(nil) }
        #expect(throws: AuthError(.invalidEmail)) { try EmailAddress.require("") }
        #expect(EmailAddress.canonical(String(repeating: "a", count: 250) + "@b.cd") == nil)
    }

    @Test("the default policy is Firebase's: at least 6 characters, with its exact message")
    func defaultPolicy() throws {
        let policy = PasswordPolicy()
        #expect(throws: AuthError(.weakPassword, "Password should be at least 6 characters")) { try policy.check("12345") }
        #expect(throws: AuthError(.missingPassword)) { try policy.check(nil) }
        #expect(try policy.check("123456") == "123456")
    }

    @Test("character classes and a maximum length can be required")
    func classes() throws {
        let policy = PasswordPolicy(minLength: 8, maxLength: 12, requireLowercase: true, requireUppercase: true,
                                    requireDigit: true, requireNonAlphanumeric: true)
        #expect(throws: AuthError.self) { try policy.check("abcdefgh") }
        #expect(throws: AuthError.self) { try policy.check("Abcdefg1") }
        #expect(throws: AuthError.self) { try policy.check("Abcdefg1!xxxxxxx") }
        #expect(try policy.check("Abcdefg1!") == "Abcdefg1!")
        let digitOnly = PasswordPolicy(requireDigit: true)
        #expect(throws: AuthError(.weakPassword, "Password must contain a digit")) { try digitOnly.check("abcdef") }
    }

    @Test("failed passwords lock the account for the window, then it may try again")
    func throttle() async throws {
        let time = ManualTime(milliseconds: 1_000_000)
        let provider = EmailProvider(configuration: .init(failedPasswordsPerAccount: 2, failedPasswordWindowSeconds: 60),
                                     time: time)
        #expect(try await provider.beginPasswordAttempt(account: "u"))
        try await provider.passwordAttemptSucceeded(account: "u")
        #expect(try await provider.beginPasswordAttempt(account: "u"))
        #expect(try await provider.beginPasswordAttempt(account: "u"))
        #expect(try await !provider.beginPasswordAttempt(account: "u"))
        #expect(try await provider.beginPasswordAttempt(account: "other"))
        time.advance(seconds: 60)
        #expect(try await provider.beginPasswordAttempt(account: "u"))
    }

    @Test("sends are limited per address and per client address")
    func sendLimits() async throws {
        let time = ManualTime(milliseconds: 0)
        let provider = EmailProvider(configuration: .init(sendsPerIPPerHour: 3, sendsPerEmailPerHour: 2), time: time)
        let context = RequestContext(clientAddress: "10.0.0.1", receivedAt: 0, projectId: "p")
        try await provider.admitSend(to: "a@x.y", context)
        try await provider.admitSend(to: "a@x.y", context)
        await #expect(throws: AuthError(.tooManyAttemptsTryLater)) { try await provider.admitSend(to: "a@x.y", context) }
        try await provider.admitSend(to: "b@x.y", context)
        await #expect(throws: AuthError(.tooManyAttemptsTryLater)) { try await provider.admitSend(to: "c@x.y", context) }
    }
}
