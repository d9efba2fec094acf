import AuthCore
import Linking
import Testing

@Suite("linking decisions")
struct LinkingEngineTests {
    typealias Account = LinkingSnapshot.Account
    typealias Key = LinkingSnapshot.ProviderKey

    let apple = VerifiedIdentity(providerId: "apple.com", subject: "A1", email: .trusted("a@example.com"))
    let facebook = VerifiedIdentity(providerId: "facebook.com", subject: "F1", email: .untrusted("a@example.com"))

    func account(_ id: String, email: String? = nil, verified: Bool = false, _ keys: [Key] = []) -> Account {
        Account(localId: id, email: email, emailVerified: verified, identities: keys)
    }

    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        let identity: VerifiedIdentity
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
            Case(name: "known identity signs in its owner", identity: t.apple, intent: .signIn(autoCreate: true),
                 snapshot: .init(owner: owner), policy: .init(), expected: .signIn(localId: "owner")),
            Case(name: "new identity creates a user", identity: t.apple, intent: .signIn(autoCreate: true),
                 snapshot: .init(), policy: .init(), expected: .createUser),
            Case(name: "reauthentication never creates", identity: t.apple, intent: .signIn(autoCreate: false),
                 snapshot: .init(), policy: .init(), expected: .refuse(.emailNotFound)),
            Case(name: "trusted email auto-links to the verified holder", identity: t.apple,
                 intent: .signIn(autoCreate: true),
                 snapshot: .init(emailHolder: t.account("h", email: "a@example.com", verified: true)), policy: .init(),
                 expected: .link(localId: "h", takeOverUnverifiedEmail: false)),
            Case(name: "trusted email takes over an unverified holder", identity: t.apple,
                 intent: .signIn(autoCreate: true),
                 snapshot: .init(emailHolder: t.account("h", email: "a@example.com")), policy: .init(),
                 expected: .link(localId: "h", takeOverUnverifiedEmail: true)),
            Case(name: "untrusted email needs confirmation", identity: t.facebook, intent: .signIn(autoCreate: true),
                 snapshot: .init(emailHolder: t.account("h", email: "a@example.com", [Key("apple.com", "A9")])),
                 policy: .init(), expected: .needConfirmation(localId: "h", verifiedProviders: ["apple.com"])),
            Case(name: "duplicate emails allowed: a new user", identity: t.facebook, intent: .signIn(autoCreate: true),
                 snapshot: .init(emailHolder: t.account("h", email: "a@example.com")),
                 policy: .init(oneAccountPerEmail: false), expected: .createUser),
            Case(name: "linking an identity owned by another user conflicts", identity: t.apple,
                 intent: .link(localId: "me"), snapshot: .init(owner: owner, current: t.account("me")),
                 policy: .init(), expected: .refuse(.federatedUserIdAlreadyLinked)),
            Case(name: "re-linking one's own identity changes nothing", identity: t.apple,
                 intent: .link(localId: "owner"), snapshot: .init(owner: owner, current: owner), policy: .init(),
                 expected: .alreadyLinked(localId: "owner")),
            Case(name: "a second identity of the same provider is refused", identity: t.apple,
                 intent: .link(localId: "me"), snapshot: .init(current: t.account("me", [Key("apple.com", "A2")])),
                 policy: .init(), expected: .refuse(.providerAlreadyLinked)),
            Case(name: "linking with another user's email is EMAIL_EXISTS", identity: t.apple,
                 intent: .link(localId: "me"),
                 snapshot: .init(current: t.account("me"), emailHolder: t.account("h", email: "a@example.com")),
                 policy: .init(), expected: .refuse(.emailExists)),
            Case(name: "a vouched-for email whose account has another identity of the provider is EMAIL_EXISTS",
                 identity: t.apple, intent: .signIn(autoCreate: true),
                 snapshot: .init(emailHolder: t.account("h", email: "a@example.com", verified: true, [Key("apple.com", "A7")])),
                 policy: .init(), expected: .refuse(.emailExists)),
            Case(name: "linking to a user that no longer exists is USER_NOT_FOUND", identity: t.apple,
                 intent: .link(localId: "gone"), snapshot: .init(), policy: .init(), expected: .refuse(.userNotFound)),
            Case(name: "anonymous upgrade links to the current user", identity: t.apple, intent: .link(localId: "me"),
                 snapshot: .init(current: t.account("me")), policy: .init(),
                 expected: .link(localId: "me", takeOverUnverifiedEmail: false)),
        ]
    }

    @Test("decides as Firebase does", arguments: LinkingEngineTests.cases)
    func decides(_ c: Case) {
        #expect(LinkingEngine.decide(identity: c.identity, intent: c.intent, snapshot: c.snapshot, policy: c.policy) == c.expected)
    }
}
