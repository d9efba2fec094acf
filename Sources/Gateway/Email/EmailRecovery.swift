import AuthCore
import ProviderKit
import Storage

/// The other side of an email change, as Firebase has it: the previous address gets a `RECOVER_EMAIL` mail
/// whose code restores it (`applyActionCode`, or the action page). It is what lets the owner of an account
/// undo a change made by someone who got hold of a session: so the restore also verifies the address (the
/// code proves the mailbox) and ends every session, the intruder's included.
enum EmailRecovery {
    /// A change of a signed-in user's address that needs a recovery mail to the previous one.
    struct Change: Sendable, Equatable {
        var localId: String
        var previousEmail: String
        var newEmail: String
    }

    /// Whether an update from `before` to `after` needs a recovery mail: only a real change away from an
    /// address the account had (an anonymous account gaining its first address has nothing to restore).
    static func change(localId: String, before: String?, after: String?) -> Change? {
        guard let before, let after, before != after else { return nil }
        return Change(localId: localId, previousEmail: before, newEmail: after)
    }

    /// The change a used `VERIFY_AND_CHANGE_EMAIL` code made (its payload names the address it moved from).
    static func change(afterApplying payload: OobCodes.Payload) -> Change? {
        guard payload.type == .verifyAndChangeEmail, let localId = payload.localId else { return nil }
        return change(localId: localId, before: payload.email, after: payload.newEmail)
    }

    /// Issues the code and queues the mail to the previous address through the outbox (listed at
    /// `/emulator/v1/projects/{p}/oobCodes` in emulator mode). The change itself is already stored, so a failure
    /// here is logged rather than reported to a client whose request succeeded.
    static func notify(_ change: Change, _ services: GatewayServices, _ context: OperationContext) async {
        let payload = OobCodes.Payload(type: .recoverEmail, email: change.previousEmail, newEmail: change.newEmail,
                                       localId: change.localId)
        do {
            _ = try await ActionEmail.issue(services, payload, recipient: change.previousEmail,
                                            apiKey: ActionEmail.apiKey(services, context),
                                            lang: ActionEmail.language(context), send: true)
        } catch {
            services.logger.warning("recovery mail for an email change not queued", [
                ("request.id", .string(context.requestId)), ("error", .string(String(describing: type(of: error)))),
            ])
        }
    }
}
