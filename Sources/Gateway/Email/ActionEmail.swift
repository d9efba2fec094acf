import AuthCore
import Crypto
import HTTP
import ProviderKit
import WireFormats

/// Issues an OOB code, builds its action link, and either returns the link (admin `returnOobLink`) or queues
/// the email. In emulator mode every code is also listed for `/emulator/v1/projects/{p}/oobCodes`.
enum ActionEmail {
    struct Issued: Sendable {
        let code: String
        let link: String
    }

    static func issue(_ services: GatewayServices, _ payload: OobCodes.Payload, recipient: String, apiKey: String,
                      lang: String?, send: Bool) async throws -> Issued {
        let email = services.email
        let (code, expiresAt) = try await email.codes.issue(payload)
        let link = email.links.link(payload.type, code: code, apiKey: apiKey, continueUrl: payload.continueUrl, lang: lang)
        email.emulatorLog?.record(.init(email: payload.email, newEmail: payload.newEmail, requestType: payload.type.rawValue,
                                        oobCode: code, oobLink: link))
        if send {
            let mail = try email.requireAccounts().composeActionMail(payload.type, locale: lang, link: link,
                                                                     email: payload.email, newEmail: payload.newEmail)
            let message = OutgoingMessage(channel: .email, recipient: recipient, kind: payload.type.rawValue,
                                          subject: mail.subject, text: mail.text, html: mail.html,
                                          ttlSeconds: payload.type.lifetimeSeconds,
                                          id: SecureRandom.alphanumeric(length: 22))
            try await email.outbox.enqueue(message, expiresAt: expiresAt)
        }
        return Issued(code: code, link: link)
    }

    /// The API key to put into links: the caller's, else the first configured one (admin requests have none).
    static func apiKey(_ services: GatewayServices, _ context: OperationContext) -> String {
        FormURLEncoding.value(named: "key", in: context.request.query) ?? services.configuration.apiKeys.first ?? "gatehouse"
    }

    /// The language for templates and links: `X-Firebase-Locale`, which is what the SDKs send for
    /// `auth.languageCode` (Firebase's `sendOobCode` has no body field for it). The link then carries it as
    /// `lang`, which the action page reads.
    static func language(_ context: OperationContext) -> String? {
        context.request.headers["x-firebase-locale"].flatMap { $0.isEmpty ? nil : $0 }
    }
}
