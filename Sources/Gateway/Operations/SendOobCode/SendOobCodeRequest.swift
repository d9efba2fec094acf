import AuthCore
import ProviderKit
import WireFormats

/// `accounts:sendOobCode` (legacy `getOobConfirmationCode`, and the admin route), parsed before any I/O.
struct SendOobCodeRequest: Sendable {
    /// Whose address a verification mail is about.
    enum Subject: Sendable, Equatable {
        /// The signed-in user (`idToken`).
        case session(idToken: String)
        /// An admin asking for a link to the account with this address.
        case accountWithEmail(String)
    }

    enum Kind: Sendable, Equatable {
        case passwordReset(email: String)
        case emailSignIn(email: String)
        case verifyEmail(Subject)
        case verifyAndChangeEmail(Subject, newEmail: String)
    }

    var kind: Kind
    /// An admin asks for the link in the answer instead of a mail (`returnOobLink`).
    var returnLink: Bool
    var continueUrl: String?

    var type: OobRequestType {
        switch kind {
        case .passwordReset: .passwordReset
        case .emailSignIn: .emailSignIn
        case .verifyEmail: .verifyEmail
        case .verifyAndChangeEmail: .verifyAndChangeEmail
        }
    }

    init(_ body: RequestBody, caller: Caller) throws {
        guard let typeText = try body.enumName("requestType", WireEnums.oobRequestType), typeText != "OOB_REQ_TYPE_UNSPECIFIED" else {
            throw AuthError(.missingReqType)
        }
        // RECOVER_EMAIL codes are the gateway's own (sent after an email change), never asked for.
        guard let type = OobRequestType(rawValue: typeText), type != .recoverEmail else {
            if ["RECOVER_EMAIL", "REVERT_SECOND_FACTOR_ADDITION", "VERIFY_EMAIL_LINK"].contains(typeText) {
                throw AuthError(.operationNotAllowed, "\(typeText) is not supported")
            }
            throw WireError.invalidPayload("Invalid value at 'request_type' (TYPE_ENUM), \"\(typeText.prefix(64))\"", reason: "invalid")
        }
        returnLink = try body.bool("returnOobLink") ?? false
        if returnLink && !caller.isAdmin { throw AuthError(.insufficientPermission) }
        continueUrl = try body.string("continueUrl")
        switch type {
        case .passwordReset:
            kind = .passwordReset(email: try EmailAddress.require(try body.string("email")))
        case .emailSignIn:
            kind = .emailSignIn(email: try EmailAddress.require(try body.string("email")))
        case .recoverEmail:
            throw AuthError(.operationNotAllowed, "RECOVER_EMAIL is not supported")
        case .verifyEmail, .verifyAndChangeEmail:
            let subject: Subject
            if returnLink && !body.has("idToken") {
                subject = .accountWithEmail(try EmailAddress.require(try body.string("email")))
            } else {
                guard let token = try body.string("idToken") else {
                    throw type == .verifyEmail ? AuthError.invalidIdToken : AuthError.missingIdToken
                }
                subject = .session(idToken: token)
            }
            if type == .verifyEmail {
                kind = .verifyEmail(subject)
            } else {
                guard let newText = try body.string("newEmail") else { throw AuthError(.missingNewEmail) }
                guard let newEmail = EmailAddress.canonical(newText) else { throw AuthError(.invalidEmail) }
                kind = .verifyAndChangeEmail(subject, newEmail: newEmail)
            }
        }
    }
}
