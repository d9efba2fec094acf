import AuthCore
import Linking
import Testing

@Suite("linking decisions")
struct LinkingEngineTests {
    typealias Account = LinkingSnapshot.Account
    typealias Key = LinkingSnapshot.ProviderKey

    let apple = VerifiedIdentity(providerId: "apple.com", subject: "A1", email: .trusted("a@example.com"))
    let facebook = VerifiedIdentity(providerId: "facebook.com", subject: "F1", email: .untrusted("a@example.com"))

    func account(_ id: String, email: String? = nil, verified: Bool = false, password: Bool = false,
                 _ keys: [Key] = []) -> Account {
        Account(localId: id, email: email, emailVerified: verified, hasPassword: password, identities: keys)
    }

    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        let credential: LinkingCredential
        let intent: LinkingIntent
        let snapshot: LinkingSnapshot
        let policy: LinkingPolicy
        let expected: LinkingDecision
        var testDescription: String { name }
    }

    static var cases: [Case] {
        let t = LinkingEngineTests()
        let owner = t.account("owner", [Key("apple.com", "A1")])
        return [
            Case(name: "known identity signs in its owner", credential: .federated(t.apple), intent: .signIn(autoCreate: true),
                 snapshot: .init(owner: owner), policy: .init(), expected: .signIn(localId: "owner")),
            Case(name: "new identity creates a user", credential: .federated(t.apple), intent: .signIn(autoCreate: true),
                 snapshot: .init(), policy: .init(), expected: .createUser),
            Case(name: "reauthentication never creates", credential: .federated(t.apple), intent: .signIn(autoCreate: false),
                 snapshot: .init(), policy: .init(), expected: .conflict(.init(.emailNotFound))),
            Case(name: "trusted email auto-links to the verified holder", credential: .federated(t.apple),
                 intent: .signIn(autoCreate: true),
                 snapshot: .init(emailHolder: t.account("h", email: "a@example.com", verified: true)), policy: .init(),
                 expected: .link(localId: "h", takeOverUnverifiedEmail: false)),
            Case(name: "trusted email takes over an unverified holder", credential: .federated(t.apple),
                 intent: .signIn(autoCreate: true),
                 snapshot: .init(emailHolder: t.account("h", email: "a@example.com")), policy: .init(),
                 expected: .link(localId: "h", takeOverUnverifiedEmail: true)),
            Case(name: "untrusted email needs confirmation", credential: .federated(t.facebook), intent: .signIn(autoCreate: true),
                 snapshot: .init(emailHolder: t.account("h", email: "a@example.com", [Key("apple.com", "A9")])),
                 policy: .init(), expected: .needConfirmation(localId: "h", verifiedProviders: ["apple.com"])),
            Case(name: "duplicate emails allowed: a new user", credential: .federated(t.facebook), intent: .signIn(autoCreate: true),
                 snapshot: .init(emailHolder: t.account("h", email: "a@example.com")),
                 policy: .init(oneAccountPerEmail: false), expected: .createUser),
            Case(name: "linking an identity owned by another user conflicts", credential: .federated(t.apple),
                 intent: .link(localId: "me"), snapshot: .init(owner: owner, current: t.account("me")),
                 policy: .init(), expected: .conflict(.init(.federatedUserIdAlreadyLinked))),
            Case(name: "re-linking one's own identity changes nothing", credential: .federated(t.apple),
                 intent: .link(localId: "owner"), snapshot: .init(owner: owner, current: owner), policy: .init(),
                 expected: .alreadyLinked(localId: "owner")),
            Case(name: "a second identity of the same provider is refused", credential: .federated(t.apple),
                 intent: .link(localId: "me"), snapshot: .init(current: t.account("me", [Key("apple.com", "A2")])),
                 policy: .init(), expected: .conflict(.init(.providerAlreadyLinked))),
            Case(name: "linking with another user's email is EMAIL_EXISTS", credential: .federated(t.apple),
                 intent: .link(localId: "me"),
                 snapshot: .init(current: t.account("me"), emailHolder: t.account("h", email: "a@example.com")),
                 policy: .init(), expected: .conflict(.init(.emailExists))),
            Case(name: "a vouched-for email whose account has another identity of the provider is EMAIL_EXISTS",
                 credential: .federated(t.apple), intent: .signIn(autoCreate: true),
                 snapshot: .init(emailHolder: t.account("h", email: "a@example.com", verified: true, [Key("apple.com", "A7")])),
                 policy: .init(), expected: .conflict(.init(.emailExists))),
            Case(name: "linking to a user that no longer exists is USER_NOT_FOUND", credential: .federated(t.apple),
                 intent: .link(localId: "gone"), snapshot: .init(), policy: .init(), expected: .conflict(.init(.userNotFound))),
            Case(name: "anonymous upgrade links to the current user", credential: .federated(t.apple), intent: .link(localId: "me"),
                 snapshot: .init(current: t.account("me")), policy: .init(),
                 expected: .link(localId: "me", takeOverUnverifiedEmail: false)),
        ] + emailCases
    }

    /// Email links, password sign-ups and email changes: the same engine, the same rules.
    static var emailCases: [Case] {
        let t = LinkingEngineTests()
        let link = LinkingCredential.emailLink(address: "a@example.com")
        let password = LinkingCredential.password(address: "a@example.com")
        let change = LinkingCredential.emailChange(address: "a@example.com", proven: false)
        let unverified = t.account("h", email: "a@example.com", password: true, [Key("facebook.com", "F9")])
        return [
            Case(name: "an email link signs in the verified holder", credential: link, intent: .signIn(autoCreate: true),
                 snapshot: .init(emailHolder: t.account("h", email: "a@example.com", verified: true)), policy: .init(),
                 expected: .signIn(localId: "h")),
            Case(name: "an email link takes over an account whose address was never proven", credential: link,
                 intent: .signIn(autoCreate: true), snapshot: .init(emailHolder: unverified), policy: .init(),
                 expected: .link(localId: "h", takeOverUnverifiedEmail: true)),
            Case(name: "an email link for an unknown address creates a user", credential: link,
                 intent: .signIn(autoCreate: true), snapshot: .init(), policy: .init(), expected: .createUser),
            Case(name: "an email link adds the address to the signed-in user", credential: link, intent: .link(localId: "me"),
                 snapshot: .init(current: t.account("me")), policy: .init(),
                 expected: .link(localId: "me", takeOverUnverifiedEmail: false)),
            Case(name: "an email link with another account's address is EMAIL_EXISTS", credential: link,
                 intent: .link(localId: "me"), snapshot: .init(current: t.account("me"), emailHolder: unverified),
                 policy: .init(), expected: .conflict(.init(.emailExists))),
            Case(name: "password sign-up with a taken address is EMAIL_EXISTS, never a takeover", credential: password,
                 intent: .signIn(autoCreate: true), snapshot: .init(emailHolder: unverified), policy: .init(),
                 expected: .conflict(.init(.emailExists))),
            Case(name: "password sign-up creates a user", credential: password, intent: .signIn(autoCreate: true),
                 snapshot: .init(), policy: .init(), expected: .createUser),
            Case(name: "anonymous upgrade to a password keeps the user", credential: password, intent: .link(localId: "me"),
                 snapshot: .init(current: t.account("me")), policy: .init(),
                 expected: .link(localId: "me", takeOverUnverifiedEmail: false)),
            Case(name: "a second password is PROVIDER_ALREADY_LINKED", credential: password, intent: .link(localId: "me"),
                 snapshot: .init(current: t.account("me", password: true)), policy: .init(),
                 expected: .conflict(.init(.providerAlreadyLinked))),
            Case(name: "an upgrade to another account's address is EMAIL_EXISTS", credential: password,
                 intent: .link(localId: "me"), snapshot: .init(current: t.account("me"), emailHolder: unverified),
                 policy: .init(), expected: .conflict(.init(.emailExists))),
            Case(name: "an email change to a free address links it", credential: change, intent: .link(localId: "me"),
                 snapshot: .init(current: t.account("me")), policy: .init(),
                 expected: .link(localId: "me", takeOverUnverifiedEmail: false)),
            Case(name: "an email change to a taken address is EMAIL_EXISTS", credential: change, intent: .link(localId: "me"),
                 snapshot: .init(current: t.account("me"), emailHolder: unverified), policy: .init(),
                 expected: .conflict(.init(.emailExists))),
        ]
    }

    @Test("decides as Firebase does", arguments: LinkingEngineTests.cases)
    func decides(_ c: Case) {
        #expect(LinkingEngine.decide(c.credential, intent: c.intent, snapshot: c.snapshot, policy: c.policy) == c.expected)
    }

    @Test("federated conflicts are answered in the body when the client asks; every other refusal is an error")
    func conflictAnswers() {
        let owner = account("owner", [Key("apple.com", "A1")])
        let inBody = LinkingEngine.decide(.federated(apple), intent: .link(localId: "me"),
                                          snapshot: .init(owner: owner, current: account("me")), policy: .init(),
                                          returnIdpCredential: true)
        #expect(inBody == .conflict(.init(.federatedUserIdAlreadyLinked, answer: .errorMessageWithPendingCredential)))
        let emailInBody = LinkingEngine.decide(.federated(apple), intent: .link(localId: "me"),
                                               snapshot: .init(current: account("me"), emailHolder: account("h", email: "a@example.com")),
                                               policy: .init(), returnIdpCredential: true)
        #expect(emailInBody == .conflict(.init(.emailExists, answer: .errorMessageWithPendingCredential)))
        let second = LinkingEngine.decide(.federated(apple), intent: .link(localId: "me"),
                                          snapshot: .init(current: account("me", [Key("apple.com", "A2")])), policy: .init(),
                                          returnIdpCredential: true)
        #expect(second == .conflict(.init(.providerAlreadyLinked)), "not a credential-already-in-use answer")
        let password = LinkingEngine.decide(.password(address: "a@example.com"), intent: .signIn(autoCreate: true),
                                            snapshot: .init(emailHolder: account("h", email: "a@example.com")),
                                            policy: .init(), returnIdpCredential: true)
        #expect(password == .conflict(.init(.emailExists)), "only federated credentials come back as pending credentials")
    }
}
