import Testing
@testable import Gateway
import ProviderKit

@Suite("email change recovery: which changes mail the previous address")
struct EmailRecoveryTests {
    @Test("a real change away from an address needs a recovery; a first address or no change does not")
    func changes() {
        #expect(EmailRecovery.change(localId: "u", before: "a@x.io", after: "b@x.io")
                == .init(localId: "u", previousEmail: "a@x.io", newEmail: "b@x.io"))
        #expect(EmailRecovery.change(localId: "u", before: nil, after: "b@x.io") == nil)
        #expect(EmailRecovery.change(localId: "u", before: "a@x.io", after: "a@x.io") == nil)
        #expect(EmailRecovery.change(localId: "u", before: "a@x.io", after: nil) == nil)
    }

    @Test("only a used VERIFY_AND_CHANGE_EMAIL code with an account leads to a recovery")
    func afterApplying() {
        let change = OobCodes.Payload(type: .verifyAndChangeEmail, email: "a@x.io", newEmail: "b@x.io", localId: "u")
        #expect(EmailRecovery.change(afterApplying: change)
                == .init(localId: "u", previousEmail: "a@x.io", newEmail: "b@x.io"))
        #expect(EmailRecovery.change(afterApplying: .init(type: .verifyEmail, email: "a@x.io", localId: "u")) == nil)
        #expect(EmailRecovery.change(afterApplying: .init(type: .recoverEmail, email: "a@x.io", newEmail: "b@x.io",
                                                          localId: "u")) == nil)
        #expect(EmailRecovery.change(afterApplying: .init(type: .verifyAndChangeEmail, email: "a@x.io",
                                                          newEmail: "b@x.io")) == nil)
    }
}
