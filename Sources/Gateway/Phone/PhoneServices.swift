import AuthCore
import ProviderKit

/// What the phone endpoints share: the phone plugin's rules (through `PhoneAccounts`), the stored codes and
/// temporary proofs, and the outbox that hands codes to the phone senders.
struct PhoneServices: Sendable {
    let accounts: (any PhoneAccounts)?
    let codes: PhoneCodes
    let proofs: TemporaryProofs
    let outbox: MessageOutbox
    let emulator: Bool

    /// The phone provider, or `OPERATION_NOT_ALLOWED` when none is registered or it is switched off.
    func requireAccounts() throws(AuthError) -> any PhoneAccounts {
        guard let accounts else { throw AuthError(.operationNotAllowed) }
        try accounts.requireEnabled()
        return accounts
    }
}

extension GatewayServices {
    /// Built per request from services that live for the whole run (no state of its own).
    var phone: PhoneServices {
        PhoneServices(accounts: providers.provider(.phone, as: (any PhoneAccounts).self),
                      codes: PhoneCodes(store: store, time: time, emulator: configuration.emulator),
                      proofs: TemporaryProofs(store: store, time: time), outbox: outbox, emulator: configuration.emulator)
    }
}

/// Phone numbers as clients send them: people type spaces, dashes, dots and parentheses, and Firebase accepts
/// them; the stored form is E.164. Anything else, a missing number included, is `INVALID_PHONE_NUMBER : Invalid
/// format.`, as Firebase answers.
enum PhoneNumberInput {
    static func require(_ text: String?) throws(AuthError) -> String {
        try PhoneNumbers.require((text ?? "").filter { !" -.()".contains($0) })
    }
}
