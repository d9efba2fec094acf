import AuthCore
import Foundation
import ProviderKit
import Storage

/// What the email endpoints share: the email plugin's rules (through `PasswordAccounts`), OOB codes, action
/// links, the message outbox and the privacy switch.
struct EmailServices: Sendable {
    /// The `password` provider, when one is registered (nil: every email operation is `OPERATION_NOT_ALLOWED`).
    let accounts: (any PasswordAccounts)?
    let codes: OobCodes
    let links: ActionLinks
    let outbox: MessageOutbox
    let privacy: EmailPrivacy
    /// Emulator mode only.
    let emulatorLog: EmulatorOobLog?

    static func make(configuration: GatewayConfiguration, store: any UserStore, time: any TimeSource,
                     providers: ProviderDirectory, outbox: MessageOutbox) -> EmailServices {
        let accounts = providers.provider(.password, as: (any PasswordAccounts).self)
        return EmailServices(
            accounts: accounts,
            codes: OobCodes(store: store, time: time),
            links: ActionLinks(actionUrl: accounts?.actionUrl, configuration: configuration),
            outbox: outbox,
            privacy: EmailPrivacy(store: store, defaultValue: accounts?.improvedEmailPrivacyDefault ?? false),
            emulatorLog: configuration.emulator ? EmulatorOobLog() : nil)
    }

    /// The email provider, or `OPERATION_NOT_ALLOWED` when none is registered.
    func requireAccounts() throws(AuthError) -> any PasswordAccounts {
        guard let accounts else { throw AuthError(.operationNotAllowed) }
        return accounts
    }

    /// The sign-in age that sensitive changes need (the email plugin's setting; five minutes without one).
    var recentSignInSeconds: Int64 { accounts?.recentSignInSeconds ?? 300 }
}
