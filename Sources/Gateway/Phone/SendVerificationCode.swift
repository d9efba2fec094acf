import AuthCore
import Crypto
import HTTP
import ProviderKit
import WireFormats

/// `accounts:sendVerificationCode` (legacy `sendVerificationCode`): makes a code for a phone number, stores it
/// against a new `sessionInfo`, and queues it for the phone senders (Telegram Gateway, an SMS webhook).
///
/// App verification (`recaptchaToken`, `iosReceipt`, `playIntegrityToken`, `safetyNetToken`) would need Google;
/// the gateway ignores those fields and relies on its own limits instead: per number, per client network and per
/// project, counted before anything is sent. Test numbers get their fixed code and nothing is sent, but their
/// sessions count against the client network's limit (each one is more guesses at a fixed code); in emulator mode
/// nothing is sent or limited and codes are listed at `/emulator/v1/projects/{p}/verificationCodes`, as in the
/// emulator.
enum SendVerificationCode {
    static func handle(_ services: GatewayServices, _ context: OperationContext) async throws -> Reply {
        let phone = services.phone
        let accounts = try phone.requireAccounts()
        let number = try PhoneNumberInput.require(try context.body.string("phoneNumber"))
        let testCode = accounts.testCode(for: number)
        let sends = testCode == nil && !phone.emulator
        if sends {
            guard phone.outbox.canDeliver(.phone) else {
                throw AuthError(.operationNotAllowed, "No code sender is configured for phone numbers")
            }
            if !context.caller.isAdmin { try await accounts.admitSend(to: number, context.requestContext) }
        } else if testCode != nil && !phone.emulator && !context.caller.isAdmin {
            try await accounts.admitTestNumberSession(context.requestContext)
        }
        let code = testCode ?? PhoneCodes.newCode(length: accounts.codeLength)
        let issued = try await phone.codes.issue(code: code, to: number, lifetimeSeconds: accounts.codeLifetimeSeconds)
        if sends {
            let message = OutgoingMessage(channel: .phone, recipient: number, kind: "phone.code",
                                          text: accounts.composeCodeMessage(code: code, phoneNumber: number,
                                                                            locale: context.request.headers["x-firebase-locale"]),
                                          code: code, ttlSeconds: accounts.codeLifetimeSeconds,
                                          id: "phone-" + SecureRandom.alphanumeric(length: 24))
            try await phone.outbox.enqueue(message, expiresAt: issued.expiresAt)
        }
        return .json(["sessionInfo": .string(issued.sessionInfo)])
    }
}
