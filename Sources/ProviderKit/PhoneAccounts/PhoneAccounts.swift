import AuthCore

/// Capability of the phone provider (Firebase's `phone` provider) that the gateway's phone flows use:
/// `accounts:sendVerificationCode` and `accounts:signInWithPhoneNumber`.
///
/// As with `PasswordAccounts`, the wire handlers, the stored codes and the account merge are the gateway's; the
/// rules (code length and lifetime, attempt and send limits, test numbers, the message text, which senders carry
/// codes in which order) are the plugin's, reached only through this protocol. Delivery itself is done by code
/// senders (`CodeSender` on `.phone`), which any plugin may contribute (Telegram Gateway, an SMS webhook).
public protocol PhoneAccounts: CredentialProvider {
    /// Digits in a code the gateway makes (Firebase: 6).
    var codeLength: Int { get }
    /// How long a code, and the `sessionInfo` it belongs to, can be used.
    var codeLifetimeSeconds: Int64 { get }
    /// The names of the phone senders (`CodeSender.name`) in the order they are tried; empty: every phone sender,
    /// in registration order.
    var senderOrder: [String] { get }

    /// The fixed code of a configured test number (Firebase's "phone numbers for testing"), or nil. Codes for
    /// test numbers are never sent; their sessions are limited by `admitTestNumberSession` instead.
    func testCode(for phoneNumber: String) -> String?
    /// One more code to `phoneNumber` from this client, or `TOO_MANY_ATTEMPTS_TRY_LATER`. Counted where every
    /// gateway instance sees it.
    func admitSend(to phoneNumber: String, _ context: RequestContext) async throws
    /// One more session for a test number from this client, or `TOO_MANY_ATTEMPTS_TRY_LATER`. A test number's code
    /// is fixed, so every session is a few more guesses at it: sessions are counted per client network (never per
    /// number, which would let anyone lock the app's reviewers out of theirs), where every instance sees them.
    func admitTestNumberSession(_ context: RequestContext) async throws
    /// Reserves one attempt at the code of the session identified by `session` (a non-secret key, e.g. a hash of
    /// the `sessionInfo`) before the code is compared; false once the session's attempts are used up. Reserving
    /// first is what stops parallel guesses from all being compared.
    func beginCodeAttempt(session: String) async throws -> Bool

    /// The text of the message that carries `code` (an SMS; Telegram's Gateway sends its own text).
    func composeCodeMessage(code: String, phoneNumber: String, locale: String?) -> String
}
