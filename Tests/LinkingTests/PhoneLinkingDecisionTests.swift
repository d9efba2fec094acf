import AuthCore
import Linking
import Testing

@Suite("linking decisions for phone numbers")
struct PhoneLinkingDecisionTests {
    let code = LinkingCredential.phone(number: "+15550001111", answerConflictWithProof: true)
    let proof = LinkingCredential.phone(number: "+15550001111", answerConflictWithProof: false)

    func account(_ id: String) -> LinkingSnapshot.Account {
        LinkingSnapshot.Account(localId: id, email: nil, emailVerified: false, identities: [])
    }

    func decide(_ credential: LinkingCredential, _ intent: LinkingIntent, _ snapshot: LinkingSnapshot) -> LinkingDecision {
        LinkingEngine.decide(credential, intent: intent, snapshot: snapshot, policy: .init())
    }

    @Test("a held number signs in its holder; a new one creates a user")
    func signIn() {
        #expect(decide(code, .signIn(autoCreate: true), .init(phoneHolder: account("h"))) == .signIn(localId: "h"))
        #expect(decide(code, .signIn(autoCreate: true), .init()) == .createUser)
    }

    @Test("reauthentication with a number nobody has is USER_NOT_FOUND")
    func reauthentication() {
        #expect(decide(code, .signIn(autoCreate: false), .init()) == .conflict(.init(.userNotFound)))
        #expect(decide(code, .signIn(autoCreate: false), .init(phoneHolder: account("h"))) == .signIn(localId: "h"))
    }

    @Test("linking gives the number to the signed-in user, or is already done")
    func link() {
        #expect(decide(code, .link(localId: "me"), .init(current: account("me")))
            == .link(localId: "me", takeOverUnverifiedEmail: false))
        #expect(decide(code, .link(localId: "me"), .init(current: account("me"), phoneHolder: account("me")))
            == .alreadyLinked(localId: "me"))
        #expect(decide(code, .link(localId: "me"), .init()) == .conflict(.init(.userNotFound)))
    }

    @Test("another holder: a code is answered with a proof, a proof with PHONE_NUMBER_EXISTS")
    func conflict() {
        let snapshot = LinkingSnapshot(current: account("me"), phoneHolder: account("other"))
        #expect(decide(code, .link(localId: "me"), snapshot)
            == .conflict(.init(.phoneNumberExists, answer: .errorMessageWithPendingCredential)))
        #expect(decide(proof, .link(localId: "me"), snapshot) == .conflict(.init(.phoneNumberExists)))
        #expect(LinkingConflict(.phoneNumberExists).code == .phoneNumberExists)
    }

    @Test("a phone number carries no email and proves none")
    func noEmail() {
        #expect(code.email == nil)
        #expect(!code.provesEmail)
    }
}
