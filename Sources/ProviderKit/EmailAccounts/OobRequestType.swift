/// The kinds of out-of-band codes, with the action-link `mode` Firebase uses for each and how long a code
/// lives.
///
/// Lifetimes follow what Firebase is reported to use: a password reset is short-lived because the mailbox
/// may be read by others later; a verification link stays usable for days because nothing is lost if a
/// stranger verifies someone's address; a sign-in link sits in between.
public enum OobRequestType: String, Sendable, CaseIterable {
    case passwordReset = "PASSWORD_RESET"
    case verifyEmail = "VERIFY_EMAIL"
    case emailSignIn = "EMAIL_SIGNIN"
    case verifyAndChangeEmail = "VERIFY_AND_CHANGE_EMAIL"
    /// Sent by the gateway itself, never asked for: after an email change, to the previous address, so its
    /// owner can undo a change they did not make.
    case recoverEmail = "RECOVER_EMAIL"

    /// The `mode` query parameter of the action link (what the JS SDK's `ActionCodeURL` expects).
    public var mode: String {
        switch self {
        case .passwordReset: return "resetPassword"
        case .verifyEmail: return "verifyEmail"
        case .emailSignIn: return "signIn"
        case .verifyAndChangeEmail: return "verifyAndChangeEmail"
        case .recoverEmail: return "recoverEmail"
        }
    }

    public init?(mode: String) {
        guard let match = Self.allCases.first(where: { $0.mode == mode }) else { return nil }
        self = match
    }

    /// Seconds a code stays valid: reset 1 hour, sign-in link 6 hours, verification and recovery 3 days.
    public var lifetimeSeconds: Int64 {
        switch self {
        case .passwordReset: return 3600
        case .emailSignIn: return 6 * 3600
        case .verifyEmail, .verifyAndChangeEmail, .recoverEmail: return 3 * 86_400
        }
    }
}
